// Package server is the HTTP face of Journeyman XR: one route table for the
// JSON API, the realtime channel, health and metrics, and the embedded app.
package server

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/prometheus/client_golang/prometheus"
	"golang.org/x/time/rate"

	"journeyman/internal/fieldbus"
	"journeyman/internal/gateway"
	"journeyman/internal/httpcache"
	"journeyman/internal/identity"
	"journeyman/internal/realtime"
	"journeyman/internal/store"
	"journeyman/internal/twin"
)

// Server holds what the handlers need. Construct it with New.
type Server struct {
	store       *store.Store
	log         *slog.Logger
	app         fs.FS // the built web app; nil or without index.html when not built
	metrics     *metrics
	hub         *realtime.Hub // the realtime channel's connections and rooms
	live        changeSet     // sessions changed since the live view last heard
	twinChanges changeSet     // twins changed since the digital-twin pages last heard
	process     string        // tells this process's announcements from others'
	starts      startLimiter  // XR session starts per learner
	handler     http.Handler
	lastCSP     atomic.Pointer[cspEntry] // the policy of the last host answered

	sessions    *scs.SessionManager   // signed-in accounts' sessions
	guests      *identity.GuestTokens // guest tokens under the deployment's key
	knownGuests idSet                 // guests known to be stored
	limits      *limits

	ingest        *twin.Ingester   // the one path sensor readings take to the store
	gateway       *gateway.Gateway // reads the real devices of connected twins
	gatewayDone   chan struct{}    // closed when the gateway has stopped
	fleet         *fieldbus.Fleet  // simulated devices behind the twins
	exchangeLimit *rate.Limiter    // protocol exchanges open sockets and start devices
	mqtt          MQTTBroker       // the broker devices publish telemetry to
	deviceSecret  []byte           // signs devices' MQTT passwords (embedded broker only)
	publicURL     string           // the deployment's address as its users know it (Config)

	trustedProxies []netip.Prefix   // peers whose X-Forwarded-For and -Proto are believed
	bodyTimeout    time.Duration    // how long a request body may take to arrive
	readMostly     *httpcache.Cache // the encoded answers that change only with the catalog
}

// DefaultBodyTimeout is how long a request body may take to arrive. The
// API's bodies are small JSON documents (1 MiB at most): ten seconds is
// ample for a slow link and short for a client dribbling bytes.
const DefaultBodyTimeout = 10 * time.Second

// Protocol exchanges allowed across all callers: a learner clicks Test
// Protocol now and then; a script hammering it would start devices and
// sockets without end.
const (
	exchangesPerSecond = 20
	exchangeBurst      = 40
)

// Config is what New needs besides the store.
type Config struct {
	Logger *slog.Logger
	// App is the built web app (index.html and assets/).
	App fs.FS
	// Registry receives the server's metrics; nil means a new registry.
	Registry *prometheus.Registry
	// Fleet runs the twins' simulated devices; nil means one without an
	// MQTT broker (MQTT exchanges then fail).
	Fleet *fieldbus.Fleet
	// TrustedProxies are the reverse proxies whose X-Forwarded-For and
	// X-Forwarded-Proto headers tell the client's address and scheme; a
	// header from any other peer is ignored. Empty trusts none.
	TrustedProxies []netip.Prefix
	// BodyTimeout bounds the time a request body may take to arrive; zero
	// means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// SocketsPerAddr bounds the realtime connections of one client address;
	// zero means DefaultSocketsPerAddr.
	SocketsPerAddr int
	// MQTT is the broker devices publish telemetry to; the zero value means
	// none, and staff are told so when they ask for a device's login.
	MQTT MQTTBroker
	// PublicURL is the deployment's address as its users know it
	// (ParsePublicURL); it is the home of the learners' xAPI accounts and
	// of the activity ids Journeyman's statements name. Empty means
	// DefaultPublicURL.
	PublicURL string
}

// DefaultPublicURL is the public URL of a deployment that names none: the
// default listen address.
const DefaultPublicURL = "http://127.0.0.1:8080"

// ParsePublicURL checks a deployment's public URL: absolute http or https,
// no query or fragment. It answers it without a trailing slash.
func ParsePublicURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return "", fmt.Errorf("the public URL must be an absolute http or https URL without login, query or fragment, like https://training.example.org, not %q", raw)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// MQTTBroker is the telemetry broker as devices reach it.
type MQTTBroker struct {
	// URL is the broker's address without any login (tcp://host:1883).
	URL string
	// External is set when the broker is not the embedded one: it manages
	// its own users, so the server hands out no device logins.
	External bool
}

// New returns a server on st with its routes in place.
func New(st *store.Store, cfg Config) (*Server, error) {
	key, err := st.ServerSecret(context.Background(), "guest_token_key", 32)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	var deviceSecret []byte
	if cfg.MQTT.URL != "" && !cfg.MQTT.External {
		if deviceSecret, err = st.MQTTDeviceSecret(context.Background()); err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
	}
	reg := cfg.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	s := &Server{
		store:   st,
		log:     cfg.Logger,
		app:     cfg.App,
		metrics: newMetrics(reg),
		fleet:   cfg.Fleet,

		sessions:   newSessionManager(st),
		guests:     identity.NewGuestTokens(key),
		limits:     newLimits(cfg.SocketsPerAddr),
		readMostly: httpcache.New(),

		exchangeLimit: rate.NewLimiter(exchangesPerSecond, exchangeBurst),
		mqtt:          cfg.MQTT,
		deviceSecret:  deviceSecret,

		trustedProxies: cfg.TrustedProxies,
		bodyTimeout:    cfg.BodyTimeout,
		publicURL:      DefaultPublicURL,
	}
	if cfg.PublicURL != "" {
		if s.publicURL, err = ParsePublicURL(cfg.PublicURL); err != nil {
			return nil, fmt.Errorf("server: %w", err)
		}
	}
	if s.bodyTimeout <= 0 {
		s.bodyTimeout = DefaultBodyTimeout
	}
	if s.fleet == nil {
		s.fleet = fieldbus.NewFleet("")
	}
	s.process = newProcessID()
	s.ingest = twin.NewIngester(s.recordReadings)
	s.gateway = s.newGateway()
	s.hub = newHub(s)
	s.handler = s.routes(reg)
	return s, nil
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }
