package server

import (
	"context"
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

// observe gives each request an id, turns a panic into a logged 500, and
// logs and counts every request by its route pattern.
func (s *Server) observe(next http.Handler) http.Handler {
	csrf := http.NewCrossOriginProtection()
	inner := csrf.Handler(next)
	return middleware.RequestID(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rt := &route{}
		r = r.WithContext(context.WithValue(r.Context(), routeKey{}, rt))
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		ww.Header().Set("X-Request-Id", requestID(r))
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
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
			if status == 0 {
				status = http.StatusOK
			}
			elapsed := time.Since(start)
			s.metrics.requests.WithLabelValues(rt.pattern, r.Method, strconv.Itoa(status)).Inc()
			s.metrics.duration.WithLabelValues(rt.pattern).Observe(elapsed.Seconds())
			s.log.InfoContext(r.Context(), "request", "request_id", requestID(r), "method", r.Method,
				"route", rt.pattern, "path", r.URL.Path, "status", status, "duration_ms", float64(elapsed.Microseconds())/1000)
		}()
		inner.ServeHTTP(ww, r)
	}))
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
