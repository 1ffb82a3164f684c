package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/twin"
)

// Lease timing: a process renews its leases every leaseRenew; a process
// that stops renewing loses them after leaseTTL, when another takes its
// devices over.
const (
	leaseRenew = 3 * time.Second
	leaseTTL   = 10 * time.Second
)

// Back-off after a failed connection: it doubles from minBackoff to
// maxBackoff, and a good read resets it.
const (
	minBackoff = time.Second
	maxBackoff = time.Minute
)

// Config is what the gateway needs of the server.
type Config struct {
	// Holder names this process in the leases.
	Holder string
	// List returns the twins in service.
	List func(ctx context.Context) ([]twin.Equipment, error)
	// Claim renews and takes leases (store.ClaimDevices) and returns the
	// twins this process polls; Release gives them up at shutdown.
	Claim   func(ctx context.Context, holder string, ttl time.Duration) ([]string, error)
	Release func(ctx context.Context, holder string) error
	// Ingest stores readings through the one ingest path.
	Ingest func(ctx context.Context, u twin.SensorUpdate) error
	// SetSync records a twin's sync status and failure count.
	SetSync func(ctx context.Context, id, status string, errorCount int) error
	Now     func() time.Time
	Log     *slog.Logger
}

// Gateway polls the devices of the connected twins this process holds the
// lease of, each in its own goroutine, so one dead device slows no other.
type Gateway struct {
	cfg  Config
	kick chan struct{}

	mu      sync.Mutex
	pollers map[string]*poller
}

// New returns a gateway; Run starts it.
func New(cfg Config) *Gateway {
	return &Gateway{cfg: cfg, kick: make(chan struct{}, 1), pollers: map[string]*poller{}}
}

// Refresh asks the gateway to pick up a twin just connected, edited or
// retired now rather than at the next lease renewal.
func (g *Gateway) Refresh() {
	select {
	case g.kick <- struct{}{}:
	default:
	}
}

// Run keeps the pollers in line with the leases until ctx ends, then stops
// them and releases the leases.
func (g *Gateway) Run(ctx context.Context) {
	t := time.NewTicker(leaseRenew)
	defer t.Stop()
	for {
		g.reconcile(ctx)
		select {
		case <-ctx.Done():
			g.stopAll()
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			if err := g.cfg.Release(rctx, g.cfg.Holder); err != nil {
				g.cfg.Log.Warn("gateway: release leases", "err", err)
			}
			cancel()
			return
		case <-t.C:
		case <-g.kick:
		}
	}
}

// Polling reports the ids of the twins this process polls now.
func (g *Gateway) Polling() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	ids := make([]string, 0, len(g.pollers))
	for id := range g.pollers {
		ids = append(ids, id)
	}
	return ids
}

func (g *Gateway) reconcile(ctx context.Context) {
	list, err := g.cfg.List(ctx)
	if err != nil {
		if ctx.Err() == nil {
			g.cfg.Log.Error("gateway: list twins", "err", err)
		}
		return
	}
	byID := make(map[string]twin.Equipment, len(list))
	for _, eq := range list {
		if eq.Connection != nil {
			byID[eq.ID] = eq
		}
	}
	if len(byID) == 0 && len(g.Polling()) == 0 {
		return // nothing to poll: no lease to take, no write
	}
	held, err := g.cfg.Claim(ctx, g.cfg.Holder, leaseTTL)
	if err != nil {
		if ctx.Err() == nil {
			g.cfg.Log.Error("gateway: claim devices", "err", err)
		}
		// Without a renewal the leases lapse: stop before another
		// process starts polling the same devices.
		g.stopAll()
		return
	}
	want := map[string]twin.Equipment{}
	for _, id := range held {
		if eq, ok := byID[id]; ok {
			want[id] = eq
		}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for id, p := range g.pollers {
		if eq, ok := want[id]; !ok || p.key != pollKey(eq) {
			p.stop()
			delete(g.pollers, id)
		}
	}
	for id, eq := range want {
		if g.pollers[id] == nil {
			g.pollers[id] = g.start(ctx, eq)
		}
	}
}

func (g *Gateway) stopAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for id, p := range g.pollers {
		p.stop()
		delete(g.pollers, id)
	}
}

// pollKey is what a poller depends on: a change of it restarts the poller.
func pollKey(eq twin.Equipment) string {
	b, _ := json.Marshal(struct {
		P string
		C *twin.Connection
	}{eq.CommunicationProtocol, eq.Connection})
	return string(b)
}

