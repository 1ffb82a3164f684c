package server

import (
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"strings"
)

// The Content-Security-Policy of every answer; its style source and its
// WebSocket source depend on the answer (see csp). Each source is there
// because the app needs it, as the whole browser suite found by failing on
// any violation (e2e/support/test.ts):
//
//   - default-src 'self': everything the app loads (scripts, styles, images,
//     media, fonts, manifests, workers) comes from its own origin; no other
//     host anywhere, no data: or blob: URLs, no eval.
//   - style-src 'self' 'nonce-…': the stylesheet is a file; the <style>
//     elements Radix writes (its scroll lock under dialogs and selects, whose
//     rules depend on the scrollbar width, and the select's viewport) carry
//     the page's nonce (web/src/lib/csp.ts), fresh in each answer of the page.
//     No 'unsafe-inline': style attributes stay blocked (React sets styles
//     through the CSSOM, which the policy does not govern).
//   - connect-src 'self' ws(s)://host: the API, and the realtime channel at
//     /ws, which 'self' does not cover in every browser.
//   - object-src 'none', base-uri 'self', form-action 'self',
//     frame-ancestors 'none': no plugins, no <base> hijack, forms post home,
//     no framing (clickjacking).
const (
	cspHead = "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'; "
	// connect-src comes last, so that the WebSocket source ends the policy.
	cspConnect = "connect-src 'self'"
)

// permissionsPolicy lets the app itself, and no frame, use the camera (the
// welding simulator's AR view), the microphone (voice-driven procedures),
// WebXR and fullscreen (the demo players); powerful features the app never
// uses are off for everyone.
const permissionsPolicy = "camera=(self), microphone=(self), xr-spatial-tracking=(self), fullscreen=(self), " +
	"accelerometer=(), gyroscope=(), magnetometer=(), geolocation=(), payment=(), usb=(), serial=(), hid=(), " +
	"midi=(), display-capture=(), idle-detection=(), browsing-topics=()"

// hsts asks browsers to come back over HTTPS only, for a year. No
// includeSubDomains: the deployment does not own its sibling hosts.
const hsts = "max-age=31536000"

// The values every answer carries, made once and shared by all answers'
// headers: nothing modifies a value in place (Set replaces it, Add appends
// to a copy, as each holds exactly one element).
var (
	nosniffValue           = []string{"nosniff"}
	sameOriginValue        = []string{"same-origin"}
	permissionsPolicyValue = []string{permissionsPolicy}
	hstsValue              = []string{hsts}
)

// apiPolicy is the Content-Security-Policy of the API's answers (/api/,
// /xapi/): data, never a document that loads anything, so it may load
// nothing and be framed by no one (OWASP's REST security advice). A
// Permissions-Policy or Referrer-Policy governs documents only, so they
// carry neither. That keeps a cached answer's header map within 8 entries,
// the most a Go map holds before it grows into a table: one more costed
// about 5% of the CPU of a cached answer (bench/compare).
const apiPolicy = "default-src 'none'; frame-ancestors 'none'"

var apiPolicyValue = []string{apiPolicy}

// dataPath reports whether path is the API's, whose answers are data.
func dataPath(path string) bool {
	return strings.HasPrefix(path, "/api/") || strings.HasPrefix(path, "/xapi/")
}

// setSecurityHeaders puts the security headers on the answer to r, whatever
// handler writes it (API, app, assets, health, metrics, errors).
func (s *Server) setSecurityHeaders(h http.Header, r *http.Request) {
	https := s.isHTTPS(r)
	h["X-Content-Type-Options"] = nosniffValue
	if dataPath(r.URL.Path) {
		h["Content-Security-Policy"] = apiPolicyValue
	} else {
		h["Referrer-Policy"] = sameOriginValue
		h["Content-Security-Policy"] = s.hostCSP(r.Host, https)
		h["Permissions-Policy"] = permissionsPolicyValue
	}
	// Browsers ignore HSTS over plain HTTP; over TLS, native or at a
	// trusted proxy, it keeps them from ever trying plain HTTP again.
	if https {
		h["Strict-Transport-Security"] = hstsValue
	}
}

// cspEntry is the policy of the answers to one host, over HTTP or HTTPS.
type cspEntry struct {
	host   string
	https  bool
	policy []string // a header value, shared like those above
}

// hostCSP is csp without a style nonce, for every answer but the app's
// page. A deployment answers to one host, or a few: the last one's policy
// is kept rather than built again for each request.
func (s *Server) hostCSP(host string, https bool) []string {
	if e := s.lastCSP.Load(); e != nil && e.host == host && e.https == https {
		return e.policy
	}
	e := &cspEntry{host: host, https: https, policy: []string{csp(host, https, "")}}
	s.lastCSP.Store(e)
	return e.policy
}

// csp is the policy of an answer to a request for host. styleNonce, when
// not empty, admits the app page's <style> elements. connect-src gains the
// ws:// or wss:// origin of host, for the realtime channel; a Host that is
// not a plain host[:port] adds nothing, so that a request cannot write into
// its own answer's policy.
func csp(host string, https bool, styleNonce string) string {
	var b strings.Builder
	b.WriteString(cspHead)
	b.WriteString("style-src 'self'")
	if styleNonce != "" {
		b.WriteString(" 'nonce-" + styleNonce + "'")
	}
	b.WriteString("; " + cspConnect)
	if plainHost(host) {
		if https {
			b.WriteString(" wss://" + host)
		} else {
			b.WriteString(" ws://" + host)
		}
	}
	return b.String()
}

// newNonce returns a fresh CSP nonce: 128 random bits, URL-safe base64, so
// that it is as plain in an HTML attribute as in the header.
func newNonce() string {
	b := make([]byte, 16)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func plainHost(host string) bool {
	if host == "" || len(host) > 255 {
		return false
	}
	return strings.Trim(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]") == ""
}
