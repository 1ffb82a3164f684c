// Command journeyman serves Journeyman XR: the web app, its JSON API and the
// realtime channel, from one process.
package main

import (
	"context"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"journeyman/internal/catalog"
	"journeyman/internal/fieldbus"
	"journeyman/internal/gather"
	"journeyman/internal/identity"
	"journeyman/internal/server"
	"journeyman/internal/store"
	"journeyman/internal/telemetry"
	"journeyman/internal/twin"
	"journeyman/internal/xapiforward"
	"journeyman/web"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	run := run
	if len(os.Args) > 1 && os.Args[1] == "admin" {
		run = func(ctx context.Context, args []string, getenv func(string) string, _ io.Writer) error {
			return runAdmin(ctx, args[1:], getenv, os.Stdout)
		}
	} else {
		paceGC(os.LookupEnv)
	}
	err := run(ctx, os.Args[1:], os.Getenv, os.Stderr)
	stop() // called, not deferred: os.Exit would skip it
	if err != nil {
		fmt.Fprintln(os.Stderr, "journeyman:", err)
		os.Exit(1)
	}
}

// config is the process configuration: flags, falling back to environment.
type config struct {
	addr string
	db   string
	// mqttURL is an external MQTT broker for equipment telemetry; empty
	// means the embedded broker on mqttListen.
	mqttURL       string
	mqttListen    string
	mqttListenSet bool
	// mqttGroup names the shared subscription of one deployment's processes.
	mqttGroup string
	// mqttUser and mqttPassword are the embedded broker's deployment device
	// login (a plant gateway publishing for many twins); both or neither.
	mqttUser, mqttPassword string
	// tlsCert and tlsKey are PEM files for native HTTPS; both or neither.
	tlsCert, tlsKey string
	// trustedProxies are the reverse proxies whose X-Forwarded-* headers
	// are believed.
	trustedProxies []netip.Prefix
	// socketsPerAddr bounds the realtime connections of one client address.
	socketsPerAddr int
	// devices is where the twins' simulated field devices listen.
	devices fieldbus.Listen
	// publicURL is the deployment's address as its users know it;
	// publicURLSet says it was given rather than made from -addr.
	publicURL    string
	publicURLSet bool
}

// defaultPublicURL is where a deployment that names no public URL is
// reached: its listen address, with localhost for every interface.
func defaultPublicURL(addr string, tls bool) string {
	scheme := "http"
	if tls {
		scheme = "https"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return scheme + "://" + addr
	}
	if ip, err := netip.ParseAddr(host); host == "" || err == nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return scheme + "://" + net.JoinHostPort(host, port)
}

// listenedAddr is addr with the port the listener got when addr asked for
// any (port 0). Its host stays as written: a public URL made from
// "localhost:8080" names localhost, not the address it resolved to.
func listenedAddr(addr string, got net.Addr) string {
	host, port, err := net.SplitHostPort(addr)
	tcp, ok := got.(*net.TCPAddr)
	if err != nil || port != "0" || !ok {
		return addr
	}
	return net.JoinHostPort(host, strconv.Itoa(tcp.Port))
}

// defaultMQTTListen is the embedded broker's address. Not 1883: that is
// usually a system Mosquitto's.
const defaultMQTTListen = "127.0.0.1:1884"

