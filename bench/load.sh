#!/usr/bin/env bash
# Issue 14's load figures with wrk on loopback: POST /v1/spells/cost, POST /v1/payments/plan and
# GET /v1/scenarios/{id} served by `manacalc serve --workers N` (N = 1 and 2) from the built wheel that
# `make run` serves, each against its bare twin in bench/bare_app.py (a bare FastAPI endpoint on uvicorn's
# defaults, the same body or the same row read). Both servers run side by side and are measured in alternation, ROUNDS times, so that a machine
# that gets busier or quieter during the run moves both sides of a ratio alike; each ratio is the median
# of its rounds, with the lowest and highest. Also printed: requests per second and latency, the peak
# resident memory (VmHWM) of each worker, and the time from `manacalc serve` to a ready /readyz.
#
#   bench/load.sh
#   MANACALC_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/mydb bench/load.sh
#   ROUNDS=5 DURATION=5s CONNECTIONS=32 WORKERS="1 2" VARIED=0 bench/load.sh
#   BASE=/tmp/base/.venv-run/bin/manacalc VARIED=1 WORKERS=1 bench/load.sh
#
# BASE names another build's `manacalc` (a base commit's wheel in a `git worktree`): it is served beside
# ours on the same database and measured in the same rounds, ours, its bare twin, then the base, so each
# row also says what ours does as a multiple of the base's requests per second, round by round. Two runs
# of this script, one per build, differ by more than the builds do on a machine shared with others.
#
# The database: a temporary SQLite file by default; MANACALC_DATABASE_URL picks another (it is migrated,
# the shared catalogue is imported into it, and it gets an API key and a scenario, deleted at the end).
# The catalogue is ../shared/data's full Scryfall file when present, else the bundled one.
#
# The compute bodies are the same on every request, as the issue measures them; a board asked about
# again is read once (app/services/board_memo.py). VARIED=1 adds rows where every request carries a
# board of its own (a permanent id that changes each time), which measures the same work with the board
# read every time, and a 25-permanent `payments/plan` board varied the same way (issue 30).
#
# Goals (issue 14): spells/cost >= 0.5 and payments/plan >= 0.4 of the bare twin at 1 worker;
# >= 1,000 scenario reads/s on PostgreSQL with 2 workers; <= 300 MB per worker; ready in <= 5 s.
# Exits 1 if a measurement fails (an error or a non-2xx answer under load), not when a goal is missed:
# the summary says which are met. Rate limiting is off (every request comes from one address); logging
# stays at its default (one access line a request). Needs wrk (`apt-get install -y wrk`).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-$ROOT/.venv/bin/python}"
# The product as `make run` serves it: the built wheel (its rules core compiled where a compiler exists).
MANACALC="${MANACALC:-$ROOT/.venv-run/bin/manacalc}"
[[ -x "$MANACALC" ]] || make -s install-run
DURATION="${DURATION:-5s}"
WARMUP="${WARMUP:-2s}"
ROUNDS="${ROUNDS:-3}"
CONNECTIONS="${CONNECTIONS:-32}"
WORKERS="${WORKERS:-1 2}"
VARIED="${VARIED:-0}"
CATALOGUE="${CATALOGUE:-$ROOT/../shared/data/scryfall-oracle-cards.json}"

if ! command -v wrk >/dev/null; then
    echo "wrk is not installed: apt-get install -y wrk" >&2
    exit 1
fi

TMP="$(mktemp -d)"
OURS_PID=""
BARE_PID=""
BASE_PID=""
BASE="${BASE:-}"
stop() {  # stop PID
    if [[ -n "$1" ]] && kill -0 "$1" 2>/dev/null; then
        kill -TERM "$1"
        wait "$1" 2>/dev/null || true
    fi
}
cleanup() {
    stop "$OURS_PID"
    stop "$BARE_PID"
    stop "$BASE_PID"
    rm -rf "$TMP"
}
trap cleanup EXIT

export MANACALC_DATABASE_URL="${MANACALC_DATABASE_URL:-sqlite:///$TMP/load.db}"
export MANACALC_RATE_LIMIT_PER_MINUTE=0

echo "== catalogue into $(echo "$MANACALC_DATABASE_URL" | sed 's#//[^@]*@#//#')"
if [[ -f "$CATALOGUE" ]]; then
    "$MANACALC" import-cards "$CATALOGUE" 2>/dev/null
else
    echo "no $CATALOGUE: the bundled catalogue only"
    "$MANACALC" migrate 2>/dev/null
