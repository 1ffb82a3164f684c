#!/usr/bin/env bash
# The built-in LRS (xAPI) on SQLite and on PostgreSQL, each in a fresh
# database: statement POST throughput in batches of 50, then, after filling
# the LRS through the same API, the latency of filtered statement GETs.
# The server has the machine, as the targets say ("on this 2-core
# machine"), as PostgreSQL's own processes do, and shares it with the load
# generator (bench/xapi/main.go, its bodies made beforehand); BENCH_XAPI_PIN=1
# pins the server to CPU 0 (GOMAXPROCS=1) and the generator to CPU 1
# instead. Prints figures; asserts nothing.
# Targets: >= 10,000 statements/s POSTed in batches of 50 on each store;
# filtered GET over 1,000,000 stored statements p99 <= 50 ms.
# PostgreSQL is vacuumed and ANALYZEd after the fill: this machine's runs without autovacuum,
# which a production server would run.
#   BENCH_XAPI_PIN (0), BENCH_SECONDS (10), BENCH_CONNS (16), BENCH_XAPI_STATEMENTS (1000000),
#   BENCH_XAPI_GETS (2000 of each query shape, one at a time and over 8 connections),
#   BENCH_XAPI_GET_BUDGET (20s: a slower query shape is reported with fewer requests),
#   BENCH_POSTGRES_URL (default: JOURNEYMAN_TEST_POSTGRES_URL, else the local server)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x bin/journeyman ] || go build -o bin/journeyman ./cmd/journeyman
tmp=$(mktemp -d)
go build -o "$tmp/loadgen" ./bench/xapi
secs=${BENCH_SECONDS:-10}
conns=${BENCH_CONNS:-16}
statements=${BENCH_XAPI_STATEMENTS:-1000000}
gets=${BENCH_XAPI_GETS:-2000}
get_budget=${BENCH_XAPI_GET_BUDGET:-20s}
pg_admin=${BENCH_POSTGRES_URL:-${JOURNEYMAN_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}}
pid="" pg_db=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
	[ -n "$pg_db" ] && psql -q "$pg_admin" -c "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
pin_server=(env) pin_load=() placement="server and load generator share the machine"
if [ "${BENCH_XAPI_PIN:-0}" = 1 ] && [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	pin_server=(env GOMAXPROCS=1 taskset -c 0) pin_load=(taskset -c 1) placement="server on CPU 0 (GOMAXPROCS=1), load generator on CPU 1"
fi
echo "CPUs: $(nproc); $placement; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

bench() { # label dsn
	local label=$1 dsn=$2
	# Free ports for the broker and the simulated devices: nothing here uses them.
	"${pin_server[@]}" bin/journeyman -addr 127.0.0.1:0 -db "$dsn" -mqtt-listen 127.0.0.1:0 \
		-modbus-port 0 -opcua-port 0 -enip-port 0 2>"$tmp/log-$label" &
	pid=$!
	local url=""
	for _ in $(seq 300); do
		url=$(grep -o '"url":"[^"]*"' "$tmp/log-$label" 2>/dev/null | head -1 | cut -d'"' -f4) || true
		[ -n "$url" ] && break
		sleep 0.1
	done
	[ -n "$url" ] || { echo "server did not start:"; cat "$tmp/log-$label"; exit 1; }
	# The admin's setup link; the generator sets the password and takes an xAPI credential.
	local setup
	setup=$(bin/journeyman admin create --email "bench-$label@example.com" --org "Bench LRS" -db "$dsn" --url "$url" |
		sed -n 's#^setup link.*: \(http[^ ]*/reset-password/[^ ]*\)$#\1#p')
	[ -n "$setup" ] || { echo "$label: journeyman admin create printed no setup link"; exit 1; }
	"${pin_load[@]}" "$tmp/loadgen" -url "$url" -setup "$setup" -label "$label" -conns "$conns" -duration "${secs}s" \
		-statements "$statements" -gets "$gets" -get-budget "$get_budget" ${analyze:+-analyze "$analyze"}
	kill "$pid"; wait "$pid" 2>/dev/null || true
	pid=""
}

bench sqlite "$tmp/journeyman.db"
echo "sqlite     database size: $(du -ch "$tmp"/journeyman.db* | tail -1 | cut -f1)"

if psql -q "$pg_admin" -c 'SELECT 1' >/dev/null 2>&1; then
	pg_db="journeyman_xapi_$$"
	psql -q "$pg_admin" -c "CREATE DATABASE $pg_db" >/dev/null
	pg_url="$(echo "$pg_admin" | sed -E "s#(postgres(ql)?://[^/]+)/[^?]*#\1/$pg_db#")"
	analyze="$pg_url" bench postgres "$pg_url"
	echo "postgres   database size: $(psql -qAt "$pg_admin" -c "SELECT pg_size_pretty(pg_database_size('$pg_db'))")"
else
	echo "postgres   skipped: no PostgreSQL answers at $pg_admin"
fi
