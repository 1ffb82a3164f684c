#!/usr/bin/env bash
# Session PATCH throughput and latency, on SQLite and on PostgreSQL. The
# server runs on CPU 0 and the load generator (bench/sessions/main.go) on
# CPU 1. Prints figures; asserts nothing. Targets: >= 5,000 PATCH/s with
# p99 <= 10 ms on SQLite.
#   BENCH_SECONDS (10), BENCH_CONNS (16),
#   BENCH_POSTGRES_URL (default: JOURNEYMAN_TEST_POSTGRES_URL, else the local server)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x bin/journeyman ] || go build -o bin/journeyman ./cmd/journeyman
tmp=$(mktemp -d)
go build -o "$tmp/loadgen" ./bench/sessions
secs=${BENCH_SECONDS:-10}
conns=${BENCH_CONNS:-16}
pg_admin=${BENCH_POSTGRES_URL:-${JOURNEYMAN_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}}
pid=""
pg_db=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
	[ -n "$pg_db" ] && psql -q "$pg_admin" -c "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

cpus=$(nproc)
server_cpu=0
load_cpu=$(( cpus > 1 ? 1 : 0 ))
echo "CPUs: $cpus; server on CPU $server_cpu, load generator on CPU $load_cpu; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

bench() { # label dsn
	local label=$1 dsn=$2
	# GOMAXPROCS=1 matches the one pinned core; request logs go to a file.
	GOMAXPROCS=1 taskset -c "$server_cpu" bin/journeyman -addr 127.0.0.1:0 -db "$dsn" 2>"$tmp/log-$label" &
	pid=$!
	local url=""
	for _ in $(seq 300); do
		url=$(grep -o '"url":"[^"]*"' "$tmp/log-$label" 2>/dev/null | head -1 | cut -d'"' -f4) || true
		[ -n "$url" ] && break
		sleep 0.1
	done
	[ -n "$url" ] || { echo "server did not start:"; cat "$tmp/log-$label"; exit 1; }
	taskset -c "$load_cpu" "$tmp/loadgen" -url "$url" -conns "$conns" -duration "${secs}s" -label "$label"
	kill "$pid"; wait "$pid" 2>/dev/null || true
	pid=""
}

bench sqlite "$tmp/journeyman.db"

if psql -q "$pg_admin" -c 'SELECT 1' >/dev/null 2>&1; then
	pg_db="journeyman_bench_$$"
	psql -q "$pg_admin" -c "CREATE DATABASE $pg_db" >/dev/null
	pg_url=$(echo "$pg_admin" | sed -E "s#(postgres(ql)?://[^/]+)/[^?]*#\1/$pg_db#")
	bench postgres "$pg_url"
else
	echo "postgres   skipped: no PostgreSQL answers at $pg_admin"
fi

# The same update in process (handler and store, no network, one core).
echo "in process, one core (go test -bench BenchmarkPatchSession ./internal/server):"
JOURNEYMAN_TEST_POSTGRES_URL=${JOURNEYMAN_TEST_POSTGRES_URL:-$pg_admin} GOMAXPROCS=1 taskset -c "$server_cpu" \
	go test -run '^$' -bench 'BenchmarkPatchSession$' -benchtime 3s ./internal/server 2>/dev/null | grep -E '^Benchmark.* ns/op' |
	awk '{ printf "  %-40s %8.0f updates/s (%s ns each)\n", $1, 1e9/$3, $3 }'
