#!/usr/bin/env bash
# Scenario reads under load with wrk: GET /v1/scenarios/{id} (API key auth, one stored 10-permanent board)
# served by `manacalc serve --workers N`, against GET /healthz of the same server (no database) in the same
# run. Issue 14's goal: >= 1,000 scenario reads/s on PostgreSQL with 2 workers.
#
#   MANACALC_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/mydb WORKERS=2 bench/scenario_reads.sh
#
# The database must be one you may write to (it is migrated, and gets an API key and a scenario). Default:
# a temporary SQLite file. Rate limiting is off for the run. Needs wrk (`apt-get install -y wrk`).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-$ROOT/.venv/bin/python}"
MANACALC="$(dirname "$PY")/manacalc"
DURATION="${DURATION:-10s}"
CONNECTIONS="${CONNECTIONS:-32}"
WORKERS="${WORKERS:-2}"
TMP="$(mktemp -d)"
SERVER_PID=""
cleanup() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID"
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT

export MANACALC_DATABASE_URL="${MANACALC_DATABASE_URL:-sqlite:///$TMP/reads.db}"
export MANACALC_RATE_LIMIT_PER_MINUTE=0
"$MANACALC" migrate >/dev/null 2>&1
KEY="$("$MANACALC" create-api-key "bench-reads-$(date +%s%N)" 2>/dev/null | grep -o 'mck_[A-Za-z0-9_-]*' | head -n 1)"
PORT="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$MANACALC" serve --port "$PORT" --workers "$WORKERS" >"$TMP/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 600); do
    curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null && break
    sleep 0.1
done
BOARD='{"name": "bench", "board": {"permanents": [
  {"id": "horn", "card": "Herald'"'"'s Horn", "chosen": {"creature_type": "Cleric"}},
  {"id": "sphere", "card": "Sphere of Resistance", "controller": "opponent"},
  {"id": "thalia", "card": "Thalia, Guardian of Thraben", "controller": "opponent"},
  {"id": "elves", "card": "Llanowar Elves"},
  {"id": "f1", "card": "Forest"}, {"id": "f2", "card": "Forest"}, {"id": "f3", "card": "Forest"},
  {"id": "p1", "card": "Plains"}, {"id": "p2", "card": "Plains"}, {"id": "p3", "card": "Plains"}]}}'
ID="$(curl -sf -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' --data "$BOARD" \
    "http://127.0.0.1:$PORT/v1/scenarios" | "$PY" -c 'import json, sys; print(json.load(sys.stdin)["id"])')"
cat >"$TMP/get.lua" <<EOF
wrk.headers["Authorization"] = "Bearer $KEY"
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.1f %.3f %.3f %d\\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status))
end
EOF
measure() {  # measure LABEL URL
    wrk -t 1 -c "$CONNECTIONS" -d 2s -s "$TMP/get.lua" "$2" >/dev/null
    read -r _ rps p50 p99 non2xx <<<"$(wrk -t 1 -c "$CONNECTIONS" -d "$DURATION" --latency -s "$TMP/get.lua" "$2" | grep '^RESULT')"
    if [[ "$non2xx" != 0 ]]; then echo "$1: $non2xx non-2xx answers" >&2; exit 1; fi
    printf '  %-22s %s workers  %9.1f req/s  p50 %7.2f ms  p99 %7.2f ms\n' "$1" "$WORKERS" "$rps" "$p50" "$p99"
    echo "$rps" >"$TMP/$3"
}
echo "== $(echo "$MANACALC_DATABASE_URL" | sed 's#//[^@]*@#//#'), $(nproc) CPUs, wrk -c $CONNECTIONS -d $DURATION"
measure "GET /v1/scenarios/{id}" "http://127.0.0.1:$PORT/v1/scenarios/$ID" scenario
measure "GET /healthz" "http://127.0.0.1:$PORT/healthz" health
"$PY" -c "import sys; s, h = (float(open(f).read()) for f in sys.argv[1:]); print(f'  scenario reads: {s:.0f}/s, {s / h:.2f} of /healthz (goal >= 1,000/s on PostgreSQL with 2 workers: {\"met\" if s >= 1000 else \"MISSED\"})')" "$TMP/scenario" "$TMP/health"
curl -sf -X DELETE -H "Authorization: Bearer $KEY" "http://127.0.0.1:$PORT/v1/scenarios/$ID" >/dev/null || true