fi
KEY="$("$MANACALC" create-api-key "bench-load-$(date +%s%N)" 2>/dev/null | grep -o 'mck_[A-Za-z0-9_-]*' | head -n 1)"

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
# Issue 30's larger board: 25 permanents of the common kinds (basics, shocks, a filter of any color, Sol Ring,
# a Signet-like rock, mana creatures, an Altar with a creature to sacrifice, a Drum, a Vivid land's counters).
cat >"$TMP/plan25.json" <<'EOF'
{"player": "you", "cost": "{3}{G}{U}{W}", "board": {"permanents": [
  {"id": "f1", "card": "Forest"}, {"id": "f2", "card": "Forest"}, {"id": "f3", "card": "Forest"},
  {"id": "i1", "card": "Island"}, {"id": "i2", "card": "Island"}, {"id": "p1", "card": "Plains"},
  {"id": "s1", "card": "Swamp"}, {"id": "m1", "card": "Mountain"}, {"id": "pool", "card": "Reflecting Pool"},
  {"id": "orchard", "card": "Exotic Orchard"}, {"id": "brass", "card": "City of Brass"},
  {"id": "breeding", "card": "Breeding Pool"}, {"id": "tomb", "card": "Overgrown Tomb"},
  {"id": "garden", "card": "Temple Garden"}, {"id": "sol", "card": "Sol Ring"},
  {"id": "signet", "card": "Arcane Signet"}, {"id": "lotus", "card": "Gilded Lotus"},
  {"id": "talisman", "card": "Talisman of Progress"}, {"id": "elves", "card": "Llanowar Elves"},
  {"id": "birds", "card": "Birds of Paradise"}, {"id": "altar", "card": "Ashnod's Altar"},
  {"id": "bears", "card": "Grizzly Bears"}, {"id": "drum", "card": "Springleaf Drum"},
  {"id": "vivid", "card": "Vivid Grove", "counters": {"charge": 2}},
  {"id": "island", "card": "Island", "controller": "opponent"}]}}
EOF
SCENARIO='{"name": "bench-load", "board": {"permanents": [
  {"id": "horn", "card": "Herald'"'"'s Horn", "chosen": {"creature_type": "Cleric"}},
  {"id": "sphere", "card": "Sphere of Resistance", "controller": "opponent"},
  {"id": "thalia", "card": "Thalia, Guardian of Thraben", "controller": "opponent"},
  {"id": "elves", "card": "Llanowar Elves"},
  {"id": "f1", "card": "Forest"}, {"id": "f2", "card": "Forest"}, {"id": "f3", "card": "Forest"},
  {"id": "p1", "card": "Plains"}, {"id": "p2", "card": "Plains"}, {"id": "p3", "card": "Plains"}]}}'

lua_tail() {  # what every wrk script ends with: the API key (only the scenario read needs it) and a
    # parseable RESULT line (req/s, p50 and p99 in ms, socket errors, non-2xx answers)
    cat <<EOF
wrk.headers["Authorization"] = "Bearer $KEY"
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %.1f %.3f %.3f %d %d\\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, e.connect + e.read + e.write + e.timeout, e.status))
end
EOF
}

# One wrk script per body: POST it (VARIED: with the first permanent's id changed on every request), and
# end with lua_tail.
lua_for() {  # lua_for JSON_FILE OUT_LUA VARIED
    "$PY" - "$1" "$2" "$3" "$KEY" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
varied = sys.argv[3] == "1"
body = json.dumps(doc, separators=(",", ":"))
if varied:
    first = doc["board"]["permanents"][0]["id"]
    head, tail = body.split(f'"id":"{first}"', 1)
    request = f"""counter = 0
request = function()
  counter = counter + 1
  return wrk.format(nil, nil, nil, {json.dumps(head)} .. '"id":"v' .. counter .. '"' .. {json.dumps(tail)})
end
"""
else:
    request = f"wrk.body = {json.dumps(body)}\n"
open(sys.argv[2], "w").write(f"""wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
{request}""")
EOF
    lua_tail >>"$2"
}
lua_for "$TMP/cost.json" "$TMP/cost.lua" 0
lua_for "$TMP/plan.json" "$TMP/plan.lua" 0
lua_for "$TMP/cost.json" "$TMP/cost-varied.lua" 1
lua_for "$TMP/plan.json" "$TMP/plan-varied.lua" 1
lua_for "$TMP/plan25.json" "$TMP/plan25-varied.lua" 1
lua_tail >"$TMP/get.lua"

