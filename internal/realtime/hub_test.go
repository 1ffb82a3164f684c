package realtime

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"journeyman/internal/apperr"
	"journeyman/internal/gather"
)

// testServer serves a hub at /ws on the product's listener (internal/gather);
// the learner id is the "user" query value.
func testServer(t *testing.T, opts Options) (*Hub, *httptest.Server) {
	t.Helper()
	h := NewHub(opts)
	srv := httptest.NewUnstartedServer(h.Handler(func(r *http.Request) (Peer, int, string) {
		u := r.URL.Query().Get("user")
		if u == "" {
			return Peer{}, http.StatusUnauthorized, "no user"
		}
		return Peer{UserID: u, Channel: r.URL.Query().Get("channel")}, 0, ""
	}))
	srv.Listener = gather.Listener(srv.Listener)
	srv.Config.ConnContext = gather.ConnContext
	srv.Start()
	t.Cleanup(func() {
		h.Close()
		srv.Close()
	})
	return h, srv
}

func dial(t *testing.T, srv *httptest.Server, user string) *websocket.Conn {
	t.Helper()
	c, err := dialErr(srv, user, nil)
	if err != nil {
		t.Fatalf("dial as %s: %v", user, err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func dialErr(srv *httptest.Server, user string, header http.Header) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/?user="+user, &websocket.DialOptions{HTTPHeader: header})
	if c != nil {
		c.SetReadLimit(1 << 20)
	}
	return c, err
}

func send(t *testing.T, c *websocket.Conn, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatalf("write: %v", err)
	}
}

func read(t *testing.T, c *websocket.Conn) Message {
	t.Helper()
	// Generous: under -race with the other packages' tests alongside, 60 clients'
	// presence traffic has taken more than 5 s to drain on this 2-core machine.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var m Message
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return m
}

// readType reads until a message of type typ arrives, skipping presence.
func readType(t *testing.T, c *websocket.Conn, typ string) Message {
	t.Helper()
	for {
		m := read(t, c)
		if m.Type == typ {
			return m
		}
		if m.Type != TypePresence {
			t.Fatalf("got %s %s; want %s", m.Type, m.Payload, typ)
		}
	}
}

func errorText(m Message) string {
	var p ErrorPayload
	_ = json.Unmarshal(m.Payload, &p)
	return p.Message
}

func join(t *testing.T, c *websocket.Conn, session, role string) {
	t.Helper()
	send(t, c, map[string]any{"type": TypeJoin, "sessionId": session, "payload": map[string]string{"role": role}})
	if m := readType(t, c, TypeJoined); m.SessionID != session {
		t.Fatalf("joined %s; want %s", m.SessionID, session)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func closeStatus(t *testing.T, c *websocket.Conn) websocket.StatusCode {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		if _, _, err := c.Read(ctx); err != nil {
			t.Logf("read ended: %v", err)
			return websocket.CloseStatus(err)
		}
	}
}

func TestSafetyAlertFanOut(t *testing.T) {
	var stored atomic.Int32
	h, srv := testServer(t, Options{
		OnSafetyAlert: func(ctx context.Context, from Peer, a SafetyAlertPayload, sessionID string) (Message, error) {
			stored.Add(1)
			b, _ := json.Marshal(map[string]any{"id": "alert-1", "alertType": a.AlertType, "description": a.Description})
			return Message{Type: TypeSafetyAlert, SessionID: sessionID, UserID: from.UserID, Payload: b, Timestamp: time.Now()}, nil
		},
	})
	const n = 60
	conns := make([]*websocket.Conn, n)
	for i := range conns {
		conns[i] = dial(t, srv, fmt.Sprintf("learner-%d", i))
	}
	// A dial returns on the server's 101, before the hub holds the client:
	// an alert sent sooner would not be for the last ones.
	waitFor(t, "every client in the hub", func() bool { return h.Connections() == n })
	// A room member gets the alert too, though it is for another session.
	join(t, conns[1], "other-session", RoleObserver)

	send(t, conns[0], Message{Type: TypeSafetyAlert, SessionID: "s-1", UserID: "forged", Payload: json.RawMessage(`{"alertType":"emergency","description":"Emergency stop requested"}`)})
	var wg sync.WaitGroup
	for i, c := range conns {
		wg.Go(func() {
			m := readType(t, c, TypeSafetyAlert)
			var p struct{ ID, AlertType, Description string }
			_ = json.Unmarshal(m.Payload, &p)
			if p.Description != "Emergency stop requested" || p.AlertType != "emergency" || p.ID != "alert-1" || m.UserID != "learner-0" || m.SessionID != "s-1" {
				t.Errorf("client %d got %+v / %s", i, m, m.Payload)
			}
		})
	}
	wg.Wait()
	if stored.Load() != 1 {
		t.Errorf("OnSafetyAlert called %d times; want 1", stored.Load())
	}
}

func TestSafetyAlertValidation(t *testing.T) {
	failing := errors.New("database down")
	_, srv := testServer(t, Options{OnSafetyAlert: func(context.Context, Peer, SafetyAlertPayload, string) (Message, error) {
		return Message{}, failing
	}})
	c := dial(t, srv, "a")
	for _, tc := range []struct{ name, payload, want string }{
		{"ErrAlertType", `{"alertType":"fire","description":"x"}`, "alertType must be one of emergency, help, equipment, general"},
		{"ErrEmptyDescription", `{"alertType":"help","description":"  "}`, "description must be 1 to 500 characters"},
		{"ErrLongDescription", `{"alertType":"help","description":"` + strings.Repeat("x", 501) + `"}`, "description must be 1 to 500 characters"},
		{"ErrPayloadShape", `["help"]`, "malformed payload"},
		{"ErrStoreFails", `{"alertType":"help","description":"Need assistance"}`, "internal error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			send(t, c, map[string]any{"type": TypeSafetyAlert, "payload": json.RawMessage(tc.payload)})
			if got := errorText(readType(t, c, TypeError)); !strings.Contains(got, tc.want) {
				t.Errorf("error %q; want %q", got, tc.want)
			}
		})
	}
}

func TestRoomsAndObservers(t *testing.T) {
	h, srv := testServer(t, Options{})
	trainee := dial(t, srv, "trainee")
	watcher := dial(t, srv, "watcher")
	elsewhere := dial(t, srv, "elsewhere")
	join(t, trainee, "s-1", RoleParticipant)
	join(t, watcher, "s-1", RoleObserver)
	join(t, elsewhere, "s-2", RoleParticipant)

	rooms := h.Rooms()
	if len(rooms) != 2 || rooms[0].SessionID != "s-1" || rooms[0].Participants != 1 || rooms[0].Observers != 1 || rooms[0].UserIDs[0] != "trainee" || rooms[1].SessionID != "s-2" {
		t.Fatalf("Rooms() = %+v", rooms)
	}

	send(t, trainee, map[string]any{"type": TypeXRSessionUpdate, "sessionId": "s-1", "payload": map[string]any{"position": Vec3{1, 1.6, -2}, "interactions": []any{map[string]any{"action": "click", "objectId": "panel"}}}})
	for name, c := range map[string]*websocket.Conn{"trainee": trainee, "watcher": watcher} {
		m := readType(t, c, TypeXRSessionUpdate)
		if m.UserID != "trainee" || !strings.Contains(string(m.Payload), `"objectId":"panel"`) {
			t.Errorf("%s got %+v %s", name, m, m.Payload)
		}
	}
	// Rotations reach the room in the form they were sent.
	for _, rotation := range []string{`{"x":0,"y":1.5,"z":0}`, `{"x":0,"y":0,"z":0,"w":1}`} {
		send(t, trainee, map[string]any{"type": TypeXRSessionUpdate, "sessionId": "s-1", "payload": map[string]any{"rotation": json.RawMessage(rotation)}})
		for name, c := range map[string]*websocket.Conn{"trainee": trainee, "watcher": watcher} {
			if m := readType(t, c, TypeXRSessionUpdate); !strings.Contains(string(m.Payload), `"rotation":`+rotation) {
				t.Errorf("%s got rotation %s, sent %s", name, m.Payload, rotation)
			}
		}
	}

	// An observer may watch but not drive the session.
	send(t, watcher, map[string]any{"type": TypeCollaborationUpdate, "sessionId": "s-1", "payload": map[string]any{"action": "highlight"}})
	if got := errorText(readType(t, watcher, TypeError)); !strings.Contains(got, "observers cannot send") {
		t.Errorf("observer error %q", got)
	}

	// A collaboration update reaches the room and not the other room.
	send(t, trainee, map[string]any{"type": TypeCollaborationUpdate, "sessionId": "s-1", "payload": map[string]any{"action": "highlight", "data": map[string]string{"objectId": "disconnect"}}})
	readType(t, watcher, TypeCollaborationUpdate)
	readType(t, trainee, TypeCollaborationUpdate) // members, the sender included, see one stream
	send(t, elsewhere, map[string]any{"type": TypeCollaborationUpdate, "sessionId": "s-2", "payload": map[string]any{"action": "ping"}})
	if m := readType(t, elsewhere, TypeCollaborationUpdate); m.SessionID != "s-2" {
		t.Errorf("elsewhere got %+v", m)
	}
	// The watcher's next message is a presence change, not s-2's update.
	watcher.CloseNow()
	waitFor(t, "the observer to leave", func() bool { r := h.Rooms(); return len(r) == 2 && r[0].Observers == 0 })
	if m := readType(t, trainee, TypePresence); !strings.Contains(string(m.Payload), `"observers":0`) {
		t.Errorf("presence %s", m.Payload)
	}

	// Sending to another session moves the sender there; leaving empties it.
	send(t, elsewhere, map[string]any{"type": TypeXRSessionUpdate, "sessionId": "s-3", "payload": map[string]any{}})
	readType(t, elsewhere, TypeJoined)
	readType(t, elsewhere, TypeXRSessionUpdate)
	send(t, elsewhere, map[string]any{"type": TypeLeave})
	readType(t, elsewhere, TypeLeft)
	waitFor(t, "rooms to settle", func() bool { r := h.Rooms(); return len(r) == 1 && r[0].SessionID == "s-1" })
}

func TestAuthorizeJoin(t *testing.T) {
	_, srv := testServer(t, Options{AuthorizeJoin: func(_ context.Context, who Peer, session, role string) error {
		if role == RoleParticipant && who.UserID != "owner" {
			return apperr.Forbidden("only the session's learner may take part")
		}
		return nil
	}})
	c := dial(t, srv, "stranger")
	send(t, c, map[string]any{"type": TypeJoin, "sessionId": "s-1"})
	if got := errorText(readType(t, c, TypeError)); got != "only the session's learner may take part" {
		t.Errorf("got %q", got)
	}
	join(t, c, "s-1", RoleObserver)
}

func TestMalformedJSONKeepsConnection(t *testing.T) {
	_, srv := testServer(t, Options{})
	c := dial(t, srv, "a")
	for _, tc := range []struct{ name, frame, want string }{
		{"Garbage", `{"type":`, "malformed JSON"},
		{"NotAnObject", `[1,2]`, "malformed JSON"},
		{"NoType", `{}`, "type is required"},
		{"UnknownType", `{"type":"teleport"}`, `unknown message type "teleport"`},
		{"BadRole", `{"type":"join","sessionId":"s","payload":{"role":"boss"}}`, "role must be one of participant, observer"},
		{"NoSession", `{"type":"xr_session_update","payload":{}}`, "sessionId must be 1 to 64"},
		{"BadPosition", `{"type":"xr_session_update","sessionId":"s","payload":{"position":{"x":1e9,"y":0,"z":0}}}`, "position and rotation"},
		{"NoAction", `{"type":"collaboration_update","sessionId":"s","payload":{}}`, "action must be 1 to 64"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			if err := c.Write(ctx, websocket.MessageText, []byte(tc.frame)); err != nil {
				t.Fatal(err)
			}
			if got := errorText(readType(t, c, TypeError)); !strings.Contains(got, tc.want) {
				t.Errorf("error %q; want %q", got, tc.want)
			}
		})
	}
	join(t, c, "still-here", RoleParticipant)
}

