"""Specs whose diagnostics suggest a fix, one per kind of suggestion: what
``tests/model/test_suggestions.py`` applies to the text and ``tests/lsp/test_actions.py``
applies through an editor's code action (each must make its diagnostic go away)."""

from __future__ import annotations

HEAD = "toolc: 1\nmodule: m\n"
TOOL = "  read:\n    description: Read it.\n    handler: app.tools:read\n"

CASES: dict[str, str | dict[str, str]] = {
    "misspelt tool key": HEAD + "tools:\n  read:\n    descripton: Read it.\n"
                         "    handler: app.tools:read\n",
    "misspelt kind": HEAD + "tools:\n" + TOOL + "toolsets:\n  main: {kind: functon, tools: [read]}\n",
    "misspelt keyword": HEAD + "tools:\n" + TOOL + "    params:\n"
                        "      n: {type: integer, description: N., minimun: 1}\n",
    "misspelt local type": HEAD + "types:\n  Level: {description: L., enum: [a, b]}\ntools:\n"
                           + TOOL + "    params:\n      n: {type: Levle, description: N.}\n",
    "misspelt type of a module": {"o.toolc.yaml": "toolc: 1\nmodule: other\ntypes:\n"
                                  "  Level: {description: L., enum: [a, b]}\ntools: {}\n",
                                  "m.toolc.yaml": HEAD + "tools:\n" + TOOL + "    params:\n"
                                  "      n: {type: other.Levl, description: N.}\n"},
    "misspelt module of a type": {"o.toolc.yaml": "toolc: 1\nmodule: other\ntypes:\n"
                                  "  Level: {description: L., enum: [a, b]}\ntools: {}\n",
                                  "m.toolc.yaml": HEAD + "tools:\n" + TOOL + "    params:\n"
                                  "      n: {type: othr.Level, description: N.}\n"},
    "misspelt required": HEAD + "tools:\n" + TOOL + "    params:\n      o:\n        type: object\n"
                         "        description: O.\n        properties:\n"
                         "          name: {type: string, description: N.}\n"
                         "        required: [nmae]\n",
    "misspelt tool in a toolset": HEAD + "tools:\n" + TOOL + "toolsets:\n"
                                  "  main: {kind: function, tools: [raed]}\n",
    "misspelt inner": HEAD + "tools:\n" + TOOL + "toolsets:\n  main: {kind: function, tools: [read]}\n"
                      "  pre: {kind: prefixed, inner: mian, prefix: p_}\n",
    "misspelt export": HEAD + "tools:\n" + TOOL + "toolsets:\n  main: {kind: function, tools: [read]}\n"
                       "export: mian\n",
    "misspelt rename": HEAD + "tools:\n" + TOOL + "toolsets:\n  main: {kind: function, tools: [read]}\n"
                       "  short:\n    kind: renamed\n    inner: main\n    names: {raed: r}\n",
    "misspelt search key": HEAD + "tools:\n" + TOOL + "    meta: {anthropic/alwaysLaod: true}\n",
    "approval_required on a tool": HEAD + "tools:\n" + TOOL + "    approval_required: true\n",
    "a comma in a one-line mapping": HEAD + "tools:\n" + TOOL + "    params:\n"
                                     "      at: {type: string, description: Start time, ISO 8601.}\n",
    "no description, block": HEAD + "tools:\n  read:\n    handler: app.tools:read\n",
    "no description, flow": HEAD + "tools:\n" + TOOL + "    params:\n      n: {type: integer}\n",
    "unused suppression": HEAD + "tools:\n  read:  # toolc: ignore[TC201]\n"
                          "    description: Read it.\n    handler: app.tools:read\n",
}
