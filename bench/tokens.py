"""The token budget's estimate (toolc.budget) against real tokenizers, tool by tool.

Measures ``ceil(chars / 4)`` of what a model reads of each published tool (compact
JSON of name, description, inputSchema) against OpenAI's o200k_base and cl100k_base
BPE, over the bundled golden files and the resolve fixtures. tiktoken downloads its
BPE files at run time, which this machine cannot; the `bpe-openai` package ships the
vocabularies inside its wheel, so it is used here (not a toolc dependency):

    python -m venv /tmp/tok && /tmp/tok/bin/pip install bpe-openai
    /tmp/tok/bin/python bench/tokens.py

Claude's tokenizer is not public, so it is not measured; docs/spec-format.md ("Token
budget") records the figures this printed.

Then, per target (issue 26), what the model is sent of each tool in o200k_base tokens:
the canonical golden file and that target's view (``toolc.runtime.dialects.lower_tool``),
in each `$ref` shape (``refs``: as-written, inline, defs), over the bundled golden files
a real server's tool list (``tests/fixtures/import/server-filesystem.json``, the
reference filesystem server's ``tools/list``), the resolve fixtures and the views' hard
corpus (``tests/fixtures/views/hard.json``). bench/RESULTS.md quotes what it printed.
"""

from __future__ import annotations

import glob
import json
import math
import statistics
from pathlib import Path

import bpe_openai  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parents[1]


def seen_text(tool: dict[str, object]) -> str:
    seen = {k: tool[k] for k in ("name", "description", "inputSchema") if k in tool}
    return json.dumps(seen, separators=(",", ":"), ensure_ascii=False)


def main() -> None:
    files = sorted({*glob.glob(str(ROOT / "generated/schemas/*/*.json")),
                    *glob.glob(str(ROOT / "tests/fixtures/resolve/*/expected/*/*.json"))})
    texts = [seen_text(json.loads(Path(f).read_text("utf-8"))) for f in files]
    estimates = [math.ceil(len(t) / 4) for t in texts]
    print(f"{len(texts)} tools, {sum(len(t) for t in texts)} characters, "
          f"estimate {sum(estimates)} tokens")
    for name in ("o200k_base", "cl100k_base"):
        encoding = bpe_openai.get_encoding(name)
        real = [len(encoding.encode(t)) for t in texts]
        errors = [(e - r) / r for e, r in zip(estimates, real, strict=True)]
        print(f"{name}: {sum(real)} tokens; estimate off by {100 * min(errors):+.1f}% to "
              f"{100 * max(errors):+.1f}% per tool (mean {100 * statistics.mean(errors):+.1f}%),"
              f" {100 * (sum(estimates) - sum(real)) / sum(real):+.1f}% in total")


CORPORA = {
    "bundled": lambda: [json.loads(Path(f).read_text("utf-8"))
                        for f in sorted(glob.glob(str(ROOT / "generated/schemas/*/*.json")))],
    "server-filesystem": lambda: json.loads(
        (ROOT / "tests/fixtures/import/server-filesystem.json").read_text("utf-8"))["tools"],
    # `$ref`s, recursion and repeated subschemas, which the two above hardly have
    "resolve fixtures": lambda: [json.loads(Path(f).read_text("utf-8")) for f in sorted(
        glob.glob(str(ROOT / "tests/fixtures/resolve/*/expected/*/*.json")))],
    "hard corpus": lambda: json.loads(
        (ROOT / "tests/fixtures/views/hard.json").read_text("utf-8"))["tools"],
}


def views() -> None:
    """Per corpus and target: canonical tokens, and the view's in each `$ref` shape."""
    from toolc.runtime.dialects import TARGETS, lower_tool
    from toolc.runtime.dialects.refs import REFS_MODES

    encoding = bpe_openai.get_encoding("o200k_base")

    def tokens(tool: dict[str, object]) -> int:
        return len(encoding.encode(seen_text(tool)))

    for corpus, load in CORPORA.items():
        tools = load()
        canonical = sum(tokens(t) for t in tools)
        print(f"\n{corpus}: {len(tools)} tools, canonical {canonical} tokens (o200k_base)")
        for name, table in TARGETS.items():
            row = []
            for mode in REFS_MODES:
                lowered = [lower_tool(table, t, mode) for t in tools]
                total = sum(tokens(v.tool) for v in lowered)
                refused = sum(1 for v in lowered if v.problems)
                row.append(f"{mode} {total} ({100 * (total - canonical) / canonical:+.1f}%"
                           + (f", {refused} not lowerable" if refused else "") + ")")
            print(f"  {name}: " + "; ".join(row))


if __name__ == "__main__":
    main()
    views()
