package realtime

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"journeyman/internal/apperr"
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
	DefaultMaxConnections = 10_000
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

	Logger *slog.Logger
	Now    func() time.Time
}

// Hub holds the connected clients and the session rooms.
type Hub struct {
	opts  Options
	count atomic.Int64

	mu      sync.RWMutex
	clients map[*client]struct{}
	rooms   map[string]*room
	closed  bool

	stop chan struct{}
	once sync.Once
}

type room struct {
	participants map[*client]struct{}
	observers    map[*client]struct{}
}

// NewHub returns a hub and starts its keepalive ticker; Close stops it.
func NewHub(opts Options) *Hub {
	if opts.MaxConnections <= 0 {
		opts.MaxConnections = DefaultMaxConnections
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
	h := &Hub{opts: opts, clients: map[*client]struct{}{}, rooms: map[string]*room{}, stop: make(chan struct{})}
	go h.keepalive()
	return h
}

// Connections returns the number of connected clients.
func (h *Hub) Connections() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.clients)
}

// Close closes every connection with 1001 (going away) and refuses new ones.
func (h *Hub) Close() {
	h.once.Do(func() { close(h.stop) })
	h.mu.Lock()
	h.closed = true
	all := make([]*client, 0, len(h.clients))
	for c := range h.clients {
		all = append(all, c)
	}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range all {
		wg.Go(func() { c.conn.Close(websocket.StatusGoingAway, "server shutting down") })
	}
	wg.Wait()
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
		conn, err := websocket.Accept(smallBuffers{w}, r, &websocket.AcceptOptions{
			OriginPatterns:  h.opts.OriginPatterns,
			CompressionMode: websocket.CompressionDisabled, // a flate context costs tens of KB per connection
		})
		if err != nil {
			release()
			return // Accept has answered (403 for a foreign origin)
		}
		conn.SetReadLimit(MaxMessageBytes)
		c := &client{
			hub:        h,
			conn:       conn,
			userID:     peer.UserID,
			peer:       peer,
			limiter:    rate.NewLimiter(MessagesPerSecond, MessageBurst),
			violations: rate.NewLimiter(ViolationsPerSecond, MaxRateViolations),
		}
		if !h.add(c) {
			release()
			conn.Close(websocket.StatusGoingAway, "server shutting down")
			return
		}
		// The connection is hijacked: reading on a fresh goroutine lets this
		// one return, freeing its grown stack and the request it holds.
		go func() {
			defer release()
			defer h.remove(c)
			c.readLoop()
		}()
	})
}

// Buffer sizes of a connection. net/http hands a hijacked connection over
// with 4 KiB read and write buffers that the connection keeps for its life;
// most realtime messages are a few hundred bytes, and bigger ones are read
// and written past the buffer, so 1 KiB each saves 6 KiB per idle client.
const (
	ReadBufferSize  = 1 << 10
	WriteBufferSize = 1 << 10
)

// smallBuffers hijacks the connection with the smaller buffers.
type smallBuffers struct{ http.ResponseWriter }

func (w smallBuffers) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w smallBuffers) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	// Bytes the client sent after its handshake are in the old buffer:
	// carry them over, and buffer them at once, since the websocket library
	// resets the reader onto the connection keeping only what is buffered.
	pending, _ := brw.Reader.Peek(brw.Reader.Buffered())
	pending = bytes.Clone(pending)
	br := bufio.NewReaderSize(io.MultiReader(bytes.NewReader(pending), conn), max(ReadBufferSize, len(pending)))
	if len(pending) > 0 {
		if _, err := br.Peek(len(pending)); err != nil {
			conn.Close()
			return nil, nil, err
		}
	}
	return conn, bufio.NewReadWriter(br, bufio.NewWriterSize(conn, WriteBufferSize)), nil
}

func (h *Hub) add(c *client) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.clients[c] = struct{}{}
	return true
}

