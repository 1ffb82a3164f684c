package realtime

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"journeyman/internal/apperr"
)

// client is one connection. While idle it costs one goroutine, waiting on
// the socket with the smallest stack, and two small buffers; a writer
// goroutine exists only while a frame waits for a socket that would not
// take it at once.
type client struct {
	hub   *Hub
	conn  *websocket.Conn
	raw   *rawConn
	br    *bufio.Reader // the library's read buffer
	peer  Peer          // who holds the connection; its Channel is fixed for its life
	early bool          // bytes arrived with the handshake: read before waiting on the socket

	// Used by the reading goroutine only; the limiters are made with the
	// first message, so that idle clients do not carry them.
	limiter, violations *rate.Limiter
	peek                [pongFrameLen]byte

	lastPong atomic.Int64 // Hub.sinceBorn of the last pong, or of the connection
	validAt  atomic.Int64 // Hub.sinceBorn of the last time Peer.Valid said yes
	closing  atomic.Bool  // the hub is closing: the reader closes with 1001
	revoked  atomic.Bool  // the holder's sign-in ended: the reader closes with 1008

	// Guarded by hub.mu.
	room, role    string
	at, channelAt int

	mu      sync.Mutex
	queue   [][]byte // frames waiting while another is being written
	pending []byte   // the rest of a frame the socket did not take at once
	writing bool     // a goroutine owns the socket's writing side
	dead    bool
}

func (c *client) pong() { c.lastPong.Store(c.hub.sinceBorn()) }

// send writes frame now when the client is idle and its socket takes it,
// else queues it; it reports false when the queue is full. It never waits
// on the socket.
func (c *client) send(frame []byte) bool {
	c.mu.Lock()
	if c.dead {
		c.mu.Unlock()
		return true
	}
	if c.writing {
		if len(c.queue) >= SendQueueLen {
			c.mu.Unlock()
			return false
		}
		c.queue = append(c.queue, frame)
		c.mu.Unlock()
		return true
	}
	c.writing = true
	c.mu.Unlock()

	rest, err := c.raw.writeNow(frame)
	if err != nil {
		c.kill()
		return true
	}
	c.mu.Lock()
	if len(rest) == 0 && len(c.queue) == 0 {
		c.writing = false
		c.mu.Unlock()
		return true
	}
	c.pending = rest
	c.mu.Unlock()
	go c.drain()
	return true
}

