package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"

	"journeyman/internal/identity"
)

type metrics struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newMetrics(reg *prometheus.Registry) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "journeyman_http_requests_total",
			Help: "HTTP requests by route pattern, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "journeyman_http_request_duration_seconds",
			Help:    "HTTP request latency by route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"route"}),
	}
	reg.MustRegister(append(prometheusGoCollectors(), m.requests, m.duration)...)
	return m
}

// requestInfo is what observe knows of a request and shares with the
// handlers below it through one context value: its id and the route pattern
// that matched it. Inner muxes see their own copy of the request, so they
// report the pattern here; the innermost mux, which returns first, names it.
type requestInfo struct {
	id      string
	pattern string
	caller  identity.Caller // set by identify, on the API's requests
}

type requestInfoKey struct{}

func infoOf(r *http.Request) *requestInfo {
	info, _ := r.Context().Value(requestInfoKey{}).(*requestInfo)
	return info
}

// withInfo returns r carrying a new requestInfo.
func withInfo(r *http.Request) (*http.Request, *requestInfo) {
	info := &requestInfo{id: requestIDOf(r)}
	return r.WithContext(context.WithValue(r.Context(), requestInfoKey{}, info)), info
}

func setRoute(r *http.Request) {
	if info := infoOf(r); info != nil && r.Pattern != "" && info.pattern == "" {
		info.pattern = r.Pattern
	}
}

func requestID(r *http.Request) string {
	if info := infoOf(r); info != nil {
		return info.id
	}
	return ""
}

// requestIDHeader carries a request's id, the client's if it sent a plain one.
const requestIDHeader = "X-Request-Id"

// maxRequestIDLen bounds a client's X-Request-Id: an id is for matching log
// lines, and a long one would only fill the logs.
const maxRequestIDLen = 64

// validRequestID reports whether a client's request id is short and plain
// enough to log and echo: letters, digits, '.', '_' and '-'.
func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLen {
		return false
	}
	for i := range len(id) {
		if !requestIDByte(id[i]) {
			return false
		}
	}
	return true
}

// newRequestID returns this process's next request id: a random prefix
// that tells processes apart, and a counter.
var newRequestID = func() func() string {
	var b [4]byte
	rand.Read(b[:])
	prefix := hex.EncodeToString(b[:]) + "-"
	var seq atomic.Uint64
	return func() string {
		id := make([]byte, 0, len(prefix)+8)
		id = append(id, prefix...)
		return string(strconv.AppendUint(id, seq.Add(1), 10))
	}
}()

// requestIDOf returns the client's request id when it sent exactly one plain id,
// or a new one.
func requestIDOf(r *http.Request) string {
	if ids := r.Header.Values(requestIDHeader); len(ids) == 1 && validRequestID(ids[0]) {
		return ids[0]
	}
	return newRequestID()
}

// StatusClientClosedRequest is nginx's status for a request whose client
// went away before the answer: the request is logged and counted with it,
// as what happened, rather than as an internal error.
const StatusClientClosedRequest = 499

// clientGone reports whether r's client abandoned it: the server cancels a
// request's context when its connection breaks.
func clientGone(r *http.Request) bool { return errors.Is(r.Context().Err(), context.Canceled) }

// observe gives each request an id, puts the security headers on its answer,
// bounds the time its body may take, turns a panic into a logged 500, and
// logs and counts every request by its route pattern.
func (s *Server) observe(next http.Handler) http.Handler {
	csrf := http.NewCrossOriginProtection()
	// The LRS is called by xAPI content from other origins, with a
	// credential in the Authorization header, which a forged cross-site
	// request cannot carry; a cookie only ever reads there (xapi.go).
	csrf.AddInsecureBypassPattern("/xapi/")
	// A cmi5 AU fetches its session's credential from its own origin; the
	// one-time token in the path is the authority, no cookie counts.
	csrf.AddInsecureBypassPattern("POST /cmi5/fetch/{token}")
	inner := csrf.Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		r, info := withInfo(r)
		s.limitBodyTime(w, r)
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		s.setSecurityHeaders(ww.Header(), r)
		ww.Header().Set(requestIDHeader, info.id)
		defer func() {
			if p := recover(); p != nil {
				if err, ok := p.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(p)
				}
				s.log.ErrorContext(r.Context(), "panic", "request_id", info.id, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if ww.Status() == 0 {
					writeJSON(ww, http.StatusInternalServerError, errorBody{Message: "internal error"})
				}
			}
			if info.pattern == "" {
				info.pattern = r.Pattern
			}
			if info.pattern == "" {
				info.pattern = "unmatched"
			}
			status := ww.Status()
			switch {
			case status == 0 && clientGone(r):
				status = StatusClientClosedRequest
			case status == 0:
				status = http.StatusOK
			}
			elapsed := time.Since(start)
			s.metrics.requests.WithLabelValues(info.pattern, r.Method, statusLabel(status)).Inc()
			s.metrics.duration.WithLabelValues(info.pattern).Observe(elapsed.Seconds())
			s.logRequest(r, info, status, start, elapsed)
		}()
		inner.ServeHTTP(ww, r)
	})
}

