package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"journeyman/internal/realtime"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

func serveHTTP(t *testing.T, s *Server) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(s)
	servedBy.Store(srv, s)
	t.Cleanup(func() {
		s.CloseRealtime()
		srv.Close()
	})
	return srv
}

// servedBy maps a test HTTP server to the Server behind it.
var servedBy sync.Map

func wsDial(srv *httptest.Server, user, origin string) (*websocket.Conn, *http.Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	h := http.Header{}
	switch user {
	case "":
	case "forged":
		h.Set("Cookie", GuestCookie+"="+strings.Repeat("A", 64))
	default:
		s, _ := servedBy.Load(srv)
		req := as(nil, s.(*Server), httptest.NewRequest("GET", "/ws", nil), user)
		h.Set("Cookie", req.Header.Get("Cookie"))
	}
	if origin != "" {
		h.Set("Origin", origin)
	}
	return websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/ws", &websocket.DialOptions{HTTPHeader: h})
}

func mustDial(t *testing.T, srv *httptest.Server, user string) *websocket.Conn {
	t.Helper()
	c, _, err := wsDial(srv, user, srv.URL) // a browser on the page's own origin
	if err != nil {
		t.Fatalf("dial as %s: %v", user, err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// waitConns waits until the hub has registered n connections: the client's
// handshake can complete a moment before the server counts it.
func waitConns(t *testing.T, s *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for s.hub.Connections() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections registered, want %d", s.hub.Connections(), n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func wsSend(t *testing.T, c *websocket.Conn, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatalf("write: %v", err)
	}
}

// wsRead reads until a message of type typ arrives, skipping presence; any
// other message fails the test.
func wsRead(t *testing.T, c *websocket.Conn, typ string) realtime.Message {
	t.Helper()
	return wsReadUntil(t, c, typ, func(m realtime.Message) bool { return m.Type == realtime.TypePresence })
}

// wsNext reads until a message of type typ arrives, skipping any other.
func wsNext(t *testing.T, c *websocket.Conn, typ string) realtime.Message {
	t.Helper()
	return wsReadUntil(t, c, typ, func(realtime.Message) bool { return true })
}

func wsReadUntil(t *testing.T, c *websocket.Conn, typ string, skip func(realtime.Message) bool) realtime.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("read waiting for %s: %v", typ, err)
		}
		var m realtime.Message
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("decode %s: %v", b, err)
		}
		if m.Type == typ {
			return m
		}
		if !skip(m) {
			t.Fatalf("got %s %s; want %s", m.Type, m.Payload, typ)
		}
	}
}

