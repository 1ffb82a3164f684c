// Command gatewaybench measures the gateway polling many connected twins:
// it serves N simulated Modbus TCP devices in-process, connects a twin to
// each through the API, and reports the server's CPU and memory while the
// devices are polled, the readings that reach a page watching the twins,
// and the latency from a device's value change to the page.
// bench/gateway/run.sh drives it; it prints figures and asserts nothing.
//
//	gatewaybench setup -db DSN
//	gatewaybench measure -url URL -pid PID [-db DSN] [-n 500] [-window 30s] [-label L] [-pprof URL -profile-dir DIR]
package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/simonvetter/modbus"

	"journeyman/internal/catalog"
	"journeyman/internal/identity"
	"journeyman/internal/store"
)

// The account measure signs in as; setup makes it an organisation's admin.
const (
	adminEmail    = "bench-admin@example.com"
	adminPassword = "bench admin climbs the long scaffold" //nolint:gosec // G101: a scratch database's account
)

// baseTemperature is every device's temperature at the start, in the
// chiller's normal band (4-10 °C) so that the readings raise no alerts;
// the latency probes step it by probeStep, a value never seen before each
// time.
const (
	baseTemperature = 7.0
	probeStep       = 0.001
	maxProbes       = 2500 // keeps the probes below 10 °C, the first alert threshold
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gatewaybench setup|measure …")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "setup":
		err = setup(os.Args[2:])
	case "measure":
		err = measure(os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gatewaybench:", err)
		os.Exit(1)
	}
}

// setup prepares an empty database: the catalog (the trades a twin names)
// and an admin with a known password.
func setup(args []string) error {
	fs := flag.NewFlagSet("setup", flag.ExitOnError)
	dsn := fs.String("db", "", "SQLite path or postgres:// URL of an empty database")
	_ = fs.Parse(args)
	ctx := context.Background()
	st, err := store.Open(ctx, *dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.SeedCatalog(ctx, catalog.Trades(), catalog.Modules()); err != nil {
		return err
	}
	admin, _, _, err := st.CreateAdmin(ctx, "Bench Plant", adminEmail, "Bench Admin")
	if err != nil {
		return err
	}
	_, err = st.DB().ExecContext(ctx, `UPDATE learners SET password_hash = $1 WHERE id = $2`, identity.HashPassword(adminPassword), admin.ID)
	return err
}

// device is a Modbus TCP device of the kept library holding one
// temperature: holding registers 0-1, a float32, high word first.
type device struct {
	addr string
	temp atomic.Uint32 // float32 bits
	srv  *modbus.ModbusServer
}

func (d *device) set(v float64) { d.temp.Store(math.Float32bits(float32(v))) }

// HandleHoldingRegisters reads registers 0-1; writes are refused, as the
// gateway never writes.
func (d *device) HandleHoldingRegisters(req *modbus.HoldingRegistersRequest) ([]uint16, error) {
	if req.IsWrite {
		return nil, modbus.ErrIllegalFunction
	}
	if int(req.Addr)+int(req.Quantity) > 2 {
		return nil, modbus.ErrIllegalDataAddress
	}
	bits := d.temp.Load()
	regs := []uint16{uint16(bits >> 16), uint16(bits & 0xffff)}
	return regs[req.Addr : req.Addr+req.Quantity], nil
}

// HandleCoils refuses: the device has registers only.
func (d *device) HandleCoils(*modbus.CoilsRequest) ([]bool, error) {
	return nil, modbus.ErrIllegalFunction
}

// HandleDiscreteInputs refuses: the device has registers only.
func (d *device) HandleDiscreteInputs(*modbus.DiscreteInputsRequest) ([]bool, error) {
	return nil, modbus.ErrIllegalFunction
}

// HandleInputRegisters refuses: the temperature is a holding register.
func (d *device) HandleInputRegisters(*modbus.InputRegistersRequest) ([]uint16, error) {
	return nil, modbus.ErrIllegalDataAddress
}

// startDevice serves a device on a free loopback port. The library listens
// on the address it is given and does not say which port 0 became, so a
// free port is found first; another socket may take it in between, hence
// the retries.
func startDevice(ctx context.Context) (*device, error) {
	var lc net.ListenConfig
	var lastErr error
	for range 20 {
		ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		addr := ln.Addr().String()
		_ = ln.Close()
		d := &device{addr: addr}
		d.set(baseTemperature)
		srv, err := modbus.NewServer(&modbus.ServerConfiguration{URL: "tcp://" + addr, Timeout: time.Minute, MaxClients: 4,
			Logger: log.New(io.Discard, "", 0)}, d)
		if err != nil {
			return nil, err
		}
		if lastErr = srv.Start(); lastErr == nil {
			d.srv = srv
			return d, nil
		}
	}
	return nil, fmt.Errorf("start a device: %w", lastErr)
}

// proc reads a process's figures from /proc.
type proc int

// cpuSeconds is the process's user+system CPU time.
func (p proc) cpuSeconds() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
	if err != nil {
		return math.NaN()
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return (utime + stime) / 100 // USER_HZ is 100 on Linux
}

// memory returns VmRSS (resident now) and VmHWM (the peak of resident
// memory over the process's life), in bytes.
func (p proc) memory() (rss, hwm int64) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", p))
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, _ := strings.Cut(sc.Text(), ":")
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(val), " kB"), 10, 64)
		switch key {
		case "VmRSS":
			rss = kb << 10
		case "VmHWM":
			hwm = kb << 10
		}
	}
	return rss, hwm
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }

