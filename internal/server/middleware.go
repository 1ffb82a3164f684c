package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
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

// routeKey holds the matched route pattern. Inner muxes see their own copy of
// the request, so they report the pattern through this holder; the innermost
// mux, which returns first, names the route.
type routeKey struct{}

type route struct{ pattern string }

func setRoute(r *http.Request) {
	if rt, ok := r.Context().Value(routeKey{}).(*route); ok && r.Pattern != "" && rt.pattern == "" {
		rt.pattern = r.Pattern
	}
}

func requestID(r *http.Request) string { return middleware.GetReqID(r.Context()) }

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

// plainRequestID drops a client's X-Request-Id that is not valid, so that
// the request id middleware generates one instead.
func plainRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ids := r.Header.Values(middleware.RequestIDHeader); len(ids) > 0 && (len(ids) > 1 || !validRequestID(ids[0])) {
			r2 := *r
			r2.Header = r.Header.Clone()
			r2.Header.Del(middleware.RequestIDHeader)
			r = &r2
		}
		next.ServeHTTP(w, r)
	})
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
	inner := csrf.Handler(next)
	return plainRequestID(middleware.RequestID(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rt := &route{}
		r = r.WithContext(context.WithValue(r.Context(), routeKey{}, rt))
		s.limitBodyTime(w, r)
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		s.setSecurityHeaders(ww.Header(), r)
		ww.Header().Set("X-Request-Id", requestID(r))
		defer func() {
			if p := recover(); p != nil {
				if err, ok := p.(error); ok && errors.Is(err, http.ErrAbortHandler) {
					panic(p)
				}
				s.log.ErrorContext(r.Context(), "panic", "request_id", requestID(r), "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				if ww.Status() == 0 {
					writeJSON(ww, http.StatusInternalServerError, errorBody{Message: "internal error"})
				}
			}
			if rt.pattern == "" {
				rt.pattern = r.Pattern
			}
			if rt.pattern == "" {
				rt.pattern = "unmatched"
			}
			status := ww.Status()
			switch {
			case status == 0 && clientGone(r):
				status = StatusClientClosedRequest
			case status == 0:
				status = http.StatusOK
			}
			elapsed := time.Since(start)
			s.metrics.requests.WithLabelValues(rt.pattern, r.Method, strconv.Itoa(status)).Inc()
			s.metrics.duration.WithLabelValues(rt.pattern).Observe(elapsed.Seconds())
			s.log.InfoContext(r.Context(), "request", "request_id", requestID(r), "method", r.Method,
				"route", rt.pattern, "path", r.URL.Path, "status", status, "duration_ms", float64(elapsed.Microseconds())/1000)
		}()
		inner.ServeHTTP(ww, r)
	})))
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

// apiErrors answers an unknown API path with 404 and a wrong method with 405,
// in the API's JSON error shape instead of the mux's plain text.
func apiErrors(api *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := api.Handler(r)
		if pattern != "" {
			api.ServeHTTP(w, r)
			setRoute(r)
			return
		}
		// The mux's own answer tells 404 from 405 and lists the allowed methods.
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
	})
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
