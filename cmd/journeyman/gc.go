package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The collector's pace. Go collects when the heap has grown by GOGC percent
// (100) of what the last collection found live. The server's live heap at
// rest is small, about 35 MB, most of it the simulated OPC UA devices'
// address spaces, so under load it was collected several times a second:
// marking took 15-20% of the server's CPU on a cached catalog answer
// (bench/compare) and 37% on the LRS's POSTs on PostgreSQL (bench/xapi).
// Below half of minHeapTarget of live heap, GOGC is raised so that the next
// collection comes at minHeapTarget; above, it is Go's 100. A server whose
// live heap is large (thousands of WebSocket clients) is paced as before,
// and holds no more memory than before. An operator's GOGC is left alone;
// GOMEMLIMIT applies either way.
const minHeapTarget = 128 << 20

// maxGCPercent bounds the raise. GOGC is set from the heap the last
// collection found live, and applies to what the next one finds: while the
// live heap grows (at start-up, or as clients connect), an unbounded
// percentage would let the heap overshoot minHeapTarget several times.
const maxGCPercent = 400

// paceGC keeps the collector's target at minHeapTarget or more, from now on,
// unless the environment (lookupEnv) sets GOGC.
func paceGC(lookupEnv func(string) (string, bool)) {
	if _, set := lookupEnv("GOGC"); set {
		return
	}
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var pace func()
	pace = func() {
		metrics.Read(live)
		debug.SetGCPercent(gcPercent(live[0].Value.Uint64(), minHeapTarget))
		afterGC(pace)
	}
	pace()
}

// gcPercent is the GOGC that makes the next collection come when the heap
// reaches target, given live bytes live after the last one, between 100 and
// maxGCPercent.
func gcPercent(live, target uint64) int {
	if live >= target/2 {
		return 100
	}
	if live <= target/(maxGCPercent/100+1) {
		return maxGCPercent
	}
	return int(target*100/live) - 100 //nolint:gosec // G115: under maxGCPercent+100, as live > target/(maxGCPercent/100+1)
}

// afterGC runs f once, after the next collection: the cleanup of an object
// nothing refers to. It holds a pointer, so that the allocator does not
// pack it with other small objects, which would delay the cleanup.
func afterGC(f func()) {
	runtime.AddCleanup(&struct{ _ *int }{}, func(struct{}) { f() }, struct{}{})
}
