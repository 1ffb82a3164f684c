-- One line for bench/compare/run.sh after a wrk run: requests per second,
-- p99 in milliseconds, and the count of failed requests (status >= 400 or
-- socket errors). Headers come from wrk's -H flags.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %.2f %.3f %d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(99) / 1000,
    e.status + e.connect + e.read + e.write + e.timeout))
end
