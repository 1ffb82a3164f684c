#!/usr/bin/env bash
# One of bench/compare's scenarios against Journeyman alone, pinned as
# run.sh pins it (server on core 0 with GOMAXPROCS=1, wrk on core 1, 32
# connections, 10 s), with a CPU profile of the server taken during the
# run and what each request cost it: CPU µs (from /proc) and bytes written
# to disk. For finding where the time goes between two runs of run.sh;
# not part of make bench.
#   bench/compare/profile.sh [patch|modules|history] [sqlite|postgres]
#   JOURNEYMAN_BENCH_PEER as in run.sh (its prepare.mjs and Lua scenarios)
#   BENCH_POSTGRES_URL as in run.sh; PROFILE_OUT (default /tmp/journeyman-<scenario>.pprof)
# Then: go tool pprof -top -cum bin/journeyman "$PROFILE_OUT"
set -euo pipefail
cd "$(dirname "$0")/../.."
scenario=${1:-patch}
db=${2:-sqlite}
peer=${JOURNEYMAN_BENCH_PEER:-../shared/peers/express-api}
out=${PROFILE_OUT:-/tmp/journeyman-$scenario.pprof}
pg_admin=${BENCH_POSTGRES_URL:-${JOURNEYMAN_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}}
[ -f "$peer/bench/$scenario.lua" ] || { echo "no scenario $scenario in $peer/bench"; exit 1; }
[ -x bin/journeyman ] || go build -o bin/journeyman ./cmd/journeyman

tmp=$(mktemp -d)
pid=""
pg_db=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
	[ -n "$pg_db" ] && psql -q "$pg_admin" -c "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT
clone=(BENCH_CLONE_SQLITE="$tmp/journeyman.db")
dsn=$tmp/journeyman.db
if [ "$db" = postgres ]; then
	pg_db="journeyman_profile_$$"
	psql -q "$pg_admin" -c "CREATE DATABASE $pg_db" >/dev/null
	dsn=$(echo "$pg_admin" | sed -E "s#(postgres(ql)?://[^/]+)/[^?]*#\1/$pg_db#")
	printf '\\set QUIET on\n' >"$tmp/psqlrc" # see run.sh
	clone=(BENCH_CLONE_PG="$dsn" PSQLRC="$tmp/psqlrc")
fi
pprof_addr=127.0.0.1:$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
JOURNEYMAN_PPROF_ADDR=$pprof_addr GOMAXPROCS=1 taskset -c 0 bin/journeyman -addr 127.0.0.1:0 -db "$dsn" 2>"$tmp/server.log" &
pid=$!
url=""
for _ in $(seq 300); do
	url=$(grep '"msg":"listening"' "$tmp/server.log" 2>/dev/null | grep -oE 'https?://[0-9.]+:[0-9]+' | head -1) || true
	[ -n "$url" ] && break
	sleep 0.1
done
[ -n "$url" ] || { cat "$tmp/server.log"; exit 1; }
env "${clone[@]}" node "$peer/bench/prepare.mjs" "$url" "$tmp/A" 1000 A >/dev/null
set -a
# shellcheck disable=SC1091 # written by prepare.mjs
. "$tmp/A/env.sh"
set +a

cpu() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
disk() { awk '/^write_bytes/ { print $2 }' "/proc/$pid/io"; }
c0=$(cpu)
d0=$(disk)
curl -fsS -o "$out" "http://$pprof_addr/debug/pprof/profile?seconds=9" &
prof=$!
result=$(taskset -c 1 wrk -t1 -c32 -d10s --latency -s "$peer/bench/$scenario.lua" "$url" | grep '^BENCH ')
c1=$(cpu)
d1=$(disk)
wait "$prof"
n=$(grep -oE 'requests=[0-9]+' <<<"$result" | cut -d= -f2)
echo "$scenario on $db: $(grep -oE 'rps=[0-9.]+ p50_ms=[0-9.]+ p99_ms=[0-9.]+' <<<"$result")"
awk -v c=$((c1 - c0)) -v d=$((d1 - d0)) -v n="$n" -v hz="$(getconf CLK_TCK)" \
	'BEGIN { printf "server CPU %.1f µs and %.0f bytes to disk per request\n", c / hz * 1e6 / n, d / n }'
echo "CPU profile (9 s of the run): $out"
