package realtime

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

// Limits of one connection and of the hub.
const (
	MaxMessageBytes       = 64 << 10 // a bigger frame closes the connection with 1009
	MessagesPerSecond     = 20       // sustained rate a client may send
	MessageBurst          = 40       // messages a client may send at once
	MaxRateViolations     = 20       // refused messages tolerated in a burst …
	ViolationsPerSecond   = 1        // … and sustained, before the connection closes with 1008
	SendQueueLen          = 32       // messages waiting for a client; a fuller queue drops the client
	WriteTimeout          = 5 * time.Second
	PingInterval          = 30 * time.Second
	PongTimeout           = 10 * time.Second
	DefaultMaxConnections = 50_000 // lowered to what the open-file limit allows
)

// Options configure a Hub. Zero values take the defaults above.
type Options struct {
	// OriginPatterns are extra origins (host patterns, as in
	// websocket.AcceptOptions) allowed besides the page's own host.
	OriginPatterns []string
	MaxConnections int
	PingInterval   time.Duration
	PongTimeout    time.Duration

	// OnSafetyAlert stores a client's safety alert and returns the message
	// to deliver to everyone. Without it the hub delivers the alert as sent.
	OnSafetyAlert func(ctx context.Context, from Peer, a SafetyAlertPayload, sessionID string) (Message, error)
	// Publish carries a message to every process sharing the database, each
	// of which calls Deliver. Without it messages are delivered in process.
	Publish func(ctx context.Context, m Message) error
	// AuthorizeJoin decides whether userID may join a session's room in a
	// role. Without it anyone signed in may.
	AuthorizeJoin func(ctx context.Context, who Peer, sessionID, role string) error
	// AuthorizeWatch decides whether a peer may watch its channel's running
	// sessions (live_session messages). Without it nobody may.
	AuthorizeWatch func(ctx context.Context, who Peer) error

	Logger *slog.Logger
	Now    func() time.Time
}

// Hub holds the connected clients and the session rooms.
type Hub struct {
	opts  Options
	count atomic.Int64
	born  time.Time // origin of the monotonic times in client.lastPong

	mu       sync.RWMutex
	all      []*client                       // every client; client.at is its index
	channels map[string][]*client            // the clients of each non-empty channel; client.channelAt is the index
	watchers map[string]map[*client]struct{} // the clients watching each channel's running sessions
	twins    map[*client]struct{}            // the clients watching the digital twins
	rooms    map[string]*room
	closed   bool

	readers  sync.WaitGroup // the clients' reading goroutines
	stop     chan struct{}
	once     sync.Once
	sweeping atomic.Bool // revalidateAll is running
}

type room struct {
	participants map[*client]struct{}
	observers    map[*client]struct{}
}

// NewHub returns a hub and starts its keepalive; Close stops it.
func NewHub(opts Options) *Hub {
	if opts.MaxConnections <= 0 {
		opts.MaxConnections = DefaultMaxConnections
	}
	// A connection is a file descriptor. Past the process's limit, accept
	// would fail for every request, not only WebSockets; a tenth of the
	// limit (at most 1,000) stays for HTTP, the database and the broker.
	if limit := openFileLimit(); limit > 0 {
		opts.MaxConnections = max(1, min(opts.MaxConnections, limit-min(1000, limit/10)))
	}
	if opts.PingInterval <= 0 {
		opts.PingInterval = PingInterval
	}
	if opts.PongTimeout <= 0 {
		opts.PongTimeout = PongTimeout
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	h := &Hub{opts: opts, born: time.Now(), channels: map[string][]*client{}, watchers: map[string]map[*client]struct{}{}, twins: map[*client]struct{}{}, rooms: map[string]*room{}, stop: make(chan struct{})}
	go h.keepalive()
	return h
}

// MaxConnections returns how many clients the hub accepts at once.
func (h *Hub) MaxConnections() int { return h.opts.MaxConnections }

// Connections returns the number of connected clients.
func (h *Hub) Connections() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.all)
}

// sinceBorn is a monotonic clock for pong times.
func (h *Hub) sinceBorn() int64 { return int64(time.Since(h.born)) }

// Close closes every connection with 1001 (going away), refuses new ones,
// and returns when every client's goroutine has ended.
func (h *Hub) Close() {
	h.once.Do(func() { close(h.stop) })
	h.mu.Lock()
	h.closed = true
	all := slices.Clone(h.all)
	h.mu.Unlock()
	for _, c := range all {
		go c.goAway() // a close handshake may wait on its client
	}
	h.readers.Wait()
}