func TestFrameOverLimitCloses1009(t *testing.T) {
	_, srv := testServer(t, Options{})
	c := dial(t, srv, "a")
	big := `{"type":"collaboration_update","sessionId":"s","payload":{"action":"a","data":"` + strings.Repeat("x", MaxMessageBytes) + `"}}`
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = c.Write(ctx, websocket.MessageText, []byte(big))
	if got := closeStatus(t, c); got != websocket.StatusMessageTooBig {
		t.Errorf("close status %v; want 1009", got)
	}
}

func TestRateLimit(t *testing.T) {
	_, srv := testServer(t, Options{})
	t.Run("OverRateGetsError", func(t *testing.T) {
		c := dial(t, srv, "a")
		// Sent in batches that fit the reply queue, each without waiting
		// for replies, so that however slow the machine the messages
		// arrive faster than the bucket refills.
		const batch = SendQueueLen / 2
		limited := 0
		const total = MessageBurst + 10 // 10 over the burst: refused, but too few to close
		for sent := 0; sent < total; sent += batch {
			k := min(batch, total-sent)
			for range k {
				send(t, c, map[string]any{"type": "noise"})
			}
			for range k {
				if strings.Contains(errorText(readType(t, c, TypeError)), "rate limit exceeded") {
					limited++
				}
			}
		}
		if limited == 0 {
			t.Fatalf("%d messages at once were all accepted", MessageBurst+10)
		}
		time.Sleep(200 * time.Millisecond) // slowing down refills the bucket
		join(t, c, "after-limit", RoleObserver)
	})
	t.Run("SustainedAbuseCloses1008", func(t *testing.T) {
		c := dial(t, srv, "b")
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			for range MessageBurst + MaxRateViolations + 50 {
				if c.Write(ctx, websocket.MessageText, []byte(`{"type":"noise"}`)) != nil {
					return
				}
			}
		}()
		if got := closeStatus(t, c); got != websocket.StatusPolicyViolation {
			t.Errorf("close status %v; want 1008", got)
		}
	})
}

