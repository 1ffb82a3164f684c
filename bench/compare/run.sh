#!/usr/bin/env bash
# Journeyman side by side with the Express peer (JOURNEYMAN_BENCH_PEER,
# default ../shared/peers/express-api from the repository root), measured by
# the peer's own bench/compare.sh as its README says: each server pinned to
# core 0, wrk (1 thread, 32 connections, 10 s, rounds A B A B, medians)
# pinned to core 1. Journeyman runs once on SQLite and once on PostgreSQL,
# each against Express + PostgreSQL, for GET /api/training-modules,
# PATCH /api/xr-sessions/{id} and GET /api/users/{id}/xr-sessions; then the
# catalog as browsers ask for it (Accept-Encoding: gzip, to both servers),
# and a 304 to If-None-Match against a bare net/http handler writing a
# constant (bench/compare/bare), the same way and asked the same request
# (path and headers: net/http's parsing of them is the yardstick's cost
# too, not the product's). Prints req/s, p99 and the
# ratios; asserts nothing. Targets: the catalog >= 10x the peer's req/s;
# the 304 >= 0.5x the bare handler's.
#
# Without the peer's folder it prints one line and stops. The peer's npm
# packages are installed into a temporary copy of it (its folder stays as it
# is). compare.sh's settings pass through: ROUNDS (3), DURATION (10),
# CONNS (32), THREADS (1), WRK_CPU (1), SESSIONS (1000), PAUSE (1).
#   BENCH_POSTGRES_URL (default: JOURNEYMAN_TEST_POSTGRES_URL, else the local server)
#   BENCH_KEEP=1 keeps the raw wrk output and the servers' logs
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
peer=${JOURNEYMAN_BENCH_PEER:-../shared/peers/express-api}
[[ $peer = /* ]] || peer="$root/$peer"
if [ ! -f "$peer/bench/compare.sh" ]; then
	echo "peer comparison skipped: no Express peer at $peer (set JOURNEYMAN_BENCH_PEER)"
	exit 0
fi
pg_admin=${BENCH_POSTGRES_URL:-${JOURNEYMAN_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/test?sslmode=disable}}
if ! psql -q "$pg_admin" -c 'SELECT 1' >/dev/null 2>&1; then
	echo "peer comparison skipped: the peer needs PostgreSQL and none answers at $pg_admin (the peer's scripts/ensure-postgres.sh sets one up)"
	exit 0
fi
for tool in node npm taskset curl psql sqlite3 ss; do
	command -v "$tool" >/dev/null || { echo "bench/compare: $tool is required"; exit 1; }
done
if ! command -v wrk >/dev/null; then
	[ "$(id -u)" = 0 ] || { echo "bench/compare: wrk is required (apt-get install wrk)"; exit 1; }
	apt-get install -y -qq wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
fi

rounds=${ROUNDS:-3}
duration=${DURATION:-10}
conns=${CONNS:-32}
threads=${THREADS:-1}
wrk_cpu=${WRK_CPU:-1}
pause=${PAUSE:-1}

[ -x bin/journeyman ] || go build -o bin/journeyman ./cmd/journeyman
tmp=$(mktemp -d)
go build -o "$tmp/bare" ./bench/compare/bare
pids=()
pg_db=""
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
	[ -n "$pg_db" ] && psql -q "$pg_admin" -c "DROP DATABASE IF EXISTS $pg_db WITH (FORCE)" >/dev/null 2>&1 || true
	if [ -n "${BENCH_KEEP:-}" ]; then echo "raw output and logs kept in $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

echo "CPUs: $(nproc); servers on core 0, wrk on core $wrk_cpu; load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# wait_url LOG PATTERN: the first URL on a line of LOG matching PATTERN.
wait_url() {
	local url=""
	for _ in $(seq 300); do
		url=$(grep -E "$2" "$1" 2>/dev/null | grep -oE 'https?://[0-9.]+:[0-9]+' | head -1) || true
		[ -n "$url" ] && { echo "$url"; return; }
		sleep 0.1
	done
	echo "server did not start:" >&2
	cat "$1" >&2
	exit 1
}

# The peer, from a writable copy with its npm packages, as its README starts it.
mkdir "$tmp/peer"
tar -C "$peer" --exclude=node_modules -cf - . | tar -C "$tmp/peer" -xf -
chmod -R u+w "$tmp/peer"
(cd "$tmp/peer" && npm ci --no-audit --no-fund --loglevel=error >"$tmp/npm.log" 2>&1) || { cat "$tmp/npm.log"; exit 1; }
peer_port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
(cd "$tmp/peer" && PORT=$peer_port HOST=127.0.0.1 DATABASE_URL=$pg_admin exec taskset -c 0 node server.js >"$tmp/peer.log" 2>&1) &
pids+=($!)
peer_url=$(wait_url "$tmp/peer.log" 'listening on')

# start_journeyman LABEL DSN: Journeyman on core 0, as bench/sessions runs it.
start_journeyman() {
	GOMAXPROCS=1 taskset -c 0 bin/journeyman -addr 127.0.0.1:0 -db "$2" 2>"$tmp/$1.log" &
	pids+=($!)
	wait_url "$tmp/$1.log" '"msg":"listening"' >"$tmp/$1.url"
}
start_journeyman sqlite "$tmp/journeyman.db"
sqlite_url=$(cat "$tmp/sqlite.url")
pg_db="journeyman_compare_$$"
psql -q "$pg_admin" -c "CREATE DATABASE $pg_db" >/dev/null
pg_url=$(echo "$pg_admin" | sed -E "s#(postgres(ql)?://[^/]+)/[^?]*#\1/$pg_db#")
start_journeyman postgres "$pg_url"
postgres_url=$(cat "$tmp/postgres.url")

# compare LABEL JOURNEYMAN_URL [VAR=VALUE ...]: the peer's compare.sh, A = Journeyman, B = Express.
compare() {
	local label=$1 url=$2
	shift 2
	echo
	echo "== $label: A = Journeyman $url, B = Express $peer_url"
	env OUT_DIR="$tmp/out-$label" ROUNDS="$rounds" DURATION="$duration" CONNS="$conns" THREADS="$threads" \
		WRK_CPU="$wrk_cpu" PAUSE="$pause" "$@" bash "$peer/bench/compare.sh" "$url" "$peer_url"
}
# The peer's prepare.mjs clones the sessions on PostgreSQL with psql -tAc,
# which prints INSERT's command tag after the ids it returns: "INSERT 0 999"
# became an id, and the request for it a 400 that closed its connection
# (wrk: 0.1% "errors" on every PATCH run). QUIET leaves the tag out.
printf '\\set QUIET on\n' >"$tmp/psqlrc"
compare sqlite "$sqlite_url" BENCH_CLONE_SQLITE_A="$tmp/journeyman.db"
compare postgres "$postgres_url" BENCH_CLONE_PG_A="$pg_url" PSQLRC="$tmp/psqlrc"

# Two more scenarios the same way (wrk pinned, A B alternately, medians),
# with wrk run here since compare.sh's prepare step reads no gzip: the
# catalog as browsers ask for it, and the 304 against the bare handler.
GOMAXPROCS=1 taskset -c 0 "$tmp/bare" >"$tmp/bare.log" 2>&1 &
pids+=($!)
bare_url=$(wait_url "$tmp/bare.log" 'listening on')
cookie=$(. "$tmp/out-sqlite/A/env.sh" && echo "$BENCH_COOKIE")
etag=$(curl -fsS -D - -o /dev/null -H "Cookie: $cookie" "$sqlite_url/api/training-modules" | awk 'tolower($1) == "etag:" { print $2 }' | tr -d '\r')
run_wrk() { # label url header...
	local label=$1 url=$2 out
	shift 2
	local headers=()
	for h in "$@"; do headers+=(-H "$h"); done
	out=$(taskset -c "$wrk_cpu" wrk -t"$threads" -c"$conns" -d"${duration}s" --latency -s bench/compare/report.lua "${headers[@]}" "$url")
	local line
	line=$(grep '^RESULT ' <<<"$out") || { echo "wrk failed: $out"; exit 1; }
	echo "${line#RESULT }" >>"$tmp/$label.results"
	printf '  %-6s round %d: %10.1f req/s  p99 %8.2f ms  errors %d\n' "$label" "$r" $(cut -d' ' -f1-3 <<<"${line#RESULT }")
}
# curl_show URL HEADER...: the answer's status, encoding and size.
curl_show() {
	local url=$1
	shift
	local args=()
	for h in "$@"; do args+=(-H "$h"); done
	curl -s -o /dev/null -w '%{http_code}, %{size_download} bytes' "${args[@]}" "$url"
}
echo
echo "== gzip: A = Journeyman (SQLite) and B = Express, GET /api/training-modules with Accept-Encoding: gzip"
echo "   (A answers $(curl_show "$sqlite_url/api/training-modules" "Cookie: $cookie" "Accept-Encoding: gzip"); B answers $(curl_show "$peer_url/api/training-modules" "Accept-Encoding: gzip"))"
for r in $(seq 1 "$rounds"); do
	run_wrk gzip-A "$sqlite_url/api/training-modules" "Accept: application/json" "Cookie: $cookie" "Accept-Encoding: gzip"
	sleep "$pause"
	run_wrk gzip-B "$peer_url/api/training-modules" "Accept: application/json" "Accept-Encoding: gzip"
	sleep "$pause"
done
echo
ask304=("Accept: application/json" "Cookie: $cookie" "If-None-Match: $etag")
echo "== 304: A = Journeyman (SQLite) and B = bare net/http $bare_url, both asked GET /api/training-modules with If-None-Match $etag"
echo "   (A answers $(curl_show "$sqlite_url/api/training-modules" "${ask304[@]}"); B answers $(curl_show "$bare_url/api/training-modules" "${ask304[@]}"))"
for r in $(seq 1 "$rounds"); do
	run_wrk 304 "$sqlite_url/api/training-modules" "${ask304[@]}"
	sleep "$pause"
	run_wrk bare "$bare_url/api/training-modules" "${ask304[@]}"
	sleep "$pause"
done

# The figures together.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
figures() { # results-file → "rps p99 errors"
	echo "$(awk '{ print $1 }' "$1" | median) $(awk '{ print $2 }' "$1" | median) $(awk '{ n += $3 } END { print n + 0 }' "$1")"
}
row() { # title a-file b-file
	read -r ar ap ae <<<"$(figures "$2")"
	read -r br bp be <<<"$(figures "$3")"
	awk -v t="$1" -v ar="$ar" -v ap="$ap" -v br="$br" -v bp="$bp" -v e=$((ae + be)) 'BEGIN {
		printf "  %-34s %9.0f %8.1f %9.0f %8.1f %7.2f%s\n", t, ar, ap, br, bp, (br > 0 ? ar / br : 0), (e > 0 ? "  (" e " errors)" : "") }'
}
echo
echo "== Journeyman vs Express peer: medians of $rounds rounds, ${duration} s each; load average now $(cut -d' ' -f1-3 /proc/loadavg)"
printf '  %-34s %9s %8s %9s %8s %7s\n' scenario "A req/s" "A p99ms" "B req/s" "B p99ms" "A/B"
for db in sqlite postgres; do
	echo "  A = Journeyman on $db, B = Express + PostgreSQL:"
	for s in modules patch history; do
		case $s in
			modules) title="GET /api/training-modules" ;;
			patch) title="PATCH /api/xr-sessions/{id}" ;;
			history) title="GET /api/users/{id}/xr-sessions" ;;
		esac
		# SCENARIOS may have left it out.
		[ -f "$tmp/out-$db/$s.A.results" ] || continue
		row "$title" "$tmp/out-$db/$s.A.results" "$tmp/out-$db/$s.B.results"
	done
done
echo "  A = Journeyman on sqlite, B = Express, both asked with Accept-Encoding: gzip:"
row "GET /api/training-modules, gzip" "$tmp/gzip-A.results" "$tmp/gzip-B.results"
echo "  A = Journeyman 304 to If-None-Match, B = bare net/http writing a constant, asked the same:"
row "GET /api/training-modules 304" "$tmp/304.results" "$tmp/bare.results"
echo "  targets: GET /api/training-modules A/B >= 10 against Express; the 304's A/B >= 0.5 against bare net/http"
