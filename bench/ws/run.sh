#!/usr/bin/env bash
# WebSocket fan-out: 5,000 clients connected to one server (SQLite), one
# safety alert delivered to all. Prints delivery p50/p99 and the server's
# memory per idle connection (RSS from /proc before and after). Server on
# CPU 0, clients (bench/ws/main.go) on CPU 1. Asserts nothing. Targets:
# fan-out p99 <= 250 ms; <= 16 KB per idle connection.
#   BENCH_CLIENTS (5000)
set -euo pipefail
cd "$(dirname "$0")/../.."
# Each connection is a file descriptor on both sides.
ulimit -n "$(ulimit -Hn)"
[ "$(ulimit -n)" -ge 12000 ] || { echo "ulimit -n is $(ulimit -n); need about 12000 for 5,000 clients"; exit 1; }
[ -x bin/journeyman ] || go build -o bin/journeyman ./cmd/journeyman
tmp=$(mktemp -d)
go build -o "$tmp/wsload" ./bench/ws
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

cpus=$(nproc)
load_cpu=$(( cpus > 1 ? 1 : 0 ))
echo "CPUs: $cpus; server on CPU 0, clients on CPU $load_cpu; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
GOMAXPROCS=1 taskset -c 0 bin/journeyman -addr 127.0.0.1:0 -db "$tmp/journeyman.db" 2>"$tmp/log" &
pid=$!
url=""
for _ in $(seq 300); do
	url=$(grep -o '"url":"[^"]*"' "$tmp/log" 2>/dev/null | head -1 | cut -d'"' -f4) || true
	[ -n "$url" ] && break
	sleep 0.1
done
[ -n "$url" ] || { echo "server did not start:"; cat "$tmp/log"; exit 1; }
curl -fsS "$url/api/training-modules" >/dev/null
sleep 1
taskset -c "$load_cpu" "$tmp/wsload" -url "$url" -pid "$pid" -clients "${BENCH_CLIENTS:-5000}"