func alertOf(t *testing.T, m realtime.Message) realtime.SafetyAlert {
	t.Helper()
	var a realtime.SafetyAlert
	if err := json.Unmarshal(m.Payload, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

func errorOf(m realtime.Message) string {
	var p realtime.ErrorPayload
	_ = json.Unmarshal(m.Payload, &p)
	return p.Message
}

func TestWSRefusals(t *testing.T) {
	srv := serveHTTP(t, MustOpenXRServer(t, storetest.OpenSQLite(t)))
	tests := []struct {
		name, user, origin string
		status             int
	}{
		{"ErrNoCookie", "", "", http.StatusUnauthorized},
		{"ErrForgedCookie", "forged", "", http.StatusUnauthorized},
		{"ErrForeignOrigin", alice, "https://attacker.example", http.StatusForbidden},
		{"ErrSameHostOtherPort", alice, "http://127.0.0.1:1", http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, res, err := wsDial(srv, tt.user, tt.origin)
			if err == nil {
				c.CloseNow()
				t.Fatal("the upgrade was accepted")
			}
			if res == nil || res.StatusCode != tt.status {
				t.Fatalf("response %v, want status %d", res, tt.status)
			}
		})
	}
}

func TestWSAlertStoredAndDeliveredToEveryone(t *testing.T) {
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	srv := serveHTTP(t, s)
	a, b, c := mustDial(t, srv, alice), mustDial(t, srv, bob), mustDial(t, srv, strings.Repeat("c3", 16))
	waitConns(t, s, 3)
	wsSend(t, a, map[string]any{"type": "safety_alert", "sessionId": "", "payload": map[string]string{"alertType": "emergency", "description": "  Gas smell near bay 3  "}})
	var id int64
	for _, conn := range []*websocket.Conn{a, b, c} {
		m := wsRead(t, conn, realtime.TypeSafetyAlert)
		got := alertOf(t, m)
		if got.ID == 0 || got.Description != "Gas smell near bay 3" || got.AlertType != "emergency" || got.UserID != idOf(t, s, alice) || m.UserID != idOf(t, s, alice) {
			t.Fatalf("alert = %+v (%+v)", got, m)
		}
		id = got.ID
	}
	list := decode[[]realtime.SafetyAlert](t, call(t, s, bob, "GET", "/api/safety-alerts", ""))
	if len(list) != 1 || list[0].ID != id {
		t.Fatalf("listed alerts = %+v", list)
	}

	t.Run("ErrInvalidAlertNotStored", func(t *testing.T) {
		wsSend(t, a, map[string]any{"type": "safety_alert", "payload": map[string]string{"alertType": "fire", "description": "x"}})
		if msg := errorOf(wsRead(t, a, realtime.TypeError)); !strings.Contains(msg, "alertType must be one of") {
			t.Fatalf("error = %q", msg)
		}
		if n := len(decode[[]realtime.SafetyAlert](t, call(t, s, bob, "GET", "/api/safety-alerts", ""))); n != 1 {
			t.Fatalf("%d alerts stored, want 1", n)
		}
	})
	t.Run("MalformedJSONKeepsConnection", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := a.Write(ctx, websocket.MessageText, []byte(`{"type": "safety_alert", `)); err != nil {
			t.Fatal(err)
		}
		if msg := errorOf(wsRead(t, a, realtime.TypeError)); !strings.Contains(msg, "malformed JSON") {
			t.Fatalf("error = %q", msg)
		}
		wsSend(t, a, map[string]any{"type": "safety_alert", "payload": map[string]string{"alertType": "help", "description": "still here"}})
		if got := alertOf(t, wsRead(t, b, realtime.TypeSafetyAlert)); got.Description != "still here" {
			t.Fatalf("alert after malformed JSON = %+v", got)
		}
	})
	t.Run("FrameOver64KiBCloses1009", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"type":"x","payload":"`+strings.Repeat("x", 70<<10)+`"}`))
		for {
			if _, _, err := c.Read(ctx); err != nil {
				if st := websocket.CloseStatus(err); st != websocket.StatusMessageTooBig {
					t.Fatalf("closed with %v (%v), want 1009", st, err)
				}
				return
			}
		}
	})
}

func TestWSRooms(t *testing.T) {
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	srv := serveHTTP(t, s)
	x := newSession(t, s, alice, "electrical-lockout-tagout", "vr")
	owner, watcher := mustDial(t, srv, alice), mustDial(t, srv, bob)

	t.Run("ErrJoinOthersAsParticipant", func(t *testing.T) {
		wsSend(t, watcher, map[string]any{"type": "join", "sessionId": x.ID, "payload": map[string]string{"role": "participant"}})
		if msg := errorOf(wsRead(t, watcher, realtime.TypeError)); !strings.Contains(msg, "join as an observer") {
			t.Fatalf("error = %q", msg)
		}
	})
	t.Run("ErrJoinUnknownSession", func(t *testing.T) {
		wsSend(t, watcher, map[string]any{"type": "join", "sessionId": "nope", "payload": map[string]string{"role": "observer"}})
		if msg := errorOf(wsRead(t, watcher, realtime.TypeError)); !strings.Contains(msg, "does not exist") {
			t.Fatalf("error = %q", msg)
		}
	})
	t.Run("ObserverSeesUpdates", func(t *testing.T) {
		wsSend(t, watcher, map[string]any{"type": "join", "sessionId": x.ID, "payload": map[string]string{"role": "observer"}})
		wsRead(t, watcher, realtime.TypeJoined)
		wsSend(t, owner, map[string]any{"type": "xr_session_update", "sessionId": x.ID,
			"payload": map[string]any{"position": map[string]float64{"x": 1, "y": 1.6, "z": -2}, "interactions": []any{map[string]any{"action": "click"}}}})
		wsRead(t, owner, realtime.TypeJoined)          // the first update joins the sender to its room
		wsRead(t, owner, realtime.TypeXRSessionUpdate) // and the sender is in the room too
		m := wsRead(t, watcher, realtime.TypeXRSessionUpdate)
		if m.UserID != idOf(t, s, alice) || m.SessionID != x.ID || !strings.Contains(string(m.Payload), `"z":-2`) {
			t.Fatalf("relayed = %+v %s", m, m.Payload)
		}
	})
	t.Run("ErrTooLargeToRelay", func(t *testing.T) {
		var ins []any
		for range 100 {
			ins = append(ins, map[string]any{"action": "click", "note": strings.Repeat("n", 100)})
		}
		wsSend(t, owner, map[string]any{"type": "xr_session_update", "sessionId": x.ID, "payload": map[string]any{"interactions": ins}})
		if msg := errorOf(wsRead(t, owner, realtime.TypeError)); !strings.Contains(msg, "at most 7900 bytes") {
			t.Fatalf("error = %q", msg)
		}
	})
	t.Run("ErrJoinEndedSession", func(t *testing.T) {
		call(t, s, alice, "PATCH", "/api/xr-sessions/"+x.ID, `{"endedAt":"`+ts(storetest.FixedNow)+`","completionStatus":"completed"}`)
		late := mustDial(t, srv, strings.Repeat("d4", 16))
		wsSend(t, late, map[string]any{"type": "join", "sessionId": x.ID, "payload": map[string]string{"role": "observer"}})
		if msg := errorOf(wsRead(t, late, realtime.TypeError)); !strings.Contains(msg, "has ended") {
			t.Fatalf("error = %q", msg)
		}
	})
}

func TestWSCloseSays1001(t *testing.T) {
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	srv := serveHTTP(t, s)
	c := mustDial(t, srv, alice)
	s.CloseRealtime()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, _, err := c.Read(ctx)
	if st := websocket.CloseStatus(err); st != websocket.StatusGoingAway {
		t.Fatalf("closed with %v (%v), want 1001", st, err)
	}
}

// twoProcesses opens two servers on one PostgreSQL database, each with its
// own store: they stand for two processes of one deployment.
func twoProcesses(t *testing.T) (*Server, *Server) {
	t.Helper()
	dsn := storetest.PostgresURL(t)
	open := func() *Server {
		st, err := store.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		st.Now = func() time.Time { return storetest.FixedNow }
		s := MustOpenXRServer(t, st)
		t.Cleanup(func() { st.Close() })
		return s
	}
	return open(), open()
}

// Two servers on one PostgreSQL database stand for two processes: an alert
// raised on one reaches the clients of the other, and so do room messages.
func TestWSTwoProcesses(t *testing.T) {
	s1, s2 := twoProcesses(t)
	srv1, srv2 := serveHTTP(t, s1), serveHTTP(t, s2)
	a, b := mustDial(t, srv1, alice), mustDial(t, srv2, bob)
	waitConns(t, s1, 1)
	waitConns(t, s2, 1)

	wsSend(t, a, map[string]any{"type": "safety_alert", "payload": map[string]string{"alertType": "equipment", "description": "Guard missing on lathe 2"}})
	for name, c := range map[string]*websocket.Conn{"same process": a, "other process": b} {
		if got := alertOf(t, wsRead(t, c, realtime.TypeSafetyAlert)); got.Description != "Guard missing on lathe 2" || got.UserID != idOf(t, s1, alice) {
			t.Fatalf("%s: alert = %+v", name, got)
		}
	}
	if list := decode[[]realtime.SafetyAlert](t, call(t, s2, bob, "GET", "/api/safety-alerts", "")); len(list) != 1 {
		t.Fatalf("process 2 lists %+v", list)
	}

	x := newSession(t, s1, alice, "electrical-lockout-tagout", "desktop")
	wsSend(t, b, map[string]any{"type": "join", "sessionId": x.ID, "payload": map[string]string{"role": "observer"}})
	wsRead(t, b, realtime.TypeJoined)
	if live := decode[[]training.SessionSummary](t, call(t, s2, bob, "GET", "/api/live-sessions", "")); len(live) != 1 || live[0].ID != x.ID {
		t.Fatalf("process 2 live sessions = %+v", live)
	}
	wsSend(t, a, map[string]any{"type": "collaboration_update", "sessionId": x.ID, "payload": map[string]any{"action": "highlight", "data": map[string]string{"objectId": "panel"}}})
	if m := wsRead(t, b, realtime.TypeCollaborationUpdate); !strings.Contains(string(m.Payload), "highlight") || m.UserID != idOf(t, s1, alice) {
		t.Fatalf("relayed = %+v", m)
	}
}