free_port() {
    "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_up() {  # wait_up URL PID: until it answers 200 (60 s at most)
    for _ in $(seq 1 1200); do
        if curl -sf -o /dev/null "$1"; then
            return 0
        fi
        if ! kill -0 "$2" 2>/dev/null; then
            echo "the server exited; its log:" >&2
            tail -n 40 "$TMP/server.log" >&2
            return 1
        fi
        sleep 0.05
    done
    echo "no answer from $1 after 60 s" >&2
    return 1
}

RESULTS="$TMP/results.tsv"
: >"$RESULTS"
measure() {  # measure LABEL WORKERS ROUND URL LUA: record rps, p50, p99
    local label="$1" workers="$2" round="$3" url="$4" lua="$5" line
    line="$(wrk -t 1 -c "$CONNECTIONS" -d "$DURATION" --timeout 10s --latency -s "$lua" "$url" | grep '^RESULT')"
    read -r _ rps p50 p99 errors non2xx <<<"$line"
    if [[ "$errors" != 0 || "$non2xx" != 0 ]]; then
        echo "$label ($workers workers): $errors socket errors, $non2xx non-2xx answers: not a valid measurement" >&2
        exit 1
    fi
    printf 'rps\t%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$workers" "$round" "$rps" "$p50" "$p99" >>"$RESULTS"
    printf '  %-26s %s workers  round %s %9.1f req/s  p50 %7.2f ms  p99 %7.2f ms\n' \
        "$label" "$workers" "$round" "$rps" "$p50" "$p99"
}

peak_rss() {  # peak_rss WORKERS: the largest VmHWM (kB) among the server's worker processes
    local workers="$1" pids peak=0 kb
    if [[ "$workers" == 1 ]]; then pids="$OURS_PID"; else pids="$(pgrep -P "$OURS_PID" || true)"; fi
    for pid in $pids; do
        kb="$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)"
        if [[ -n "$kb" && "$kb" -gt "$peak" ]]; then peak="$kb"; fi
    done
    printf 'rss\t%s\t%s\n' "$workers" "$peak" >>"$RESULTS"
}

SCENARIO_ID=""
for workers in $WORKERS; do
    echo "== $workers worker(s)"
    ours="$(free_port)"
    started="$(date +%s.%N)"
    "$MANACALC" serve --port "$ours" --workers "$workers" >"$TMP/server.log" 2>&1 &
    OURS_PID=$!
    wait_up "http://127.0.0.1:$ours/readyz" "$OURS_PID"
    printf 'ready\t%s\t%s\n' "$workers" "$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')" >>"$RESULTS"
    if [[ -z "$SCENARIO_ID" ]]; then
        SCENARIO_ID="$(curl -sf -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \
            --data "$SCENARIO" "http://127.0.0.1:$ours/v1/scenarios" |
            "$PY" -c 'import json, sys; print(json.load(sys.stdin)["id"])')"
    fi
    bare="$(free_port)"
    "$PY" bench/bare_app.py --port "$bare" --workers "$workers" >"$TMP/bare.log" 2>&1 &
    BARE_PID=$!
    wait_up "http://127.0.0.1:$bare/healthz" "$BARE_PID"
    if [[ -n "$BASE" ]]; then
        base="$(free_port)"
        "$BASE" serve --port "$base" --workers "$workers" >"$TMP/base.log" 2>&1 &
        BASE_PID=$!
        wait_up "http://127.0.0.1:$base/readyz" "$BASE_PID"
    fi

    # label, our URL, bare URL, script
    cases=(
        "spells/cost|http://127.0.0.1:$ours/v1/spells/cost|http://127.0.0.1:$bare/bare/cost|cost.lua"
        "payments/plan|http://127.0.0.1:$ours/v1/payments/plan|http://127.0.0.1:$bare/bare/plan|plan.lua"
        "scenario GET|http://127.0.0.1:$ours/v1/scenarios/$SCENARIO_ID|http://127.0.0.1:$bare/bare/scenarios/$SCENARIO_ID|get.lua"
    )
    if [[ "$VARIED" == 1 ]]; then
        cases+=(
            "spells/cost varied|http://127.0.0.1:$ours/v1/spells/cost|http://127.0.0.1:$bare/bare/cost|cost-varied.lua"
            "payments/plan varied|http://127.0.0.1:$ours/v1/payments/plan|http://127.0.0.1:$bare/bare/plan|plan-varied.lua"
            "payments/plan varied 25|http://127.0.0.1:$ours/v1/payments/plan|http://127.0.0.1:$bare/bare/plan|plan25-varied.lua"
        )
    fi
    for spec in "${cases[@]}"; do  # warm both sides (first look-ups, pools, the scenario key's cache)
        IFS='|' read -r label url bare_url lua <<<"$spec"
        wrk -t 1 -c "$CONNECTIONS" -d "$WARMUP" -s "$TMP/$lua" "$url" >/dev/null
        wrk -t 1 -c "$CONNECTIONS" -d "$WARMUP" -s "$TMP/$lua" "$bare_url" >/dev/null
        if [[ -n "$BASE" ]]; then
            wrk -t 1 -c "$CONNECTIONS" -d "$WARMUP" -s "$TMP/$lua" "${url/:$ours\//:$base/}" >/dev/null
        fi
    done
    for round in $(seq 1 "$ROUNDS"); do
        for spec in "${cases[@]}"; do
            IFS='|' read -r label url bare_url lua <<<"$spec"
            measure "$label" "$workers" "$round" "$url" "$TMP/$lua"
            measure "bare $label" "$workers" "$round" "$bare_url" "$TMP/$lua"
            if [[ -n "$BASE" ]]; then
                measure "base $label" "$workers" "$round" "${url/:$ours\//:$base/}" "$TMP/$lua"
            fi
        done
    done
    peak_rss "$workers"
    stop "$BARE_PID"
    BARE_PID=""
    stop "$BASE_PID"
    BASE_PID=""
    curl -sf -o /dev/null -X DELETE -H "Authorization: Bearer $KEY" \
        "http://127.0.0.1:$ours/v1/scenarios/$SCENARIO_ID" && SCENARIO_ID=""
    stop "$OURS_PID"
    OURS_PID=""