func TestOrigin(t *testing.T) {
	_, srv := testServer(t, Options{OriginPatterns: []string{"trusted.example"}})
	for _, tc := range []struct {
		name, origin string
		ok           bool
	}{
		{"SameHost", srv.URL, true},
		{"NoOrigin", "", true}, // not a browser: nothing to forge
		{"Configured", "https://trusted.example", true},
		{"Foreign", "https://evil.example", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			if tc.origin != "" {
				h.Set("Origin", tc.origin)
			}
			c, err := dialErr(srv, "a", h)
			if c != nil {
				c.CloseNow()
			}
			if (err == nil) != tc.ok {
				t.Errorf("dial from %q: err %v; want ok=%v", tc.origin, err, tc.ok)
			}
		})
	}
}

func TestRefusals(t *testing.T) {
	h, srv := testServer(t, Options{MaxConnections: 2})
	t.Run("Unauthenticated", func(t *testing.T) {
		resp, err := http.Get(srv.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("status %d; want 401", resp.StatusCode)
		}
	})
	t.Run("ConnectionCap", func(t *testing.T) {
		dial(t, srv, "a")
		dial(t, srv, "b")
		waitFor(t, "two connections", func() bool { return h.Connections() == 2 })
		_, err := dialErr(srv, "c", nil)
		if err == nil || !strings.Contains(err.Error(), "503") {
			t.Errorf("third connection: %v; want a 503", err)
		}
	})
}

