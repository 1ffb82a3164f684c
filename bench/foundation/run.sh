#!/usr/bin/env bash
# Prints the binary's size and the server's idle memory (RSS) on SQLite.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=bin/journeyman
tmp=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT

"$bin" -addr 127.0.0.1:0 -db "$tmp/journeyman.db" 2>"$tmp/log" &
pid=$!
for _ in $(seq 100); do grep -q '"msg":"listening"' "$tmp/log" && break; sleep 0.1; done
url=$(grep -o '"url":"[^"]*"' "$tmp/log" | head -1 | cut -d'"' -f4)
[ -n "$url" ] || { echo "server did not start:"; cat "$tmp/log"; exit 1; }

curl -fsS "$url/" >/dev/null
curl -fsS "$url/api/training-modules" >/dev/null
sleep 2
rss_kb=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
size=$(stat -c %s "$bin")
printf 'binary size:          %.1f MiB (%s bytes)\n' "$(echo "$size / 1048576" | bc -l)" "$size"
printf 'idle RSS after start: %.1f MiB\n' "$(echo "$rss_kb / 1024" | bc -l)"