// poller reads one twin's device.
type poller struct {
	key    string
	cancel context.CancelFunc
	done   chan struct{}
}

func (p *poller) stop() {
	p.cancel()
	<-p.done
}

func (g *Gateway) start(ctx context.Context, eq twin.Equipment) *poller {
	ctx, cancel := context.WithCancel(ctx)
	p := &poller{key: pollKey(eq), cancel: cancel, done: make(chan struct{})}
	w := &worker{cfg: g.cfg, id: eq.ID, protocol: eq.CommunicationProtocol, conn: *eq.Connection,
		status: eq.SyncStatus, errors: eq.SyncErrorCount}
	go func() {
		defer close(p.done)
		w.run(ctx)
	}()
	return p
}

// worker is a poller's loop and the sync state it last recorded.
type worker struct {
	cfg      Config
	id       string
	protocol string
	conn     twin.Connection
	status   string
	errors   int
}

// polled says whether the protocol is read on a timer (Modbus,
// EtherNet/IP); OPC UA and MQTT devices report changes themselves.
func polled(protocol string) bool {
	return protocol == twin.ProtocolModbusTCP || protocol == twin.ProtocolEtherNetIP
}

func (w *worker) run(ctx context.Context) {
	backoff := minBackoff
	interval := time.Duration(w.conn.IntervalMs) * time.Millisecond
	for ctx.Err() == nil {
		src, err := open(ctx, w.protocol, w.conn)
		if err != nil {
			w.failed(ctx, err)
			if !sleep(ctx, backoff) {
				return
			}
			backoff = min(backoff*2, maxBackoff)
			continue
		}
		next := time.Now()
		for ctx.Err() == nil {
			values, err := src.Read(ctx)
			if err != nil {
				if ctx.Err() != nil {
					break
				}
				w.failed(ctx, err)
				if errors.Is(err, errDevice) {
					break // reconnect, after the back-off
				}
			} else {
				backoff = minBackoff
				w.read(ctx, values)
			}
			if polled(w.protocol) {
				next = next.Add(interval)
				if now := time.Now(); next.Before(now) {
					next = now // a slow device: poll again at once, never in a burst
				}
				if !sleep(ctx, time.Until(next)) {
					break
				}
			}
		}
		src.Close()
		if !sleep(ctx, backoff) {
			return
		}
		backoff = min(backoff*2, maxBackoff)
	}
}

// read stores the values read and records the sync state they show: synced
// when every point read well, error when some did not.
func (w *worker) read(ctx context.Context, values []Value) {
	now := w.cfg.Now()
	u := twin.SensorUpdate{EquipmentID: w.id, Timestamp: now, ReceivedAt: now}
	bad := 0
	for _, v := range values {
		if v.Value == nil {
			bad++
			continue
		}
		u.Values = append(u.Values, twin.Value{Key: v.Sensor, Value: *v.Value})
	}
	if len(u.Values) > 0 {
		// A twin retired meanwhile refuses them (not found); the next
		// reconcile stops its poller.
		if err := w.cfg.Ingest(ctx, u); err != nil && ctx.Err() == nil && apperr.Code(err) != apperr.ENOTFOUND {
			w.cfg.Log.Warn("gateway: store readings", "equipment", w.id, "err", err)
		}
	}
	if bad > 0 {
		w.record(ctx, twin.SyncError, w.errors+1, "some points read badly")
		return
	}
	// Ingest marked the twin synced; only the failure count needs a reset.
	w.status = twin.SyncSynced
	if w.errors != 0 {
		w.record(ctx, twin.SyncSynced, 0, "")
	}
}

// failed records a failed connection or read: disconnected when the
// device could not be reached, error when it answered wrongly.
func (w *worker) failed(ctx context.Context, err error) {
	if ctx.Err() != nil {
		return
	}
	status := twin.SyncError
	if errors.Is(err, errDevice) {
		status = twin.SyncDisconnected
	}
	w.record(ctx, status, w.errors+1, err.Error())
}

func (w *worker) record(ctx context.Context, status string, count int, why string) {
	if status == w.status && count == w.errors {
		return
	}
	if status != w.status && why != "" {
		w.cfg.Log.Warn("gateway: device", "equipment", w.id, "sync", status, "err", why)
	}
	if err := w.cfg.SetSync(ctx, w.id, status, count); err != nil {
		if ctx.Err() == nil && apperr.Code(err) != apperr.ENOTFOUND {
			w.cfg.Log.Warn("gateway: record sync", "equipment", w.id, "err", err)
		}
		return
	}
	w.status, w.errors = status, count
}

func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
