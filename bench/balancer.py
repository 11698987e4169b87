"""A real load balancer in front of local replicas: HAProxy, else nginx (both from the
distribution's packages; `.ci/run` installs HAProxy where it can), its configuration
and how it is started, for `bench/serving.py` and the replica test
(`tests/serving/test_replicas.py`). Everything binds 127.0.0.1.

The balancer retries what is always safe to retry: a connection that failed (refused:
the replica stopped listening), on another replica. A request it has sent is not
retried by the balancer (nginx: not a POST, without `non_idempotent`): whether that may
run twice is the tool's business (`idempotentHint`), so the client decides. HAProxy
checks the replicas with `GET /healthz` (one that fails gets no new requests until it
passes again); nginx marks a replica failed when connecting to it fails.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from pathlib import Path

HOST = "127.0.0.1"


def free_port() -> int:
    """A port free now (the benchmark runs alone; the tests use tests/net_support.py)."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def executable(name: str) -> str | None:
    """An installed program (sbin folders too: they are often off a user's PATH)."""
    return shutil.which(name) or next(
        (str(p) for p in (Path("/usr/sbin") / name, Path("/usr/local/sbin") / name)
         if p.is_file()), None)


def available() -> str | None:
    """The balancer to use: "haproxy", else "nginx" (`$TOOLC_BALANCER` puts one first),
    else None."""
    names = sorted(("haproxy", "nginx"), key=lambda n: n != os.environ.get("TOOLC_BALANCER"))
    return next((name for name in names if executable(name)), None)


def haproxy_config(port: int, backends: list[int], *, check_ms: int = 300) -> str:
    servers = "\n".join(
        f"    server r{i} {HOST}:{p} check inter {check_ms}ms fall 2 rise 1"
        for i, p in enumerate(backends))
    return f"""\
global
    maxconn 1024

defaults
    mode http
    timeout connect 2s
    timeout client 120s
    timeout server 120s
    timeout check 10s
    retries 3
    option redispatch 1

frontend mcp
    bind {HOST}:{port}
    default_backend replicas

backend replicas
    balance roundrobin
    option httpchk GET /healthz
    http-check expect status 200
{servers}
"""


def nginx_config(folder: Path, port: int, backends: list[int]) -> str:
    servers = "\n".join(f"        server {HOST}:{p} max_fails=1 fail_timeout=1s;"
                        for p in backends)
    temp = "\n".join(f"    {kind}_temp_path {folder / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""\
worker_processes 1;
daemon off;
pid {folder / f"nginx-{port}.pid"};
error_log {folder / "nginx.log"} warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
{temp}
    upstream replicas {{
{servers}
        keepalive 32;
    }}
    server {{
        listen {HOST}:{port};
        location / {{
            proxy_pass http://replicas;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_buffering off;
            proxy_next_upstream error;
        }}
    }}
}}
"""


def start_balancer(folder: Path, port: int, backends: list[int]) -> subprocess.Popen[str]:
    """The available balancer in the foreground on `port`; its log in `folder`."""
    name = available()
    if name is None:
        raise RuntimeError("neither haproxy nor nginx is installed (apt-get install haproxy)")
    program = executable(name)
    assert program is not None
    config = folder / f"{name}-{port}.conf"
    if name == "haproxy":
        config.write_text(haproxy_config(port, backends))
        argv = [program, "-db", "-f", str(config)]
    else:
        config.write_text(nginx_config(folder, port, backends))
        argv = [program, "-p", str(folder), "-c", str(config)]
    with (folder / f"{name}.log").open("a") as log:
        return subprocess.Popen(argv, stdout=log, stderr=log, stdin=subprocess.DEVNULL,
                                text=True)