// A client that never reads fills its send queue and is dropped; Deliver
// never waits for it, and a client that reads gets every message. The test
// paces delivery to the fast reader (never more than a few messages ahead),
// so it holds however slow the machine is; the one time bound is the write
// timeout, which a hub that waited on the slow client's writes would hit.
func TestSlowClientDoesNotHoldUpOthers(t *testing.T) {
	h, srv := testServer(t, Options{})
	slow := dial(t, srv, "slow") // never reads
	fast := dial(t, srv, "fast")
	waitFor(t, "two connections", func() bool { return h.Connections() == 2 })

	const n = 400
	payload, _ := json.Marshal(map[string]string{"description": strings.Repeat("x", 32<<10)})
	var got atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		for got.Load() < n {
			if _, _, err := fast.Read(ctx); err != nil {
				return
			}
			got.Add(1)
		}
	}()
	var slowest time.Duration
	for i := range n {
		for int64(i)-got.Load() > SendQueueLen/4 {
			time.Sleep(100 * time.Microsecond)
		}
		start := time.Now()
		h.Deliver(Message{Type: TypeSafetyAlert, Payload: payload})
		slowest = max(slowest, time.Since(start))
	}
	<-done
	if got.Load() != n {
		t.Errorf("fast client received %d of %d messages", got.Load(), n)
	}
	if slowest >= WriteTimeout {
		t.Errorf("one Deliver took %v: it waited on the slow client", slowest)
	}
	waitFor(t, "the slow client to be dropped", func() bool { return h.Connections() == 1 })
	_ = slow
}

