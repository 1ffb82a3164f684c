package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"journeyman/internal/identity"
	"journeyman/internal/store"
)

// Tests name their people (alice, bob); each name is one guest per
// deployment key, so servers sharing a database see the same guest.
var testGuests sync.Map // fingerprint + "/" + name → [2]string{token, id}

// guestToken returns the guest token and public id of name on s.
func guestToken(tb testing.TB, s *Server, name string) (token, id string) {
	if tb != nil {
		tb.Helper()
	}
	key := s.guests.Fingerprint() + "/" + name
	if v, ok := testGuests.Load(key); ok {
		p := v.([2]string)
		return p[0], p[1]
	}
	token, id = s.guests.Issue()
	v, _ := testGuests.LoadOrStore(key, [2]string{token, id})
	p := v.([2]string)
	return p[0], p[1]
}

// idOf is the public id of the guest name on s.
func idOf(tb testing.TB, s *Server, name string) string {
	tb.Helper()
	_, id := guestToken(tb, s, name)
	return id
}

// as adds the identity of name to req: a signed-in session cookie when
// name was made by mustAccount, else name's guest token.
func as(tb testing.TB, s *Server, req *http.Request, name string) *http.Request {
	if tb != nil {
		tb.Helper()
	}
	if name == "" {
		return req
	}
	if v, ok := testSessions.Load(s.guests.Fingerprint() + "/" + name); ok {
		req.AddCookie(&http.Cookie{Name: SessionCookie, Value: v.(account).session})
		return req
	}
	token, _ := guestToken(tb, s, name)
	req.AddCookie(&http.Cookie{Name: GuestCookie, Value: token})
	return req
}

type account struct {
	session string
	user    store.User
}

var testSessions sync.Map // fingerprint + "/" + name → account

// mustAccount creates a signed-in account named name (its email is
// name@example.test) in organisation org (created when missing; "" for
// none) with role, and returns it. Later requests as name carry its session.
func mustAccount(tb testing.TB, s *Server, name, org string, role identity.Role) store.User {
	tb.Helper()
	ctx := context.Background()
	identity.HashCost.Memory, identity.HashCost.Time = 64, 1 // hashing is not what these tests test
	a := store.NewAccount{Email: strings.ToLower(name) + "@example.test", DisplayName: name, PasswordHash: identity.HashPassword("a long test password"), Role: role}
	if org != "" {
		a.OrgID = mustOrg(tb, s, org)
	}
	u, err := s.store.CreateAccount(ctx, a, "", "")
	if err != nil {
		tb.Fatalf("create account %s: %v", name, err)
	}
	rec := httptest.NewRecorder()
	if err := s.signIn(rec, httptest.NewRequest("POST", "/api/account/sign-in", nil), u); err != nil {
		tb.Fatal(err)
	}
	for _, c := range rec.Result().Cookies() {
		if c.Name == SessionCookie {
			testSessions.Store(s.guests.Fingerprint()+"/"+name, account{session: c.Value, user: u})
			return u
		}
	}
	tb.Fatal("sign-in set no session cookie")
	return u
}

var testOrgs sync.Map // fingerprint + "/" + org name → id

func mustOrg(tb testing.TB, s *Server, name string) string {
	tb.Helper()
	key := s.guests.Fingerprint() + "/" + name
	if v, ok := testOrgs.Load(key); ok {
		return v.(string)
	}
	id := identity.NewID()
	if _, err := s.store.DB().ExecContext(context.Background(), `INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, $3)`, id, name, s.store.Now()); err != nil {
		tb.Fatal(err)
	}
	testOrgs.Store(key, id)
	return id
}