// Peer is who holds a connection, as the server identified them.
type Peer struct {
	UserID string
	// Channel is the alert channel the peer belongs to (their organisation's,
	// or the demo channel): safety alerts of a channel reach only its peers.
	Channel string
	// Addr is the client's address, for rate limits.
	Addr string
	// Release, when set, is called once when the connection ends (or is
	// never made), so that whoever admitted it can count connections.
	Release func()
	// Valid, when set, reports whether the holder still has the identity
	// and rights they connected with: a sign-out, a new password, a removal
	// or a new role ends them. A connection whose holder has not is closed
	// with 1008, and its client reconnects as whoever it is now. It is asked
	// before a message is acted on (at most every revalidateAfter), at every
	// keepalive round, and by Revalidate.
	Valid func(ctx context.Context) (bool, error)
}

// revalidateAfter is how long a holder's validity is trusted before a
// message of theirs makes the hub ask again.
var revalidateAfter = 5 * time.Second

// ReasonRevoked is the close reason of a connection whose holder's sign-in
// ended or changed.
const ReasonRevoked = "your sign-in ended or changed"

// Revalidate asks again whether each connection of user is still held
// validly (Peer.Valid), closing those that are not; it returns when every
// check is done. Call it after a change to the user's sign-in or rights,
// in every process holding connections (the server tells the others
// through the database); a process that missed it finds out at its next
// keepalive round or the connection's next message.
func (h *Hub) Revalidate(ctx context.Context, user string) {
	h.mu.RLock()
	var mine []*client
	for _, c := range h.all {
		if c.peer.UserID == user && c.peer.Valid != nil {
			mine = append(mine, c)
		}
	}
	h.mu.RUnlock()
	for _, c := range mine {
		c.recheck(ctx)
	}
}

// revalidateAll asks every connection's holder again, one after another.
func (h *Hub) revalidateAll(targets []*client) {
	if !h.sweeping.CompareAndSwap(false, true) {
		return // the last round is still going
	}
	defer h.sweeping.Store(false)
	for _, c := range targets {
		if c.peer.Valid != nil {
			c.recheck(context.Background())
		}
	}
}

// Handler returns the /ws handler. identify names the caller of a request;
// a refused request gets the status and message identify returns, before
// any upgrade.
func (h *Hub) Handler(identify func(*http.Request) (p Peer, status int, message string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		peer, status, msg := identify(r)
		if status != 0 {
			http.Error(w, msg, status)
			return
		}
		release := func() {
			h.count.Add(-1)
			if peer.Release != nil {
				peer.Release()
			}
		}
		if n := h.count.Add(1); n > int64(h.opts.MaxConnections) {
			release()
			w.Header().Set("Retry-After", "5")
			http.Error(w, "too many realtime connections; try again shortly", http.StatusServiceUnavailable)
			return
		}
		c := &client{hub: h, peer: peer}
		hj := &hijacker{ResponseWriter: w}
		conn, err := websocket.Accept(hj, r, &websocket.AcceptOptions{
			OriginPatterns:  h.opts.OriginPatterns,
			CompressionMode: websocket.CompressionDisabled, // a flate context costs tens of KB per connection
			OnPongReceived:  func(context.Context, []byte) { c.pong() },
		})
		if err != nil {
			release()
			return // Accept has answered (403 for a foreign origin)
		}
		conn.SetReadLimit(MaxMessageBytes)
		c.conn, c.raw, c.br, c.early = conn, hj.raw, hj.br, hj.early
		if !h.add(c) {
			release()
			conn.Close(websocket.StatusGoingAway, "server shutting down")
			return
		}
		// The connection is hijacked: reading on a fresh goroutine lets this
		// one return, freeing its grown stack and the request it holds.
		go func() {
			defer h.readers.Done()
			defer release()
			defer h.remove(c)
			c.readLoop()
		}()
	})
}

func (h *Hub) add(c *client) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.readers.Add(1)
	c.lastPong.Store(h.sinceBorn())
	c.validAt.Store(h.sinceBorn()) // identified just now
	c.at = len(h.all)
	h.all = append(h.all, c)
	if c.peer.Channel != "" {
		c.channelAt = len(h.channels[c.peer.Channel])
		h.channels[c.peer.Channel] = append(h.channels[c.peer.Channel], c)
	}
	return true
}

