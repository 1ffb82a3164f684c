#!/usr/bin/env bash
# WebSocket fan-out on one server core (SQLite), in two runs, each with a
# fresh server: BENCH_CLIENTS clients, then BENCH_IDLE_CLIENTS idle ones;
# in each, safety alerts one after another, each to every client. Prints
# the server's memory per idle connection (RSS from /proc, and Go heap and
# stacks) and delivery p50/p99 per alert. Server on CPU 0 with GOMAXPROCS=1,
# clients (bench/ws/main.go) on CPU 1. Asserts nothing. Targets: 10,000
# clients with delivery p99 <= 250 ms and <= 12 KB per idle connection;
# 50,000 idle connections held.
#   BENCH_CLIENTS (10000), BENCH_IDLE_CLIENTS (50000), BENCH_ALERTS (5)
#   BENCH_PROFILE_DIR: when set, the server's heap profile (idle) and CPU
#   profile (during the alerts) of each run are saved there.
set -euo pipefail
cd "$(dirname "$0")/../.."
clients=${BENCH_CLIENTS:-10000}
idle=${BENCH_IDLE_CLIENTS:-50000}
alerts=${BENCH_ALERTS:-5}

# Every connection is a file descriptor in the server and one in the load
# generator. Raise the limit as far as allowed: above the hard limit only
# root (CAP_SYS_RESOURCE) may go.
want=$(( (clients > idle ? clients : idle) + 2000 ))
ulimit -n "$want" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
limit=$(ulimit -n)
# The server keeps a tenth of its limit (at most 1,000) for other files.
reserve=$(( limit / 10 < 1000 ? limit / 10 : 1000 ))
fit=$(( limit - reserve - 100 ))
for var in clients idle; do
	if [ "${!var}" -gt "$fit" ]; then
		echo "open-file limit $limit (hard $(ulimit -Hn)): $var run holds $fit connections instead of ${!var}; raise the hard limit (root: ulimit -Hn $want) for the full run"
		printf -v "$var" %d "$fit"
	fi
done

[ -x bin/journeyman ] || go build -o bin/journeyman ./cmd/journeyman
tmp=$(mktemp -d)
go build -o "$tmp/wsload" ./bench/ws
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

cpus=$(nproc)
load_cpu=$(( cpus > 1 ? 1 : 0 ))

run() { # label clients alerts
	local label=$1 n=$2 rounds=$3 log="$tmp/log-$1"
	echo "-- $label: $n clients; load average $(cut -d' ' -f1-3 /proc/loadavg); server on CPU 0, clients on CPU $load_cpu"
	JOURNEYMAN_PPROF_ADDR=${BENCH_PROFILE_DIR:+127.0.0.1:0} GOMAXPROCS=1 taskset -c 0 \
		bin/journeyman -addr 127.0.0.1:0 -ws-per-address 1000000 -db "$tmp/$label.db" 2>"$log" &
	pid=$!
	local url="" pprof=""
	for _ in $(seq 300); do
		url=$(grep '"msg":"listening"' "$log" 2>/dev/null | grep -o '"url":"[^"]*"' | head -1 | cut -d'"' -f4) || true
		[ -n "$url" ] && break
		sleep 0.1
	done
	[ -n "$url" ] || { echo "server did not start:"; cat "$log"; exit 1; }
	local profile=()
	if [ -n "${BENCH_PROFILE_DIR:-}" ]; then
		pprof=$(grep '"msg":"profiler listening"' "$log" | grep -o '"url":"[^"]*"' | cut -d'"' -f4)
		mkdir -p "$BENCH_PROFILE_DIR/$label"
		profile=(-pprof "${pprof%/}" -profile-dir "$BENCH_PROFILE_DIR/$label")
	fi
	curl -fsS "$url/api/training-modules" >/dev/null
	sleep 1
	taskset -c "$load_cpu" "$tmp/wsload" -url "$url" -pid "$pid" -clients "$n" -alerts "$rounds" "${profile[@]}"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=""
}

run delivery "$clients" "$alerts"
run idle "$idle" 3
