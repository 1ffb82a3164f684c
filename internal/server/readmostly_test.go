package server

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"journeyman/internal/catalog"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

var (
	readMostlyTrades  = []catalog.Trade{{ID: "electrical", Name: "Electrical", Description: "Power.", Certifications: []string{"NFPA 70E"}}}
	readMostlyModules = []catalog.Module{{ID: "electrical-loto", TradeID: "electrical", Title: "Lockout/Tagout",
		Description: "Isolate energy.", Difficulty: catalog.Intermediate, EstimatedDuration: 45}}
)

func openStore(tb testing.TB, dsn string) *store.Store {
	tb.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}

// TestReadMostlyAnswers runs on both stores. On PostgreSQL the catalog
// change comes from a second store on the same database, standing for
// another process.
func TestReadMostlyAnswers(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			var st, other *store.Store
			if dialect == "sqlite" {
				st = storetest.OpenSQLite(t)
				other = st
			} else {
				dsn := storetest.PostgresURL(t)
				st, other = openStore(t, dsn), openStore(t, dsn)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if err := st.SeedCatalog(ctx, readMostlyTrades, readMostlyModules); err != nil {
				t.Fatal(err)
			}
			s := mustNew(t, st, Config{Logger: slog.New(slog.DiscardHandler), App: testApp})
			s.Start(ctx)
			defer s.CloseRealtime()
			testReadMostly(t, s, other)
		})
	}
}

func testReadMostly(t *testing.T, s *Server, other *store.Store) {
	cookie := guest(t, s)
	get := func(path string, header ...string) response {
		t.Helper()
		req := asGuest(httptest.NewRequest(http.MethodGet, path, nil), cookie)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		return do(t, s, req)
	}
	scene := training.Scenes()[0].ID
	for _, tt := range []struct{ name, path, bodyHas string }{
		{"Modules", "/api/training-modules", `"id":"electrical-loto"`},
		{"Trades", "/api/trade-categories", `"id":"electrical"`},
		{"XRContent", "/api/training-modules/electrical-loto/xr-content", `"sceneUrl":"/api/xr-scenes/`},
		{"Scene", "/api/xr-scenes/" + scene, `"id":"` + scene + `"`},
		{"VoiceModules", "/api/voice-modules", `"voiceCommands"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			first := get(tt.path)
			if first.status != http.StatusOK || !strings.Contains(first.body, tt.bodyHas) {
				t.Fatalf("GET %s = %d %.200s", tt.path, first.status, first.body)
			}
			etag := first.header.Get("ETag")
			if etag == "" || first.header.Get("Cache-Control") != "no-cache" || first.header.Get("Vary") != "Accept-Encoding" {
				t.Fatalf("headers %v: want ETag, Cache-Control no-cache, Vary Accept-Encoding", first.header)
			}
			if again := get(tt.path); again.body != first.body || again.header.Get("ETag") != etag {
				t.Error("a second GET answered differently")
			}
			if res := get(tt.path, "If-None-Match", etag); res.status != http.StatusNotModified || res.body != "" {
				t.Errorf("If-None-Match: %d with %d bytes, want 304 and none", res.status, len(res.body))
			}
			if len(first.body) > 2000 {
				if res := get(tt.path, "Accept-Encoding", "gzip"); res.header.Get("Content-Encoding") != "gzip" || len(res.body) >= len(first.body) {
					t.Errorf("Accept-Encoding gzip: Content-Encoding %q, %d bytes of %d", res.header.Get("Content-Encoding"), len(res.body), len(first.body))
				}
			}
		})
	}
	t.Run("ErrUnknownScene", func(t *testing.T) {
		if res := get("/api/xr-scenes/nope"); res.status != http.StatusNotFound || !strings.Contains(message(t, res.body), "nope") {
			t.Fatalf("GET unknown scene = %d %s", res.status, res.body)
		}
	})

	t.Run("CatalogChangeReloads", func(t *testing.T) {
		before := get("/api/training-modules")
		if res := get("/api/training-modules/electrical-arc-flash/xr-content"); res.status != http.StatusNotFound {
			t.Fatalf("xr-content of a module not yet seeded = %d", res.status)
		}
		added := catalog.Module{ID: "electrical-arc-flash", TradeID: "electrical", Title: "Arc Flash",
			Description: "Boundaries.", Difficulty: catalog.Advanced, EstimatedDuration: 50}
		if err := other.SeedCatalog(context.Background(), readMostlyTrades, append(readMostlyModules, added)); err != nil {
			t.Fatal(err)
		}
		// The notice may cross processes; wait for it.
		deadline := time.Now().Add(10 * time.Second)
		var res response
		for {
			res = get("/api/training-modules", "If-None-Match", before.header.Get("ETag"))
			if res.status == http.StatusOK || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if res.status != http.StatusOK || !strings.Contains(res.body, `"id":"electrical-arc-flash"`) {
			t.Fatalf("after the catalog changed: %d %.200s; want the new module", res.status, res.body)
		}
		if res.header.Get("ETag") == before.header.Get("ETag") {
			t.Error("the changed catalog kept its ETag")
		}
		if res := get("/api/training-modules/electrical-arc-flash/xr-content"); res.status != http.StatusOK {
			t.Errorf("xr-content of the new module = %d", res.status)
		}
	})
}