func TestKeepalive(t *testing.T) {
	// The pong timeout leaves room for a loaded machine; the answering
	// client must survive several pings.
	h, srv := testServer(t, Options{PingInterval: 50 * time.Millisecond, PongTimeout: time.Second})
	live := dial(t, srv, "live")
	live.CloseRead(context.Background()) // reads, so it answers pings
	dial(t, srv, "gone")                 // never reads, so pongs never come
	waitFor(t, "the silent client to be closed", func() bool { return h.Connections() == 1 })
	time.Sleep(1500 * time.Millisecond)
	if h.Connections() != 1 {
		t.Errorf("%d connections; the answering client should stay", h.Connections())
	}
}

func TestPublishCarriesMessages(t *testing.T) {
	// Two hubs stand for two processes; Publish is the bus between them.
	var hubs []*Hub
	var mu sync.Mutex
	publish := func(_ context.Context, m Message) error {
		mu.Lock()
		defer mu.Unlock()
		for _, h := range hubs {
			h.Deliver(m)
		}
		return nil
	}
	h1, srv1 := testServer(t, Options{Publish: publish})
	h2, srv2 := testServer(t, Options{Publish: publish})
	hubs = []*Hub{h1, h2}
	a := dial(t, srv1, "a")
	b := dial(t, srv2, "b")
	waitFor(t, "both connections", func() bool { return h1.Connections() == 1 && h2.Connections() == 1 })
	send(t, a, map[string]any{"type": TypeSafetyAlert, "payload": map[string]string{"alertType": "help", "description": "Need assistance"}})
	if m := readType(t, b, TypeSafetyAlert); m.UserID != "a" || !strings.Contains(string(m.Payload), "Need assistance") {
		t.Errorf("b got %+v %s", m, m.Payload)
	}
	readType(t, a, TypeSafetyAlert)
}

// A client may send its first frame right behind the handshake, before the
// 101 arrives: the frame must survive the switch to the hub's own buffers.
// TestClientsReachTheirSocket: behind the product's listener the hub still
// reaches each socket, to write without waiting and to park idle readers
// on it (else every broadcast spawns a goroutine per client).
func TestClientsReachTheirSocket(t *testing.T) {
	h, srv := testServer(t, Options{})
	dial(t, srv, "a")
	dial(t, srv, "b")
	waitFor(t, "two clients", func() bool { return h.Connections() == 2 })
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, c := range h.all {
		if c.raw.sc == nil {
			t.Errorf("client %s writes through a goroutine: its connection (%T) does not reach the socket", c.peer.UserID, c.raw.Conn)
		}
	}
}

func TestFrameSentWithHandshakeIsRead(t *testing.T) {
	_, srv := testServer(t, Options{})
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	payload := []byte(`{"type":"noise"}`)
	mask := []byte{1, 2, 3, 4}
	frame := append([]byte{0x81, 0x80 | byte(len(payload))}, mask...)
	for i, b := range payload {
		frame = append(frame, b^mask[i%4])
	}
	req := "GET /?user=early HTTP/1.1\r\nHost: " + strings.TrimPrefix(srv.URL, "http://") + "\r\n" +
		"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	if _, err := conn.Write(append([]byte(req), frame...)); err != nil {
		t.Fatal(err)
	}
	if err := conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	var got []byte
	buf := make([]byte, 4096)
	for !strings.Contains(string(got), "unknown message type") {
		n, err := conn.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			t.Fatalf("read %q: %v; want the 101 and an error reply to the early frame", got, err)
		}
	}
	if !strings.HasPrefix(string(got), "HTTP/1.1 101") {
		t.Fatalf("response %q", got)
	}
}

