"""Record the response example of every operation of the OpenAPI document: each operation's first request
example is sent to the service (on a fresh SQLite database with the bundled catalogue), and its answer is
written to ``app/data/response_examples.json``, which ``app.api.docs`` attaches to the document.

    .venv/bin/python tools/response_examples.py        # then `make openapi`

``tests/api/test_openapi_examples.py`` replays the same requests and fails when an answer no longer matches
its recorded example (ids, times and the catalogue's data version aside), as ``make openapi`` is checked.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.clients import Call, Expr, calls  # noqa: E402

RESPONSE_EXAMPLES_FILE = REPO / "app" / "data" / "response_examples.json"
_AGE = re.compile(r"\b[0-9]+ days old\b")
VARYING = frozenset({"id", "created_at", "updated_at", "data_version", "legalities_as_of", "database"})
"""Fields whose value differs from one run or database to the next (``database``: /readyz's backend):
compared as present, not by value."""
UNCOMPARED = frozenset({"metrics"})
"""Operations whose whole answer changes with every request (counters): recorded, never compared."""


def _resolve(value: Any, variables: dict[str, str]) -> Any:
    return variables[value.code] if isinstance(value, Expr) else value


def _url(call: Call, variables: dict[str, str]) -> str:
    url = call.path
    for name, value in call.params.get("path", {}).items():
        url = url.replace("{" + name + "}", quote(str(_resolve(value, variables)), safe=""))
    query = [
        f"{name}={quote(str(_resolve(value, variables)), safe='')}"
        for name, value in call.params.get("query", {}).items()
    ]
    return url + ("?" + "&".join(query) if query else "")


def record(client: Any, api_key: str, document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """``{operationId: {"status", "media_type", "value"}}``: each operation's answer to its first request
    example, through ``client`` (a Starlette ``TestClient`` or anything with its ``request``)."""
    variables = {"scenarioId": "", "etag": ""}
    out: dict[str, dict[str, Any]] = {}
    for call in calls(document):
        headers = {"Authorization": f"Bearer {api_key}"}
        for name, value in call.params.get("header", {}).items():
            headers[name] = str(_resolve(value, variables))
        answer = client.request(call.method, _url(call, variables), json=call.body, headers=headers)
        assert answer.status_code == call.status, (call.operation_id, answer.status_code, answer.text[:500])
        variables["etag"] = answer.headers.get("etag", variables["etag"])
        media = answer.headers.get("content-type", "").split(";")[0]
        value: Any = None
        if answer.content:
            value = answer.json() if media.endswith("json") else answer.text
        if call.operation_id == "scenarioCreate":
            variables["scenarioId"] = value["id"]
        if call.operation_id in UNCOMPARED and isinstance(value, str):
            value = "\n".join(value.splitlines()[:24]) + "\n"  # its first series: the rest is more of them
        out[call.operation_id] = {"status": answer.status_code, "media_type": media, "value": value}
    return out


def normalised(value: Any) -> Any:
    """``value`` with the ``VARYING`` fields' values replaced by a marker, at any depth, and the age of the
    catalogue's legality data in a warning's words (it grows by one every day) by another."""
    if isinstance(value, dict):
        return {k: ("<varies>" if k in VARYING else normalised(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [normalised(v) for v in value]
    if isinstance(value, str):
        return _AGE.sub("<n> days old", value)
    return value


def main() -> None:
    from fastapi.testclient import TestClient
    from sqlalchemy.orm import Session

    from app.config import Settings
    from app.db.migrate import upgrade_to_head
    from app.db.session import get_engine
    from app.main import create_app, run_startup_hooks
    from app.services.api_keys import create_api_key

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database_url=f"sqlite:///{tmp}/examples.db", rate_limit_per_minute=0, log_level="WARNING"
        )
        engine = get_engine(settings)
        upgrade_to_head(engine)
        run_startup_hooks(engine, settings)
        with Session(engine) as session:
            key = create_api_key(session, name="response-examples")
            session.commit()
        app = create_app(settings)
        with TestClient(app) as client:
            examples = record(client, key, app.openapi())
        engine.dispose()
    RESPONSE_EXAMPLES_FILE.write_text(
        json.dumps(examples, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"wrote {RESPONSE_EXAMPLES_FILE.relative_to(REPO)}: {len(examples)} operations", file=sys.stderr)


if __name__ == "__main__":
    main()