func (h *Hub) remove(c *client) {
	c.kill()
	h.mu.Lock()
	h.all = removeAt(h.all, c.at, func(moved *client) { moved.at = c.at })
	if c.peer.Channel != "" {
		list := removeAt(h.channels[c.peer.Channel], c.channelAt, func(moved *client) { moved.channelAt = c.channelAt })
		if len(list) == 0 {
			delete(h.channels, c.peer.Channel)
		} else {
			h.channels[c.peer.Channel] = list
		}
	}
	delete(h.twins, c)
	if w := h.watchers[c.peer.Channel]; w != nil {
		delete(w, c)
		if len(w) == 0 {
			delete(h.watchers, c.peer.Channel)
		}
	}
	rm := h.leaveLocked(c)
	h.mu.Unlock()
	if rm != "" {
		h.presence(rm)
	}
}

// removeAt removes list[i] by moving the last client into its place, and
// tells moved about its new index.
func removeAt(list []*client, i int, moved func(*client)) []*client {
	last := len(list) - 1
	if i != last {
		list[i] = list[last]
		moved(list[i])
	}
	list[last] = nil
	return list[:last]
}

// leaveLocked takes c out of its room and returns the room's id.
func (h *Hub) leaveLocked(c *client) string {
	id := c.room
	if id == "" {
		return ""
	}
	if r := h.rooms[id]; r != nil {
		delete(r.participants, c)
		delete(r.observers, c)
		if len(r.participants)+len(r.observers) == 0 {
			delete(h.rooms, id)
		}
	}
	c.room, c.role = "", ""
	return id
}

func (h *Hub) join(c *client, sessionID, role string) RoomPayload {
	h.mu.Lock()
	old := h.leaveLocked(c)
	r := h.rooms[sessionID]
	if r == nil {
		r = &room{participants: map[*client]struct{}{}, observers: map[*client]struct{}{}}
		h.rooms[sessionID] = r
	}
	if role == RoleObserver {
		r.observers[c] = struct{}{}
	} else {
		r.participants[c] = struct{}{}
	}
	c.room, c.role = sessionID, role
	p := RoomPayload{Role: role, Participants: len(r.participants), Observers: len(r.observers)}
	h.mu.Unlock()
	if old != "" && old != sessionID {
		h.presence(old)
	}
	return p
}

func (h *Hub) leave(c *client) string {
	h.mu.Lock()
	id := h.leaveLocked(c)
	h.mu.Unlock()
	if id != "" {
		h.presence(id)
	}
	return id
}

// watch adds c to the watchers of its channel's running sessions.
func (h *Hub) watch(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	w := h.watchers[c.peer.Channel]
	if w == nil {
		w = map[*client]struct{}{}
		h.watchers[c.peer.Channel] = w
	}
	w[c] = struct{}{}
}

// Watched reports whether any client of this process watches channel's
// running sessions, so that nobody builds live_session messages for none.
func (h *Hub) Watched(channel string) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.watchers[channel]) > 0
}

// watchEquipment adds c to the watchers of the digital twins.
func (h *Hub) watchEquipment(c *client) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.twins[c] = struct{}{}
}

// WatchingEquipment reports whether any client of this process watches the
// digital twins.
func (h *Hub) WatchingEquipment() bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.twins) > 0
}

// presence tells a room's members its new membership.
func (h *Hub) presence(sessionID string) {
	h.mu.RLock()
	r := h.rooms[sessionID]
	var p RoomPayload
	if r != nil {
		p = RoomPayload{Participants: len(r.participants), Observers: len(r.observers)}
	}
	h.mu.RUnlock()
	if r == nil {
		return
	}
	b, _ := json.Marshal(p)
	h.Deliver(Message{Type: TypePresence, SessionID: sessionID, Payload: b, Timestamp: h.opts.Now().UTC()})
}

// Rooms lists the live session rooms of this process, by session id.
func (h *Hub) Rooms() []Room {
	h.mu.RLock()
	out := make([]Room, 0, len(h.rooms))
	for id, r := range h.rooms {
		rm := Room{SessionID: id, Participants: len(r.participants), Observers: len(r.observers), UserIDs: []string{}}
		for c := range r.participants {
			if !slices.Contains(rm.UserIDs, c.peer.UserID) {
				rm.UserIDs = append(rm.UserIDs, c.peer.UserID)
			}
		}
		slices.Sort(rm.UserIDs)
		out = append(out, rm)
	}
	h.mu.RUnlock()
	slices.SortFunc(out, func(a, b Room) int {
		switch {
		case a.SessionID < b.SessionID:
			return -1
		case a.SessionID > b.SessionID:
			return 1
		}
		return 0
	})
	return out
}

