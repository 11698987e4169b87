"""Language server: a keystroke to its diagnostics, hover, and memory over an hour of edits.

One `toolc lsp` process on the synthetic project of 1,000 tools (50 specs), built once
first (`toolc build`: what a project in an editor has), driven by pygls's LSP client as
an editor drives it. Each keystroke inserts one character into a tool description of an
open spec (the buffer unsaved) and is timed to the publishDiagnostics of that version;
a note gives the same for a keystroke that makes an error (an unknown key), whose
analysis cannot take the other specs over. Hover: a tool's, warm, and the first after
an edit. Memory: the server's RSS while `--edits` keystrokes (3,600: an hour at one a
second), a character typed and erased in turn, are made as fast as it answers them.
Beside it, as the peer, `toolc build --watch`'s save to its report (bench/watch.py,
`--no-certify`). Budget: 150 ms median.

    bench/.venv/bin/python bench/lsp.py [--tools 1000] [--repeat 20] [--edits 3600]
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from harness import Figure, Side, bench_env, command_line, parser, publish, tool, workdir
from synth import module_name, write_project

BUDGET_S = 0.150
PATIENCE_S = 600.0


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Editor:
    """A pygls client as an editor uses it, with what it was told per file."""

    def __init__(self) -> None:
        from lsprotocol import types as lsp
        from pygls.lsp.client import LanguageClient

        self.lsp = lsp
        self.client = LanguageClient("bench", "1")
        self.published: dict[str, Any] = {}
        self.changed = asyncio.Event()

        @self.client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _published(params: Any) -> None:
            self.published[params.uri] = params
            self.changed.set()

        @self.client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
        def _register(params: Any) -> None:
            return None

    async def start(self, toolc: Path, root: Path) -> None:
        lsp = self.lsp
        await self.client.start_io(str(toolc), "lsp", cwd=str(root), env=bench_env())
        await self.client.initialize_async(lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(), root_uri=root.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(root.as_uri(), root.name)]))
        self.client.initialized(lsp.InitializedParams())

    @property
    def pid(self) -> int:
        server = self.client._server  # the server process pygls started
        assert server is not None
        return int(server.pid)

    async def published_for(self, uri: str, version: int) -> list[Any]:
        async def until() -> list[Any]:
            while True:
                found = self.published.get(uri)
                if found is not None and found.version == version:
                    return list(found.diagnostics)
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(until(), PATIENCE_S)

    def open(self, uri: str, text: str) -> None:
        lsp = self.lsp
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri, "yaml", 1, text)))

    def type_at(self, uri: str, version: int, line: int, col: int, char: str,
                erase: int = 0) -> None:
        """``char`` typed at (line, col), or with ``erase`` that many characters deleted."""
        lsp = self.lsp
        at, end = lsp.Position(line, col), lsp.Position(line, col + erase)
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version, uri),
            [lsp.TextDocumentContentChangePartial(lsp.Range(at, end), char)]))

    async def hover(self, uri: str, line: int, col: int) -> float:
        lsp = self.lsp
        started = time.perf_counter()
        found = await self.client.text_document_hover_async(
            lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, col)))
        assert found is not None, "no hover"
        return time.perf_counter() - started

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


async def measure(toolc: Path, root: Path, spec: Path, args: Any) -> dict[str, Any]:
    editor = Editor()
    await editor.start(toolc, root)
    uri, text = spec.absolute().as_uri(), spec.read_text(encoding="utf-8")
    lines = text.split("\n")
    line = next(i for i, t in enumerate(lines) if "description: Synthetic tool number" in t)
    col = lines[line].index("Synthetic")
    tool_line = line - 1
    version = 1
    editor.open(uri, text)
    await editor.published_for(uri, version)
    found: dict[str, Any] = {"keys": [], "errors": [], "warm": [], "after_edit": [], "rss": []}

    async def key(char: str = "x", at: tuple[int, int] = (line, col), erase: int = 0) -> float:
        nonlocal version
        version += 1
        started = time.perf_counter()
        editor.type_at(uri, version, *at, char, erase)
        await editor.published_for(uri, version)
        return time.perf_counter() - started

    await key()  # warm-up
    for _ in range(args.repeat):
        found["keys"].append(await key())
        await asyncio.sleep(0.1)  # typing pauses: each key is analysed on its own
    for _ in range(max(1, args.repeat // 4)):
        found["errors"].append(await key("z", (line, 4)))  # `zdescription`: TC101
        await asyncio.sleep(0.1)
        await key("", (line, 4), erase=1)  # clean again
        await asyncio.sleep(0.1)
    for _ in range(args.repeat):
        found["after_edit"].append(await editor.hover(uri, tool_line, 3))
        found["warm"].append(await editor.hover(uri, tool_line, 3))
        await key()
    found["rss"].append((0, rss_kib(editor.pid)))
    for i in range(1, args.edits + 1):
        # Typing and erasing in turn: the spec stays its size, so that what the RSS shows
        # is what the server keeps, not a description 3,600 characters longer.
        await (key() if i % 2 else key("", (line, col), erase=1))
        if i % max(1, args.edits // 12) == 0:
            found["rss"].append((i, rss_kib(editor.pid)))
    await editor.stop()
    return found


def main(argv: list[str] | None = None) -> Figure:
    p = parser(__doc__.split("\n\n")[0], tools=1000, repeat=20)
    p.add_argument("--edits", type=int, default=3600, help="keystrokes for the memory run")
    p.add_argument("--no-watch", action="store_true", help="skip the --watch peer")
    args = p.parse_args(argv)
    toolc = tool("toolc")
    if toolc is None:
        raise SystemExit("toolc is not installed in this environment: run bench/setup.sh")
    try:
        import pygls  # noqa: F401
    except ImportError:
        raise SystemExit("pygls is missing: bench/setup.sh installs toolc[lsp]") from None
    n = max(1, args.tools // 20)
    ours = Side(f"keystroke in 1 of {n} specs to its diagnostics ({args.tools} tools, warm)")
    with workdir(args.workdir) as root:
        project = write_project(root / "lsp", args.tools)
        subprocess.run([str(toolc), "build", "--no-certify"], cwd=project.root, env=bench_env(),
                       check=True, capture_output=True)
        spec = project.specs / f"{module_name(len(project.modules) // 2)}.toolc.yaml"
        found = asyncio.run(measure(toolc, project.root, spec, args))
    ours.samples = found["keys"]
    peer = None
    if not args.no_watch:
        import watch

        seen = watch.main(["--tools", str(args.tools), "--repeat", str(max(3, args.repeat // 4)),
                           "--no-certify"])
        peer = Side("`toolc build --watch --no-certify`: a save to its report", seen.ours.samples)
    reproduce = command_line("lsp.py", args, {"tools": 1000, "repeat": 20, "edits": 3600})
    figure = Figure("lsp: keystroke to diagnostics, 50 specs", ours, peer, BUDGET_S,
                    "<= 150 ms median", reproduce, budget=True)
    keys = sorted(found["keys"])
    p95 = keys[min(len(keys) - 1, round(0.95 * (len(keys) - 1)))]
    errors = found["errors"]
    figure.notes += [
        f"p95 {p95 * 1e3:.0f} ms; samples: {', '.join(f'{s * 1e3:.0f}' for s in found['keys'])} ms",
        (f"a keystroke that makes an error (full analysis): median "
        f"{statistics.median(errors) * 1e3:.0f} ms over {len(errors)}"),
        (f"hover on a tool: warm median {statistics.median(found['warm']) * 1e3:.1f} ms, "
        f"first after an edit {statistics.median(found['after_edit']) * 1e3:.1f} ms"),
        "server RSS over the edits: " + ", ".join(f"{i}: {kib / 1024:.1f} MiB"
                                                for i, kib in found["rss"]),
    ]
    publish(figure, args)
    return figure


if __name__ == "__main__":
    main(sys.argv[1:])
