package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"journeyman/internal/identity"
	"journeyman/internal/realtime"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// The attacks of issue 10, each answered as it should be.

func TestAttackIDFromPublicListIsNotACredential(t *testing.T) {
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	x := newSession(t, s, alice, "electrical-lockout-tagout", "desktop")
	live := decode[[]training.SessionSummary](t, call(t, s, bob, "GET", "/api/live-sessions", ""))
	if len(live) != 1 || live[0].UserID != idOf(t, s, alice) {
		t.Fatalf("live sessions = %+v", live)
	}
	stolen := live[0].UserID
	for _, cookie := range []string{GuestCookie, SessionCookie, "journeyman_learner"} {
		req := httptest.NewRequest("PATCH", "/api/xr-sessions/"+x.ID, strings.NewReader(`{"duration":1}`))
		req.Header.Set("Content-Type", "application/json")
		req.AddCookie(&http.Cookie{Name: cookie, Value: stolen})
		if res := do(t, s, req); res.status != http.StatusUnauthorized {
			t.Errorf("PATCH with %s=%s: %d %s, want 401 (a fresh, unpresented guest)", cookie, stolen, res.status, res.body)
		}
		req = httptest.NewRequest("GET", "/api/users/"+stolen+"/xr-sessions", nil)
		req.AddCookie(&http.Cookie{Name: cookie, Value: stolen})
		if res := do(t, s, req); res.status != http.StatusUnauthorized {
			t.Errorf("history with %s=%s: %d, want 401", cookie, stolen, res.status)
		}
	}
}

func TestAttackTwinWritesNeedStaff(t *testing.T) {
	s := mustTwinServer(t)
	mustAccount(t, s, "Lou", "Plant School", identity.Learner)
	for who, want := range map[string]int{"": 401, "guest": 401, "Lou": 403, twinInstructor: 200} {
		for _, path := range []string{"/api/digital-twin/equipment/chlr-1/sensor-data"} {
			req := httptest.NewRequest("POST", path, strings.NewReader(`{"sensorData":{"temperature":20}}`))
			req.Header.Set("Content-Type", "application/json")
			if res := do(t, s, as(t, s, req, who)); res.status != want {
				t.Errorf("%s as %q: %d %s, want %d", path, who, res.status, res.body, want)
			}
		}
	}
}

func TestAttackCookieDroppingDemoRequests(t *testing.T) {
	s := MustOpenServer(t)
	body := `{"name":"Ada","email":"ada@example.com","organisation":"JATC","message":"Please show us around."}`
	// Without any identity the request is refused.
	if res := do(t, s, postJSON("/api/demo-requests", body)); res.status != http.StatusUnauthorized {
		t.Fatalf("cookieless demo request: %d", res.status)
	}
	// A new guest per request, all from one address: the address budget holds.
	created := 0
	for i := range DemoRequestsPerAddr + 5 {
		res := do(t, s, as(t, s, postJSON("/api/demo-requests", body), fmt.Sprintf("dropper-%d", i)))
		switch res.status {
		case http.StatusCreated:
			created++
		case http.StatusTooManyRequests:
			if res.header.Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
		default:
			t.Fatalf("request %d: %d %s", i, res.status, res.body)
		}
	}
	if created != DemoRequestsPerAddr {
		t.Fatalf("%d demo requests accepted from one address, want %d", created, DemoRequestsPerAddr)
	}
}

func TestAttackSignInThrottle(t *testing.T) {
	s := MustOpenServer(t)
	mustAccount(t, s, "Vic", "", identity.Learner)
	signIn := func(email, pw, addr string) response {
		req := postJSON("/api/account/sign-in", fmt.Sprintf(`{"email":%q,"password":%q}`, email, pw))
		req.RemoteAddr = addr + ":1234"
		return do(t, s, req)
	}
	for _, email := range []string{"vic@example.test", "nobody@example.test"} {
		for i := range SignInsPerAccount {
			// Each from its own address: the account's budget is what stops them.
			res := signIn(email, "not the password", fmt.Sprintf("10.1.%d.%d", len(email), i))
			if res.status != http.StatusUnauthorized || message(t, res.body) != "email or password is incorrect" {
				t.Fatalf("%s attempt %d: %d %s", email, i, res.status, res.body)
			}
		}
		res := signIn(email, "a long test password", "10.9.9.9")
		if res.status != http.StatusTooManyRequests || !strings.Contains(message(t, res.body), "sign-in attempts for this account") {
			t.Fatalf("%s after %d failures: %d %s, want 429 for known and unknown emails alike", email, SignInsPerAccount, res.status, res.body)
		}
	}
	// Many accounts from one address: the address budget stops them.
	for i := range SignInsPerAddr {
		signIn(fmt.Sprintf("user%d@example.test", i), "whatever password", "10.7.7.7")
	}
	if res := signIn("fresh@example.test", "whatever password", "10.7.7.7"); res.status != http.StatusTooManyRequests {
		t.Fatalf("address over budget: %d", res.status)
	}
}

