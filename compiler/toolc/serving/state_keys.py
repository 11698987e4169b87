"""What lets replicas answer each other's requests: the state key they share.

Under ``--stateless`` any replica behind a balancer may get any request, so what spans
requests is carried by the client and signed with a key every replica has: the state of
an approval question or of a handler's own (asked by one replica, answered on another;
see :mod:`toolc.runtime.mcp_server.approval_state`). The keys come from ``--state-key-file FILE``
(one per line, ``#`` comment lines skipped; a Kubernetes Secret mounted as a file works),
else from ``$TOOLC_STATE_KEY`` (separated by spaces); the first signs and every one
verifies, so a key is rotated without a flag day; each is at least 32 bytes. Without
either, a key of this process is made, and a replica refuses the others' states, so a
stateless server whose tools need approval refuses to start without one
(:func:`refuse_unshared_approval`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..runtime import ToolsetError
from ..runtime.metakeys import REQUIRES_APPROVAL
from ..untrusted import FileRefused, read_untrusted
from .targets import ServeError

STATE_KEY_ENV = "TOOLC_STATE_KEY"
KEY_FILE_BYTES = 64 * 1024
MIN_KEY_BYTES = 32  # as toolc.runtime.mcp_server.approval_state requires (not imported: mcp)
MAKE_ONE = "python3 -c 'import secrets; print(secrets.token_hex(32))'"


def load_state_keys(key_file: str | None, env: Mapping[str, str] | None = None) -> list[bytes] | None:
    """The key ring ``--state-key-file`` or ``$TOOLC_STATE_KEY`` gives; None for neither."""
    env = os.environ if env is None else env
    if key_file is not None:
        where = f"--state-key-file {key_file}"
        try:
            text = read_untrusted(key_file, KEY_FILE_BYTES, follow=True).decode("utf-8")
        except (OSError, FileRefused, UnicodeDecodeError) as exc:
            raise ServeError(f"{where}: cannot read it ({_why(exc)})") from None
        keys = [line.strip() for line in text.splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    elif env.get(STATE_KEY_ENV, "").strip():
        where = f"${STATE_KEY_ENV}"
        keys = env[STATE_KEY_ENV].split()
    else:
        return None
    if not keys:
        raise ServeError(f"{where} holds no key; make one with: {MAKE_ONE}")
    for number, key in enumerate(keys, 1):
        if len(key.encode()) < MIN_KEY_BYTES:
            raise ServeError(
                f"{where}: key {number} of {len(keys)} is {len(key.encode())} bytes; a state "
                f"key is at least {MIN_KEY_BYTES} (make one with: {MAKE_ONE})")
    return [key.encode() for key in keys]


def _why(exc: Exception) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, UnicodeDecodeError):
        return "not UTF-8 text"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc)
    return str(exc)


def world_readable(key_file: str) -> bool:
    """Whether others than the owner and group may read the key file."""
    try:
        return bool(Path(key_file).stat().st_mode & 0o004)
    except OSError:
        return False


async def refuse_unshared_approval(server: Any) -> None:
    """``--stateless`` without a shared key: refuse (``ServeError``) if any served tool
    needs approval, since its question's answer may reach a replica that cannot check it.
    Lists the tools as the server would, the toolset entered for that and left again."""
    bridge = server.bridge
    try:
        async with bridge.toolset:
            tools = await bridge.published(bridge.run_context())
    except ToolsetError as exc:
        raise ServeError(f"--stateless: the tools cannot be listed to see whether any "
                         f"needs approval: {exc}") from None
    asking = [t["name"] for t in tools if (t.get("_meta") or {}).get(REQUIRES_APPROVAL) is True]
    if not asking:
        return
    shown = ", ".join(asking[:5]) + (f" and {len(asking) - 5} more" if len(asking) > 5 else "")
    raise ServeError(
        f"--stateless: {shown} need{'s' if len(asking) == 1 else ''} the user's approval, "
        f"whose answer comes in a second request that another replica may get; give every "
        f"replica the same key to sign the question with: --state-key-file FILE or "
        f"${STATE_KEY_ENV} (make one with: {MAKE_ONE})")