// TestAlertChannels: a safety alert of one channel reaches the peers of that
// channel only; a message without a channel reaches everyone.
func TestAlertChannels(t *testing.T) {
	h, srv := testServer(t, Options{})
	a1 := dial(t, srv, "a1&channel=org:a")
	a2 := dial(t, srv, "a2&channel=org:a")
	b1 := dial(t, srv, "b1&channel=org:b")
	waitFor(t, "three connections", func() bool { return h.Connections() == 3 })
	h.Deliver(Message{Type: TypeSafetyAlert, Payload: json.RawMessage(`{"description":"for a"}`), Channel: "org:a"})
	h.Deliver(Message{Type: TypeSafetyAlert, Payload: json.RawMessage(`{"description":"for all"}`)})
	for _, c := range []*websocket.Conn{a1, a2} {
		if m := readType(t, c, TypeSafetyAlert); !strings.Contains(string(m.Payload), "for a") {
			t.Fatalf("org a peer got %s first; want its channel's alert", m.Payload)
		}
	}
	if m := readType(t, b1, TypeSafetyAlert); !strings.Contains(string(m.Payload), "for all") {
		t.Fatalf("org b peer got %s; want only the alert without a channel", m.Payload)
	}
}

// readPayload reads the next message and returns its payload's text.
func readPayload(t *testing.T, c *websocket.Conn) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return string(b)
}

func TestBroadcastToChannel(t *testing.T) {
	h, srv := testServer(t, Options{})
	conns := map[string]*websocket.Conn{}
	for _, name := range []string{"a1:org-1", "a2:org-1", "a3:org-1", "a4:org-1", "b:org-2", "demo:demo", "none:"} {
		user, channel, _ := strings.Cut(name, ":")
		conns[user] = dial(t, srv, user+"&channel="+channel)
	}
	waitFor(t, "seven connections", func() bool { return h.Connections() == 7 })
	// Removals move clients inside the hub's lists: the lists must stay whole.
	conns["a1"].Close(websocket.StatusNormalClosure, "")
	conns["a3"].Close(websocket.StatusNormalClosure, "")
	delete(conns, "a1")
	delete(conns, "a3")
	waitFor(t, "five connections", func() bool { return h.Connections() == 5 })

	h.Broadcast("org-1", []byte(`"to org-1"`))
	h.Broadcast("nobody", []byte(`"to nobody"`))
	h.Broadcast("", []byte(`"to everyone"`))
	want := map[string][]string{
		"a2":   {`"to org-1"`, `"to everyone"`},
		"a4":   {`"to org-1"`, `"to everyone"`},
		"b":    {`"to everyone"`},
		"demo": {`"to everyone"`},
		"none": {`"to everyone"`},
	}
	for user, msgs := range want {
		for _, m := range msgs {
			if got := readPayload(t, conns[user]); got != m {
				t.Errorf("%s got %s; want %s", user, got, m)
			}
		}
	}
}

// Every length class of a frame's header reaches the client intact.
func TestFrameLengths(t *testing.T) {
	h, srv := testServer(t, Options{})
	c := dial(t, srv, "reader")
	waitFor(t, "the connection", func() bool { return h.Connections() == 1 })
	for _, n := range []int{0, 1, 125, 126, 1000, 65535, 65536, 200_000} {
		payload := `"` + strings.Repeat("x", n) + `"`
		h.Broadcast("", []byte(payload))
		if got := readPayload(t, c); got != payload {
			t.Errorf("payload of %d bytes arrived as %d bytes", len(payload), len(got))
		}
	}
}

// With several cores a broadcast is split among goroutines; each client
// still gets it once.
func TestBroadcastSplitAmongCores(t *testing.T) {
	defer func(chunk, procs int) { fanOutChunk = chunk; runtime.GOMAXPROCS(procs) }(fanOutChunk, runtime.GOMAXPROCS(4))
	fanOutChunk = 2
	h, srv := testServer(t, Options{})
	var conns []*websocket.Conn
	for i := range 9 {
		conns = append(conns, dial(t, srv, fmt.Sprintf("u%d", i)))
	}
	waitFor(t, "nine connections", func() bool { return h.Connections() == 9 })
	h.Broadcast("", []byte(`"one"`))
	h.Broadcast("", []byte(`"two"`))
	for i, c := range conns {
		for _, want := range []string{`"one"`, `"two"`} {
			if got := readPayload(t, c); got != want {
				t.Errorf("client %d got %s; want %s", i, got, want)
			}
		}
	}
}

