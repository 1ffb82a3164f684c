package server

import (
	"fmt"
	"testing"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

// benchStore opens the store db names, and no other: an idle SQLite store's
// checkpoints, once a second, would be counted in a PostgreSQL run.
func benchStore(b *testing.B, db string) *store.Store {
	b.Helper()
	if db == "postgres" {
		return storetest.OpenPostgres(b)
	}
	return storetest.OpenSQLite(b)
}

// BenchmarkPatchSession measures one periodic session update through the
// whole handler stack and the store, in process (no network): the cost
// bench/sessions/run.sh measures over HTTP, without the load generator's
// share of the machine.
func BenchmarkPatchSession(b *testing.B) {
	for _, db := range []string{"sqlite", "postgres"} {
		b.Run(db, func(b *testing.B) {
			s := MustOpenXRServer(b, benchStore(b, db))
			x := newSession(b, s, alice, "electrical-lockout-tagout", "desktop")
			i := 0
			for b.Loop() {
				i++
				res := call(b, s, alice, "PATCH", "/api/xr-sessions/"+x.ID, fmt.Sprintf(`{"position":{"x":%d,"y":1.6,"z":-1},"duration":%d}`, i%10, i%3600))
				if res.status != 200 {
					b.Fatal(res.body)
				}
			}
		})
	}
}

// BenchmarkPatchSessionInteraction is BenchmarkPatchSession with the body of
// bench/compare's PATCH scenario (the Express peer's bench/patch.lua): a
// position, one interaction and one safety check each time. A session takes
// 1,500 of them, well within training.MaxInteractionsPerSession, and the
// next PATCH starts another.
func BenchmarkPatchSessionInteraction(b *testing.B) {
	const body = `{"position":{"x":1.25,"y":1.6,"z":-0.42},` +
		`"interactionData":{"interactions":[{"action":"click","target":"breaker-panel",` +
		`"timestamp":"2025-06-01T12:00:00.000Z","sessionTime":15200}],` +
		`"safetyChecks":[{"id":"ppe","status":"passed"}]},` +
		`"duration":42}`
	for _, db := range []string{"sqlite", "postgres"} {
		b.Run(db, func(b *testing.B) {
			s := MustOpenXRServer(b, benchStore(b, db))
			var path string
			i := 0
			for b.Loop() {
				if i%1500 == 0 {
					path = "/api/xr-sessions/" + newSession(b, s, alice, "electrical-lockout-tagout", "desktop").ID
				}
				i++
				res := call(b, s, alice, "PATCH", path, body)
				if res.status != 200 {
					b.Fatal(res.body)
				}
			}
		})
	}
}
