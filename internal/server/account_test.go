package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"journeyman/internal/identity"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// browser keeps cookies across calls, as a browser does.
type browser struct {
	t       *testing.T
	s       *Server
	cookies map[string]*http.Cookie
}

func newBrowser(t *testing.T, s *Server) *browser {
	b := &browser{t: t, s: s, cookies: map[string]*http.Cookie{}}
	b.call("GET", "/", "") // the page issues the guest token
	return b
}

func (b *browser) call(method, path, body string) response {
	b.t.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, c := range b.cookies {
		req.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	b.s.ServeHTTP(rec, req)
	for _, c := range rec.Result().Cookies() {
		if c.MaxAge < 0 {
			delete(b.cookies, c.Name)
		} else {
			b.cookies[c.Name] = c
		}
	}
	return response{rec.Code, rec.Result().Header, rec.Body.String()}
}

func (b *browser) me() meResponse {
	b.t.Helper()
	return decode[meResponse](b.t, b.call("GET", "/api/me", ""))
}

func TestAccountLifecycle(t *testing.T) {
	identity.HashCost.Memory, identity.HashCost.Time = 64, 1
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	b := newBrowser(t, s)
	guest := b.me()
	if !guest.Guest {
		t.Fatalf("me = %+v, want a guest", guest)
	}
	// As a guest: a session and preferences.
	checkError(t, b.call("POST", "/api/xr-sessions", fmt.Sprintf(`{"moduleId":"electrical-lockout-tagout","startedAt":%q}`, ts(started))), 201, "")
	checkError(t, b.call("POST", "/api/ai-learning/learning-preferences", `{"sessionDuration":45}`), 200, "")

	t.Run("ErrSignUpBadFields", func(t *testing.T) {
		for body, want := range map[string]string{
			`{"email":"nope","password":"long enough pw","displayName":"Ann"}`:          "email must be an email address",
			`{"email":"ann@example.test","password":"short","displayName":"Ann"}`:       "password must be at least 8 characters",
			`{"email":"ann@example.test","password":"password123","displayName":"Ann"}`: "password is one of the most commonly used",
			`{"email":"ann@example.test","password":"long enough pw","displayName":""}`: "displayName must be 1 to 80",
		} {
			checkError(t, b.call("POST", "/api/account/sign-up", body), 400, want)
		}
	})

	var me meResponse
	t.Run("SignUpCarriesTheGuestsRecordsOver", func(t *testing.T) {
		res := b.call("POST", "/api/account/sign-up", `{"email":"Ann@Example.test","password":"a long test password","displayName":"Ann"}`)
		checkError(t, res, 201, "")
		me = decode[meResponse](t, res)
		if me.Guest || me.Email == nil || *me.Email != "ann@example.test" || me.Role != identity.Learner || me.ID == guest.ID {
			t.Fatalf("me = %+v", me)
		}
		list := decode[[]training.SessionSummary](t, b.call("GET", "/api/users/"+me.ID+"/xr-sessions", ""))
		if len(list) != 1 {
			t.Fatalf("the account's sessions = %+v, want the guest's one", list)
		}
		if prefs := b.call("GET", "/api/ai-learning/learning-preferences", ""); !strings.Contains(prefs.body, `"sessionDuration":45`) {
			t.Fatalf("preferences = %s, want the guest's", prefs.body)
		}
	})

	t.Run("ErrSignUpTakenEmail", func(t *testing.T) {
		other := newBrowser(t, s)
		checkError(t, other.call("POST", "/api/account/sign-up", `{"email":"ann@example.test","password":"another long pw","displayName":"Imposter"}`), 409, "sign in")
	})

	t.Run("SignOutAndIn", func(t *testing.T) {
		checkError(t, b.call("POST", "/api/account/sign-out", ""), 204, "")
		if after := b.me(); !after.Guest || after.ID == guest.ID {
			t.Fatalf("after sign-out me = %+v, want a fresh guest", after)
		}
		checkError(t, b.call("POST", "/api/account/sign-in", `{"email":"ann@example.test","password":"wrong password"}`), 401, "email or password is incorrect")
		checkError(t, b.call("POST", "/api/account/sign-in", `{"email":"ANN@example.test","password":"a long test password"}`), 200, "")
		if again := b.me(); again.ID != me.ID {
			t.Fatalf("signed in as %+v, want %s", again, me.ID)
		}
	})

	t.Run("PasswordChangeEndsOtherSessions", func(t *testing.T) {
		other := newBrowser(t, s)
		checkError(t, other.call("POST", "/api/account/sign-in", `{"email":"ann@example.test","password":"a long test password"}`), 200, "")
		checkError(t, b.call("POST", "/api/account/password", `{"currentPassword":"nope","newPassword":"a new long password"}`), 400, "currentPassword is incorrect")
		checkError(t, b.call("POST", "/api/account/password", `{"currentPassword":"a long test password","newPassword":"a new long password"}`), 204, "")
		if got := other.me(); !got.Guest {
			t.Fatalf("the other browser is still %+v after a password change", got)
		}
		if got := b.me(); got.ID != me.ID {
			t.Fatalf("the changing browser was signed out: %+v", got)
		}
	})

	t.Run("SignOutEverywhere", func(t *testing.T) {
		other := newBrowser(t, s)
		checkError(t, other.call("POST", "/api/account/sign-in", `{"email":"ann@example.test","password":"a new long password"}`), 200, "")
		checkError(t, b.call("POST", "/api/account/sign-out-everywhere", ""), 204, "")
		if !other.me().Guest || !b.me().Guest {
			t.Fatal("a session survived signing out everywhere")
		}
	})
}

func TestInviteAndResetLinks(t *testing.T) {
	identity.HashCost.Memory, identity.HashCost.Time = 64, 1
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	mustAccount(t, s, "Boss", "Trade School", identity.Admin)
	invite := decode[createdInvite](t, call(t, s, "Boss", "POST", "/api/organisation/invites", `{"role":"instructor","expiresInDays":2,"maxUses":1}`))
	token := invite.URL[strings.LastIndex(invite.URL, "/")+1:]

	b := newBrowser(t, s)
	view := b.call("GET", "/api/invites/"+token, "")
	checkError(t, view, 200, "")
	if !strings.Contains(view.body, `"name":"Trade School"`) || !strings.Contains(view.body, `"role":"instructor"`) {
		t.Fatalf("invite view = %s", view.body)
	}
	res := b.call("POST", "/api/account/sign-up", fmt.Sprintf(`{"email":"ivan@example.test","password":"a long test password","displayName":"Ivan","inviteToken":%q}`, token))
	checkError(t, res, 201, "")
	if me := decode[meResponse](t, res); me.Role != identity.Instructor || me.Organisation == nil || me.Organisation.Name != "Trade School" {
		t.Fatalf("me = %+v", me)
	}
	if me := b.me(); me.Role != identity.Instructor || me.Organisation == nil || me.Organisation.Name != "Trade School" {
		t.Fatalf("GET /api/me = %+v, want the organisation by name", me)
	}
	// Single use: the next person is refused.
	checkError(t, newBrowser(t, s).call("POST", "/api/account/sign-up", fmt.Sprintf(`{"email":"late@example.test","password":"a long test password","displayName":"Late","inviteToken":%q}`, token)), 400, "inviteToken")
	checkError(t, b.call("GET", "/api/invites/"+token, ""), 404, "invalid, expired or used up")

	// The admin makes a reset link for Ivan; it works once.
	members := decode[[]struct{ ID, Email string }](t, call(t, s, "Boss", "GET", "/api/organisation/members?q=ivan", ""))
	if len(members) != 1 {
		t.Fatalf("members = %+v", members)
	}
	link := decode[linkResponse](t, call(t, s, "Boss", "POST", "/api/organisation/members/"+members[0].ID+"/password-reset", ""))
	reset := link.URL[strings.LastIndex(link.URL, "/")+1:]
	anon := newBrowser(t, s)
	checkError(t, anon.call("GET", "/api/account/password-reset/"+reset, ""), 200, "")
	checkError(t, anon.call("POST", "/api/account/password-reset", fmt.Sprintf(`{"token":%q,"password":"reset long password"}`, reset)), 200, "")
	if me := anon.me(); me.ID != members[0].ID {
		t.Fatalf("after reset me = %+v", me)
	}
	checkError(t, anon.call("POST", "/api/account/password-reset", fmt.Sprintf(`{"token":%q,"password":"again long password"}`, reset)), 404, "invalid or has expired")
	if !b.me().Guest {
		t.Fatal("the reset did not end Ivan's other session")
	}
}
