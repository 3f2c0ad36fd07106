#!/usr/bin/env bash
# Load on loopback with wrk: POST /v1/spells/cost and POST /v1/payments/plan (skipped with a message when
# the route is missing) served by `manacalc serve --workers N` for N = 1 and 2, each against a bare FastAPI
# endpoint (bench/bare_app.py, same uvicorn settings, same body) measured in the same run. Prints requests
# per second, p50 and p99 latency, the ratio to the bare endpoint, the 2-worker/1-worker scaling and the
# peak resident memory (VmHWM) of each worker, with the full shared catalogue imported into a temporary
# SQLite database (the bundled catalogue alone when ../shared/data is absent).
#
#   bench/load.sh                          DURATION=10s CONNECTIONS=32 WRK_THREADS=1 bench/load.sh
#
# Targets: >= 0.8 of the bare endpoint; 2 workers >= 1.6 x 1 worker; < 200 MB per worker. Exits 1 if a
# measurement fails (an error or a non-2xx answer under load), not when a target is missed: the table
# says which targets are met. Needs wrk (`apt-get install -y wrk`). Rate limiting is switched off for the
# run (every request comes from one address); logging stays at its default (one access line a request).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-$ROOT/.venv/bin/python}"
MANACALC="$(dirname "$PY")/manacalc"
DURATION="${DURATION:-10s}"
WARMUP="${WARMUP:-3s}"
CONNECTIONS="${CONNECTIONS:-32}"
WRK_THREADS="${WRK_THREADS:-1}"
CATALOGUE="${CATALOGUE:-$ROOT/../shared/data/scryfall-oracle-cards.json}"

if ! command -v wrk >/dev/null; then
    echo "wrk is not installed: apt-get install -y wrk" >&2
    exit 1
fi

TMP="$(mktemp -d)"
SERVER_PID=""
stop_server() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID"
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    SERVER_PID=""
}
cleanup() {
    stop_server
    rm -rf "$TMP"
}
trap cleanup EXIT

export MANACALC_DATABASE_URL="sqlite:///$TMP/load.db"
export MANACALC_RATE_LIMIT_PER_MINUTE=0

echo "== catalogue"
if [[ -f "$CATALOGUE" ]]; then
    "$MANACALC" import-cards "$CATALOGUE" 2>/dev/null
else
    echo "no $CATALOGUE: the bundled catalogue only"
    "$MANACALC" migrate 2>/dev/null
fi

cat >"$TMP/cost.json" <<'EOF'
{"board": {"permanents": [
  {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Cleric"}},
  {"id": "sphere", "card": "Sphere of Resistance", "controller": "opponent"},
  {"id": "thalia", "card": "Thalia, Guardian of Thraben", "controller": "opponent"},
  {"id": "elves", "card": "Llanowar Elves"},
  {"id": "f1", "card": "Forest"}, {"id": "f2", "card": "Forest"}, {"id": "f3", "card": "Forest"},
  {"id": "p1", "card": "Plains"}, {"id": "p2", "card": "Plains"}, {"id": "p3", "card": "Plains"}]},
 "spell": {"card": "Avacynian Priest"}}
EOF
cat >"$TMP/plan.json" <<'EOF'
{"player": "you", "cost": "{2}{G}{G}", "board": {"permanents": [
  {"id": "f1", "card": "Forest"}, {"id": "f2", "card": "Forest"}, {"id": "pool", "card": "Reflecting Pool"},
  {"id": "sol", "card": "Sol Ring"}, {"id": "orchard", "card": "Exotic Orchard"},
  {"id": "island", "card": "Island", "controller": "opponent"}, {"id": "elves", "card": "Llanowar Elves"}]}}
EOF

# One wrk script per body: POST it, and print one parseable line at the end.
lua_for() {
    "$PY" - "$1" "$2" <<'EOF'
import json, sys
body = json.dumps(json.load(open(sys.argv[1])), separators=(",", ":"))
open(sys.argv[2], "w").write(f"""wrk.method = "POST"
wrk.body = {json.dumps(body)}
wrk.headers["Content-Type"] = "application/json"
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %.1f %.3f %.3f %d %d\\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, e.connect + e.read + e.write + e.timeout, e.status))
end
""")
EOF
}
lua_for "$TMP/cost.json" "$TMP/cost.lua"
lua_for "$TMP/plan.json" "$TMP/plan.lua"

free_port() {
    "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_up() {  # wait_up URL: until it answers 200 (60 s at most)
    for _ in $(seq 1 600); do
        if "$PY" -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('$1', timeout=1).status != 200)" \
            2>/dev/null; then
            return 0
        fi
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            echo "the server exited; its log:" >&2
            tail -n 40 "$TMP/server.log" >&2
            return 1
        fi
        sleep 0.1
    done
    echo "no answer from $1 after 60 s" >&2
    return 1
}

