"""JSON documents as toolc publishes them: loaded values made plain, and how a reference
addresses a document (JSON pointers, their URI fragments, the ``$id`` values it declares).

Shared by the writer (:mod:`.writer`), the references (:mod:`.schema_refs`) and the
local schema files (:mod:`.schema_files`), so that each says a pointer the same way.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, unquote, urljoin

from ..runtime.json_pointers import MISSING, step

JSON = Any

SCALARS = (str, int, float, bool, type(None))


def to_json(value: Any) -> JSON:
    """A loaded value as plain JSON data (dicts and lists, spans dropped)."""
    if isinstance(value, SCALARS):
        return value
    if isinstance(value, dict):
        return {k: v if isinstance(v, SCALARS) else to_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if isinstance(v, SCALARS) else to_json(v) for v in value]
    return value


REFERENCES = ("$ref", "$dynamicRef")
ANCHORS = ("$anchor", "$dynamicAnchor")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
# What a URI fragment may hold as it is (RFC 3986): the rest is percent-encoded.
_FRAGMENT_SAFE = "/?:@!$&'()*+,;=-._~"


def has_scheme(uri: str) -> bool:
    """Whether ``uri`` is absolute (``https:``, ``urn:``, ``file:``, ...), not relative."""
    return bool(_SCHEME.match(uri))


def pointer_token(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def fragment(pointer: str) -> str:
    """A JSON pointer as a URI fragment (``#`` included): percent-encoded where needed."""
    return "#" + quote(pointer, safe=_FRAGMENT_SAFE)


def first_token(frag: str) -> str | None:
    """The first token of a pointer fragment (``/$defs/a`` -> ``$defs``), decoded."""
    if not frag.startswith("/"):
        return None
    return unquote(frag[1:].split("/", 1)[0]).replace("~1", "/").replace("~0", "~")


def lookup(document: JSON, frag: str) -> tuple[bool, JSON]:
    """(found, value) of the pointer fragment ``frag`` (without ``#``) in ``document``."""
    node = document
    if not frag:
        return True, node
    if not frag.startswith("/"):
        return False, None
    for raw in unquote(frag).split("/")[1:]:
        node = step(node, raw.replace("~1", "/").replace("~0", "~"))
        if node is MISSING:
            return False, None
    return True, node


def resolve_uri(base: str, reference: str) -> str:
    """``reference`` resolved against ``base`` (a relative ``$id`` or ``$ref``), no fragment."""
    joined = urljoin(base, reference) if base else reference
    return joined.partition("#")[0]


def declared_ids(document: JSON) -> set[str]:
    """Every ``$id`` a published document declares, resolved against the ones above it
    (what a reference may name without leaving the document)."""
    found: set[str] = set()
    stack: list[tuple[JSON, str]] = [(document, "")]
    while stack:
        node, base = stack.pop()
        if isinstance(node, dict):
            own = node.get("$id")
            if isinstance(own, str):
                base = resolve_uri(base, own)
                found.add(base)
            stack.extend((v, base) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, base) for v in node)
    return found
