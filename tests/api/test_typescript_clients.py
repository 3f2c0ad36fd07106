"""TypeScript clients generated from the committed ``openapi/openapi.json`` with default options compile
under ``tsc --strict`` with no error and call every operation of the document against a live server:

- openapi-typescript (types) + openapi-fetch (the fetch wrapper);
- @hey-api/openapi-ts (types, an SDK function per operation and its fetch client).

The generators and the compiler are pinned by ``tools/clients/package-lock.json`` (``npm ci`` there; CI does
it in its own step). For each generator the test writes a program with one typed call per operation, from
the document's own examples (``tests/clients.py``), compiles it with the generated code, runs it with node
and checks that each operation answered its documented success status. Skipped only when the pinned tools
are not installed outside CI.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.clients import DOCUMENT, REPO, Call, calls, ts_value
from tests.live_server import LiveServer, live_server

TOOLS = REPO / "tools" / "clients"
BIN = TOOLS / "node_modules" / ".bin"
NODE = shutil.which("node")

if not (BIN / "tsc").exists() or NODE is None:
    if os.environ.get("CI"):
        pytest.fail(
            "CI is set but tools/clients is not installed: .ci/run runs `npm ci` there", pytrace=False
        )
    pytest.skip(
        "the TypeScript tools are not installed (cd tools/clients && npm ci)", allow_module_level=True
    )

pytestmark = [pytest.mark.slow, pytest.mark.db_free]  # a server on its own SQLite file

TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "target": "ES2022",
        "module": "commonjs",
        "moduleResolution": "node10",
        "lib": ["ES2022", "DOM", "DOM.Iterable"],
        "outDir": "out",
        "skipLibCheck": True,  # the packages' own .d.ts; every generated file is compiled and checked
        "noEmitOnError": True,
    },
    "include": ["*.ts", "**/*.ts"],
    "exclude": ["node_modules", "out"],
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("ts-clients")) as live:
        yield live


@pytest.fixture(scope="module")
def api_key(server: LiveServer) -> str:
    return server.cli("create-api-key", "typescript-client").strip()


def _run(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)


def _project(tmp: Path) -> Path:
    (tmp / "node_modules").symlink_to(TOOLS / "node_modules", target_is_directory=True)
    (tmp / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=2))
    return tmp


def _compile_and_run(project: Path, program: str) -> list[dict[str, object]]:
    (project / "main.ts").write_text(program, encoding="utf-8")
    compiled = _run([str(BIN / "tsc"), "-p", "."], project)
    errors = [line for line in compiled.stdout.splitlines() if ": error TS" in line]
    assert compiled.returncode == 0 and not errors, f"{len(errors)} tsc --strict errors:\n" + compiled.stdout
    ran = _run([NODE or "node", "out/main.js"], project, timeout=600)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    results = json.loads(ran.stdout.strip().splitlines()[-1])
    assert isinstance(results, list), results
    return results


def _check(results: list[dict[str, object]], expected: list[Call]) -> None:
    by_op = {r["op"]: r for r in results}
    used = by_op.pop("used")["data"]
    results = [r for r in results if r["op"] != "used"]
    assert isinstance(used, list) and "<svg" in used, used  # the chart was read as text
    wrong = {
        c.operation_id: (by_op.get(c.operation_id, {}).get("status"), c.status)
        for c in expected
        if by_op.get(c.operation_id, {}).get("status") != c.status
    }
    assert not wrong, f"operations that did not answer their documented status (got, documented): {wrong}"
    assert {str(r["op"]) for r in results} == {c.operation_id for c in expected}
    # A few answers read through the generated types: Herald's Horn with Elf chosen makes Elvish Archers
    # ({1}{G}) cost {1} less (CR 601.2f); the chart is an SVG document.
    cost = by_op["spellCost"]["data"]
    assert isinstance(cost, dict) and cost["total_cost"] == "{G}"
    chart = by_op["deckChart"]["data"]
    assert isinstance(chart, str) and chart.startswith("<svg")
    replaced = by_op["scenarioReplace"]["data"]
    assert isinstance(replaced, dict) and replaced["version"] > 1


# What a program does with an answer, through the generated types (``d`` is the answer's data): a stored
# scenario's board is read as the server sends it (every field there, maps typed by their values), and the
# chart is text. Each line fails to compile when a generator types a field as possibly undefined, a map's
# values as unknown, or the chart as a Blob.
STORED_BOARD = (
    "used.push(d.board.permanents.length, d.board.effects.length,"
    " ...Object.values(d.board.players).map((p) => p.life + (p.graveyard ?? []).length),"
    " ...Object.values(d.board.mana_pool).map((m) => m.length),"
    " ...d.board.permanents.map((p) => Object.values(p.counters ?? {}).reduce((a, b) => a + b, p.x)));"
)
USES = {
    "scenarioCreate": STORED_BOARD,
    "scenarioGet": STORED_BOARD,
    "scenarioReplace": STORED_BOARD,
    "scenarioChoiceSet": STORED_BOARD,
    "scenarioPlayedAsAdd": STORED_BOARD,
    "scenarioList": "used.push(...d.data.map((s) => s.board.permanents.length));",
    "deckChart": "const svg: string = d; used.push(svg.slice(0, 4));",
}


def _use(operation_id: str) -> list[str]:
    use = USES.get(operation_id)
    return [f"    if (r.data !== undefined) {{ const d = r.data; {use} }}"] if use else []


PRELUDE = """
const BASE = {base};
const KEY = {key};
const used: (number | string)[] = [];
const results: {{ op: string; status: number; data: unknown }}[] = [];
let scenarioId = "";
let etag = "";
function record(op: string, response: Response, data: unknown): void {{
  results.push({{ op, status: response.status, data }});
  etag = response.headers.get("etag") ?? etag;
}}
"""

EPILOGUE = """
main().then(
  () => console.log(JSON.stringify([...results, { op: "used", status: 0, data: used }])),
  (error: unknown) => {
    console.log(JSON.stringify([...results, { op: "crash", status: 0, data: String(error) }]));
  },
);
"""


def _openapi_fetch_program(server: LiveServer, key: str, operations: list[Call]) -> str:
    lines = [
        'import createClient from "openapi-fetch";',
        'import type { paths } from "./schema";',
        PRELUDE.format(base=json.dumps(server.url), key=json.dumps(key)),
        "async function main(): Promise<void> {",
        "  const headers = { Authorization: `Bearer ${KEY}` };",
        "  const client = createClient<paths>({ baseUrl: BASE, headers });",
    ]
    for call in operations:
        init = []
        if call.params:
            init.append(f"params: {ts_value(call.params)}")
        if call.body is not None:
            init.append(f"body: {ts_value(call.body)}")
        if call.text:
            init.append('parseAs: "text"')
        lines += [
            "  {",
            f"    const r = await client.{call.method}({json.dumps(call.path)}, {{ {', '.join(init)} }});",
            f"    record({json.dumps(call.operation_id)}, r.response, r.data ?? r.error);",
        ]
        lines += _use(call.operation_id)
        if call.operation_id == "scenarioCreate":
            lines.append("    if (r.data) scenarioId = r.data.id;")
        lines.append("  }")
    lines += ["}", EPILOGUE]
    return "\n".join(lines)


def _hey_api_program(server: LiveServer, key: str, operations: list[Call]) -> str:
    lines = [
        'import { client } from "./hey/client.gen";',
        'import * as sdk from "./hey/sdk.gen";',
        PRELUDE.format(base=json.dumps(server.url), key=json.dumps(key)),
        "async function main(): Promise<void> {",
        "  client.setConfig({ baseUrl: BASE, headers: { Authorization: `Bearer ${KEY}` } });",
    ]
    for call in operations:
        options = []
        for where, name in (("path", "path"), ("query", "query"), ("header", "headers")):
            if call.params.get(where):
                options.append(f"{name}: {ts_value(call.params[where])}")
        if call.body is not None:
            options.append(f"body: {ts_value(call.body)}")
        if call.text:  # "auto" reads image/svg+xml as a Blob
            options.append('parseAs: "text"')
        lines += [
            "  {",
            f"    const r = await sdk.{call.operation_id}({{ {', '.join(options)} }});",
            f"    record({json.dumps(call.operation_id)}, r.response, r.data ?? r.error);",
        ]
        lines += _use(call.operation_id)
        if call.operation_id == "scenarioCreate":
            lines.append("    if (r.data) scenarioId = r.data.id;")
        lines.append("  }")
    lines += ["}", EPILOGUE]
    return "\n".join(lines)


def test_openapi_typescript_with_openapi_fetch(server: LiveServer, api_key: str, tmp_path: Path) -> None:
    project = _project(tmp_path)
    generated = _run([str(BIN / "openapi-typescript"), str(DOCUMENT), "-o", "schema.d.ts"], project)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    operations = calls()
    results = _compile_and_run(project, _openapi_fetch_program(server, api_key, operations))
    _check(results, operations)


def test_hey_api_openapi_ts(server: LiveServer, api_key: str, tmp_path: Path) -> None:
    project = _project(tmp_path)
    generated = _run([str(BIN / "openapi-ts"), "-i", str(DOCUMENT), "-o", "hey"], project)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    operations = calls()
    results = _compile_and_run(project, _hey_api_program(server, api_key, operations))
    _check(results, operations)
