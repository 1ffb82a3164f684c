#!/usr/bin/env bash
# Digital twin figures: sensor-data ingest rate on SQLite and PostgreSQL
# (through the ingester the API and MQTT share, and over HTTP), and the
# server's CPU cost of 1,000 viewers polling data streams every 2 s.
# Server and load generator run on different cores where there are two.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=bin/journeyman
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
go build -o "$tmp/twinbench" ./bench/twin

pin_server=() pin_load=()
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
  pin_server=(taskset -c 0) pin_load=(taskset -c 1)
fi

"${pin_load[@]}" "$tmp/twinbench" ingest -db "$tmp/ingest.db" -n "${TWIN_BENCH_N:-200000}"
pg=${JOURNEYMAN_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}
if "${pin_load[@]}" "$tmp/twinbench" ingest -db "$pg" -n "${TWIN_BENCH_PG_N:-100000}"; then :; else
  echo "ingest postgres: skipped (no PostgreSQL at $pg)"
fi

"${pin_server[@]}" "$bin" -addr 127.0.0.1:0 -db "$tmp/server.db" -mqtt-listen 127.0.0.1:0 2>"$tmp/log" &
pid=$!
for _ in $(seq 100); do grep -q '"msg":"listening"' "$tmp/log" && break; sleep 0.1; done
url=$(grep -o '"url":"[^"]*"' "$tmp/log" | head -1 | cut -d'"' -f4)
[ -n "$url" ] || { echo "server did not start:"; cat "$tmp/log"; exit 1; }

"${pin_load[@]}" "$tmp/twinbench" http-ingest -url "$url" -n "${TWIN_BENCH_HTTP_N:-20000}" -c 64 -pid "$pid"
"${pin_load[@]}" "$tmp/twinbench" viewers -url "$url" -pid "$pid" -viewers 1000 -every 2s -for "${TWIN_BENCH_VIEW_FOR:-60s}"
echo "machine load average at the end: $(cut -d" " -f1-3 /proc/loadavg) (2 cores, shared with other work)"
