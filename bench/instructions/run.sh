#!/usr/bin/env bash
# Instructions per session PATCH, counted by valgrind's callgrind: the
# handler and the store in process, on SQLite and on PostgreSQL, for a
# pose (BenchmarkPatchSession in internal/server) and for bench/compare's
# body, one interaction and one safety check besides
# (BenchmarkPatchSessionInteraction) (this process's share; the
# database server's is not counted). Where req/s moves by 10-15% from run
# to run on a shared machine, this count repeats within a percent or two,
# so a change of a few percent shows. The collector is off while counting
# (its timing varied the count by 5%); what it would have to do follows
# the bytes and allocations per PATCH, printed beside. Prints figures;
# asserts nothing.
#   BENCH_PATCHES (2000)
#   BENCH_POSTGRES_URL (default: JOURNEYMAN_TEST_POSTGRES_URL, else the local server)
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v valgrind >/dev/null; then
	[ "$(id -u)" = 0 ] || { echo "bench/instructions: valgrind is required (apt-get install valgrind)"; exit 1; }
	apt-get install -y -qq valgrind >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq valgrind >/dev/null; }
fi
n=${BENCH_PATCHES:-2000}
pg=${BENCH_POSTGRES_URL:-${JOURNEYMAN_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go test -c -o "$tmp/server.test" ./internal/server

# count BENCHMARK DB PATCHES: "instructions B/op allocs/op" of a run of the
# benchmark. With b.Loop its setup runs once, so two counts differ by the
# PATCHes alone. Go's asynchronous preemption (a signal) trips callgrind,
# hence asyncpreemptoff. CI unset: without PostgreSQL its case skips (and
# prints no count).
count() {
	env -u CI JOURNEYMAN_TEST_POSTGRES_URL="$pg" GODEBUG=asyncpreemptoff=1 GOGC=off GOMAXPROCS=1 \
		valgrind --tool=callgrind --callgrind-out-file="$tmp/callgrind.out" \
		"$tmp/server.test" -test.run '^$' -test.bench "^$1\$/^$2\$" -test.benchtime "${3}x" -test.benchmem 2>&1 |
		awk '/^==[0-9]+== Collected/ { c = $NF } /^BenchmarkPatchSession[A-Za-z]*\// { for (i = 1; i < NF; i++) { if ($(i + 1) == "B/op") b = $i; if ($(i + 1) == "allocs/op") a = $i } }
			/^ok|^PASS/ { ok = 1 } END { if (ok && c) print c, b, a }'
}
echo "PATCH /api/xr-sessions/{id} in process, $n PATCHes, callgrind:"
printf '  %-8s %-12s %14s %8s %10s\n' store body instructions B/op allocs/op
for bench in BenchmarkPatchSession BenchmarkPatchSessionInteraction; do
	body=pose
	[ "$bench" = BenchmarkPatchSessionInteraction ] && body=interaction
	for db in sqlite postgres; do
		one=$(count "$bench" "$db" 1) || true
		many=$(count "$bench" "$db" $((n + 1))) || true
		if [ -z "$one" ] || [ -z "$many" ]; then
			echo "  $db: no count (the benchmark did not run; PostgreSQL at $pg?)"
			continue
		fi
		read -r a _ _ <<<"$one"
		read -r b bytes allocs <<<"$many"
		awk -v db="$db" -v body="$body" -v a="$a" -v b="$b" -v n="$n" -v bytes="$bytes" -v allocs="$allocs" \
			'BEGIN { printf "  %-8s %-12s %14.0f %8s %10s\n", db, body, (b - a) / n, bytes, allocs }'
	done
done