// TestSocketsPerAddress: distinct identities from one address share its
// budget of realtime connections, which a deployment may set.
func TestSocketsPerAddress(t *testing.T) {
	for _, perAddr := range []int{0, 3} {
		t.Run(fmt.Sprint(perAddr), func(t *testing.T) {
			st := storetest.OpenSQLite(t)
			s := mustNew(t, st, Config{Logger: slog.New(slog.DiscardHandler), App: testApp, SocketsPerAddr: perAddr})
			srv := serveHTTP(t, s)
			want := perAddr
			if want == 0 {
				want = DefaultSocketsPerAddr
			}
			for i := range want {
				mustDial(t, srv, fmt.Sprintf("neighbour-%d", i))
			}
			_, res, err := wsDial(srv, "one-too-many", srv.URL)
			if err == nil || res == nil || res.StatusCode != http.StatusTooManyRequests {
				t.Fatalf("connection %d from one address: err %v, response %v, want 429", want+1, err, res)
			}
		})
	}
}

func TestAttackAlertFloodAndSocketCap(t *testing.T) {
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	srv := serveHTTP(t, s)
	for range SocketsPerIdentity {
		mustDial(t, srv, "flooder")
	}
	if _, res, err := wsDial(srv, "flooder", srv.URL); err == nil || res == nil || res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("connection %d of one identity: err %v, response %v, want 429", SocketsPerIdentity+1, err, res)
	}
	a := mustDial(t, srv, "flooder-2")
	errors := 0
	for i := range AlertsPerUserMinute + 3 {
		wsSend(t, a, map[string]any{"type": "safety_alert", "payload": map[string]string{"alertType": "emergency", "description": fmt.Sprintf("flood %d", i)}})
	}
	stored := 0
	for range AlertsPerUserMinute + 3 {
		var m realtime.Message
		for {
			m = wsReadAny(t, a)
			if m.Type == realtime.TypeSafetyAlert || m.Type == realtime.TypeError {
				break
			}
		}
		if m.Type == realtime.TypeError {
			if !strings.Contains(errorOf(m), "too many safety alerts") {
				t.Fatalf("error %q", errorOf(m))
			}
			errors++
		} else {
			stored++
		}
	}
	if stored != AlertsPerUserMinute || errors != 3 {
		t.Fatalf("%d alerts stored and %d refused, want %d and 3", stored, errors, AlertsPerUserMinute)
	}
}

func TestAlertsStayInTheirOrganisation(t *testing.T) {
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	srv := serveHTTP(t, s)
	mustAccount(t, s, "Ann", "Org A", identity.Learner)
	mustAccount(t, s, "Bea", "Org B", identity.Learner)
	a, b, g := mustDial(t, srv, "Ann"), mustDial(t, srv, "Bea"), mustDial(t, srv, "guest-watcher")
	waitConns(t, s, 3)
	wsSend(t, a, map[string]any{"type": "safety_alert", "payload": map[string]string{"alertType": "help", "description": "org A only"}})
	wsSend(t, b, map[string]any{"type": "safety_alert", "payload": map[string]string{"alertType": "help", "description": "org B only"}})
	if got := alertOf(t, wsRead(t, a, realtime.TypeSafetyAlert)); got.Description != "org A only" || got.DisplayName != "Ann" {
		t.Fatalf("A got %+v", got)
	}
	if got := alertOf(t, wsRead(t, b, realtime.TypeSafetyAlert)); got.Description != "org B only" {
		t.Fatalf("B got %+v first; org A's alert crossed over", got)
	}
	wsSend(t, g, map[string]any{"type": "safety_alert", "payload": map[string]string{"alertType": "help", "description": "demo"}})
	if got := alertOf(t, wsRead(t, g, realtime.TypeSafetyAlert)); got.Description != "demo" {
		t.Fatalf("guest got %+v first; an organisation's alert reached the demo channel", got)
	}
	var list []realtime.SafetyAlert
	if err := json.Unmarshal([]byte(call(t, s, "Bea", "GET", "/api/safety-alerts", "").body), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Description != "org B only" {
		t.Fatalf("org B's alert list = %+v", list)
	}
	if err := json.Unmarshal([]byte(call(t, s, "", "GET", "/api/safety-alerts", "").body), &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Description != "demo" {
		t.Fatalf("the public (demo) alert list = %+v", list)
	}
}

func wsReadAny(t *testing.T, c *websocket.Conn) realtime.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var m realtime.Message
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return m
}
