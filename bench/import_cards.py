"""Time and peak memory of ``manacalc import-cards`` on the shared 23,743-card Scryfall file.

    .venv/bin/python bench/import_cards.py [FILE] [--postgres URL]

Each import runs in a fresh child process on a fresh, migrated database (a SQLite file in a temporary
directory; a PostgreSQL database created for the run and dropped after), so peak RSS is the import's own.
The baseline, measured in the same run, is ``json.load`` of the same file in a child process: the ratio says
what streaming, converting and writing cost over merely reading the JSON. Targets: under 60 s, under 400 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FILE = ROOT.parent / "shared" / "data" / "scryfall-oracle-cards.json"
TARGET_SECONDS = 60.0
TARGET_MB = 400.0


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


def child_baseline(path: Path) -> dict[str, float]:
    started = time.perf_counter()
    with path.open(encoding="utf-8") as fh:
        cards = json.load(fh)
    return {"seconds": time.perf_counter() - started, "peak_mb": _peak_mb(), "cards": len(cards)}


def child_import(url: str, path: Path) -> dict[str, float]:
    sys.path.insert(0, str(ROOT))
    from app.config import Settings
    from app.db.migrate import upgrade_to_head
    from app.db.session import get_engine, get_sessionmaker
    from app.services.card_import import import_cards

    engine = get_engine(Settings(database_url=url, statement_timeout_ms=0))
    upgrade_to_head(engine)
    started = time.perf_counter()
    with get_sessionmaker(engine)() as session, session.begin():
        report = import_cards(session, path)
    seconds = time.perf_counter() - started
    engine.dispose()
    return {"seconds": seconds, "peak_mb": _peak_mb(), "cards": report.imported, "skipped": report.skipped}


def _run_child(*args: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", *args], check=True, capture_output=True, text=True, cwd=ROOT
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _postgres_database(url: str) -> tuple[str, str] | None:
    """A fresh database on the server of ``url`` (its URL, and its name to drop), or None if unreachable."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    name = f"manacalc_bench_{uuid.uuid4().hex[:8]}"
    parsed = make_url(url)
    try:
        admin = create_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        admin.dispose()
    except Exception as exc:
        print(f"postgresql: skipped ({exc.__class__.__name__}: {str(exc).splitlines()[0]})")
        return None
    return parsed.set(database=name).render_as_string(hide_password=False), name


def _drop_postgres(url: str, name: str) -> None:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    admin = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
    admin.dispose()


def _report(label: str, result: dict[str, float], baseline: dict[str, float]) -> bool:
    ok = result["seconds"] < TARGET_SECONDS and result["peak_mb"] < TARGET_MB
    print(
        f"{label:<11} {int(result['cards']):>6} cards  {result['seconds']:6.1f} s "
        f"({result['seconds'] / baseline['seconds']:5.1f}x json.load)  peak {result['peak_mb']:6.1f} MB "
        f"({result['peak_mb'] / baseline['peak_mb']:4.2f}x json.load)  "
        f"{'OK' if ok else 'OVER TARGET'} (< {TARGET_SECONDS:.0f} s, < {TARGET_MB:.0f} MB)"
    )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    parser.add_argument(
        "--postgres",
        default=os.environ.get("MANACALC_TEST_DATABASE_URL", "postgresql+psycopg:///postgres"),
        help="a PostgreSQL URL whose server gets a temporary database (default MANACALC_TEST_DATABASE_URL)",
    )
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    ns = parser.parse_args(argv)
    if ns.child:
        kind, *rest = ns.child
        result = child_baseline(Path(rest[0])) if kind == "baseline" else child_import(rest[0], Path(rest[1]))
        print(json.dumps(result))
        return 0
    if not ns.file.is_file():
        print(f"{ns.file}: not found (the shared data is absent)")
        return 1
    baseline = _run_child("baseline", str(ns.file))
    print(
        f"baseline    {int(baseline['cards']):>6} cards  {baseline['seconds']:6.1f} s (json.load)"
        f"           peak {baseline['peak_mb']:6.1f} MB"
    )
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        ok &= _report("sqlite", _run_child("import", f"sqlite:///{tmp}/bench.db", str(ns.file)), baseline)
    created = _postgres_database(ns.postgres)
    if created is not None:
        url, name = created
        try:
            ok &= _report("postgresql", _run_child("import", url, str(ns.file)), baseline)
        finally:
            _drop_postgres(ns.postgres, name)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
