"""Three `toolc serve --stateless` replicas behind a real load balancer (HAProxy, else
nginx), all on 127.0.0.1: a few hundred calls through it while one replica is stopped
(SIGTERM, by its pid), none lost; an approval asked by one replica and answered on
another, once.

Which calls may be retried: the balancer retries only a connection that failed (the
request never reached a replica). A request that reached a replica and got no answer
(its connection closed as the replica stopped) is retried by the client only because
the tool says it may be: `lookup` is `idempotentHint: true`, read-only; `shred` is not,
and is never retried.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client

sys.path.insert(0, str(Path(__file__).parents[1]))
sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))

from balancer import available, start_balancer
from net_support import HOST, start_on_free_port
from project_support import desk_project
from serve_support import toolc_cmd

pytestmark = pytest.mark.skipif(
    available() is None, reason="neither haproxy nor nginx is installed (`.ci/run` installs "
                                "haproxy with apt-get where it can)")

SPEC = """\
toolc: 1
module: fleet
description: Tools served by several replicas.
tools:
  lookup:
    description: Look a word up; says which replica answered.
    handler: fleet_app:lookup
    annotations: {readOnlyHint: true, idempotentHint: true}
    params:
      word: {type: string, description: The word.}
  shred:
    description: Shred a document, after asking.
    handler: fleet_app:shred
    requires_approval: true
    annotations: {destructiveHint: true, idempotentHint: false}
    params:
      doc: {type: string, description: Which document.}
"""

HANDLERS = """\
import os
from pathlib import Path

REPLICA = os.environ["FLEET_REPLICA"]

def lookup(ctx, word):
    return f"{word}@{REPLICA}"

def shred(ctx, doc):
    with (Path(__file__).parent / "shredded.log").open("a") as log:
        log.write(f"{doc}@{REPLICA}\\n")
    return f"shredded {doc} on {REPLICA}"
