"""The peer of `serving.py`'s balancer figures: the bare mcp low-level Server of
`serving.py` (the same published tools, hand-written validation, the same handler) over
the SDK's own stateless streamable HTTP app with JSON responses, as `toolc serve
--stateless` serves, and a `/healthz` for the balancer's checks. Run by `serving.py`:

    python bench/bare_replica.py PORT GOLDEN_DIR TOOLS    (PYTHONPATH: the handlers)
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import uvicorn
from serving import bare_server
from starlette.responses import JSONResponse
from starlette.routing import Route


async def health(request: object) -> JSONResponse:
    return JSONResponse({"status": "ok", "server": "bare"})


def main(argv: list[str]) -> None:
    port, golden, tools = int(argv[0]), Path(argv[1]), int(argv[2])
    published = [json.loads((golden / f"tool{i}.json").read_text()) for i in range(tools)]
    handler = importlib.import_module("bench_app.tools").handle
    server = bare_server(published, handler)
    app = server.streamable_http_app(stateless_http=True, json_response=True,
                                     custom_starlette_routes=[Route("/healthz", health)])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


if __name__ == "__main__":
    main(sys.argv[1:])
