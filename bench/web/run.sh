#!/usr/bin/env bash
# Prints the home page's initial JavaScript (gzipped) and its Lighthouse
# performance score (mobile preset, Debian Chromium) against the built binary.
# Budgets (issue 3): initial JS < 150 KB gzipped, performance >= 0.95. The
# figures are printed, not asserted: they depend on the machine's load.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bin=bin/journeyman
[ -x "$bin" ] || { echo "build first: make build" >&2; exit 1; }
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}

# Lighthouse 12 is the last major that runs on Node 20; it lives in its own package.
if [ ! -f bench/web/node_modules/.package-lock.json ] || [ bench/web/package-lock.json -nt bench/web/node_modules/.package-lock.json ]; then
  (cd bench/web && npm ci --no-audit --no-fund --loglevel=error)
fi

tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT

"$bin" -addr 127.0.0.1:0 -db "$tmp/journeyman.db" 2>"$tmp/log" &
pid=$!
for _ in $(seq 100); do grep -q '"msg":"listening"' "$tmp/log" && break; sleep 0.1; done
url=$(grep -o '"url":"[^"]*"' "$tmp/log" | head -1 | cut -d'"' -f4)
[ -n "$url" ] || { echo "server did not start:"; cat "$tmp/log"; exit 1; }

node bench/web/node_modules/lighthouse/cli/index.js "$url/" \
  --quiet \
  --only-categories=performance \
  --output=json --output-path="$tmp/lighthouse.json" \
  --chrome-flags="--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"

# LIGHTHOUSE_JSON=path keeps the full report for a closer look.
[ -n "${LIGHTHOUSE_JSON:-}" ] && cp "$tmp/lighthouse.json" "$LIGHTHOUSE_JSON"

# Initial JavaScript: every script the page requested while loading /, gzipped
# at level 9 from web/dist (what the server sends is gzip too; its transfer
# sizes are printed alongside).
node - "$tmp/lighthouse.json" "$root/web/dist" <<'EOF'
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const [report, dist] = process.argv.slice(2)
const lhr = JSON.parse(fs.readFileSync(report, 'utf8'))
const requests = lhr.audits['network-requests'].details.items
const scripts = requests.filter((r) => r.resourceType === 'Script' && new URL(r.url).pathname.startsWith('/assets/'))
let gz = 0
let transferred = 0
for (const r of scripts) {
  const file = path.join(dist, new URL(r.url).pathname)
  const size = zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length
  gz += size
  transferred += r.transferSize || 0
  console.log(`  ${new URL(r.url).pathname.padEnd(40)} ${(size / 1024).toFixed(1).padStart(7)} KB gzipped`)
}
const kb = (n) => (n / 1024).toFixed(1)
const perf = lhr.categories.performance.score
const metric = (id) => lhr.audits[id].displayValue
console.log(`home initial JS:        ${kb(gz)} KB gzipped in ${scripts.length} files (${kb(transferred)} KB transferred), budget < 150 KB: ${gz < 150 * 1024 ? 'met' : 'MISSED'}`)
console.log(`Lighthouse performance: ${perf.toFixed(2)} (mobile preset), budget >= 0.95: ${perf >= 0.95 ? 'met' : 'MISSED'}`)
console.log(`  FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}, SI ${metric('speed-index')}`)
console.log(`  Chromium ${lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? '?'}, Lighthouse ${lhr.lighthouseVersion}, benchmark index ${lhr.environment.benchmarkIndex}`)
EOF
