"""Who may talk to `toolc serve --transport http`: Host and Origin checked on every request,
and no bind beyond loopback without --allow-remote. The server runs as a real subprocess
(a start that is refused, in this process)."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

sys.path.insert(0, str(Path(__file__).parents[1]))

from project_support import desk_project
from serve_support import INITIALIZE, Served, free_port, http_server, post, refused_start
from toolc.commands.serve import run_serve
from toolc.serving.http import BindRefused, HttpOptions, check_bind, host_policy


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    project = desk_project(tmp_path_factory.mktemp("desk"))
    with http_server(project, "--allow-host", "tools.internal", "--allow-host", "edge:*",
                     "--allow-origin", "https://app.example") as server:
        yield server


async def echo_through(url: str, headers: dict[str, str] | None = None) -> str:
    """A real mcp client's echo call (``headers`` on every HTTP request it sends)."""
    async with (httpx2.AsyncClient(headers=headers or {}) as http,
                Client(streamable_http_client(url, http_client=http)) as client):
        result = await client.call_tool("echo", {"text": "hi"})
    assert not result.is_error
    return str(result.content[0].text)


@pytest.mark.parametrize("host", [
    "evil.example", "evil.example:{port}", "127.0.0.1.evil.example:{port}",
    "localhost.evil.example", "127.0.0.1:1", "[::2]:{port}", "", "[::1", "a:b:c",
    "tools.internal:1", "edge.evil"])
def test_a_foreign_host_is_refused_before_any_session(served: Served, host: str) -> None:
    answer = post(served.port, INITIALIZE, host=host.format(port=served.port))
    assert answer.status == 421 and "mcp-session-id" not in answer.headers


@pytest.mark.parametrize("origin", [
    "http://evil.example", "http://127.0.0.1.evil.example:{port}", "null",
    "http://127.0.0.1:1", "https://app.example.evil", "file://"])
def test_a_foreign_origin_is_refused(served: Served, origin: str) -> None:
    answer = post(served.port, INITIALIZE, headers={"Origin": origin.format(port=served.port)})
    assert answer.status == 403 and "mcp-session-id" not in answer.headers


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LocalHost",
                                  "[::1]:{port}", "tools.internal", "tools.internal:{port}",
                                  "edge", "edge:1234"])
def test_the_bind_address_names_and_allowed_hosts_are_served(served: Served, host: str) -> None:
    answer = post(served.port, INITIALIZE, host=host.format(port=served.port))
    assert answer.status == 200 and answer.headers["mcp-session-id"]


@pytest.mark.parametrize("origin", ["http://127.0.0.1:{port}", "http://localhost:{port}",
                                    "https://app.example", "https://APP.example:443"])
def test_the_own_and_allowed_origins_are_served(served: Served, origin: str) -> None:
    answer = post(served.port, INITIALIZE, headers={"Origin": origin.format(port=served.port)})
    assert answer.status == 200


def test_a_real_client_works_with_allowed_headers_and_not_with_others(served: Served) -> None:
    port = served.port
    assert anyio.run(echo_through, served.url) == "hi"
    allowed = {"Host": "tools.internal", "Origin": "https://app.example"}
    assert anyio.run(echo_through, served.url, allowed) == "hi"
    for refused in ({"Host": "evil.example"}, {"Origin": f"http://evil.example:{port}"}):
        with pytest.raises(Exception) as caught:  # the SDK client's error for a 4xx
            anyio.run(echo_through, served.url, refused)
        assert "hi" not in str(caught.value)
    assert "refused a request with Host 'evil.example'" in served.stderr()


def test_a_non_loopback_bind_without_the_flag_is_a_usage_error(tmp_path: Path) -> None:
    project = desk_project(tmp_path)
    for host in ("0.0.0.0", "::", "192.0.2.7", "myhost.lan"):
        code, err = refused_start(project, "specs/desk.toolc.yaml", "--transport", "http",
                                  "--host", host, "--port", str(free_port()))
        assert code == 2, err
        assert f"--host {host} is not a loopback address" in err
        assert "--allow-remote" in err and "Traceback" not in err


def test_with_the_flag_a_warning_is_printed(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # Binding 0.0.0.0 is not tried: the target does not exist, so serving stops first.
    monkeypatch.chdir(desk_project(tmp_path))
    err = io.StringIO()
    code = run_serve("specs/nope.toolc.yaml", toolset_name=None, transport="http",
                     http=HttpOptions(host="0.0.0.0", allow_remote=True), err=err)
    assert code == 2  # no such spec: a usage error
    assert err.getvalue().startswith("warning: serving on 0.0.0.0, reachable from other "
                                     "machines: there is no authentication")


def test_malformed_allowances_are_usage_errors(tmp_path: Path) -> None:
    project = desk_project(tmp_path)
    port = str(free_port())  # in case one were accepted: it would serve there, not at 8000
    for flag, value in (("--allow-host", "a:b:c:"), ("--allow-host", "name:port"),
                        ("--allow-host", "evil example"), ("--allow-origin", "app.example")):
        code, err = refused_start(project, "specs/desk.toolc.yaml", "--transport", "http",
                                  "--port", port, flag, value)
        assert code == 2 and f"{flag} {value!r}" in err, err


def policy(**options: Any) -> Any:
    return host_policy(HttpOptions(**options))


def test_the_allowed_set_follows_from_the_bind_address() -> None:
    loopback = policy(port=8000)
    assert {h for h in loopback.hosts if h.endswith(":8000")} == {
        "127.0.0.1:8000", "localhost:8000", "[::1]:8000"}
    assert loopback.origins == {"http://127.0.0.1:8000", "http://localhost:8000",
                                "http://[::1]:8000"}
    lan = policy(host="192.0.2.7", port=9000, allow_remote=True)
    assert lan.hosts == {"192.0.2.7", "192.0.2.7:9000"}
    assert lan.origins == {"http://192.0.2.7:9000"}
    v6 = policy(host="2001:db8::1", port=80, allow_remote=True)
    assert v6.host_allowed("[2001:db8::1]") and v6.host_allowed("[2001:db8::1]:80")
    assert v6.origin_allowed("http://[2001:db8::1]") and not v6.host_allowed("[2001:db8::2]")
    anywhere = policy(host="0.0.0.0", port=8000, allow_remote=True)
    assert anywhere.host_allowed("127.0.0.1:8000") and not anywhere.host_allowed("evil:8000")


def test_allow_host_forms() -> None:
    extended = policy(port=8000, allow_hosts=("box", "proxy:443", "edge:*", "::5"))
    assert extended.host_allowed("box") and extended.host_allowed("box:8000")
    assert not extended.host_allowed("box:8001")
    assert extended.host_allowed("proxy:443") and not extended.host_allowed("proxy")
    assert extended.host_allowed("edge:1") and extended.host_allowed("[::5]:8000")
    assert not extended.host_allowed(None) and not extended.host_allowed("box:8000:1")


def test_check_bind() -> None:
    assert check_bind(HttpOptions(host="localhost")) is None
    assert check_bind(HttpOptions(host="::1")) is None
    assert check_bind(HttpOptions(host="127.0.0.5")) is None
    with pytest.raises(BindRefused, match="--allow-remote"):
        check_bind(HttpOptions(host="0.0.0.0"))
    assert "reachable from other machines" in (
        check_bind(HttpOptions(host="0.0.0.0", allow_remote=True)) or "")
