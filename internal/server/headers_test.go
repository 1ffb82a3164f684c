package server

import (
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// checkSecurityHeaders checks the headers every answer but the API's
// carries; wsSource is the WebSocket source connect-src must end with (""
// for none).
func checkSecurityHeaders(tb testing.TB, h http.Header, wsSource string, hsts bool) {
	tb.Helper()
	checkCommonHeaders(tb, h, hsts)
	if got := h.Get("Referrer-Policy"); got != "same-origin" {
		tb.Errorf("Referrer-Policy = %q, want same-origin", got)
	}
	csp := h.Get("Content-Security-Policy")
	for _, d := range []string{"default-src 'self'", "script-src 'self';", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, d) {
			tb.Errorf("Content-Security-Policy %q lacks %q", csp, d)
		}
	}
	if want := strings.TrimSpace("connect-src 'self' " + wsSource); !strings.HasSuffix(csp, want) {
		tb.Errorf("Content-Security-Policy %q does not end with %q", csp, want)
	}
	if strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "http") || strings.Contains(csp, "*") {
		tb.Errorf("Content-Security-Policy %q admits eval or another host", csp)
	}
	pp := h.Get("Permissions-Policy")
	for _, f := range []string{"camera=(self)", "microphone=(self)", "xr-spatial-tracking=(self)", "geolocation=()", "payment=()", "usb=()"} {
		if !strings.Contains(pp, f) {
			tb.Errorf("Permissions-Policy %q lacks %q", pp, f)
		}
	}
}

// checkDataHeaders checks the headers of the API's answers: data, which
// may load nothing and be framed by no one, and with no Permissions-Policy
// or Referrer-Policy, which only documents obey.
func checkDataHeaders(tb testing.TB, h http.Header, hsts bool) {
	tb.Helper()
	checkCommonHeaders(tb, h, hsts)
	if got, want := h.Get("Content-Security-Policy"), "default-src 'none'; frame-ancestors 'none'"; got != want {
		tb.Errorf("Content-Security-Policy = %q, want %q", got, want)
	}
	for _, k := range []string{"Permissions-Policy", "Referrer-Policy"} {
		if v := h.Get(k); v != "" {
			tb.Errorf("%s = %q on an API answer", k, v)
		}
	}
}

func checkCommonHeaders(tb testing.TB, h http.Header, hsts bool) {
	tb.Helper()
	if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
		tb.Errorf("X-Content-Type-Options = %q, want nosniff", got)
	}
	if got := h.Get("Strict-Transport-Security"); (got != "") != hsts {
		tb.Errorf("Strict-Transport-Security = %q, want it present: %v", got, hsts)
	}
}

func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	s := MustOpenServer(t)
	c := guest(t, s)
	foreign := func(r *http.Request) *http.Request { r.Header.Set("Origin", "https://evil.example"); return r }
	tests := []struct {
		name   string
		req    *http.Request
		status int
	}{
		{"AppPage", httptest.NewRequest("GET", "/", nil), 200},
		{"ClientRoute", httptest.NewRequest("GET", "/xr-training", nil), 200},
		{"Asset", httptest.NewRequest("GET", "/assets/index-abc1.js", nil), 200},
		{"ErrMissingAsset", httptest.NewRequest("GET", "/assets/gone-1.js", nil), 404},
		{"ErrAppWrongMethod", httptest.NewRequest("POST", "/somewhere", nil), 405},
		{"API", httptest.NewRequest("GET", "/api/training-modules", nil), 200},
		{"ErrAPIUnknown", httptest.NewRequest("GET", "/api/nothing", nil), 404},
		{"ErrAPIWrongMethod", httptest.NewRequest("DELETE", "/api/training-modules", nil), 405},
		{"ErrAPIBadInput", asGuest(postJSON("/api/demo-requests", `{`), c), 400},
		{"ErrCrossOrigin", foreign(asGuest(postJSON("/api/demo-requests", `{}`), c)), 403},
		{"LRS", httptest.NewRequest("GET", "/xapi/about", nil), 200},
		{"ErrLRSUnknown", httptest.NewRequest("GET", "/xapi/nothing", nil), 404},
		{"Healthz", httptest.NewRequest("GET", "/healthz", nil), 200},
		{"Readyz", httptest.NewRequest("GET", "/readyz", nil), 200},
		{"Metrics", httptest.NewRequest("GET", "/metrics", nil), 200},
		{"ErrWebSocketWithoutCookie", httptest.NewRequest("GET", "/ws", nil), 401},
		{"ErrWebSocketForeignOrigin", foreign(asGuest(httptest.NewRequest("GET", "/ws", nil), c)), 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.req.URL.Path == "/ws" {
				tt.req.Header.Set("Connection", "Upgrade")
				tt.req.Header.Set("Upgrade", "websocket")
				tt.req.Header.Set("Sec-WebSocket-Version", "13")
				tt.req.Header.Set("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
			}
			path := tt.req.URL.Path
			res := do(t, s, tt.req)
			if res.status != tt.status {
				t.Fatalf("status = %d, want %d; body %s", res.status, tt.status, res.body)
			}
			if strings.HasPrefix(path, "/api/") || strings.HasPrefix(path, "/xapi/") {
				checkDataHeaders(t, res.header, false)
			} else {
				checkSecurityHeaders(t, res.header, "ws://example.com", false)
			}
		})
	}

	for _, path := range []string{"/api/x", "/x"} {
		t.Run("ErrPanic"+path, func(t *testing.T) {
			h := s.observe(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("broken") }))
			res := do(t, h, httptest.NewRequest("GET", path, nil))
			if res.status != 500 {
				t.Fatalf("status = %d, want 500", res.status)
			}
			if path == "/api/x" {
				checkDataHeaders(t, res.header, false)
			} else {
				checkSecurityHeaders(t, res.header, "ws://example.com", false)
			}
		})
	}
}