func (h *Hub) remove(c *client) {
	c.kill()
	h.mu.Lock()
	delete(h.clients, c)
	rm := h.leaveLocked(c)
	h.mu.Unlock()
	if rm != "" {
		h.presence(rm)
	}
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
			if !slices.Contains(rm.UserIDs, c.userID) {
				rm.UserIDs = append(rm.UserIDs, c.userID)
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

// Deliver sends m to this process's clients: a safety alert, or a message
// without a session id, to every client; any other message to the members
// of its session's room. It never waits for a client: a client whose send
// queue is full is disconnected instead.
func (h *Hub) Deliver(m Message) {
	b, err := json.Marshal(m)
	if err != nil {
		h.opts.Logger.Error("realtime: encode message", "type", m.Type, "err", err)
		return
	}
	h.mu.RLock()
	var slow []*client
	if m.Type == TypeSafetyAlert || m.SessionID == "" {
		for c := range h.clients {
			if m.Channel != "" && c.peer.Channel != m.Channel {
				continue
			}
			if !c.enqueue(b) {
				slow = append(slow, c)
			}
		}
	} else if r := h.rooms[m.SessionID]; r != nil {
		for _, set := range []map[*client]struct{}{r.participants, r.observers} {
			for c := range set {
				if !c.enqueue(b) {
					slow = append(slow, c)
				}
			}
		}
	}
	h.mu.RUnlock()
	for _, c := range slow {
		h.opts.Logger.Warn("realtime: dropping a client that does not keep up", "user", c.userID)
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

// keepalive pings every client each interval; a client that does not
// answer within the pong timeout is closed.
func (h *Hub) keepalive() {
	t := time.NewTicker(h.opts.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-t.C:
		}
		h.mu.RLock()
		var slow []*client
		for c := range h.clients {
			if !c.enqueue(nil) {
				slow = append(slow, c)
			}
		}
		h.mu.RUnlock()
		for _, c := range slow {
			c.kill()
		}
	}
}

// client is one connection. It costs one goroutine (the reader) while idle; a writer goroutine exists only while its queue holds
// messages, so thousands of idle connections hold no writer stacks.
type client struct {
	hub        *Hub
	conn       *websocket.Conn
	userID     string
	peer       Peer
	limiter    *rate.Limiter
	violations *rate.Limiter

	// room and role are guarded by hub.mu.
	room, role string

	mu      sync.Mutex
	queue   [][]byte // nil entries are pings
	writing bool
	dead    bool
}

// enqueue queues b (nil: a ping) and reports false when the queue is full.
func (c *client) enqueue(b []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead {
		return true
	}
	if len(c.queue) >= SendQueueLen {
		return false
	}
	c.queue = append(c.queue, b)
	if !c.writing {
		c.writing = true
		go c.writeLoop()
	}
	return true
}

func (c *client) writeLoop() {
	for {
		c.mu.Lock()
		if c.dead || len(c.queue) == 0 {
			c.writing = false
			c.queue = nil // let the backing array go while idle
			c.mu.Unlock()
			return
		}
		b := c.queue[0]
		c.queue[0] = nil
		c.queue = c.queue[1:]
		c.mu.Unlock()

		var err error
		if b == nil {
			ctx, cancel := context.WithTimeout(context.Background(), c.hub.opts.PongTimeout)
			err = c.conn.Ping(ctx)
			cancel()
		} else {
			ctx, cancel := context.WithTimeout(context.Background(), WriteTimeout)
			err = c.conn.Write(ctx, websocket.MessageText, b)
			cancel()
		}
		if err != nil {
			c.kill()
			return
		}
	}
}

// kill closes the connection at once, without a close handshake: used for
// clients that cannot keep up or have gone.
func (c *client) kill() {
	c.mu.Lock()
	already := c.dead
	c.dead = true
	c.queue = nil
	c.mu.Unlock()
	if !already {
		c.conn.CloseNow()
	}
}

func (c *client) readLoop() {
	ctx := context.Background()
	for {
		typ, data, err := c.conn.Read(ctx)
		if err != nil {
			return // the library has answered protocol errors, including 1009 for a frame over the limit
		}
		if !c.limiter.Allow() {
			if !c.violations.Allow() {
				c.conn.Close(websocket.StatusPolicyViolation, "rate limit exceeded")
				return
			}
			c.sendError(fmt.Sprintf("rate limit exceeded: at most %d messages per second", MessagesPerSecond))
			continue
		}
		if typ != websocket.MessageText {
			c.sendError("messages must be JSON text frames")
			continue
		}
		if err := c.handle(ctx, data); err != nil {
			c.sendError(apperr.Message(err))
			var ae *apperr.Error
			if !errors.As(err, &ae) {
				c.hub.opts.Logger.Error("realtime: handle message", "user", c.userID, "err", err)
			}
		}
	}
}

func (c *client) sendError(msg string) {
	b, _ := json.Marshal(ErrorPayload{Message: msg})
	c.send(Message{Type: TypeError, Payload: b})
}

// send queues a reply to this client alone. A reply that does not fit is
// dropped: a client flooding bad messages fills its queue with its own
// error replies and should lose those, not the connection.
func (c *client) send(m Message) {
	m.Timestamp = c.hub.opts.Now().UTC()
	if b, err := json.Marshal(m); err == nil {
		c.enqueue(b)
	}
}

func (c *client) handle(ctx context.Context, data []byte) error {
	var in Message
	if err := json.Unmarshal(data, &in); err != nil {
		return apperr.Invalid("malformed JSON: %v", err)
	}
	out := Message{Type: in.Type, SessionID: in.SessionID, UserID: c.userID, Timestamp: c.hub.opts.Now().UTC()}
	switch in.Type {
	case TypeJoin:
		var p JoinPayload
		if err := decodePayload(in.Payload, &p); err != nil {
			return err
		}
		if p.Role == "" {
			p.Role = RoleParticipant
		}
		if p.Role != RoleParticipant && p.Role != RoleObserver {
			return apperr.Invalid("role must be one of participant, observer")
		}
		return c.joinRoom(ctx, in.SessionID, p.Role)

	case TypeLeave:
		id := c.hub.leave(c)
		c.send(Message{Type: TypeLeft, SessionID: id})
		return nil

	case TypeSafetyAlert:
		var p SafetyAlertPayload
		if err := decodePayload(in.Payload, &p); err != nil {
			return err
		}
		if err := p.Validate(); err != nil {
			return err
		}
		if in.SessionID != "" && !validSessionID(in.SessionID) {
			return apperr.Invalid("sessionId must be 1 to %d characters", MaxSessionIDLen)
		}
		if f := c.hub.opts.OnSafetyAlert; f != nil {
			sctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			m, err := f(sctx, c.peer, p, in.SessionID)
			cancel()
			if err != nil {
				return fmt.Errorf("store safety alert: %w", err)
			}
			out = m
		} else {
			out.Payload, _ = json.Marshal(p)
		}
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		return c.hub.publish(pctx, out)

	case TypeXRSessionUpdate:
		var p XRSessionUpdatePayload
		if err := decodePayload(in.Payload, &p); err != nil {
			return err
		}
		if err := p.Validate(); err != nil {
			return err
		}
		out.Payload, _ = json.Marshal(p)
		return c.toRoom(ctx, out)

	case TypeCollaborationUpdate:
		var p CollaborationPayload
		if err := decodePayload(in.Payload, &p); err != nil {
			return err
		}
		if err := p.Validate(); err != nil {
			return err
		}
		out.Payload, _ = json.Marshal(p)
		return c.toRoom(ctx, out)

	case "":
		return apperr.Invalid("type is required")
	default:
		return apperr.Invalid("unknown message type %q; want xr_session_update, safety_alert, collaboration_update, join or leave", in.Type)
	}
}

func decodePayload(raw json.RawMessage, dst any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return apperr.Invalid("malformed payload: %v", err)
	}
	return nil
}

func (c *client) joinRoom(ctx context.Context, sessionID, role string) error {
	if !validSessionID(sessionID) {
		return apperr.Invalid("sessionId must be 1 to %d characters", MaxSessionIDLen)
	}
	if f := c.hub.opts.AuthorizeJoin; f != nil {
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := f(actx, c.peer, sessionID, role)
		cancel()
		if err != nil {
			return err
		}
	}
	p := c.hub.join(c, sessionID, role)
	b, _ := json.Marshal(p)
	c.send(Message{Type: TypeJoined, SessionID: sessionID, Payload: b})
	c.hub.presence(sessionID)
	return nil
}

// toRoom relays a participant's message to its session room, joining the
// sender to the room as a participant first if it is elsewhere.
func (c *client) toRoom(ctx context.Context, m Message) error {
	if !validSessionID(m.SessionID) {
		return apperr.Invalid("sessionId must be 1 to %d characters", MaxSessionIDLen)
	}
	c.hub.mu.RLock()
	room, role := c.room, c.role
	c.hub.mu.RUnlock()
	if room == m.SessionID && role == RoleObserver {
		return apperr.Forbidden("observers cannot send to session %s", m.SessionID)
	}
	if room != m.SessionID {
		if err := c.joinRoom(ctx, m.SessionID, RoleParticipant); err != nil {
			return err
		}
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	return c.hub.publish(pctx, m)
}