// An idle client's pong is taken off the socket by the hub itself; a
// message right behind it in the same segment must still be read.
func TestPongThenMessageInOneSegment(t *testing.T) {
	_, srv := testServer(t, Options{})
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req := "GET /?user=raw HTTP/1.1\r\nHost: " + strings.TrimPrefix(srv.URL, "http://") + "\r\n" +
		"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
	if _, err := conn.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	if err := conn.SetReadDeadline(time.Now().Add(5 * time.Second)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil || res.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("upgrade: %v %v", res, err)
	}
	time.Sleep(50 * time.Millisecond) // the server's reader is waiting on the socket
	pong := []byte{0x8A, 0x80, 0, 0, 0, 0}
	payload := []byte(`{"type":"noise"}`)
	frame := append([]byte{0x81, 0x80 | byte(len(payload)), 0, 0, 0, 0}, payload...)
	if _, err := conn.Write(append(append(pong, pong...), frame...)); err != nil {
		t.Fatal(err)
	}
	var got []byte
	buf := make([]byte, 4096)
	for !strings.Contains(string(got), "unknown message type") {
		n, err := br.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			t.Fatalf("read %q: %v; want an error reply to the message behind the pongs", got, err)
		}
	}
}

func TestMaxConnectionsWithinOpenFileLimit(t *testing.T) {
	limit := openFileLimit()
	h := NewHub(Options{MaxConnections: 1 << 30})
	defer h.Close()
	got := h.MaxConnections()
	if limit > 0 && (got >= limit || got < 1) || limit == 0 && got != 1<<30 {
		t.Errorf("MaxConnections() = %d with an open-file limit of %d", got, limit)
	}
}

// Watchers: only peers AuthorizeWatch admits watch, a live_session reaches
// the watchers of its channel only, and a closed watcher stops counting.
func TestWatchLive(t *testing.T) {
	t.Run("nobody watches without AuthorizeWatch", func(t *testing.T) {
		_, srv := testServer(t, Options{})
		c := dial(t, srv, "a&channel=org:a")
		send(t, c, Message{Type: TypeWatchLive})
		if m := readType(t, c, TypeError); !strings.Contains(errorText(m), "nobody watches") {
			t.Fatalf("error = %s", errorText(m))
		}
	})

	h, srv := testServer(t, Options{AuthorizeWatch: func(_ context.Context, who Peer) error {
		if !strings.HasPrefix(who.UserID, "staff") {
			return apperr.Forbidden("staff only")
		}
		return nil
	}})
	staffA := dial(t, srv, "staff-a&channel=org:a")
	staffB := dial(t, srv, "staff-b&channel=org:b")
	learnerA := dial(t, srv, "learner-a&channel=org:a")
	waitFor(t, "three connections", func() bool { return h.Connections() == 3 })

	send(t, learnerA, Message{Type: TypeWatchLive})
	if m := readType(t, learnerA, TypeError); errorText(m) != "staff only" {
		t.Fatalf("learner's watch: %s", errorText(m))
	}
	for _, c := range []*websocket.Conn{staffA, staffB} {
		send(t, c, Message{Type: TypeWatchLive})
		readType(t, c, TypeWatching)
	}
	if !h.Watched("org:a") || !h.Watched("org:b") || h.Watched("org:c") {
		t.Fatal("Watched does not follow the watchers")
	}

	h.Deliver(Message{Type: TypeLiveSession, SessionID: "s1", Payload: json.RawMessage(`"a's session"`), Channel: "org:a"})
	h.Deliver(Message{Type: TypeLiveSession, SessionID: "s2", Payload: json.RawMessage(`"b's session"`), Channel: "org:b"})
	if m := readType(t, staffA, TypeLiveSession); string(m.Payload) != `"a's session"` {
		t.Fatalf("org a's watcher got %s", m.Payload)
	}
	if m := readType(t, staffB, TypeLiveSession); string(m.Payload) != `"b's session"` {
		t.Fatalf("org b's watcher got %s first", m.Payload)
	}
	// The learner of org a is not a watcher: the next thing it reads is an
	// alert delivered after the live sessions.
	h.Deliver(Message{Type: TypeSafetyAlertAck, SessionID: "s1", Payload: json.RawMessage(`"acknowledged"`), Channel: "org:a"})
	if m := readType(t, learnerA, TypeSafetyAlertAck); string(m.Payload) != `"acknowledged"` {
		t.Fatalf("org a's learner got %s", m.Payload)
	}

	staffB.Close(websocket.StatusNormalClosure, "")
	waitFor(t, "org b's watcher gone", func() bool { return !h.Watched("org:b") })
}

