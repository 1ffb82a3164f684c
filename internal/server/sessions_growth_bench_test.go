package server

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"journeyman/internal/store"
	"journeyman/internal/training"
)

// growthChecks are the safety checks the player sends with every update.
const growthChecks = `[{"id":"ppe-on","status":"passed"},{"id":"lock-applied","status":"passed"}]`

// BenchmarkPatchSessionGrowth is one PATCH of a running session through the
// handler and the store, on a fresh session and on one holding 2,000
// interactions (issue 15: a session's updates should cost the same at its
// 2,000th interaction as at its first). bench/session-growth/run.sh prints
// the ratios.
//
//   - pose: a pose, a duration and the safety checks, as the player sends
//     with every update, on a session holding 0 or 2,000 interactions.
//   - append: the same with one new interaction, on sessions holding 0–99
//     or 1,900–1,999 interactions (a session holds at most 2,000, so each
//     takes 100 appends before the next one is used).
func BenchmarkPatchSessionGrowth(b *testing.B) {
	for _, db := range []string{"sqlite", "postgres"} {
		for _, kind := range []string{"pose", "append"} {
			for _, held := range []int{0, training.MaxInteractionsPerSession} {
				name := fmt.Sprintf("%s/%s/held=%d", db, kind, held)
				b.Run(name, func(b *testing.B) {
					st := benchStore(b, db)
					if kind == "pose" {
						benchPose(b, st, held)
					} else {
						benchAppend(b, st, held)
					}
				})
			}
		}
	}
}

func benchPose(b *testing.B, st *store.Store, held int) {
	s := MustOpenXRServer(b, st)
	x := newSession(b, s, alice, "electrical-lockout-tagout", "vr")
	prefill(b, s, x.ID, held)
	path := "/api/xr-sessions/" + x.ID
	defer measureCPU(b, st)()
	for i := range b.N {
		body := fmt.Sprintf(`{"position":{"x":%d.5,"y":1.6,"z":-1},"rotation":{"x":0,"y":0.38,"z":0,"w":0.92},"duration":%d,
			"interactionData":{"interactions":[],"safetyChecks":%s}}`, i%10, i%3600, growthChecks)
		if res := call(b, s, alice, "PATCH", path, body); res.status != 200 {
			b.Fatal(res.body)
		}
	}
}

func benchAppend(b *testing.B, st *store.Store, held int) {
	const perSession = 100
	if held == training.MaxInteractionsPerSession {
		held -= perSession
	}
	s := MustOpenXRServer(b, st)
	ids := make([]string, (b.N+perSession-1)/perSession)
	for k := range ids {
		x := newSession(b, s, alice, "electrical-lockout-tagout", "vr")
		prefill(b, s, x.ID, held)
		ids[k] = x.ID
	}
	defer measureCPU(b, st)()
	for i := range b.N {
		seq := held + i%perSession
		body := fmt.Sprintf(`{"position":{"x":%d.5,"y":1.6,"z":-1},"rotation":{"x":0,"y":0.38,"z":0,"w":0.92},"duration":%d,
			"interactionData":{"interactions":[{"action":"inspect","objectId":"panel","input":"ray","sessionTime":%d,"seq":%d}],"safetyChecks":%s}}`,
			i%10, i%3600, 1000*seq, seq, growthChecks)
		if res := call(b, s, alice, "PATCH", "/api/xr-sessions/"+ids[i/perSession], body); res.status != 200 {
			b.Fatal(res.body)
		}
	}
}

// measureCPU starts the timer and returns a function that reports, beside
// the wall time, this process's CPU time per PATCH: on a shared machine the
// steadier measure of what a PATCH costs the server (on PostgreSQL without
// the database server's share). SQLite's log is checkpointed first, so that
// the timed PATCHes do not pay for copying the prefill's pages.
func measureCPU(b *testing.B, st *store.Store) func() {
	if st.Dialect() == store.SQLite {
		if _, err := st.DB().Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			b.Fatal(err)
		}
	}
	start := cpuTime(b)
	b.ResetTimer()
	return func() {
		b.StopTimer()
		b.ReportMetric(float64((cpuTime(b)-start).Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// prefill stores n small interactions in session id, 100 per update.
func prefill(tb testing.TB, s *Server, id string, n int) {
	tb.Helper()
	for from := 0; from < n; from += training.MaxInteractionsPerUpdate {
		var ins []string
		for seq := from; seq < min(n, from+training.MaxInteractionsPerUpdate); seq++ {
			ins = append(ins, fmt.Sprintf(`{"action":"look","sessionTime":%d,"seq":%d}`, seq, seq))
		}
		res := call(tb, s, alice, "PATCH", "/api/xr-sessions/"+id, `{"interactionData":{"interactions":[`+strings.Join(ins, ",")+`]}}`)
		if res.status != 200 {
			tb.Fatalf("prefill %s to %d: %d %s", id, n, res.status, res.body)
		}
	}
}
