package server

import (
	"context"
	"testing"
	"time"

	"github.com/coder/websocket"

	"journeyman/internal/identity"
	"journeyman/internal/realtime"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

// A realtime connection lasts as long as the sign-in it was opened with:
// each way a sign-in ends or its rights change closes the person's open
// connections (1008), so a lost phone's open page stops receiving the
// organisation's alerts and can raise none; another person's stays open.
func TestRealtimeEndsWithItsSignIn(t *testing.T) {
	const password = "a long test password" // mustAccount's
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, s *Server, lea store.User)
	}{
		{"SignOut", func(t *testing.T, s *Server, _ store.User) {
			checkError(t, call(t, s, "Lea", "POST", "/api/account/sign-out", ""), 204, "")
		}},
		{"SignOutEverywhere", func(t *testing.T, s *Server, _ store.User) {
			checkError(t, call(t, s, "Lea", "POST", "/api/account/sign-out-everywhere", ""), 204, "")
		}},
		{"NewPassword", func(t *testing.T, s *Server, _ store.User) {
			checkError(t, call(t, s, "Lea", "POST", "/api/account/password",
				`{"currentPassword":"`+password+`","newPassword":"another long password, for the test"}`), 204, "")
		}},
		{"RemovedFromTheOrganisation", func(t *testing.T, s *Server, lea store.User) {
			checkError(t, call(t, s, "Boss", "DELETE", "/api/organisation/members/"+lea.ID, ""), 204, "")
		}},
		{"NewRole", func(t *testing.T, s *Server, lea store.User) {
			checkError(t, call(t, s, "Boss", "PATCH", "/api/organisation/members/"+lea.ID, `{"role":"instructor"}`), 200, "")
		}},
		{"RoleFromARoster", func(t *testing.T, s *Server, lea store.User) {
			checkError(t, call(t, s, "Boss", "POST", "/api/organisation/roster?dryRun=false", "email,name,role\n"+lea.Email+",Lea,instructor\n"), 200, "")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := MustOpenXRServer(t, storetest.OpenSQLite(t))
			mustAccount(t, s, "Boss", "Acme", identity.Admin)
			lea := mustAccount(t, s, "Lea", "Acme", identity.Learner)
			mustAccount(t, s, "Ola", "Acme", identity.Learner)
			srv := serveHTTP(t, s)
			mine, other := mustDial(t, srv, "Lea"), mustDial(t, srv, "Ola")
			waitConns(t, s, 2)

			tc.change(t, s, lea)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			_, _, err := mine.Read(ctx)
			if got := websocket.CloseStatus(err); got != websocket.StatusPolicyViolation {
				t.Fatalf("Lea's connection: read %v (status %d); want closed with 1008", err, got)
			}
			wsSend(t, other, realtime.Message{Type: realtime.TypeWatchEquipment})
			wsRead(t, other, realtime.TypeWatchingEquipment)
		})
	}
}

// On PostgreSQL a sign-in that ends in one process closes the person's
// connections in the others at once, not at their next keepalive round
// (30 s): each process is told of it.
func TestRealtimeEndsWithItsSignInInEveryProcess(t *testing.T) {
	s1, s2 := twoProcesses(t)
	mustAccount(t, s1, "Lea", "Acme", identity.Learner)
	mustAccount(t, s1, "Ola", "Acme", identity.Learner)
	srv1, srv2 := serveHTTP(t, s1), serveHTTP(t, s2)
	here, there, other := mustDial(t, srv1, "Lea"), mustDial(t, srv2, "Lea"), mustDial(t, srv2, "Ola")
	waitConns(t, s1, 1)
	waitConns(t, s2, 2)

	checkError(t, call(t, s1, "Lea", "POST", "/api/account/sign-out-everywhere", ""), 204, "")
	for name, c := range map[string]*websocket.Conn{"this process": here, "the other process": there} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, _, err := c.Read(ctx)
		cancel()
		if got := websocket.CloseStatus(err); got != websocket.StatusPolicyViolation {
			t.Fatalf("Lea's connection to %s: read %v (status %d); want closed with 1008", name, err, got)
		}
	}
	wsSend(t, other, realtime.Message{Type: realtime.TypeWatchEquipment})
	wsRead(t, other, realtime.TypeWatchingEquipment)
}
