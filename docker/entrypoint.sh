#!/bin/sh
# Container entry point: `manacalc-entrypoint COMMAND [ARGS...]` runs `manacalc COMMAND [ARGS...]`.
# Before `serve`, it waits (at most MANACALC_DB_WAIT_SECONDS, default 60) for the database to accept the
# migrations: an orchestrator may start the API before its database. Migrations run under the migration
# lock, so replicas starting together take turns. `exec` makes the server receive signals directly.
set -eu

migrate_on_start=$(printf '%s' "${MANACALC_MIGRATE_ON_START:-true}" | tr '[:upper:]' '[:lower:]')
if [ "${1:-}" = "serve" ]; then
    case "$migrate_on_start" in
        0 | false | f | no | n | off) ;;
        *)
            wait_seconds=${MANACALC_DB_WAIT_SECONDS:-60}
            started=$(date +%s)
            until manacalc migrate; do
                if [ $(($(date +%s) - started)) -ge "$wait_seconds" ]; then
                    echo "manacalc-entrypoint: the database did not accept migrations within ${wait_seconds}s" >&2
                    exit 1
                fi
                echo "manacalc-entrypoint: database not ready, retrying in 2s" >&2
                sleep 2
            done
            ;;
    esac
fi
exec manacalc "$@"