// logRequest writes a request's access-log line. The record is made here
// rather than by Logger.LogAttrs, which asks the runtime for its caller's
// frame for every line though no handler of ours reads it; the duration is
// whole microseconds, as slog writes a float through encoding/json. Both
// cost about 3% of the CPU of a 304 (bench/compare).
func (s *Server) logRequest(r *http.Request, info *requestInfo, status int, start time.Time, elapsed time.Duration) {
	ctx := r.Context()
	h := s.log.Handler()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	rec := slog.NewRecord(start.Add(elapsed), slog.LevelInfo, "request", 0)
	rec.AddAttrs(slog.String("request_id", info.id), slog.String("method", r.Method), slog.String("route", info.pattern),
		slog.String("path", r.URL.Path), slog.Int("status", status), slog.Int64("duration_us", elapsed.Microseconds()))
	_ = h.Handle(ctx, rec) // a log that cannot be written has no one to tell
}

// statusLabels are the metrics' status labels, made once.
var statusLabels = func() (l [600]string) {
	for i := range l {
		l[i] = strconv.Itoa(i)
	}
	return l
}()

func statusLabel(status int) string {
	if status >= 0 && status < len(statusLabels) {
		return statusLabels[status]
	}
	return strconv.Itoa(status)
}

// limitBodyTime gives r's body s.bodyTimeout to arrive, so that a client
// dribbling it cannot hold a connection and a handler for minutes: a read
// past the deadline fails, readJSON answers 408, and the connection closes.
// A body nobody reads stays bounded while the server drains it. Once a body
// has been read to its end, net/http lifts the deadline itself (it goes on
// reading the idle connection to notice the client leaving, and a deadline
// firing there would cancel a slow handler's context);
// TestBodyDeadlineLiftedOnceRead holds it to that. Requests without a body,
// WebSocket upgrades among them, get no deadline.
func (s *Server) limitBodyTime(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 || r.Method == http.MethodConnect || r.Header.Get("Upgrade") != "" {
		return
	}
	// A writer without deadlines (a test recorder) just goes without.
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.bodyTimeout))
}

// apiMux routes an API's patterns, and answers an unknown path under its
// root with 404 and a wrong method with 405, in the API's JSON error shape
// instead of the mux's plain text. A request is matched once: the catch-all
// root pattern takes what no route does, and only then is the mux of the
// routes alone asked what it would have answered.
type apiMux struct {
	routes *http.ServeMux // the routes and the catch-all root
	known  *http.ServeMux // the routes alone
}

func newAPIMux(root string) *apiMux {
	m := &apiMux{routes: http.NewServeMux(), known: http.NewServeMux()}
	m.routes.HandleFunc(root, m.unknown)
	return m
}

func (m *apiMux) HandleFunc(pattern string, h http.HandlerFunc) {
	m.routes.HandleFunc(pattern, h)
	m.known.HandleFunc(pattern, h)
}

func (m *apiMux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.routes.ServeHTTP(w, r)
	setRoute(r)
}

func (m *apiMux) unknown(w http.ResponseWriter, r *http.Request) {
	// The mux's own answer tells 404 from 405 and lists the allowed methods.
	h, _ := m.known.Handler(r)
	probe := &statusProbe{header: http.Header{}}
	h.ServeHTTP(probe, r)
	switch probe.status {
	case http.StatusMethodNotAllowed:
		allow := probe.header.Get("Allow")
		w.Header().Set("Allow", allow)
		writeJSON(w, http.StatusMethodNotAllowed, errorBody{Message: fmt.Sprintf("method %s is not allowed on %s; use %s", r.Method, r.URL.Path, strings.ReplaceAll(allow, ", ", " or "))})
	default:
		writeJSON(w, http.StatusNotFound, errorBody{Message: fmt.Sprintf("no API endpoint at %s", r.URL.Path)})
	}
}

// statusProbe records what a handler would answer, and discards the body.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header         { return p.header }
func (p *statusProbe) WriteHeader(status int)      { p.status = status }
func (p *statusProbe) Write(b []byte) (int, error) { return len(b), nil }

func requestIDByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-'
}