func TestSecurityHeadersFollowTheScheme(t *testing.T) {
	s := MustOpenServer(t)
	s = mustNew(t, s.store, Config{Logger: s.log, App: testApp, TrustedProxies: mustTrustedProxies(t, "10.0.0.0/8")})
	tests := []struct {
		name     string
		host     string
		peer     string
		tls      bool
		proto    string
		wsSource string
		hsts     bool
	}{
		{"PlainHTTP", "journeyman.example:8080", "203.0.113.9:5000", false, "", "ws://journeyman.example:8080", false},
		{"NativeTLS", "journeyman.example", "203.0.113.9:5000", true, "", "wss://journeyman.example", true},
		{"TrustedProxyTLS", "journeyman.example", "10.0.0.1:5000", false, "https", "wss://journeyman.example", true},
		{"ErrSpoofedProxyTLS", "journeyman.example", "203.0.113.9:5000", false, "https", "ws://journeyman.example", false},
		{"IPv6Host", "[::1]:8080", "203.0.113.9:5000", false, "", "ws://[::1]:8080", false},
		{"ErrHostInjectsPolicy", "x; script-src *", "203.0.113.9:5000", false, "", "", false},
		{"ErrHostWithQuote", "x'y", "203.0.113.9:5000", false, "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/healthz", nil)
			r.Host = tt.host
			r.RemoteAddr = tt.peer
			if tt.tls {
				r.TLS = &tls.ConnectionState{}
			}
			if tt.proto != "" {
				r.Header.Set("X-Forwarded-Proto", tt.proto)
			}
			res := do(t, s, r)
			checkSecurityHeaders(t, res.header, tt.wsSource, tt.hsts)
			api := r.Clone(r.Context())
			api.URL.Path, api.RequestURI = "/api/trade-categories", "/api/trade-categories"
			checkDataHeaders(t, do(t, s, api).header, tt.hsts)
		})
	}
}

// The app's page admits its own <style> elements by a nonce that is fresh in
// every answer; no other answer admits any inline style.
func TestPageStyleNonce(t *testing.T) {
	s := MustOpenServer(t)
	nonceOf := func(path string) (string, response) {
		t.Helper()
		res := do(t, s, httptest.NewRequest("GET", path, nil))
		m := regexp.MustCompile(`style-src 'self' 'nonce-([A-Za-z0-9_-]{22})';`).FindStringSubmatch(res.header.Get("Content-Security-Policy"))
		if m == nil {
			t.Fatalf("GET %s: Content-Security-Policy %q has no style nonce", path, res.header.Get("Content-Security-Policy"))
		}
		return m[1], res
	}
	first, res := nonceOf("/")
	if !strings.Contains(res.body, `nonce="`+first+`"`) || strings.Contains(res.body, "JOURNEYMAN_CSP_NONCE") {
		t.Fatalf("page %q does not carry the policy's nonce %s", res.body, first)
	}
	if res.header.Get("ETag") != "" || res.header.Get("Last-Modified") != "" {
		t.Fatalf("the page has validators (ETag %q, Last-Modified %q): a 304 would revive an old nonce", res.header.Get("ETag"), res.header.Get("Last-Modified"))
	}
	if second, _ := nonceOf("/xr-training"); second == first {
		t.Fatalf("two answers share the nonce %s", first)
	}
	for _, path := range []string{"/assets/index-abc1.js", "/healthz"} {
		res := do(t, s, httptest.NewRequest("GET", path, nil))
		if csp := res.header.Get("Content-Security-Policy"); !strings.Contains(csp, "style-src 'self';") {
			t.Errorf("GET %s: Content-Security-Policy %q admits inline style", path, csp)
		}
	}
}