done

echo "== summary ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), wrk -c $CONNECTIONS -d $DURATION x $ROUNDS rounds, $(echo "$MANACALC_DATABASE_URL" | cut -d: -f1))"
"$PY" - "$RESULTS" "$MANACALC_DATABASE_URL" <<'EOF'
import statistics
import sys
from collections import defaultdict

rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1]) if line.strip()]
postgres = sys.argv[2].startswith("postgresql")
rps: dict[tuple[str, int], dict[int, float]] = defaultdict(dict)
rss: dict[int, float] = {}
ready: dict[int, float] = {}
for r in rows:
    if r[0] == "rps":
        rps[(r[1], int(r[2]))][int(r[3])] = float(r[4])
    elif r[0] == "rss":
        rss[int(r[1])] = int(r[2]) / 1024
    elif r[0] == "ready":
        ready[int(r[1])] = float(r[2])
GOALS = {"spells/cost": 0.5, "payments/plan": 0.4}


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


for (label, workers), rounds in sorted(rps.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    if label.startswith(("bare ", "base ")):
        continue
    bare = rps[(f"bare {label}", workers)]
    ratios = sorted(rounds[i] / bare[i] for i in rounds if i in bare)
    median = statistics.median(ratios)
    line = (
        f"  {label:<21} {workers} worker{'s' if workers > 1 else ' '}: {statistics.median(rounds.values()):7.0f} req/s,"
        f" {median:.2f} of its bare twin (rounds {ratios[0]:.2f}-{ratios[-1]:.2f})"
    )
    base = rps.get((f"base {label}", workers))
    if base:
        against = sorted(rounds[i] / base[i] for i in rounds if i in base)
        line += f", {statistics.median(against):.2f} of the base (rounds {against[0]:.2f}-{against[-1]:.2f})"
    goal = GOALS.get(label)
    if goal is not None and workers == 1:
        line += f"; goal {goal}: {verdict(median >= goal)}"
    if label == "scenario GET" and workers == 2:
        reads = statistics.median(rounds.values())
        line += f"; goal 1,000/s on PostgreSQL: {verdict(reads >= 1000) if postgres else 'not PostgreSQL'}"
    print(line)
for workers, mb in sorted(rss.items()):
    print(f"  memory                {workers} worker{'s' if workers > 1 else ' '}: {mb:.1f} MB peak per worker (goal <= 300: {verdict(mb <= 300)})")
for workers, seconds in sorted(ready.items()):
    print(f"  ready                 {workers} worker{'s' if workers > 1 else ' '}: {seconds:.1f} s from serve to /readyz (goal <= 5: {verdict(seconds <= 5)})")
EOF
