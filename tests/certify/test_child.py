"""toolc.certify.child: the certifying process's own rules, without forking one
(tests/test_certifier.py forks real ones)."""

from __future__ import annotations

import dataclasses
import os
import pickle

import pytest
from toolc.certify.child import (
    HEADER,
    AllSent,
    Announce,
    Channel,
    Done,
    Failed,
    Finished,
    Listed,
    Started,
    module_closure,
)
from toolc.certify.compare import ContextListing


def test_the_closure_follows_imports_through_cycles_and_keeps_unknown_names() -> None:
    imports = {"a": ("b",), "b": ("c", "a"), "c": (), "d": ("a",)}
    assert module_closure("a", lambda m: imports.get(m, ())) == {"a", "b", "c"}
    assert module_closure("d", lambda m: imports.get(m, ())) == {"a", "b", "c", "d"}
    assert module_closure("new", lambda m: imports.get(m, ())) == {"new"}


def _pipe_pair() -> tuple[Channel, Channel]:
    """Two ends of a real pipe pair, as the build and the process hold them."""
    to_child_r, to_child_w = os.pipe()
    to_build_r, to_build_w = os.pipe()
    return Channel(to_build_r, to_child_w), Channel(to_child_r, to_build_w)


def test_messages_cross_the_pipe_as_the_records_they_were() -> None:
    build, child = _pipe_pair()
    try:
        announce = Announce("logs", ("types",), [("server", ())], (("admin", "deps:admin"),))
        build.send(announce)
        build.send(dataclasses.replace(announce, serve=False))
        build.send(AllSent())
        build.send(Finished())
        child.send(Started("logs"))
        child.send(Done("logs"))
        assert [child.receive(None) for _ in range(4)] == [
            announce, Announce("logs", ("types",), [("server", ())], (("admin", "deps:admin"),),
                               serve=False), AllSent(), Finished()]
        assert child.receive(0) is None  # nothing more: no wait
        assert [build.receive(None), build.receive(None)] == [Started("logs"), Done("logs")]
    finally:
        build.close()
        child.close()


def test_anything_but_a_message_ends_the_channel_as_a_lost_peer() -> None:
    build, child = _pipe_pair()
    try:
        data = pickle.dumps(("start", "logs"))  # the old tuple protocol is not a message
        os.write(build.write_fd, HEADER.pack(len(data)) + data)
        with pytest.raises(EOFError, match="carried a tuple"):
            child.receive(None)
    finally:
        build.close()
        child.close()


def test_results_are_records_that_survive_pickling() -> None:
    listing = ContextListing(None, "listed", [{"name": "t"}])
    for result in (Listed([listing, ContextListing("admin", "failed", "no deps")]),
                   Failed("it raised")):
        assert pickle.loads(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)) == result
