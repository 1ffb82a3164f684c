#!/usr/bin/env bash
# Gateway at scale: 500 connected twins, each reading its own simulated
# Modbus TCP device (served in-process by bench/gateway/main.go on loopback
# ports) every second, on SQLite and on PostgreSQL. The server runs on CPU 0,
# the devices and the page on CPU 1. It creates the twins through the API,
# waits until every one is synced, then over a window reports the server's
# CPU (% of one core) and memory (RSS mean and max, peak VmHWM) against its
# idle baseline, the equipment_update messages a page watching the twins on
# /ws receives a second, and the latency from a device's value change (one
# random device every 100 ms) to that page: count, p50, p90, p99, max.
# On PostgreSQL the database server (not pinned) does part of the work: the
# CPU of this database's backends is reported on a line of its own.
# Prints figures; asserts nothing. No target is set beyond reporting: the
# latency is bounded by the poll interval (a change waits up to 1 s for the
# next read) plus the 250 ms flush to watchers, so p99 sits near 1.25 s and
# shows the server's own delay only beyond that.
#   GATEWAY_BENCH_N (500 devices), GATEWAY_BENCH_WINDOW (30s),
#   GATEWAY_BENCH_PROFILE_DIR (unset: with a folder, the server's CPU profile
#   of the window and its heap are saved there),
#   BENCH_POSTGRES_URL (default: JOURNEYMAN_TEST_POSTGRES_URL, else the local server)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x bin/journeyman ] || go build -o bin/journeyman ./cmd/journeyman
tmp=$(mktemp -d)
go build -o "$tmp/gatewaybench" ./bench/gateway
pg_admin=${BENCH_POSTGRES_URL:-${JOURNEYMAN_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}}
pid="" pg_db=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
	[ -n "$pg_db" ] && psql -q "$pg_admin" -c "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
pin_server=() pin_load=()
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	pin_server=(taskset -c 0) pin_load=(taskset -c 1)
fi
profile_dir=${GATEWAY_BENCH_PROFILE_DIR:-}

warnings() { # label when; the server's log lines on stdin
	local found
	found=$(grep '"level":"\(WARN\|ERROR\)"' || true)
	[ -n "$found" ] || return 0
	printf '%-9s server warnings and errors %s: %d, the first:\n' "$1" "$2" "$(wc -l <<<"$found")"
	head -3 <<<"$found" | cut -c1-300 | sed 's/^/    /'
}

bench() { # label dsn
	local label=$1 dsn=$2
	"$tmp/gatewaybench" setup -db "$dsn"
	JOURNEYMAN_PPROF_ADDR=127.0.0.1:0 "${pin_server[@]}" bin/journeyman -addr 127.0.0.1:0 -db "$dsn" -mqtt-listen 127.0.0.1:0 \
		-modbus-port 0 -opcua-port 0 -enip-port 0 2>"$tmp/log-$label" &
	pid=$!
	local url="" pprof=""
	for _ in $(seq 300); do
		url=$(grep -o '"msg":"listening".*"url":"[^"]*"' "$tmp/log-$label" 2>/dev/null | grep -o '"url":"[^"]*"' | head -1 | cut -d'"' -f4) || true
		[ -n "$url" ] && break
		sleep 0.1
	done
	[ -n "$url" ] || { echo "server did not start:"; cat "$tmp/log-$label"; exit 1; }
	pprof=$(grep -o '"msg":"profiler listening".*"url":"[^"]*"' "$tmp/log-$label" | grep -o '"url":"[^"]*"' | head -1 | cut -d'"' -f4) || true
	local profile=()
	if [ -n "$profile_dir" ] && [ -n "$pprof" ]; then
		mkdir -p "$profile_dir/$label"
		profile=(-pprof "$pprof" -profile-dir "$profile_dir/$label")
	fi
	"${pin_load[@]}" "$tmp/gatewaybench" measure -url "$url" -pid "$pid" -label "$label" \
		-db "$dsn" -log "$tmp/log-$label" -n "${GATEWAY_BENCH_N:-500}" -window "${GATEWAY_BENCH_WINDOW:-30s}" "${profile[@]}"
	kill "$pid"; wait "$pid" 2>/dev/null || true
	pid=""
	sed -n '/"msg":"shutting down"/,$p' "$tmp/log-$label" | warnings "$label" "at shutdown"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
bench sqlite "$tmp/gateway.db"
if psql -q "$pg_admin" -c 'SELECT 1' >/dev/null 2>&1; then
	pg_db="journeyman_gateway_$$"
	psql -q "$pg_admin" -c "CREATE DATABASE $pg_db" >/dev/null
	bench postgres "$(echo "$pg_admin" | sed -E "s#(postgres(ql)?://[^/]+)/[^?]*#\1/$pg_db#")"
else
	echo "postgres  skipped: no PostgreSQL answers at $pg_admin"
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
