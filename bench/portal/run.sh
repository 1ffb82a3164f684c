#!/usr/bin/env bash
# PORTAL at scale: an organisation of 5,000 learners in 100 cohorts with
# 500,000 XR sessions (bench/portal/main.go generates it), on SQLite and on
# PostgreSQL. The server runs on CPU 0 and the client on CPU 1; it times the
# cohort page and the cohort CSV export one request at a time. Prints
# figures; asserts nothing. Target: p99 <= 300 ms for both.
#   PORTAL_BENCH_SESSIONS (500000), PORTAL_BENCH_LEARNERS (5000),
#   BENCH_POSTGRES_URL (default: JOURNEYMAN_TEST_POSTGRES_URL, else the local server)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -x bin/journeyman ] || go build -o bin/journeyman ./cmd/journeyman
tmp=$(mktemp -d)
go build -o "$tmp/portalbench" ./bench/portal
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

bench() { # label dsn
	local label=$1 dsn=$2
	"$tmp/portalbench" generate -db "$dsn" -learners "${PORTAL_BENCH_LEARNERS:-5000}" -sessions "${PORTAL_BENCH_SESSIONS:-500000}"
	GOMAXPROCS=1 "${pin_server[@]}" bin/journeyman -addr 127.0.0.1:0 -db "$dsn" 2>"$tmp/log-$label" &
	pid=$!
	local url=""
	for _ in $(seq 300); do
		url=$(grep -o '"url":"[^"]*"' "$tmp/log-$label" 2>/dev/null | head -1 | cut -d'"' -f4) || true
		[ -n "$url" ] && break
		sleep 0.1
	done
	[ -n "$url" ] || { echo "server did not start:"; cat "$tmp/log-$label"; exit 1; }
	"${pin_load[@]}" "$tmp/portalbench" measure -url "$url" -label "$label"
	kill "$pid"; wait "$pid" 2>/dev/null || true
	pid=""
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
bench sqlite "$tmp/portal.db"
if psql -q "$pg_admin" -c 'SELECT 1' >/dev/null 2>&1; then
	pg_db="journeyman_portal_$$"
	psql -q "$pg_admin" -c "CREATE DATABASE $pg_db" >/dev/null
	bench postgres "$(echo "$pg_admin" | sed -E "s#(postgres(ql)?://[^/]+)/[^?]*#\1/$pg_db#")"
else
	echo "postgres   skipped: no PostgreSQL answers at $pg_admin"
fi