func parseConfig(args []string, getenv func(string) string) (config, error) {
	fs := flag.NewFlagSet("journeyman", flag.ContinueOnError)
	var c config
	fs.StringVar(&c.addr, "addr", envOr(getenv, "JOURNEYMAN_ADDR", "127.0.0.1:8080"), "listen address (env JOURNEYMAN_ADDR)")
	fs.StringVar(&c.db, "db", envOr(getenv, "JOURNEYMAN_DB", "./data/journeyman.db"), "SQLite file path, or a postgres:// URL (env JOURNEYMAN_DB)")
	fs.StringVar(&c.mqttURL, "mqtt", getenv("JOURNEYMAN_MQTT_URL"), "external MQTT broker for equipment telemetry, e.g. tcp://127.0.0.1:1883 (env JOURNEYMAN_MQTT_URL); empty runs the embedded broker")
	fs.StringVar(&c.mqttListen, "mqtt-listen", envOr(getenv, "JOURNEYMAN_MQTT_LISTEN", defaultMQTTListen), "address of the embedded MQTT broker when -mqtt is empty (env JOURNEYMAN_MQTT_LISTEN)")
	fs.StringVar(&c.mqttGroup, "mqtt-group", envOr(getenv, "JOURNEYMAN_MQTT_GROUP", telemetry.DefaultGroup), "shared-subscription group: the processes of one deployment share it, so each reading is stored once (env JOURNEYMAN_MQTT_GROUP)")
	fs.StringVar(&c.mqttUser, "mqtt-user", getenv("JOURNEYMAN_MQTT_USER"), "username of the deployment's device login to the embedded broker, for a gateway publishing telemetry for every twin (env JOURNEYMAN_MQTT_USER); with -mqtt-password")
	fs.StringVar(&c.mqttPassword, "mqtt-password", getenv("JOURNEYMAN_MQTT_PASSWORD"), "password of -mqtt-user (env JOURNEYMAN_MQTT_PASSWORD)")
	fs.StringVar(&c.tlsCert, "tls-cert", getenv("JOURNEYMAN_TLS_CERT"), "PEM certificate (chain) file: serve HTTPS natively, with -tls-key (env JOURNEYMAN_TLS_CERT)")
	fs.StringVar(&c.tlsKey, "tls-key", getenv("JOURNEYMAN_TLS_KEY"), "PEM private key file of -tls-cert (env JOURNEYMAN_TLS_KEY)")
	proxies := fs.String("trusted-proxies", getenv("JOURNEYMAN_TRUSTED_PROXIES"), "comma-separated addresses or CIDR prefixes of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed; empty trusts none (env JOURNEYMAN_TRUSTED_PROXIES)")
	fs.StringVar(&c.publicURL, "public-url", getenv("JOURNEYMAN_PUBLIC_URL"), "the deployment's address as its users know it, e.g. https://training.example.org: the home of the learners' xAPI accounts and activity ids, which must not change once statements name them; empty: where it listens, http(s)://<-addr> (env JOURNEYMAN_PUBLIC_URL)")
	perAddr := fs.String("ws-per-address", envOr(getenv, "JOURNEYMAN_WS_PER_ADDRESS", strconv.Itoa(server.DefaultSocketsPerAddr)), "realtime connections one client address may hold; raise it for many headsets behind one NAT address (env JOURNEYMAN_WS_PER_ADDRESS)")
	c.devices = fieldbus.DefaultListen()
	fs.StringVar(&c.devices.Host, "devices-host", envOr(getenv, "JOURNEYMAN_DEVICES_HOST", fieldbus.DefaultHost), "host the twins' simulated Modbus, OPC UA and EtherNet/IP devices listen on (env JOURNEYMAN_DEVICES_HOST)")
	devicePorts := []struct{ kind, flag, env, what string }{
		{fieldbus.KindModbus, "modbus-port", "JOURNEYMAN_MODBUS_PORT", "Modbus TCP"},
		{fieldbus.KindOPCUA, "opcua-port", "JOURNEYMAN_OPCUA_PORT", "OPC UA"},
		{fieldbus.KindEtherNetIP, "enip-port", "JOURNEYMAN_ENIP_PORT", "EtherNet/IP"},
	}
	portText := map[string]*string{}
	for _, p := range devicePorts {
		def := strconv.Itoa(c.devices.Ports[p.kind].Port)
		portText[p.kind] = fs.String(p.flag, envOr(getenv, p.env, def), fmt.Sprintf("port of the first twin's simulated %s device; the next twin speaking it gets the next port, in fleet order; 0 picks free ports (env %s)", p.what, p.env))
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, p := range devicePorts {
		port, err := strconv.Atoi(*portText[p.kind])
		if err != nil || port < 0 || port > 65535 {
			return c, fmt.Errorf("-%s must be a port number from 0 to 65535, not %q", p.flag, *portText[p.kind])
		}
		c.devices.Ports[p.kind] = fieldbus.BasePort{Port: port, Explicit: set[p.flag] || getenv(p.env) != ""}
	}
	n, err := strconv.Atoi(*perAddr)
	if err != nil || n < 1 {
		return c, fmt.Errorf("-ws-per-address must be a whole number of at least 1, not %q", *perAddr)
	}
	c.socketsPerAddr = n
	if (c.tlsCert == "") != (c.tlsKey == "") {
		return c, errors.New("-tls-cert and -tls-key go together: give both files to serve HTTPS, or neither to serve plain HTTP")
	}
	if c.trustedProxies, err = server.ParseTrustedProxies(*proxies); err != nil {
		return c, err
	}
	c.publicURLSet = c.publicURL != ""
	if !c.publicURLSet {
		c.publicURL = defaultPublicURL(c.addr, c.tlsCert != "")
	}
	if c.publicURL, err = server.ParsePublicURL(c.publicURL); err != nil {
		return c, fmt.Errorf("-public-url: %w", err)
	}
	if err := telemetry.ValidGroup(c.mqttGroup); err != nil {
		return c, err
	}
	fs.Visit(func(f *flag.Flag) { c.mqttListenSet = c.mqttListenSet || f.Name == "mqtt-listen" })
	c.mqttListenSet = c.mqttListenSet || getenv("JOURNEYMAN_MQTT_LISTEN") != ""
	if c.mqttURL != "" {
		if _, err := telemetry.BrokerAddr(c.mqttURL); err != nil {
			return c, err
		}
	}
	if (c.mqttUser == "") != (c.mqttPassword == "") {
		return c, errors.New("-mqtt-user and -mqtt-password go together (env JOURNEYMAN_MQTT_USER, JOURNEYMAN_MQTT_PASSWORD): give both for a deployment device login, or neither")
	}
	if c.mqttUser != "" && c.mqttURL != "" {
		// Silently ignored, the login would leave devices refused and
		// nobody knowing why.
		return c, errors.New("-mqtt-user and -mqtt-password are logins to the embedded broker; with -mqtt, the external broker manages its users (the server's own login goes in the URL: tcp://user:password@host:1883)")
	}
	return c, nil
}

func envOr(getenv func(string) string, key, fallback string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return fallback
}

// shutdownGrace is how long in-flight requests may take after a signal.
const shutdownGrace = 10 * time.Second

// The HTTP server's own timeouts. A request's headers must arrive within
// readHeaderTimeout and an idle keep-alive connection is closed after
// idleTimeout. A body's time is bounded by the server package
// (server.DefaultBodyTimeout, answered with 408), so no ReadTimeout here. No
// WriteTimeout: a WebSocket keeps the write deadline of the request that
// opened it, so one would cut every realtime connection.
const (
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = 2 * time.Minute
)

func newHTTPServer(h http.Handler, tlsConfig *tls.Config) *http.Server {
	return &http.Server{
		Handler:           h,
		TLSConfig:         tlsConfig,
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		ConnContext:       gather.ConnContext,
	}
}

// startBroker runs the embedded MQTT broker: the process's own clients,
// the deployment's gateway user and the devices of the database's twins
// may log in.
func startBroker(ctx context.Context, cfg config, st *store.Store, log *slog.Logger) (*telemetry.Broker, error) {
	secret, err := st.MQTTDeviceSecret(ctx)
	if err != nil {
		return nil, err
	}
	auth := telemetry.BrokerAuth{
		Gateway:      telemetry.Credential{Username: cfg.mqttUser, Password: cfg.mqttPassword},
		DeviceSecret: secret,
		EquipmentIDs: st.EquipmentIDs,
	}
	broker, err := telemetry.StartBroker(cfg.mqttListen, auth, log)
	if err != nil && !cfg.mqttListenSet {
		// The default port is taken (another instance, a test run):
		// an ephemeral port keeps this process working.
		log.Warn("embedded MQTT broker: default address busy, using a free port", "address", cfg.mqttListen, "err", err)
		broker, err = telemetry.StartBroker("127.0.0.1:0", auth, log)
	}
	return broker, err
}

// identifyDevices gives the fleet's OPC UA devices their certificate, kept
// in the store so clients can trust it across restarts, and their login:
// the one each twin's device has on the MQTT broker, user name the twin's
// id and password telemetry.DevicePassword.
func identifyDevices(ctx context.Context, st *store.Store, fleet *fieldbus.Fleet, host string) error {
	pem, err := st.OPCUACertificate(ctx, host, func() ([]byte, error) {
		cert, key, err := fieldbus.NewOPCUACertificate(host)
		if err != nil {
			return nil, err
		}
		return fieldbus.EncodeOPCUACertificate(cert, key), nil
	})
	if err != nil {
		return err
	}
	if fleet.Certificate, fleet.PrivateKey, err = fieldbus.DecodeOPCUACertificate(pem); err != nil {
		return err
	}
	secret, err := st.MQTTDeviceSecret(ctx)
	if err != nil {
		return err
	}
	fleet.DeviceLogin = func(equipmentID, username, password string) bool {
		want := telemetry.DevicePassword(secret, equipmentID)
		return username == equipmentID && subtle.ConstantTimeCompare([]byte(password), []byte(want)) == 1
	}
	return nil
}

func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	cfg, err := parseConfig(args, getenv)
	if err != nil {
		return err
	}
	var tlsConfig *tls.Config
	if cfg.tlsCert != "" {
		// Loaded before anything starts, so a wrong path or a key that does
		// not match fails the start with a message saying which.
		cert, err := tls.LoadX509KeyPair(cfg.tlsCert, cfg.tlsKey)
		if err != nil {
			return fmt.Errorf("TLS certificate %s and key %s: %w", cfg.tlsCert, cfg.tlsKey, err)
		}
		tlsConfig = &tls.Config{Certificates: []tls.Certificate{cert}}
	}
	logOut := newLogWriter(stderr, logFlushEvery)
	defer logOut.Flush()
	log := slog.New(slog.NewJSONHandler(logOut, nil))
	// Libraries that write through the standard log package (the OPC UA
	// server does) land in the same structured log.
	slog.SetDefault(log)
	if _, err := startProfiler(ctx, getenv("JOURNEYMAN_PPROF_ADDR"), log); err != nil {
		return err
	}

	st, err := store.Open(ctx, cfg.db)
	if err != nil {
		return err
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("close store", "err", err)
		}
	}()
	if err := st.SeedCatalog(ctx, catalog.Trades(), catalog.Modules()); err != nil {
		return err
	}

	if err := st.SeedEquipment(ctx, twin.SeedEquipment()); err != nil {
		return err
	}

	brokerURL := cfg.mqttURL
	if brokerURL == "" {
		broker, err := startBroker(ctx, cfg, st, log)
		if err != nil {
			return err
		}
		defer broker.Close()
		brokerURL = broker.URL()
	}
	brokerAddr, err := telemetry.BrokerAddr(brokerURL)
	if err != nil {
		return err
	}
	// Every twin's field device runs from the start, with the twin's
	// stored state, so a plant client finds it before anyone presses Test
	// Protocol.
	fleet := fieldbus.NewFleet(brokerAddr)
	login := telemetry.URLCredential(brokerURL)
	fleet.BrokerUser, fleet.BrokerPassword = login.Username, login.Password
	if err := identifyDevices(ctx, st, fleet, cfg.devices.Host); err != nil {
		return err
	}
	defer fleet.Close()
	equipment, err := st.ListEquipment(ctx)
	if err != nil {
		return err
	}
	// The listener comes before the server, whose public URL it may set:
	// on port 0 the port is known only once listening.
	var lc net.ListenConfig
	tcp, err := lc.Listen(ctx, "tcp", cfg.addr)
	if err != nil {
		return err
	}
	ln := gather.Listener(tcp)
	defer ln.Close() // serving closes it too; this is for a start that fails before
	if !cfg.publicURLSet {
		if cfg.publicURL, err = server.ParsePublicURL(defaultPublicURL(listenedAddr(cfg.addr, ln.Addr()), tlsConfig != nil)); err != nil {
			return err
		}
	}
	srv, err := server.New(st, server.Config{Logger: log, App: web.App(), Fleet: fleet,
		MQTT: server.MQTTBroker{URL: telemetry.WithoutUserinfo(brokerURL), External: cfg.mqttURL != ""}, TrustedProxies: cfg.trustedProxies, SocketsPerAddr: cfg.socketsPerAddr,
		PublicURL: cfg.publicURL})
	if err != nil {
		return err
	}
	// A value a signed-in OPC UA client writes is a reading like any
	// other: the one ingester stores it, and the device shows it stored.
	fleet.Write = func(ctx context.Context, u twin.SensorUpdate) error {
		_, err := srv.Ingest().Submit(ctx, u)
		return err
	}
	if err := fleet.Start(ctx, equipment, cfg.devices, log); err != nil {
		return err
	}
	// Equipment telemetry: every reading, from the API or MQTT, goes
	// through the server's one ingester.
	subscriber, err := telemetry.Subscribe(brokerURL, cfg.mqttGroup, srv.Ingest().Enqueue, st.Now, log)
	if err != nil {
		return err
	}
	defer subscriber.Close()
	log.Info("equipment telemetry", "mqtt", telemetry.Redacted(brokerURL), "topic", telemetry.SharedFilter(cfg.mqttGroup), "embedded", cfg.mqttURL == "",
		"gateway_user", cfg.mqttUser != "")
	// Realtime messages of every process sharing the database reach this
	// one's clients until the signal context ends.
	srv.Start(ctx)
	// Each organisation's statements reach its external LRS, if it has
	// one, from whichever process holds its lease; stopped (and its leases
	// given up) before the store closes.
	forwardCtx, stopForwarding := context.WithCancel(ctx)
	forwarder := xapiforward.New(st, log, &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}, "xapi-"+identity.NewID())
	forwarded := make(chan struct{})
	go func() {
		defer close(forwarded)
		forwarder.Run(forwardCtx)
	}()
	defer func() {
		stopForwarding()
		<-forwarded
	}()
	httpServer := newHTTPServer(srv, tlsConfig)
	scheme := "http"
	if tlsConfig != nil {
		scheme = "https"
	}
	// A deployment nobody has set up yet is set up in the browser, by whoever
	// reads this log (internal/server/setup.go).
	if token, expires, ok, err := st.CreateSetupLink(ctx); err != nil {
		log.Warn("no setup link", "err", err)
	} else if ok {
		log.Info("no organisation yet: open the setup link to create the first organisation and its admin",
			"url", cfg.publicURL+"/setup/"+token, "expires", expires.Format(time.RFC3339))
	}
	log.Info("listening", "url", scheme+"://"+ln.Addr().String(), "public_url", cfg.publicURL, "database", string(st.Dialect()), "trusted_proxies", len(cfg.trustedProxies))

	served := make(chan error, 1)
	go func() {
		if tlsConfig != nil {
			served <- httpServer.ServeTLS(ln, "", "") // the certificate is in TLSConfig
			return
		}
		served <- httpServer.Serve(ln)
	}()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", shutdownGrace.String())
	// WebSockets are hijacked connections that Shutdown does not wait for:
	// close them first, with 1001, while the store is still open.
	srv.CloseRealtime()
	srv.WaitGateway()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := httpServer.Shutdown(shutdownCtx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
