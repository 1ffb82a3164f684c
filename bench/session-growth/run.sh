#!/usr/bin/env bash
# A session PATCH on a fresh session against one on a session holding 2,000
# interactions (issue 15: within 1.5x of each other), on SQLite and on
# PostgreSQL, in process (handler and store, no network; see
# BenchmarkPatchSessionGrowth in internal/server). The benchmark runs on one
# core, BENCH_ROUNDS times (5) in turns, BENCH_ITERATIONS PATCHes (1000)
# each; prints medians and ratios; asserts nothing.
#   BENCH_POSTGRES_URL (default: JOURNEYMAN_TEST_POSTGRES_URL, else the local server)
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rounds=${BENCH_ROUNDS:-5}
iterations=${BENCH_ITERATIONS:-1000}
pg=${BENCH_POSTGRES_URL:-${JOURNEYMAN_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}}
go test -c -o "$tmp/server.test" ./internal/server
echo "CPU 0 of $(nproc); load average: $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds of $iterations PATCHes"
for _ in $(seq "$rounds"); do
	# CI unset: without PostgreSQL the postgres cases skip rather than fail.
	env -u CI JOURNEYMAN_TEST_POSTGRES_URL="$pg" GOMAXPROCS=1 taskset -c 0 "$tmp/server.test" \
		-test.run '^$' -test.bench 'BenchmarkPatchSessionGrowth' -test.benchtime "${iterations}x" 2>/dev/null |
		grep '^BenchmarkPatchSessionGrowth/' >>"$tmp/out" || true
done
# name → median wall and CPU ns/op; then fresh against held=2000 for each
# store and kind.
median() { # metric column
	awk -v c="$1" '{ sub(/^BenchmarkPatchSessionGrowth\//, "", $1); sub(/-[0-9]+$/, "", $1); print $1, $c }' "$tmp/out" | sort -k1,1 -k2,2n |
		awk '{ v[$1] = v[$1] " " $2; n[$1]++ }
		END { for (k in v) { split(substr(v[k], 2), a, " "); print k, (n[k] % 2) ? a[(n[k] + 1) / 2] : (a[n[k] / 2] + a[n[k] / 2 + 1]) / 2 } }'
}
median 3 >"$tmp/wall"
median 5 >"$tmp/cpu"
awk 'FNR == NR { wall[$1] = $2; next } { cpu[$1] = $2 }
	END {
		split("sqlite postgres", dbs, " "); split("pose append", kinds, " ")
		for (i = 1; i <= 2; i++) for (j = 1; j <= 2; j++) {
			k = dbs[i] "/" kinds[j]; f = k "/held=0"; h = k "/held=2000"
			if (!(f in wall) || !(h in wall)) { printf "%-16s skipped (no figures: is PostgreSQL running?)\n", k; continue }
			printf "%-16s wall: fresh %6.3f ms, holding 2,000 %6.3f ms, ratio %.2f | this process'"'"'s CPU: %6.3f ms, %6.3f ms, ratio %.2f  (target <= 1.5)\n",
				k, wall[f] / 1e6, wall[h] / 1e6, wall[h] / wall[f], cpu[f] / 1e6, cpu[h] / 1e6, cpu[h] / cpu[f]
		}
	}' "$tmp/wall" "$tmp/cpu"
echo "  pose: a pose, duration and safety checks; append: the same and one interaction (sessions holding 0-99 / 1,900-1,999)"
echo "  CPU is the Go process's own (handler and store; on PostgreSQL without the database server's share)"
