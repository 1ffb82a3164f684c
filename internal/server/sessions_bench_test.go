package server

import (
	"fmt"
	"testing"

	"journeyman/internal/store/storetest"
)

// BenchmarkPatchSession measures one periodic session update through the
// whole handler stack and the store, in process (no network): the cost
// bench/sessions/run.sh measures over HTTP, without the load generator's
// share of the machine.
func BenchmarkPatchSession(b *testing.B) {
	for _, db := range []string{"sqlite", "postgres"} {
		b.Run(db, func(b *testing.B) {
			st := storetest.OpenSQLite(b)
			if db == "postgres" {
				st = storetest.OpenPostgres(b)
			}
			s := MustOpenXRServer(b, st)
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