// api is a signed-in client of the server.
type api struct {
	base string
	hc   *http.Client
}

func (a *api) do(ctx context.Context, method, path, body string, out any) error {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s %s", method, path, res.Status, bytes.TrimSpace(b))
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// equipment is what the bench reads of a twin.
type equipment struct {
	ID         string `json:"id"`
	SyncStatus string `json:"syncStatus"`
	SensorData map[string]struct {
		Value float64 `json:"value"`
	} `json:"sensorData"`
}

// twinBody defines twin i, connected to the device at addr: one point,
// the temperature in holding registers 0-1, polled every second.
func twinBody(i int, addr string) string {
	return fmt.Sprintf(`{"name": "Bench Chiller %04d", "manufacturer": "Trane", "model": "CenTraVac", "serialNumber": "BENCH-%04d",
	"type": "chiller", "supportedTradeTypes": ["hvac"], "communicationProtocol": "Modbus TCP",
	"maintenanceSchedule": {"intervalDays": 90, "tasks": [{"task": "Check refrigerant", "frequency": "quarterly", "trade": "hvac"}]},
	"connection": {"address": %q, "unitId": 1, "intervalMs": 1000, "timeoutMs": 1000,
		"points": [{"sensor": "temperature", "register": 0, "registerType": "holding", "dataType": "float32", "wordOrder": "high-first", "scale": 1, "offset": 0}]},
	"writableSensors": []}`, i+1, i+1, addr)
}

// probe is a value change on one device, waiting to reach the page.
type probe struct {
	want float64
	at   time.Time
}

// watcher is a page watching the twins over /ws: it counts the updates it
// receives and times the probes.
type watcher struct {
	mu       sync.Mutex
	pending  map[string]probe // by twin id
	latency  []time.Duration
	counting bool
	updates  int
	unsynced int // updates showing their twin not synced
	twins    map[string]bool
	other    int
}

func (w *watcher) arm(id string, p probe) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, busy := w.pending[id]; busy {
		return false
	}
	w.pending[id] = p
	return true
}

func (w *watcher) read(ctx context.Context, c *websocket.Conn) error {
	var m struct {
		Type    string          `json:"type"`
		Payload json.RawMessage `json:"payload"`
	}
	var u struct {
		Equipment equipment `json:"equipment"`
	}
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			return err
		}
		now := time.Now()
		m.Payload = nil
		if err := json.Unmarshal(b, &m); err != nil {
			return err
		}
		if m.Type != "equipment_update" {
			w.mu.Lock()
			w.other++
			w.mu.Unlock()
			continue
		}
		u.Equipment = equipment{}
		if err := json.Unmarshal(m.Payload, &u); err != nil {
			return err
		}
		t, ok := u.Equipment.SensorData["temperature"]
		w.mu.Lock()
		if w.counting {
			w.updates++
			w.twins[u.Equipment.ID] = true
			if u.Equipment.SyncStatus != "synced" {
				w.unsynced++
			}
		}
		if p, armed := w.pending[u.Equipment.ID]; armed && ok && math.Abs(t.Value-p.want) < probeStep/4 {
			w.latency = append(w.latency, now.Sub(p.at))
			delete(w.pending, u.Equipment.ID)
		}
		w.mu.Unlock()
	}
}

