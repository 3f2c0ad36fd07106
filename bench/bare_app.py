"""The baseline of ``bench/load.sh``: a bare FastAPI endpoint, served with the settings ``manacalc serve``
gives uvicorn (``app.cli.server_options``: httptools through app/api/http_server.py's protocol, no proxy
headers, the same keep-alive).

``POST /bare/cost`` and ``POST /bare/plan`` validate the same request models as ``/v1/spells/cost`` and
``/v1/payments/plan`` (the baseline issue 3 defines: what any endpoint taking that request must do) and
answer a constant; no middleware, no database, ``async`` so no thread-pool hop.

``GET /bare/scenarios/{id}`` is the scenario read's twin: what any endpoint answering a stored board must
do, with nothing of ours: one ``SELECT`` of the row by id on ``MANACALC_DATABASE_URL`` (a plain SQLAlchemy
engine, the same pool size, the statement in the thread pool as a sync endpoint runs) and the row as
JSON; no API key, no ETag, no middleware. ``GET /healthz`` tells load.sh it is up.

    .venv/bin/python bench/bare_app.py --port 8100 --workers 2     (load.sh starts and stops it)

Run without arguments (as ``make bench`` does), it only says what it is.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException
from sqlalchemy import bindparam, create_engine, select

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.db.models.scenarios import ScenarioRow  # noqa: E402
from app.schemas.payments import PaymentPlanRequest  # noqa: E402
from app.schemas.spells import SpellCostRequest  # noqa: E402

app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)


@app.post("/bare/cost")
async def bare_cost(body: SpellCostRequest) -> dict[str, Any]:
    return {"ok": True, "permanents": len(body.board.permanents)}


@app.post("/bare/plan")
async def bare_plan(body: PaymentPlanRequest) -> dict[str, Any]:
    return {"ok": True, "permanents": len(body.board.permanents)}


_engine: Any = None
_T = ScenarioRow.__table__.c  # the table's columns only (JSON decoded on SQLite as on PostgreSQL)
_READ = select(
    _T.id, _T.name, _T.description, _T.owner, _T.board, _T.version, _T.created_at, _T.updated_at
).where(_T.id == bindparam("id"))


@app.get("/bare/scenarios/{scenario_id}")
def bare_scenario(scenario_id: str) -> dict[str, Any]:
    global _engine
    if _engine is None:
        import os

        from app.db.session import POOL_SIZE

        url = os.environ["MANACALC_DATABASE_URL"]
        options = {} if url.startswith("sqlite") else {"pool_size": POOL_SIZE, "max_overflow": 0}
        _engine = create_engine(url, **options)
    with _engine.connect() as conn:
        row = conn.execute(_READ, {"id": scenario_id}).mappings().first()
    if row is None:
        raise HTTPException(404)
    return dict(row)


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
    from app.cli import server_options
    from app.config import get_settings

    uvicorn.run(
        "bench.bare_app:app", host=ns.host, port=ns.port, workers=ns.workers, **server_options(get_settings())
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
