"""The baseline of ``bench/load.sh``: a bare FastAPI endpoint, served with the settings ``manacalc serve``
gives uvicorn (same host, workers, ``log_config=None``, ``proxy_headers=True``).

``POST /bare`` parses the JSON body (the same body load.sh sends to the real endpoint) and answers a
constant; no middleware, no validation model, no database. ``GET /healthz`` tells load.sh it is up.

    .venv/bin/python bench/bare_app.py --port 8100 --workers 2     (load.sh starts and stops it)

Run without arguments (as ``make bench`` does), it only says what it is.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from fastapi import Body, FastAPI

ROOT = Path(__file__).resolve().parents[1]

app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)


@app.post("/bare")
async def bare(body: dict[str, Any] = Body(...)) -> dict[str, Any]:
    return {"ok": True, "fields": len(body)}


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


def main(argv: list[str]) -> int:
    if not argv:
        print("bench/bare_app.py is the baseline server of bench/load.sh (run that); nothing to do alone")
        return 0
    parser = argparse.ArgumentParser(description="Serve the bare baseline endpoint.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--workers", type=int, default=1)
    ns = parser.parse_args(argv)

    import uvicorn

    sys.path.insert(0, str(ROOT))  # workers import bench.bare_app:app from the checkout
    uvicorn.run(
        "bench.bare_app:app",
        host=ns.host,
        port=ns.port,
        workers=ns.workers,
        log_config=None,
        proxy_headers=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
