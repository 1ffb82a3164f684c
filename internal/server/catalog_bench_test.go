package server

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"journeyman/internal/identity"
	"journeyman/internal/store/storetest"
)

// BenchmarkCatalog measures GET /api/training-modules through the whole
// handler stack (observe, identify, authorize, the read-mostly cache) in
// process: the server's own cost per request, which bench/compare measures
// over HTTP together with the socket writes. The 304 case is the stack's
// cost alone.
func BenchmarkCatalog(b *testing.B) {
	s := MustOpenXRServer(b, storetest.OpenSQLite(b))
	mustAccount(b, s, "Ada", "", identity.Learner)
	first := call(b, s, alice, "GET", "/api/training-modules", "")
	etag := first.header.Get("ETag")
	if first.status != http.StatusOK || etag == "" {
		b.Fatalf("catalog: %d, ETag %q", first.status, etag)
	}
	for _, c := range []struct {
		name        string
		caller      string
		ifNoneMatch string
		status      int
	}{
		{"200", alice, "", http.StatusOK},
		{"304", alice, etag, http.StatusNotModified},
		// A signed-in caller's request also loads its session and account.
		{"304/signed-in", "Ada", etag, http.StatusNotModified},
	} {
		b.Run(c.name, func(b *testing.B) {
			req := as(b, s, httptest.NewRequest("GET", "/api/training-modules", nil), c.caller)
			req.Header.Set("Accept", "application/json")
			if c.ifNoneMatch != "" {
				req.Header.Set("If-None-Match", c.ifNoneMatch)
			}
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				if rec.Code != c.status {
					b.Fatalf("status %d, want %d", rec.Code, c.status)
				}
			}
		})
	}
}