// measure runs the whole benchmark against a running server.
func measure(args []string) error {
	fs := flag.NewFlagSet("measure", flag.ExitOnError)
	base := fs.String("url", "", "server URL")
	pid := fs.Int("pid", 0, "server process id, to read its CPU time and memory from /proc")
	n := fs.Int("n", 500, "devices, one connected twin each")
	window := fs.Duration("window", 30*time.Second, "measuring window while the devices are polled")
	every := fs.Duration("probe-every", 100*time.Millisecond, "how often one device's value changes, for the latency")
	creators := fs.Int("c", 4, "twins created, and retired at the end, at once")
	label := fs.String("label", "", "label of the printed lines")
	pprofURL := fs.String("pprof", "", "the server's profile endpoint (http://…/debug/pprof/); with -profile-dir, a CPU profile of the window is saved")
	profileDir := fs.String("profile-dir", "", "folder for cpu.pprof (the window) and heap.pprof (its end)")
	dsn := fs.String("db", "", "the server's database; a postgres:// URL on this machine adds the CPU of its backends")
	logFile := fs.String("log", "", "the server's log, to report the warnings and errors it logged while measured and while the twins were retired")
	_ = fs.Parse(args)
	if *pid == 0 || *base == "" {
		return errors.New("measure needs -url and -pid")
	}
	server := proc(*pid)
	say := func(format string, a ...any) { fmt.Printf("%-9s "+format+"\n", append([]any{*label}, a...)...) }
	ctx := context.Background()

	// The server with its seed fleet, before any device: the baseline.
	idle := 3 * time.Second
	cpu0 := server.cpuSeconds()
	time.Sleep(idle)
	idleCPU := (server.cpuSeconds() - cpu0) / idle.Seconds()
	idleRSS, _ := server.memory()
	say("idle (the seed fleet, before any device): server CPU %.1f%% of one core, RSS %.1f MiB", idleCPU*100, mib(idleRSS))

	start := time.Now()
	devices := make([]*device, *n)
	for i := range devices {
		d, err := startDevice(ctx)
		if err != nil {
			return err
		}
		devices[i] = d
		defer func() { _ = d.srv.Stop() }()
	}
	say("devices: %d Modbus TCP devices serving in %.1f s", *n, time.Since(start).Seconds())

	jar, _ := cookiejar.New(nil)
	a := &api{base: *base, hc: &http.Client{Jar: jar, Timeout: time.Minute}}
	if err := a.do(ctx, http.MethodPost, "/api/account/sign-in", `{"email":"`+adminEmail+`","password":"`+adminPassword+`"}`, nil); err != nil {
		return err
	}

	// The page: one WebSocket client watching the twins from the start.
	dialCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	//nolint:bodyclose // the library owns the handshake's body: "You never need to close resp.Body yourself"
	conn, _, err := websocket.Dial(dialCtx, "ws"+strings.TrimPrefix(*base, "http")+"/ws",
		&websocket.DialOptions{HTTPClient: &http.Client{Jar: jar}, HTTPHeader: http.Header{"Origin": {*base}}})
	cancel()
	if err != nil {
		return fmt.Errorf("dial /ws: %w", err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(1 << 20)
	if err := conn.Write(ctx, websocket.MessageText, []byte(`{"type":"watch_equipment"}`)); err != nil {
		return err
	}
	w := &watcher{pending: map[string]probe{}, twins: map[string]bool{}}
	readErr := make(chan error, 1)
	go func() { readErr <- w.read(ctx, conn) }()

	// Create the twins, a few at once, as an admin scripting it would.
	ids := make([]string, *n)
	start = time.Now()
	if err := parallel(*creators, *n, func(i int) error {
		var eq equipment
		if err := a.do(ctx, http.MethodPost, "/api/digital-twin/equipment", twinBody(i, devices[i].addr), &eq); err != nil {
			return err
		}
		ids[i] = eq.ID
		return nil
	}); err != nil {
		return err
	}
	created := time.Since(start)
	say("create: %d connected twins through the API in %.1f s (%.0f/s, %d at once)", *n, created.Seconds(), float64(*n)/created.Seconds(), *creators)

	// Wait until the gateway has read every device once.
	synced := time.Now()
	for {
		want := map[string]bool{}
		for _, id := range ids {
			want[id] = true
		}
		var list []equipment
		if err := a.do(ctx, http.MethodGet, "/api/digital-twin/equipment", "", &list); err != nil {
			return err
		}
		for _, eq := range list {
			if eq.SyncStatus == "synced" {
				delete(want, eq.ID)
			}
		}
		if len(want) == 0 {
			break
		}
		if time.Since(synced) > 2*time.Minute {
			return fmt.Errorf("%d of %d twins still not synced after 2 minutes", len(want), *n)
		}
		time.Sleep(200 * time.Millisecond)
	}
	say("sync: every twin synced %.1f s after the last was created (%.1f s after creation began)", time.Since(synced).Seconds(), time.Since(start).Seconds())
	time.Sleep(2 * time.Second) // let the polls spread and the creation's garbage go

	var profiled chan struct{}
	if *pprofURL != "" && *profileDir != "" {
		profiled = make(chan struct{})
		go func() {
			defer close(profiled)
			saveProfile(ctx, fmt.Sprintf("%sprofile?seconds=%d", *pprofURL, int(window.Seconds())), *profileDir+"/cpu.pprof")
		}()
	}

	// The window: the devices are polled; one device's value changes every
	// probe period; memory is sampled every second.
	w.mu.Lock()
	w.counting = true
	w.mu.Unlock()
	backends := newBackends(ctx, *dsn)
	defer backends.close()
	backends.start(ctx)
	cpu0 = server.cpuSeconds()
	start = time.Now()
	rng := rand.New(rand.NewPCG(uint64(start.UnixNano()), 7)) //nolint:gosec // G404: which device changes needs no secrecy
	var rssSum, rssMax int64
	var samples, probes int
	tick := time.NewTicker(*every)
	sample := time.NewTicker(time.Second)
	for done := time.After(*window); ; {
		select {
		case <-tick.C:
			if probes >= maxProbes {
				continue
			}
			i := rng.IntN(*n)
			v := baseTemperature + float64(probes+1)*probeStep
			if w.arm(ids[i], probe{want: float64(float32(v)), at: time.Now()}) {
				devices[i].set(v)
				probes++
			}
			continue
		case <-sample.C:
			rss, _ := server.memory()
			rssSum += rss
			rssMax = max(rssMax, rss)
			samples++
			continue
		case err := <-readErr:
			return fmt.Errorf("watching /ws: %w", err)
		case <-done:
		}
		break
	}
	tick.Stop()
	sample.Stop()
	elapsed := time.Since(start)
	cpu := server.cpuSeconds() - cpu0
	dbCPU, dbBackends := backends.cpu(ctx)
	w.mu.Lock()
	w.counting = false
	updates, twins, unsynced := w.updates, len(w.twins), w.unsynced
	w.mu.Unlock()
	_, hwm := server.memory()
	goroutines, heap := scrape(ctx, *base)

	// Probes made at the end of the window still have their poll and flush
	// to come.
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		w.mu.Lock()
		left := len(w.pending)
		w.mu.Unlock()
		if left == 0 {
			break
		}
	}
	w.mu.Lock()
	lat, missed, other := slices.Clone(w.latency), len(w.pending), w.other
	w.mu.Unlock()
	slices.Sort(lat)

	expected := float64(*n) / 1.0 // one reading a second from each device
	say("polling %d devices every 1 s for %.0f s: server CPU %.1f%% of one core (%.1f CPU-s); RSS mean %.1f MiB, max %.1f MiB, peak over the run (VmHWM) %.1f MiB",
		*n, elapsed.Seconds(), cpu/elapsed.Seconds()*100, cpu, mib(rssSum/int64(max(samples, 1))), mib(rssMax), mib(hwm))
	if dbBackends > 0 {
		say("polling: PostgreSQL's %d backends of this database used %.1f%% of one core more (%.1f CPU-s; not pinned)", dbBackends, dbCPU/elapsed.Seconds()*100, dbCPU)
	}
	say("polling: %d goroutines, Go heap in use %.1f MiB at the end of the window", goroutines, mib(heap))
	say("readings to the page: %.0f equipment_update/s (of %.0f/s polled), from %d of %d twins, %d showing a twin not synced; %d other messages",
		float64(updates)/elapsed.Seconds(), expected, twins, *n, unsynced, other)
	say("latency device change → page: n=%d p50 %s p90 %s p99 %s max %s; %d changes never seen (expected: up to the 1 s poll interval + the 250 ms flush)",
		len(lat), pct(lat, 50), pct(lat, 90), pct(lat, 99), pct(lat, 100), missed)
	if profiled != nil {
		<-profiled
		saveProfile(ctx, *pprofURL+"heap", *profileDir+"/heap.pprof")
		say("profiles: %s/cpu.pprof (the window), %s/heap.pprof", *profileDir, *profileDir)
	}

	// Retire the twins before the devices stop, so that the server's log
	// shows only what happened while it was measured.
	logged := complaints(*logFile, 0, func(found []string) {
		say("server warnings and errors from its start to the end of the window: %d%s", len(found), firstOf(found))
	})
	start = time.Now()
	if err := parallel(*creators, *n, func(i int) error {
		return a.do(ctx, http.MethodDelete, "/api/digital-twin/equipment/"+ids[i], "", nil)
	}); err != nil {
		return err
	}
	say("retire: %d twins through the API in %.1f s", *n, time.Since(start).Seconds())
	time.Sleep(time.Second) // the gateway stops their pollers on its next reconcile, at once
	complaints(*logFile, logged, func(found []string) {
		say("server warnings and errors while the twins were retired: %d%s", len(found), firstOf(found))
	})
	return nil
}

// complaints calls report with the warnings and errors in the server's log
// from line from on, and returns the log's line count. It reports nothing
// when there were none, or without a log.
func complaints(file string, from int, report func(found []string)) int {
	if file == "" {
		return 0
	}
	b, err := os.ReadFile(file) //nolint:gosec // G304: run.sh names the server's log
	if err != nil {
		return from
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	var found []string
	for _, l := range lines[min(from, len(lines)):] {
		if strings.Contains(l, `"level":"WARN"`) || strings.Contains(l, `"level":"ERROR"`) {
			found = append(found, l)
		}
	}
	if len(found) > 0 {
		report(found)
	}
	return len(lines)
}

// firstOf shows the first few of the lines found, shortened.
func firstOf(found []string) string {
	var b strings.Builder
	b.WriteString(", the first:")
	for _, l := range found[:min(3, len(found))] {
		b.WriteString("\n    ")
		b.WriteString(l[:min(300, len(l))])
	}
	return b.String()
}

// parallel calls f(0) to f(n-1), c at once, and returns the first error.
func parallel(c, n int, f func(i int) error) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, c)
	for range c {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := f(i); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// backends reads the CPU time of the PostgreSQL server processes serving
// the database under test, when that server runs on this machine: on
// PostgreSQL, much of the work of storing a reading is theirs.
type backends struct {
	db    *sql.DB
	begin map[int]float64
}

func newBackends(ctx context.Context, dsn string) *backends {
	b := &backends{}
	if store.IsPostgresURL(dsn) {
		if db, err := sql.Open("pgx", dsn); err == nil && db.PingContext(ctx) == nil {
			b.db = db
		}
	}
	return b
}

func (b *backends) close() {
	if b.db != nil {
		_ = b.db.Close()
	}
}

func (b *backends) sample(ctx context.Context) map[int]float64 {
	if b.db == nil {
		return nil
	}
	rows, err := b.db.QueryContext(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
	if err != nil {
		return nil
	}
	defer rows.Close()
	out := map[int]float64{}
	for rows.Next() {
		var pid int
		if rows.Scan(&pid) == nil {
			if c := proc(pid).cpuSeconds(); !math.IsNaN(c) {
				out[pid] = c
			}
		}
	}
	if rows.Err() != nil {
		return nil
	}
	return out
}

func (b *backends) start(ctx context.Context) { b.begin = b.sample(ctx) }

// cpu is the CPU time the backends used since start, and how many there
// are now: one that ended in between is missed, one that began counts
// whole.
func (b *backends) cpu(ctx context.Context) (seconds float64, n int) {
	for pid, c := range b.sample(ctx) {
		seconds += c - b.begin[pid]
		n++
	}
	return seconds, n
}

// scrape reads the server's goroutine count and Go heap in use from /metrics.
func scrape(ctx context.Context, base string) (goroutines int, heap int64) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return 0, 0
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, 0
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		f, _ := strconv.ParseFloat(val, 64)
		switch name {
		case "go_goroutines":
			goroutines = int(f)
		case "go_memstats_heap_inuse_bytes":
			heap = int64(f)
		}
	}
	return goroutines, heap
}

// saveProfile fetches a profile from the server into file.
func saveProfile(ctx context.Context, url, file string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		return
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		return
	}
	defer res.Body.Close()
	f, err := os.Create(file) //nolint:gosec // G304: the operator names the profile directory (-profile-dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		return
	}
	defer f.Close()
	if _, err := io.Copy(f, res.Body); err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
	}
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	i := (len(ds)*p + 99) / 100
	return ds[max(min(i, len(ds))-1, 0)].Round(time.Millisecond)
}
