package server

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"journeyman/internal/apperr"
	"journeyman/internal/catalog"
	"journeyman/internal/identity"
	"journeyman/internal/store/storetest"
)

var testApp = fstest.MapFS{
	"index.html":           {Data: []byte(`<!doctype html><title>Journeyman XR</title><meta property="csp-nonce" nonce="JOURNEYMAN_CSP_NONCE">`)},
	"assets/index-abc1.js": {Data: []byte(strings.Repeat("console.log('journeyman');\n", 200))},
	"favicon.svg":          {Data: []byte("<svg/>")},
}

// MustOpenServer returns a server on a new SQLite store holding a small catalog.
func MustOpenServer(tb testing.TB) *Server {
	tb.Helper()
	st := storetest.OpenSQLite(tb)
	err := st.SeedCatalog(context.Background(),
		[]catalog.Trade{{ID: "electrical", Name: "Electrical", Description: "Power.", Certifications: []string{"NFPA 70E"}}},
		[]catalog.Module{{ID: "electrical-loto", TradeID: "electrical", Title: "Lockout/Tagout", Description: "Isolate energy.",
			Difficulty: catalog.Intermediate, EstimatedDuration: 45}})
	if err != nil {
		tb.Fatal(err)
	}
	s, err := New(st, Config{Logger: slog.New(slog.DiscardHandler), App: testApp})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

type response struct {
	status int
	header http.Header
	body   string
}

func do(tb testing.TB, h http.Handler, req *http.Request) response {
	tb.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return response{rec.Code, rec.Result().Header, rec.Body.String()}
}

func message(tb testing.TB, body string) string {
	tb.Helper()
	var e errorBody
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Message == "" {
		tb.Fatalf("body %q is not a JSON error message", body)
	}
	return e.Message
}

func TestRoutes(t *testing.T) {
	s := MustOpenServer(t)
	tests := []struct {
		name, method, path string
		status             int
		contentType        string
		cacheControl       string
		bodyHas            string
	}{
		{"Modules", "GET", "/api/training-modules", 200, "application/json", "no-cache", `"title":"Lockout/Tagout"`},
		{"Trades", "GET", "/api/trade-categories", 200, "application/json", "no-cache", `"certifications":["NFPA 70E"]`},
		{"ErrUnknownAPIPath", "GET", "/api/nothing-here", 404, "application/json", "", "no API endpoint at /api/nothing-here"},
		{"ErrUnknownAPIPathOtherMethod", "DELETE", "/api/nothing-here", 404, "application/json", "", "no API endpoint"},
		{"ErrWrongMethod", "DELETE", "/api/training-modules", 405, "application/json", "", "method DELETE is not allowed on /api/training-modules; use GET or HEAD"},
		{"ClientRouteGetsApp", "GET", "/xr-training", 200, "text/html", "no-cache", "<title>Journeyman XR</title>"},
		{"UnknownClientRouteGetsApp", "GET", "/no/such/page", 200, "text/html", "no-cache", "Journeyman XR"},
		{"HashedAssetCachedForAYear", "GET", "/assets/index-abc1.js", 200, "text/javascript", "public, max-age=31536000, immutable", "journeyman"},
		{"ErrMissingAsset", "GET", "/assets/gone-123.js", 404, "text/plain", "", "not found"},
		{"Healthz", "GET", "/healthz", 200, "application/json", "", `"status":"ok"`},
		{"Readyz", "GET", "/readyz", 200, "application/json", "", `"database":"sqlite"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, httptest.NewRequest(tt.method, tt.path, nil))
			if res.status != tt.status {
				t.Fatalf("status = %d, want %d; body %s", res.status, tt.status, res.body)
			}
			if ct := res.header.Get("Content-Type"); !strings.HasPrefix(ct, tt.contentType) {
				t.Errorf("Content-Type = %q, want %q", ct, tt.contentType)
			}
			if tt.cacheControl != "" && res.header.Get("Cache-Control") != tt.cacheControl {
				t.Errorf("Cache-Control = %q, want %q", res.header.Get("Cache-Control"), tt.cacheControl)
			}
			if !strings.Contains(res.body, tt.bodyHas) {
				t.Errorf("body %q lacks %q", res.body, tt.bodyHas)
			}
			if res.header.Get("X-Request-Id") == "" {
				t.Error("no X-Request-Id header")
			}
		})
	}
}

func TestCompressesTextAssets(t *testing.T) {
	s := MustOpenServer(t)
	req := httptest.NewRequest("GET", "/assets/index-abc1.js", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res := do(t, s, req)
	if res.header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("Content-Encoding = %q, want gzip", res.header.Get("Content-Encoding"))
	}
}

func TestAppNotBuilt(t *testing.T) {
	s := MustOpenServer(t)
	s, err := New(s.store, Config{Logger: s.log, App: fstest.MapFS{".gitkeep": {}}})
	if err != nil {
		t.Fatal(err)
	}
	res := do(t, s, httptest.NewRequest("GET", "/", nil))
	if res.status != http.StatusServiceUnavailable || !strings.Contains(res.body, "make build") {
		t.Fatalf("got %d %q, want 503 telling to run make build", res.status, res.body)
	}
}

type sample struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

func (v sample) Validate() error {
	if v.Count < 0 || v.Count > 10 {
		return apperr.Invalid("count must be between 0 and 10, not %d", v.Count)
	}
	return nil
}

// sampleHandler has the one handler shape, to test the JSON rules that every
// endpoint shares.
func (s *Server) sampleHandler(w http.ResponseWriter, r *http.Request) {
	var in sample
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := in.Validate(); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, in)
}

func TestReadJSON(t *testing.T) {
	s := MustOpenServer(t)
	h := http.HandlerFunc(s.sampleHandler)
	tests := []struct {
		name, body, contentType string
		status                  int
		message                 string
	}{
		{"OK", `{"name":"a","count":3}`, "application/json", 201, ""},
		{"ErrEmpty", ``, "application/json", 400, "request body is empty"},
		{"ErrMalformed", `{"name":`, "application/json", 400, "malformed JSON"},
		{"ErrSyntax", `{"name" "a"}`, "application/json", 400, "malformed JSON at byte"},
		{"ErrUnknownField", `{"name":"a","colour":"red"}`, "application/json", 400, `unknown field "colour"`},
		{"ErrWrongType", `{"name":"a","count":"three"}`, "application/json", 400, `field "count" must be a whole number, not string`},
		{"ErrNotAnObject", `[1,2]`, "application/json", 400, "request body must be a JSON object, not array"},
		{"ErrNotAWholeNumber", `{"name":"a","count":1.5}`, "application/json", 400, `field "count" must be a whole number, not 1.5`},
		{"ErrExponent", `{"name":"a","count":1e12}`, "application/json", 400, `field "count" must be a whole number, not 1e12`},
		{"ErrOutOfRange", `{"name":"a","count":11}`, "application/json", 400, "count must be between 0 and 10, not 11"},
		{"ErrTrailingData", `{"name":"a"} {"name":"b"}`, "application/json", 400, "a single JSON value"},
		{"ErrContentType", `name=a`, "application/x-www-form-urlencoded", 400, "Content-Type must be application/json"},
		{"ErrTooLarge", `{"name":"` + strings.Repeat("x", MaxBodyBytes) + `"}`, "application/json", 413, "larger than 1048576 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", "/api/sample", strings.NewReader(tt.body))
			req.Header.Set("Content-Type", tt.contentType)
			res := do(t, h, req)
			if res.status != tt.status {
				t.Fatalf("status = %d, want %d; body %s", res.status, tt.status, res.body)
			}
			if tt.message != "" && !strings.Contains(message(t, res.body), tt.message) {
				t.Fatalf("message %q lacks %q", message(t, res.body), tt.message)
			}
		})
	}
}

func TestPanicBecomes500AndServerKeepsServing(t *testing.T) {
	s := MustOpenServer(t)
	h := s.observe(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/boom" {
			panic("something broke")
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	res := do(t, h, httptest.NewRequest("GET", "/boom", nil))
	if res.status != 500 || message(t, res.body) != "internal error" {
		t.Fatalf("got %d %q, want 500 internal error", res.status, res.body)
	}
	if res := do(t, h, httptest.NewRequest("GET", "/fine", nil)); res.status != http.StatusNoContent {
		t.Fatalf("after a panic: status %d, want 204", res.status)
	}
}

func TestInternalErrorsAreHidden(t *testing.T) {
	s := MustOpenServer(t)
	rec := httptest.NewRecorder()
	s.writeError(rec, httptest.NewRequest("GET", "/api/x", nil), io.ErrUnexpectedEOF)
	if rec.Code != 500 || message(t, rec.Body.String()) != "internal error" {
		t.Fatalf("got %d %q", rec.Code, rec.Body.String())
	}
}

func TestIdentity(t *testing.T) {
	s := MustOpenServer(t)
	meOf := func(t *testing.T, res response) meResponse {
		t.Helper()
		var me meResponse
		if err := json.Unmarshal([]byte(res.body), &me); err != nil {
			t.Fatal(err)
		}
		return me
	}
	guestCount := func(t *testing.T) int {
		t.Helper()
		var n int
		if err := s.store.DB().QueryRow(`SELECT COUNT(*) FROM learners`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	t.Run("FirstCallIssuesGuestToken", func(t *testing.T) {
		before := guestCount(t)
		res := do(t, s, httptest.NewRequest("GET", "/api/me", nil))
		cookies := (&http.Response{Header: res.header}).Cookies()
		if len(cookies) != 1 {
			t.Fatalf("cookies = %v, want one", cookies)
		}
		c := cookies[0]
		id, ok := s.guests.Check(c.Value)
		if c.Name != GuestCookie || !ok || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure {
			t.Fatalf("cookie = %+v, want an HttpOnly, SameSite=Lax guest token this server issued", c)
		}
		if me := meOf(t, res); me.ID != id || !me.Guest || me.Role != identity.Guest || !strings.HasPrefix(me.DisplayName, "Guest ") {
			t.Fatalf("me = %+v, want the token's guest %s", me, id)
		}
		if strings.Contains(res.body, c.Value) {
			t.Fatal("the answer shows the token: ids others see must not be credentials")
		}
		if n := guestCount(t); n != before {
			t.Fatalf("an anonymous GET stored %d learner rows", n-before)
		}
	})

	t.Run("PageIssuesCookieBeforeAnyAPICall", func(t *testing.T) {
		page := do(t, s, httptest.NewRequest("GET", "/learning-hub", nil))
		cookies := (&http.Response{Header: page.header}).Cookies()
		if len(cookies) != 1 || cookies[0].Name != GuestCookie || !cookies[0].HttpOnly {
			t.Fatalf("page cookies = %v, want the guest cookie", cookies)
		}
		id, _ := s.guests.Check(cookies[0].Value)
		// The page's API calls, fired together, all act as that one guest.
		for range 3 {
			req := httptest.NewRequest("GET", "/api/me", nil)
			req.AddCookie(cookies[0])
			res := do(t, s, req)
			if res.header.Get("Set-Cookie") != "" || meOf(t, res).ID != id {
				t.Fatalf("API call after the page: %v %s", res.header, res.body)
			}
		}
	})

	t.Run("ErrForgedOrChosenCookieGetsFreshGuest", func(t *testing.T) {
		for _, forged := range []string{strings.Repeat("0", 32), "'; DROP TABLE learners; --", idOf(t, s, "alice")} {
			req := httptest.NewRequest("GET", "/api/me", nil)
			req.AddCookie(&http.Cookie{Name: GuestCookie, Value: forged})
			res := do(t, s, req)
			if !strings.Contains(res.header.Get("Set-Cookie"), GuestCookie+"=") || meOf(t, res).ID == forged {
				t.Fatalf("cookie %q: got %v %s, want a fresh guest", forged, res.header, res.body)
			}
		}
	})

	t.Run("SecureOverTLS", func(t *testing.T) {
		req := httptest.NewRequest("GET", "https://journeyman.example/api/me", nil)
		res := do(t, s, req)
		if !strings.Contains(res.header.Get("Set-Cookie"), "Secure") {
			t.Fatalf("Set-Cookie = %q, want Secure", res.header.Get("Set-Cookie"))
		}
	})
}

func TestCrossOriginUnsafeMethodsRejected(t *testing.T) {
	s := MustOpenServer(t)
	req := httptest.NewRequest("POST", "/api/training-modules", strings.NewReader(`{}`))
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://attacker.example")
	if res := do(t, s, req); res.status != http.StatusForbidden {
		t.Fatalf("status = %d, want 403", res.status)
	}
	same := httptest.NewRequest("POST", "/api/training-modules", strings.NewReader(`{}`))
	same.Header.Set("Sec-Fetch-Site", "same-origin")
	if res := do(t, s, same); res.status != http.StatusMethodNotAllowed {
		t.Fatalf("same-origin POST: status = %d, want 405 (it reached the API)", res.status)
	}
}

func TestMetricsByRoutePattern(t *testing.T) {
	s := MustOpenServer(t)
	do(t, s, httptest.NewRequest("GET", "/api/training-modules", nil))
	do(t, s, httptest.NewRequest("GET", "/api/nothing", nil))
	res := do(t, s, httptest.NewRequest("GET", "/metrics", nil))
	for _, want := range []string{
		`journeyman_http_requests_total{method="GET",route="GET /api/training-modules",status="200"} 1`,
		`journeyman_http_requests_total{method="GET",route="/api/",status="404"} 1`,
		`journeyman_http_request_duration_seconds_bucket{route="GET /api/training-modules"`,
	} {
		if !strings.Contains(res.body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
