#!/usr/bin/env bash
# Prints the cost of the learning endpoints on SQLite: one generate-recommendations
# (shipped catalog, saved preferences and assessment, set stored) and one GET
# refreshers for a learner with 200 completed sessions (steady state, nothing new).
set -euo pipefail
cd "$(dirname "$0")/../.."
go test -run '^$' -bench 'BenchmarkGenerateRecommendations|BenchmarkRefreshers' -benchmem -benchtime 2s ./internal/server/ |
	awk '/^Benchmark/ { printf "%-36s %8.2f ms/op  %7.0f KiB/op  %6d allocs/op\n", $1, $3 / 1e6, $5 / 1024, $7 }'