// Deliver sends m to this process's clients: a safety alert or its
// acknowledgement, or a message without a session id, to every client of
// its channel; a live_session to the channel's watchers; an
// equipment_update to the digital twins' watchers; any other message
// to the members of its session's room. It encodes m once and never waits
// for a client: a client whose send queue is full is disconnected instead.
func (h *Hub) Deliver(m Message) {
	b, err := json.Marshal(m)
	if err != nil {
		h.opts.Logger.Error("realtime: encode message", "type", m.Type, "err", err)
		return
	}
	var targets []*client
	h.mu.RLock()
	switch {
	case m.Type == TypeLiveSession:
		for c := range h.watchers[m.Channel] {
			targets = append(targets, c)
		}
	case m.Type == TypeEquipmentUpdate:
		for c := range h.twins {
			targets = append(targets, c)
		}
	case m.Type == TypeSafetyAlert || m.Type == TypeSafetyAlertAck || m.SessionID == "":
		h.mu.RUnlock()
		h.Broadcast(m.Channel, b)
		return
	default:
		if r := h.rooms[m.SessionID]; r != nil {
			for _, set := range []map[*client]struct{}{r.participants, r.observers} {
				for c := range set {
					targets = append(targets, c)
				}
			}
		}
	}
	h.mu.RUnlock()
	h.fanOut(targets, textFrame(b))
}

// Broadcast sends payload, one message already encoded as JSON, to the
// clients of channel, or to every client when channel is "". Like Deliver
// it never waits for a client.
func (h *Hub) Broadcast(channel string, payload []byte) {
	frame := textFrame(payload)
	targets := targetPool.Get().(*[]*client)
	h.mu.RLock()
	if channel == "" {
		*targets = append((*targets)[:0], h.all...)
	} else {
		*targets = append((*targets)[:0], h.channels[channel]...)
	}
	h.mu.RUnlock()
	h.fanOut(*targets, frame)
	clear(*targets)
	targetPool.Put(targets)
}

// targetPool holds the client lists of broadcasts, which are as long as
// the hub is large.
var targetPool = sync.Pool{New: func() any { return new([]*client) }}

// fanOutChunk is how many clients one goroutine serves in a broadcast when
// there are several cores (a variable for the tests).
var fanOutChunk = 1024

// fanOut writes frame to each client. The write is one system call that
// never waits, so one goroutine per core serves thousands of clients; a
// client whose socket does not take the whole frame at once gets a
// goroutine of its own to finish it.
func (h *Hub) fanOut(targets []*client, frame []byte) {
	workers := min(runtime.GOMAXPROCS(0), (len(targets)+fanOutChunk-1)/fanOutChunk)
	if workers <= 1 {
		h.dropSlow(sendAll(targets, frame))
		return
	}
	var wg sync.WaitGroup
	slow := make([][]*client, workers)
	per := (len(targets) + workers - 1) / workers
	for w := range workers {
		part := targets[w*per : min(len(targets), (w+1)*per)]
		wg.Go(func() { slow[w] = sendAll(part, frame) })
	}
	wg.Wait()
	for _, s := range slow {
		h.dropSlow(s)
	}
}

func sendAll(targets []*client, frame []byte) (slow []*client) {
	for _, c := range targets {
		if !c.send(frame) {
			slow = append(slow, c)
		}
	}
	return slow
}

func (h *Hub) dropSlow(slow []*client) {
	for _, c := range slow {
		h.opts.Logger.Warn("realtime: dropping a client that does not keep up", "user", c.peer.UserID)
		c.kill()
	}
}

// publish sends m through Publish, or delivers it here when there is none.
func (h *Hub) publish(ctx context.Context, m Message) error {
	if h.opts.Publish == nil {
		h.Deliver(m)
		return nil
	}
	if err := h.opts.Publish(ctx, m); err != nil {
		return fmt.Errorf("publish %s: %w", m.Type, err)
	}
	return nil
}

// keepalive pings every client each interval; a client that has not
// answered within the pong timeout is closed.
func (h *Hub) keepalive() {
	t := time.NewTicker(h.opts.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
		}
		pinged := h.sinceBorn()
		targets := targetPool.Get().(*[]*client)
		h.mu.RLock()
		*targets = append((*targets)[:0], h.all...)
		h.mu.RUnlock()
		h.fanOut(*targets, pingFrame)
		select {
		case <-h.stop:
			return
		case <-time.After(h.opts.PongTimeout):
		}
		// Clients connected since the ping have a later lastPong.
		for _, c := range *targets {
			if c.lastPong.Load() < pinged {
				c.kill()
			}
		}
		go h.revalidateAll(slices.Clone(*targets))
		clear(*targets)
		targetPool.Put(targets)
	}
}