"""

CALLS = 300
WORKERS = 6
RETRIES = 3  # per call, for an idempotent tool only


def fleet(root: Path) -> Path:
    desk_project(root, "fleet", SPEC, HANDLERS)
    (root / "state.key").write_text(secrets.token_hex(32) + "\n")
    (root / "state.key").chmod(0o600)
    return root


def replica(root: Path, name: str) -> tuple[subprocess.Popen[str], int]:
    def start(port: int) -> subprocess.Popen[str]:
        with (root / f"{name}.log").open("w") as log:
            return subprocess.Popen(
                toolc_cmd("serve", "specs/fleet.toolc.yaml", "--transport", "http",
                          "--stateless", "--port", str(port), "--state-key-file", "state.key",
                          "--allow-host", f"{HOST}:*"),
                cwd=root, stdout=log, stderr=log, text=True,
                env={**os.environ, "FLEET_REPLICA": name})

    return start_on_free_port(start, lambda _proc: (root / f"{name}.log").read_text())


@contextlib.contextmanager
def stopped_at_end(*procs: subprocess.Popen[str]) -> Iterator[None]:
    """Each process stopped by its pid: SIGTERM first (nginx's master then stops its
    workers; killed, it would leave them running), SIGKILL if it does not exit."""
    try:
        yield
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=60)


def url(port: int) -> str:
    return f"http://{HOST}:{port}/mcp"


class Agent:
    """One client through the balancer, kept across calls as an agent keeps it. A call
    whose request got no answer is retried (lookup is idempotent) on a new connection."""

    def __init__(self, lb: int, retried: list[str]) -> None:
        self.lb = lb
        self.retried = retried
        self._stack: contextlib.AsyncExitStack | None = None
        self._client: Client | None = None

    async def lookup(self, word: str) -> str:
        for attempt in range(RETRIES + 1):
            try:
                if self._client is None:
                    self._stack = contextlib.AsyncExitStack()
                    self._client = await self._stack.enter_async_context(Client(url(self.lb)))
                result = await self._client.call_tool("lookup", {"word": word})
            except anyio.get_cancelled_exc_class() as exc:
                if not await self._absorb(exc):
                    raise
                failure = "the connection broke and the client cancelled its own scope"
            except Exception as exc:  # noqa: BLE001 - any transport failure is retried below
                await self.close()
                failure = f"{type(exc).__name__}: {exc}"
            else:
                assert not result.is_error, result
                return str(result.content[0].text)
            if attempt == RETRIES:
                raise AssertionError(f"{word}: no answer in {RETRIES + 1} tries: {failure}")
            self.retried.append(f"{word}: {failure}")
        raise AssertionError("unreachable")

    async def _absorb(self, cancelled: BaseException) -> bool:
        """A broken connection makes the client cancel its own scope, which this agent
        holds open across calls (in the caller's task): handed to that scope's exit, such
        a cancellation ends there (True). One from outside the client (the test's bound)
        is raised again. Without this, the cancellation ended the calling task silently,
        and the call it was making was lost without a word."""
        stack, self._stack, self._client = self._stack, None, None
        if stack is None:
            return False
        try:
            return bool(await stack.__aexit__(type(cancelled), cancelled, cancelled.__traceback__))
        except anyio.get_cancelled_exc_class():
            raise
        except Exception:  # noqa: BLE001 - the client's own failure, for which it cancelled its scope
            return True

    async def close(self) -> None:
        stack, self._stack, self._client = self._stack, None, None
        if stack is not None:
            with contextlib.suppress(Exception):  # a broken connection may fail to close
                await stack.aclose()


async def drive(lb: int, stop_after: int, stop: Any) -> tuple[dict[str, str], list[str]]:
    """CALLS lookups through the balancer by WORKERS agents at once; `stop()` runs once
    `stop_after` of them are answered."""
    answers: dict[str, str] = {}
    retried: list[str] = []
    words = iter(f"w{i}" for i in range(CALLS))
    stopped = False

    async def worker() -> None:
        nonlocal stopped
        agent = Agent(lb, retried)
        try:
            for word in words:
                answers[word] = await agent.lookup(word)
                if len(answers) >= stop_after and not stopped:
                    stopped = True
                    stop()
        finally:
            await agent.close()

    with anyio.fail_after(600):  # a bound, so that a bug fails instead of hanging
        async with anyio.create_task_group() as tg:
            for _ in range(WORKERS):
                tg.start_soon(worker)
    return answers, retried


async def lookup_once(lb: int, word: str) -> str:
    agent = Agent(lb, [])
    try:
        return await agent.lookup(word)
    finally:
        await agent.close()


def until_all_answer(lb: int) -> None:
    """Wait until the balancer has seen every replica up (each has answered a call)."""
    async def probe() -> None:
        seen: set[str] = set()
        agent = Agent(lb, [])
        with anyio.fail_after(120):
            try:
                while len(seen) < 3:
                    seen.add((await agent.lookup("probe")).split("@")[1])
                    await anyio.sleep(0.05)
            finally:
                await agent.close()

    anyio.run(probe)


@contextlib.contextmanager
def behind_a_balancer(root: Path) -> Iterator[tuple[list[tuple[subprocess.Popen[str], int]], int]]:
    """Three replicas (process, port) and the balancer's port, every replica answering."""
    replicas = [replica(root, f"r{i}") for i in range(3)]
    with stopped_at_end(*(proc for proc, _ in replicas)):
        balancer, lb = start_on_free_port(
            lambda port: start_balancer(root, port, [p for _, p in replicas]),
            lambda _proc: "".join(p.read_text() for p in root.glob("*.log")
                                  if p.stem in ("haproxy", "nginx")))
        with stopped_at_end(balancer):
            until_all_answer(lb)
            yield replicas, lb


def calls_around_a_lost_replica(root: Path, sig: signal.Signals
                                ) -> tuple[dict[str, str], list[str], str, int]:
    """CALLS lookups through the balancer while replica r1 gets ``sig`` a third of the
    way through: the answers, the client's retries, a lookup made after, r1's exit code."""
    with behind_a_balancer(root) as (replicas, lb):
        victim = replicas[1][0]
        answers, retried = anyio.run(drive, lb, CALLS // 3, lambda: victim.send_signal(sig))
        code = victim.wait(timeout=120)
        after = anyio.run(lookup_once, lb, "after")
    return answers, retried, after, code


def assert_every_call_answered(answers: dict[str, str], after: str) -> Counter[str]:
    assert set(answers) == {f"w{i}" for i in range(CALLS)}
    assert all(text.split("@")[0] == word for word, text in answers.items())
    by_replica = Counter(text.split("@")[1] for text in answers.values())
    assert set(by_replica) == {"r0", "r1", "r2"}, by_replica  # the load was spread
    assert after.split("@")[1] in ("r0", "r2")
    return by_replica


def test_calls_through_a_balancer_survive_a_replica_stopping(tmp_path: Path) -> None:
    root = fleet(tmp_path)
    answers, retried, after, code = calls_around_a_lost_replica(root, signal.SIGTERM)
    assert code == 0, (root / "r1.log").read_text()
    by_replica = assert_every_call_answered(answers, after)
    assert "stopped" in (root / "r1.log").read_text()
    print(f"answered by {dict(by_replica)}; retried by the client: {retried}")


def test_calls_through_a_balancer_survive_a_replica_killed(tmp_path: Path) -> None:
    """A replica killed mid-call drops its connections: the calls in flight on it get no
    answer, and an agent that retries an idempotent call on a new connection gets every
    answer from the others (the client then sees its connection cancelled, which
    :meth:`Agent._absorb` ends where it began)."""
    root = fleet(tmp_path)
    answers, retried, after, code = calls_around_a_lost_replica(root, signal.SIGKILL)
    assert code == -signal.SIGKILL
    by_replica = assert_every_call_answered(answers, after)
    print(f"answered by {dict(by_replica)}; retried by the client: {retried}")


def yes() -> Any:
    async def callback(context: Any, params: Any) -> types.ElicitResult:
        return types.ElicitResult(action="accept", content={"confirm": True})

    return callback


async def approve_across(asker: int, answerer: int, lb: int) -> list[Any]:
    """The question from one replica, the answer to another, the same answer again;
    then a whole approval through the balancer (the client's own retry loop)."""
    answer = {"toolc/approval": types.ElicitResult(action="accept", content={"confirm": True})}
    async with Client(url(asker), elicitation_callback=yes()) as first:
        asked = await first.session.call_tool("shred", {"doc": "memo"},
                                              allow_input_required=True)
    assert isinstance(asked, types.InputRequiredResult)
    async with Client(url(answerer), elicitation_callback=yes()) as second:
        done = await second.call_tool("shred", {"doc": "memo"}, input_responses=answer,
                                      request_state=asked.request_state)
        again = await second.call_tool("shred", {"doc": "memo"}, input_responses=answer,
                                       request_state=asked.request_state)
    async with Client(url(lb), elicitation_callback=yes()) as client:
        through = await client.call_tool("shred", {"doc": "plan"})
    return [done, again, through]


def test_an_approval_asked_by_one_replica_is_answered_on_another_once(tmp_path: Path) -> None:
    root = fleet(tmp_path)
    with behind_a_balancer(root) as (replicas, lb):
        done, again, through = anyio.run(approve_across, replicas[0][1], replicas[2][1], lb)
    assert (done.is_error, done.content[0].text) == (False, "shredded memo on r2")
    assert again.is_error and "was used already" in again.content[0].text
    assert not through.is_error and through.content[0].text.startswith("shredded plan on r")
    shredded = (root / "shredded.log").read_text().splitlines()
    assert shredded[0] == "memo@r2" and len(shredded) == 2
