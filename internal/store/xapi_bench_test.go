package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/xapi"
)

// BenchmarkStoreXAPIStatements stores batches of 50 statements as a course
// player sends them (decoding included): b.N batches, so statements/s is
// 50 * b.N / elapsed.
func BenchmarkStoreXAPIStatements(b *testing.B) {
	for _, db := range []struct {
		name string
		open func(testing.TB) *store.Store
	}{{"sqlite", storetest.OpenSQLite}, {"postgres", storetest.OpenPostgres}} {
		b.Run(db.name, func(b *testing.B) {
			s := db.open(b)
			ctx := context.Background()
			n := 0
			batch := func() []byte {
				var sb strings.Builder
				sb.WriteByte('[')
				for i := range 50 {
					if i > 0 {
						sb.WriteByte(',')
					}
					n++
					fmt.Fprintf(&sb, `{"id":"%08x-0000-4000-8000-%012x","actor":{"objectType":"Agent","name":"Learner %d","mbox":"mailto:l%d@example.com"},"verb":{"id":"http://adlnet.gov/expapi/verbs/experienced","display":{"en-US":"experienced"}},"object":{"objectType":"Activity","id":"http://example.com/activities/%d","definition":{"name":{"en-US":"Activity %d"},"type":"http://adlnet.gov/expapi/activities/lesson"}},"result":{"score":{"scaled":0.5,"raw":50,"min":0,"max":100},"success":true,"completion":true,"duration":"PT5M3S"},"context":{"registration":"00000000-0000-4000-8000-%012x","platform":"Journeyman XR","language":"en-US"},"timestamp":"2026-11-01T10:00:00.000Z"}`,
						n, n, n%1000, n%1000, n%200, n%200, n%500)
				}
				sb.WriteByte(']')
				return []byte(sb.String())
			}
			bodies := make([][]byte, b.N)
			for i := range bodies {
				bodies[i] = batch()
			}
			b.ResetTimer()
			for i := range b.N {
				ins, err := xapi.Decode(bodies[i], xapi.V200)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.StoreXAPIStatements(ctx, store.XAPIWrite{OrgID: "org", Authority: testAuthority, Version: xapi.V200, Statements: ins}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(50*b.N)/b.Elapsed().Seconds(), "statements/s")
		})
	}
}