// drain writes what waits for the client, waiting on the socket.
func (c *client) drain() {
	for {
		c.mu.Lock()
		var p []byte
		switch {
		case c.dead:
		case len(c.pending) > 0:
			p, c.pending = c.pending, nil
		case len(c.queue) > 0:
			p = c.queue[0]
			c.queue[0] = nil
			c.queue = c.queue[1:]
		}
		if p == nil {
			c.writing = false
			c.queue = nil // let the backing array go while idle
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		if err := c.raw.writeAll(p, WriteTimeout); err != nil {
			c.kill()
		}
	}
}

// kill closes the connection at once, without a close handshake: used for
// clients that cannot keep up or have gone.
func (c *client) kill() {
	c.mu.Lock()
	already := c.dead
	c.dead = true
	c.queue, c.pending = nil, nil
	c.mu.Unlock()
	if !already {
		_ = c.conn.CloseNow() // its only error is a connection already closed
	}
}

// close closes the connection with a close handshake. No frame of the hub
// may follow the close frame, so the client takes no more.
func (c *client) close(code websocket.StatusCode, reason string) {
	c.mu.Lock()
	c.dead = true
	c.queue, c.pending = nil, nil
	c.mu.Unlock()
	c.conn.Close(code, reason)
}

// valid asks Peer.Valid whether the holder still holds the connection's
// identity, unless it said so within revalidateAfter and force is false.
func (c *client) valid(ctx context.Context, force bool) (bool, error) {
	f := c.peer.Valid
	if f == nil {
		return true, nil
	}
	now := c.hub.sinceBorn()
	if !force && now-c.validAt.Load() < int64(revalidateAfter) {
		return true, nil
	}
	vctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	ok, err := f(vctx)
	if ok && err == nil {
		c.validAt.Store(now)
	}
	return ok, err
}

// recheck asks Peer.Valid now and closes the connection of a holder who is
// no longer valid. A failed check keeps it: a database hiccup must not cut
// every client off.
func (c *client) recheck(ctx context.Context) {
	if ok, err := c.valid(ctx, true); err == nil && !ok {
		c.revoke()
	}
}

// revoke closes the connection with 1008 from any goroutine, as goAway
// does with 1001.
func (c *client) revoke() {
	c.revoked.Store(true)
	if c.raw.sc == nil {
		c.close(websocket.StatusPolicyViolation, ReasonRevoked)
		return
	}
	_ = c.raw.SetReadDeadline(time.Now())
}

// goAway closes the connection with 1001. The close handshake reads from
// the connection, so the reading goroutine does it: woken from its wait,
// it closes; without a socket to wait on, the library closes it here. (A
// client caught halfway through sending a message is cut off instead.)
func (c *client) goAway() {
	if c.raw.sc == nil {
		c.close(websocket.StatusGoingAway, "server shutting down")
		return
	}
	c.closing.Store(true)
	// Wakes the reader; it fails only on a closed connection, whose reader
	// is awake already.
	_ = c.raw.SetReadDeadline(time.Now())
}

func (c *client) readLoop() {
	ctx := context.Background()
	for {
		if c.closing.Load() {
			_ = c.raw.SetReadDeadline(time.Time{}) // for the close handshake; closing anyway
			c.close(websocket.StatusGoingAway, "server shutting down")
			return
		}
		if c.revoked.Load() {
			_ = c.raw.SetReadDeadline(time.Time{})
			c.close(websocket.StatusPolicyViolation, ReasonRevoked)
			return
		}
		// Wait outside the library while its buffer is empty (only this
		// goroutine reads it, so this look is safe).
		if c.raw.sc != nil && !c.early && c.br.Buffered() == 0 {
			if err := waitReadable(c.raw.sc, &c.peek, c.pong); err != nil {
				if c.closing.Load() || c.revoked.Load() {
					continue
				}
				return // the connection was closed
			}
		}
		c.early = false
		typ, data, err := c.conn.Read(ctx)
		if err != nil {
			return // the library has answered protocol errors, including 1009 for a frame over the limit
		}
		if c.limiter == nil {
			c.limiter = rate.NewLimiter(MessagesPerSecond, MessageBurst)
			c.violations = rate.NewLimiter(ViolationsPerSecond, MaxRateViolations)
		}
		if !c.limiter.Allow() {
			if !c.violations.Allow() {
				c.close(websocket.StatusPolicyViolation, "rate limit exceeded")
				return
			}
			c.sendError(fmt.Sprintf("rate limit exceeded: at most %d messages per second", MessagesPerSecond))
			continue
		}
		if typ != websocket.MessageText {
			c.sendError("messages must be JSON text frames")
			continue
		}
		// Nothing is taken from a holder whose sign-in has ended.
		if ok, err := c.valid(ctx, false); err != nil {
			c.sendError("your sign-in could not be checked; try again")
			c.hub.opts.Logger.Error("realtime: check the holder's sign-in", "user", c.peer.UserID, "err", err)
			continue
		} else if !ok {
			c.close(websocket.StatusPolicyViolation, ReasonRevoked)
			return
		}
		if err := c.handle(ctx, data); err != nil {
			c.sendError(apperr.Message(err))
			var ae *apperr.Error
			if !errors.As(err, &ae) {
				c.hub.opts.Logger.Error("realtime: handle message", "user", c.peer.UserID, "err", err)
			}
		}
	}
}

func (c *client) sendError(msg string) {
	b, _ := json.Marshal(ErrorPayload{Message: msg})
	c.reply(Message{Type: TypeError, Payload: b})
}

// reply queues a message to this client alone. A reply that does not fit
// is dropped: a client flooding bad messages fills its queue with its own
// error replies and should lose those, not the connection.
func (c *client) reply(m Message) {
	m.Timestamp = c.hub.opts.Now().UTC()
	if b, err := json.Marshal(m); err == nil {
		c.send(textFrame(b))
	}
}

func (c *client) handle(ctx context.Context, data []byte) error {
	var in Message
	if err := json.Unmarshal(data, &in); err != nil {
		return apperr.Invalid("malformed JSON: %v", err)
	}
	out := Message{Type: in.Type, SessionID: in.SessionID, UserID: c.peer.UserID, Timestamp: c.hub.opts.Now().UTC()}
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
		c.reply(Message{Type: TypeLeft, SessionID: id})
		return nil

	case TypeWatchLive:
		f := c.hub.opts.AuthorizeWatch
		if f == nil {
			return apperr.Forbidden("nobody watches running sessions here")
		}
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err := f(actx, c.peer)
		cancel()
		if err != nil {
			return err
		}
		c.hub.watch(c)
		c.reply(Message{Type: TypeWatching})
		return nil

	case TypeWatchEquipment:
		// The twins are public, as GET /api/digital-twin/equipment is.
		c.hub.watchEquipment(c)
		c.reply(Message{Type: TypeWatchingEquipment})
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

	case TypeXRSessionUpdate, TypeCollaborationUpdate:
		var p interface{ Validate() error } = &XRSessionUpdatePayload{}
		if in.Type == TypeCollaborationUpdate {
			p = &CollaborationPayload{}
		}
		if err := decodePayload(in.Payload, p); err != nil {
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
		return apperr.Invalid("unknown message type %q; want xr_session_update, safety_alert, collaboration_update, join, leave, watch_live or watch_equipment", in.Type)
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
	c.reply(Message{Type: TypeJoined, SessionID: sessionID, Payload: b})
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