RESULTS="$TMP/results.tsv"
: >"$RESULTS"
measure() {  # measure LABEL WORKERS URL LUA: warm up, then record rps, p50, p99
    local label="$1" workers="$2" url="$3" lua="$4" line
    wrk -t "$WRK_THREADS" -c "$CONNECTIONS" -d "$WARMUP" -s "$lua" "$url" >/dev/null
    line="$(wrk -t "$WRK_THREADS" -c "$CONNECTIONS" -d "$DURATION" --latency -s "$lua" "$url" | grep '^RESULT')"
    read -r _ rps p50 p99 errors non2xx <<<"$line"
    if [[ "$errors" != 0 || "$non2xx" != 0 ]]; then
        echo "$label ($workers workers): $errors socket errors, $non2xx non-2xx answers: not a valid measurement" >&2
        exit 1
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$workers" "$rps" "$p50" "$p99" >>"$RESULTS"
    printf '  %-18s %s workers  %9.1f req/s  p50 %7.2f ms  p99 %7.2f ms\n' "$label" "$workers" "$rps" "$p50" "$p99"
}

peak_rss() {  # peak_rss WORKERS: the largest VmHWM (kB) among the server's worker processes
    local workers="$1" pids peak=0 kb
    if [[ "$workers" == 1 ]]; then pids="$SERVER_PID"; else pids="$(pgrep -P "$SERVER_PID" || true)"; fi
    for pid in $pids; do
        kb="$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)"
        if [[ -n "$kb" && "$kb" -gt "$peak" ]]; then peak="$kb"; fi
    done
    printf 'rss\t%s\t%s\n' "$workers" "$peak" >>"$RESULTS"
    printf '  %-18s %s workers  peak RSS of a worker: %.1f MB\n' "memory" "$workers" "$(awk -v k="$peak" 'BEGIN { print k / 1024 }')"
}

PLAN=1
for workers in 1 2; do
    echo "== $workers worker(s)"
    port="$(free_port)"
    "$MANACALC" serve --port "$port" --workers "$workers" >"$TMP/server.log" 2>&1 &
    SERVER_PID=$!
    wait_up "http://127.0.0.1:$port/readyz"
    measure "spells/cost" "$workers" "http://127.0.0.1:$port/v1/spells/cost" "$TMP/cost.lua"
    if [[ "$PLAN" == 1 ]]; then
        status="$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
            --data @"$TMP/plan.json" "http://127.0.0.1:$port/v1/payments/plan")"
        if [[ "$status" == 200 ]]; then
            measure "payments/plan" "$workers" "http://127.0.0.1:$port/v1/payments/plan" "$TMP/plan.lua"
        else
            echo "  payments/plan answers $status (route missing or unfinished): skipped"
            PLAN=0
        fi
    fi
    peak_rss "$workers"
    stop_server

    port="$(free_port)"
    "$PY" bench/bare_app.py --port "$port" --workers "$workers" >"$TMP/server.log" 2>&1 &
    SERVER_PID=$!
    wait_up "http://127.0.0.1:$port/healthz"
    measure "bare (cost body)" "$workers" "http://127.0.0.1:$port/bare/cost" "$TMP/cost.lua"
    if [[ "$PLAN" == 1 ]]; then
        measure "bare (plan body)" "$workers" "http://127.0.0.1:$port/bare/plan" "$TMP/plan.lua"
    fi
    stop_server
done

echo "== summary ($(nproc) CPUs, wrk -t $WRK_THREADS -c $CONNECTIONS -d $DURATION on the same machine)"
"$PY" - "$RESULTS" <<'EOF'
import sys

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
rps = {(r[0], int(r[1])): float(r[2]) for r in rows if r[0] != "rss"}
rss = {int(r[1]): int(r[2]) / 1024 for r in rows if r[0] == "rss"}


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


for endpoint, bare in (("spells/cost", "bare (cost body)"), ("payments/plan", "bare (plan body)")):
    if (endpoint, 1) not in rps:
        continue
    for workers in (1, 2):
        ratio = rps[(endpoint, workers)] / rps[(bare, workers)]
        print(f"  {endpoint:<14} {workers} workers: {ratio:.2f} of the bare endpoint (target 0.8: {verdict(ratio >= 0.8)})")
    scaling = rps[(endpoint, 2)] / rps[(endpoint, 1)]
    bare_scaling = rps[(bare, 2)] / rps[(bare, 1)]
    print(f"  {endpoint:<14} 2 workers / 1 worker: {scaling:.2f} (target 1.6: {verdict(scaling >= 1.6)});"
          f" the bare endpoint's: {bare_scaling:.2f}")
for workers, mb in sorted(rss.items()):
    print(f"  memory         {workers} workers: {mb:.1f} MB peak per worker (target < 200: {verdict(mb < 200)})")
EOF
