"""What a long-lived process keeps between its builds (``toolc build --watch`` and ``toolc
lsp`` turn it on).

Each spec file's loaded form, by path, handed to the load stage, which takes it while
the file's bytes are the same and keeps what it loads (nothing downstream changes a
LoadedFile: the model and the checks make their own objects); each module's golden
texts, by module, handed to the publish stage while the module's key is the same (they
are made from its IR alone, which its key covers); the golden files a component's
take-over read back, while each is the same file (inode, modification time, size) with
the same recorded hash; the last build's new golden files parsed, handed to the diff (a
file of the same text is not parsed again); the components record as last read and
checked, while it is the same file. Only this process wrote any of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .handed import Handed

if TYPE_CHECKING:
    from ..diff import ToolSet
    from ..specs import KeptSpec


class Memory:
    """The process's memory of its builds (empty and unused until ``enabled``)."""

    def __init__(self) -> None:
        self.enabled = False
        self.loaded: dict[Path, KeptSpec] = {}
        self.golden: dict[str, tuple[str, dict[str, str]]] = {}  # module -> (key, files)
        # Output files read back (a taken component's golden files), by path: the text
        # while the file's identity and the recorded hash are the same.
        self.read: dict[str, tuple[list[int], str, str]] = {}
        self.tools: ToolSet | None = None  # the last build's new golden files, parsed
        # The components record read and checked (``components.take_over``), while it is
        # the same file (its path and identity): an editor's keystroke reads it again.
        self.components: tuple[tuple[str, list[int] | None], Any] | None = None

    def handed(self) -> Handed:
        """What a build of this process is handed from the memory before it starts: the
        loaded specs (the load stage keeps what it loads in them) and the golden files
        parsed (nothing, unless ``enabled``)."""
        if not self.enabled:
            return Handed()
        return Handed(known=self.loaded, tools=self.tools)

    def keep_tools(self, tools: ToolSet | None) -> None:
        """The new golden files a build parsed, for the next build's diff."""
        if self.enabled and tools is not None:
            self.tools = tools


MEMORY = Memory()