// validityServer serves a hub whose peers are valid while signedIn[user]
// holds, and whose check fails while broken holds.
func validityServer(t *testing.T, opts Options, signedIn map[string]*atomic.Bool, broken *atomic.Bool) (*Hub, *httptest.Server) {
	t.Helper()
	opts.Logger = slog.New(slog.DiscardHandler)
	h := NewHub(opts)
	srv := httptest.NewServer(h.Handler(func(r *http.Request) (Peer, int, string) {
		u := r.URL.Query().Get("user")
		return Peer{UserID: u, Valid: func(context.Context) (bool, error) {
			if broken.Load() {
				return false, errors.New("database unreachable")
			}
			return signedIn[u].Load(), nil
		}}, 0, ""
	}))
	t.Cleanup(func() {
		h.Close()
		srv.Close()
	})
	return h, srv
}

func TestHolderValidity(t *testing.T) {
	after := revalidateAfter
	revalidateAfter = 0 // every message asks
	t.Cleanup(func() { revalidateAfter = after })
	watch := Message{Type: TypeWatchEquipment}
	for _, tc := range []struct {
		name string
		// end ends ada's sign-in as the case does; it returns once the
		// hub may act on it.
		end func(t *testing.T, h *Hub, ada *websocket.Conn)
	}{
		{"Revalidate", func(t *testing.T, h *Hub, _ *websocket.Conn) { h.Revalidate(context.Background(), "ada") }},
		{"NextMessage", func(t *testing.T, _ *Hub, ada *websocket.Conn) { send(t, ada, watch) }},
		{"KeepaliveRound", func(*testing.T, *Hub, *websocket.Conn) {}}, // the 50 ms rounds find it
	} {
		t.Run(tc.name, func(t *testing.T) {
			signedIn := map[string]*atomic.Bool{"ada": new(atomic.Bool), "bob": new(atomic.Bool)}
			signedIn["ada"].Store(true)
			signedIn["bob"].Store(true)
			interval := time.Hour
			if tc.name == "KeepaliveRound" {
				interval = 50 * time.Millisecond
			}
			h, srv := validityServer(t, Options{PingInterval: interval, PongTimeout: time.Second}, signedIn, new(atomic.Bool))
			ada, bob := dial(t, srv, "ada"), dial(t, srv, "bob")
			bob.CloseRead(context.Background()) // reads, so it answers pings
			waitFor(t, "both connections", func() bool { return h.Connections() == 2 })
			send(t, ada, watch)
			readType(t, ada, TypeWatchingEquipment)

			signedIn["ada"].Store(false)
			tc.end(t, h, ada)
			if got := closeStatus(t, ada); got != websocket.StatusPolicyViolation {
				t.Fatalf("ada's connection closed with %d; want 1008", got)
			}
			waitFor(t, "ada's connection to go", func() bool { return h.Connections() == 1 })
			time.Sleep(200 * time.Millisecond)
			if h.Connections() != 1 {
				t.Error("bob's connection, still signed in, was closed too")
			}
		})
	}

	t.Run("FailedCheckKeepsTheConnection", func(t *testing.T) {
		signedIn := map[string]*atomic.Bool{"ada": new(atomic.Bool)}
		signedIn["ada"].Store(true)
		broken := new(atomic.Bool)
		h, srv := validityServer(t, Options{PingInterval: 50 * time.Millisecond, PongTimeout: time.Second}, signedIn, broken)
		ada := dial(t, srv, "ada")
		waitFor(t, "the connection", func() bool { return h.Connections() == 1 })
		broken.Store(true)
		h.Revalidate(context.Background(), "ada")
		send(t, ada, Message{Type: TypeWatchEquipment})
		if m := readType(t, ada, TypeError); !strings.Contains(errorText(m), "could not be checked") {
			t.Fatalf("error %q", errorText(m))
		}
		time.Sleep(200 * time.Millisecond) // keepalive rounds run their checks too
		broken.Store(false)
		send(t, ada, Message{Type: TypeWatchEquipment})
		readType(t, ada, TypeWatchingEquipment)
	})
}
