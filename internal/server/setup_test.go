package server

import (
	"context"
	"fmt"
	"testing"

	"journeyman/internal/identity"
	"journeyman/internal/store/storetest"
)

func TestSetUpInTheBrowser(t *testing.T) {
	identity.HashCost.Memory, identity.HashCost.Time = 64, 1
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	token, _, ok, err := s.store.CreateSetupLink(context.Background())
	if err != nil || !ok {
		t.Fatalf("setup link: ok %v, %v", ok, err)
	}
	link := "/api/setup/" + token
	ada := newBrowser(t, s)
	// What Ada did as a guest before setting up stays hers.
	checkError(t, ada.call("POST", "/api/xr-sessions", fmt.Sprintf(`{"moduleId":"electrical-lockout-tagout","startedAt":%q}`, ts(started))), 201, "")
	guest := ada.me()

	if got := decode[setupLinkView](t, ada.call("GET", link, "")); got.SetUp || got.ExpiresAt == "" {
		t.Fatalf("GET a fresh link = %+v", got)
	}
	checkError(t, ada.call("GET", "/api/setup/not-a-link", ""), 404, "this setup link is invalid or has expired")
	for body, want := range map[string]string{
		`{"organisationName":"","email":"ada@example.test","displayName":"Ada","password":"a long test password"}`:       "organisationName must be 1 to 120",
		`{"organisationName":"Northside","email":"nope","displayName":"Ada","password":"a long test password"}`:          "email must be an email address",
		`{"organisationName":"Northside","email":"ada@example.test","displayName":"Ada","password":"short"}`:             "password must be at least 8 characters",
		`{"organisationName":"Northside","email":"ada@example.test","displayName":"","password":"a long test password"}`: "displayName must be 1 to 80",
		`{"organisationName":"Northside","unknown":1}`:                                                                   "unknown",
	} {
		checkError(t, ada.call("POST", link, body), 400, want)
	}
	checkError(t, ada.call("POST", "/api/setup/not-a-link", `{"organisationName":"Northside","email":"ada@example.test","displayName":"Ada","password":"a long test password"}`), 404, "invalid or has expired")

	res := ada.call("POST", link, `{"organisationName":"Northside Training","email":"Ada@Example.test","displayName":"Ada Admin","password":"a long test password"}`)
	checkError(t, res, 201, "")
	me := ada.me()
	if me.Guest || me.Role != "admin" || me.Organisation == nil || me.Organisation.Name != "Northside Training" || me.Email == nil || *me.Email != "ada@example.test" {
		t.Fatalf("after setup me = %+v", me)
	}
	if got := decode[[]struct{ ID string }](t, ada.call("GET", "/api/users/"+me.ID+"/xr-sessions", "")); len(got) != 1 {
		t.Fatalf("the guest %s's session did not move into the admin's account: %d sessions", guest.ID, len(got))
	}
	if members := decode[[]struct{ DisplayName, Role string }](t, ada.call("GET", "/api/organisation/members", "")); len(members) != 1 || members[0].Role != "admin" {
		t.Fatalf("members = %+v", members)
	}

	// The link is spent, and so is every other.
	eve := newBrowser(t, s)
	if got := decode[setupLinkView](t, eve.call("GET", link, "")); !got.SetUp || got.ExpiresAt != "" {
		t.Fatalf("GET a spent link = %+v, want setUp", got)
	}
	checkError(t, eve.call("POST", link, `{"organisationName":"Eve's","email":"eve@example.test","displayName":"Eve","password":"a long test password"}`), 409, "set up already")
	if _, _, ok, err := s.store.CreateSetupLink(context.Background()); ok || err != nil {
		t.Fatalf("a new link once set up: ok %v, %v", ok, err)
	}
}

// Someone who signed up before anyone set the deployment up becomes the
// admin with the account they have.
func TestSetUpWithAnAccount(t *testing.T) {
	identity.HashCost.Memory, identity.HashCost.Time = 64, 1
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	token, _, _, err := s.store.CreateSetupLink(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, s)
	checkError(t, b.call("POST", "/api/account/sign-up", `{"email":"lea@example.test","password":"a long test password","displayName":"Lea"}`), 201, "")
	before := b.me()
	checkError(t, b.call("POST", "/api/setup/"+token, `{"organisationName":"Lea's Workshop"}`), 201, "")
	after := b.me()
	if after.ID != before.ID || after.Role != "admin" || after.Organisation == nil || after.Organisation.Name != "Lea's Workshop" {
		t.Fatalf("me = %+v, was %+v", after, before)
	}
}
