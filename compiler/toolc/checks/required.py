"""``required`` in its two forms: a property's ``required: true|false`` and an object's list."""

from __future__ import annotations

from ..diagnostics import Span
from ..loader import YList, YMap
from ..model.errors import suggest
from .facts import Walk


def check_required_agreement(walk: Walk, node: YMap, key_span: Span,
                             trail: tuple[str, ...] | None) -> None:
    """TC205: a property's own ``required`` must agree with its object's ``required`` list."""
    props, listed = node.get("properties"), node.get("required")
    if not walk.toolc or not isinstance(props, YMap) or not isinstance(listed, YList):
        return
    names = {x for x in listed if isinstance(x, str)}
    for name, sub in props.items():
        own = sub.get("required") if isinstance(sub, YMap) else None
        if not isinstance(own, bool) or own == (name in names):
            continue
        if own:
            message = (f"property '{name}' says `required: true`, but its object's `required` "
                       "list leaves it out")
        else:
            message = (f"property '{name}' says `required: false`, but its object's `required` "
                       "list names it")
        walk.report("TC205", message, sub.key_spans["required"],
                    notes=((f"the list on line {node.value_spans['required'].line} "
                           "decides; keep one of the two"),))


def check_required_known(walk: Walk, node: YMap, key_span: Span,
                         trail: tuple[str, ...] | None) -> None:
    """TC207: an object's ``required`` list names only properties the object has."""
    props, listed = node.get("properties"), node.get("required")
    if not walk.toolc or not isinstance(props, YMap) or not isinstance(listed, YList):
        return
    for name, span in zip(listed, listed.item_spans, strict=True):
        if isinstance(name, str) and name not in props:
            hint, fixes = suggest(name, props, span)
            walk.report("TC207", f"`required` names '{name}', which is not a property "
                        f"of this object{hint}", span, fixes=fixes)
