package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"journeyman/internal/identity"
	"journeyman/internal/realtime"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

// The kinds of caller the authorization matrix tries every route as.
const (
	anon   = ""     // no cookie at all
	gus    = "Gus"  // a guest
	lea    = "Lea"  // a learner of org A, in Ian's cohort
	ian    = "Ian"  // an instructor of org A
	ivy    = "Ivy"  // an instructor of org B
	adaAdm = "Adam" // the admin of org A
)

var callers = []string{anon, gus, lea, ivy, ian, adaAdm}

// pass is a status meaning "let through": the handler answered, neither
// 401 nor 403 nor 5xx (it may still refuse the body with a 4xx).
const pass = -1

type matrixFixture struct {
	s                   *Server
	leaID, cohort, dora string
	session             string
	invite, link        string
	alert               int64
	// Twins of org A: one to drive and change, one to retire.
	twin, retiring string
}

func newMatrixFixture(t *testing.T, st *store.Store) matrixFixture {
	t.Helper()
	s := MustOpenXRServer(t, st)
	f := matrixFixture{s: s}
	leaU := mustAccount(t, s, lea, "Org A", identity.Learner)
	ianU := mustAccount(t, s, ian, "Org A", identity.Instructor)
	mustAccount(t, s, ivy, "Org B", identity.Instructor)
	admU := mustAccount(t, s, adaAdm, "Org A", identity.Admin)
	dora := mustAccount(t, s, "Dora", "Org A", identity.Learner)
	f.leaID, f.dora = leaU.ID, dora.ID
	ctx := context.Background()
	c, err := s.store.CreateCohort(ctx, ianU.OrgID, "Welders", ianU.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.store.AddCohortMember(ctx, ianU.OrgID, c.ID, leaU.ID); err != nil {
		t.Fatal(err)
	}
	f.cohort = c.ID
	_, f.invite, err = s.store.CreateInvite(ctx, admU.OrgID, admU.ID, store.NewInvite{Role: identity.Learner, MaxUses: 100, TTL: 24 * 3600e9})
	if err != nil {
		t.Fatal(err)
	}
	if f.link, _, err = s.store.CreatePasswordLink(ctx, dora.ID, store.ResetLinkTTL); err != nil {
		t.Fatal(err)
	}
	f.session = newSession(t, s, lea, "electrical-lockout-tagout", "desktop").ID
	a, err := s.store.CreateSafetyAlert(ctx, leaU.ID, f.session, realtime.SafetyAlertPayload{AlertType: "help", Description: "Need a hand"})
	if err != nil {
		t.Fatal(err)
	}
	f.alert = a.ID
	f.twin = "/api/digital-twin/equipment/" + mustOwnedTwin(t, s, ianU.OrgID, "Booster Pump P-7")
	f.retiring = "/api/digital-twin/equipment/" + mustOwnedTwin(t, s, ianU.OrgID, "Booster Pump P-8")
	return f
}

// levels gives the usual expectation of each access level: who is refused
// with what, everyone else let through.
func levels(l identity.Level) map[string]int {
	w := map[string]int{}
	for _, c := range callers {
		w[c] = pass
	}
	switch l {
	case identity.Identified:
		w[anon] = 401
	case identity.Member, identity.OrgMember:
		w[anon], w[gus] = 401, 401
	case identity.Staff:
		w[anon], w[gus], w[lea] = 401, 401, 403
	case identity.OrgAdmin:
		w[anon], w[gus], w[lea], w[ian], w[ivy] = 401, 401, 403, 403, 403
	}
	return w
}

func with(w map[string]int, overrides ...any) map[string]int {
	for i := 0; i < len(overrides); i += 2 {
		w[overrides[i].(string)] = overrides[i+1].(int)
	}
	return w
}

// TestAuthorizationMatrix tries every route of the route table as every
// kind of caller, on both databases, and checks who is let through. A
// route added to the table without a row here fails the test.
func TestAuthorizationMatrix(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		f := newMatrixFixture(t, st)
		s := f.s
		rows := []struct {
			pattern, path, body string
			want                map[string]int
		}{
			{"GET /api/me", "/api/me", "", levels(anyone)},
			{"POST /api/account/sign-up", "/api/account/sign-up", `{"email":"x"}`, levels(anyone)},
			{"POST /api/account/sign-in", "/api/account/sign-in", `{"email":"nobody@example.test","password":"wrong password"}`,
				with(levels(anyone), anon, 401, gus, 401, lea, 401, ian, 401, ivy, 401, adaAdm, 401)},
			{"POST /api/account/sign-out", "/api/account/sign-out", "", levels(anyone)},
			{"PATCH /api/account", "/api/account", `{"displayName":""}`, levels(member)},
			{"POST /api/account/password", "/api/account/password", `{}`, levels(member)},
			{"POST /api/account/sign-out-everywhere", "/api/account/sign-out-everywhere", "", levels(member)},
			{"GET /api/account/password-reset/{token}", "/api/account/password-reset/" + f.link, "", levels(anyone)},
			{"POST /api/account/password-reset", "/api/account/password-reset", `{"token":"x","password":"short"}`, levels(anyone)},
			{"GET /api/invites/{token}", "/api/invites/" + f.invite, "", levels(anyone)},
			{"POST /api/invites/{token}/accept", "/api/invites/" + f.invite + "/accept", "", levels(member)},
			// The fixture's organisations mean the deployment is set up: every link is spent.
			{"GET /api/setup/{token}", "/api/setup/x", "", levels(anyone)},
			{"POST /api/setup/{token}", "/api/setup/x", `{"organisationName":"Second","email":"eve@example.test","displayName":"Eve","password":"a long test password"}`, levels(anyone)},

			{"GET /api/organisation", "/api/organisation", "", levels(orgMember)},
			{"GET /api/organisation/members", "/api/organisation/members", "", levels(staff)},
			{"PATCH /api/organisation/members/{userId}", "/api/organisation/members/" + f.leaID, `{"role":"learner"}`, levels(orgAdmin)},
			{"DELETE /api/organisation/members/{userId}", "/api/organisation/members/" + f.dora, "", levels(orgAdmin)},
			{"POST /api/organisation/members/{userId}/password-reset", "/api/organisation/members/" + f.leaID + "/password-reset", "", levels(orgAdmin)},
			{"GET /api/organisation/invites", "/api/organisation/invites", "", levels(orgAdmin)},
			{"POST /api/organisation/invites", "/api/organisation/invites", `{"role":"learner","expiresInDays":1,"maxUses":1}`, levels(orgAdmin)},
			{"DELETE /api/organisation/invites/{id}", "/api/organisation/invites/nope", "", levels(orgAdmin)},
			{"POST /api/organisation/roster", "/api/organisation/roster?dryRun=true", "email,name,role\nnew@example.test,New,learner\n", levels(orgAdmin)},
			{"GET /api/organisation/xapi/credentials", "/api/organisation/xapi/credentials", "", levels(orgAdmin)},
			{"POST /api/organisation/xapi/credentials", "/api/organisation/xapi/credentials", `{"name":"Player","canRead":true}`, levels(orgAdmin)},
			{"DELETE /api/organisation/xapi/credentials/{id}", "/api/organisation/xapi/credentials/nope", "", levels(orgAdmin)},
			{"GET /api/organisation/xapi/forwarding", "/api/organisation/xapi/forwarding", "", levels(orgAdmin)},
			{"PUT /api/organisation/xapi/forwarding", "/api/organisation/xapi/forwarding", `{"endpoint":"https://lrs.example.org/xapi/","key":"k","secret":"s","version":"2.0.0"}`, levels(orgAdmin)},
			{"DELETE /api/organisation/xapi/forwarding", "/api/organisation/xapi/forwarding", "", levels(orgAdmin)},
			{"POST /api/organisation/xapi/forwarding/pause", "/api/organisation/xapi/forwarding/pause", "", levels(orgAdmin)},
			{"POST /api/organisation/xapi/forwarding/resume", "/api/organisation/xapi/forwarding/resume", "", levels(orgAdmin)},
			{"GET /api/cmi5/courses", "/api/cmi5/courses", "", levels(orgMember)},
			{"POST /api/cmi5/courses", "/api/cmi5/courses", `{}`, levels(staff)},
			{"DELETE /api/cmi5/courses/{id}", "/api/cmi5/courses/nope", "", levels(staff)},
			{"POST /api/cmi5/aus/{id}/launch", "/api/cmi5/aus/nope/launch", "", levels(orgMember)},
			{"GET /api/cohorts", "/api/cohorts", "", levels(staff)},
			{"POST /api/cohorts", "/api/cohorts", `{"name":""}`, levels(staff)},
			// Another organisation's cohort does not exist for Ivy.
			{"GET /api/cohorts/{id}", "/api/cohorts/" + f.cohort, "", with(levels(staff), ivy, 404)},
			{"PATCH /api/cohorts/{id}", "/api/cohorts/" + f.cohort, `{"name":"Welders"}`, with(levels(staff), ivy, 404)},
			{"POST /api/cohorts/{id}/members", "/api/cohorts/" + f.cohort + "/members", `{"userId":"` + f.leaID + `"}`, with(levels(staff), ivy, 404)},
			{"DELETE /api/cohorts/{id}/members/{userId}", "/api/cohorts/" + f.cohort + "/members/nobody", "", with(levels(staff), ivy, 404)},
			{"GET /api/portal/cohorts/{id}/learners", "/api/portal/cohorts/" + f.cohort + "/learners", "", with(levels(staff), ivy, 404)},
			{"GET /api/portal/cohorts/{id}/export.csv", "/api/portal/cohorts/" + f.cohort + "/export.csv", "", with(levels(staff), ivy, 404)},
			{"GET /api/portal/learners/{userId}", "/api/portal/learners/" + f.leaID, "", with(levels(staff), ivy, 403)},
			{"GET /api/users/{userId}/competencies", "/api/users/" + f.leaID + "/competencies", "", with(levels(identified), gus, 403, ivy, 403)},
			{"POST /api/users/{userId}/competencies/sign-off", "/api/users/" + f.leaID + "/competencies/sign-off", `{"moduleId":"electrical-lockout-tagout"}`, with(levels(staff), ivy, 403)},
			{"POST /api/users/{userId}/competencies/revoke", "/api/users/" + f.leaID + "/competencies/revoke", `{"moduleId":"electrical-lockout-tagout","note":"x"}`, with(levels(staff), ivy, 403)},
			{"GET /api/certificates/{id}", "/api/certificates/nope", "", levels(identified)},
			{"GET /api/verify/{code}", "/api/verify/JXR-0000-0000-0000", "", levels(anyone)},
			{"GET /api/portal/learners/{userId}/export.csv", "/api/portal/learners/" + f.leaID + "/export.csv", "", with(levels(staff), ivy, 403)},
			{"GET /api/portal/live", "/api/portal/live", "", levels(staff)},
			// Another organisation's session and alert do not exist for Ivy.
			{"POST /api/portal/live/{sessionId}/message", "/api/portal/live/" + f.session + "/message", `{"text":"Check your gloves"}`, with(levels(staff), ivy, 404)},
			{"POST /api/portal/live/{sessionId}/stop", "/api/portal/live/" + f.session + "/stop", `{"reason":""}`, with(levels(staff), ivy, 404)},
			{"POST /api/safety-alerts/{id}/acknowledge", "/api/safety-alerts/" + strconv.FormatInt(f.alert, 10) + "/acknowledge", "", with(levels(staff), ivy, 404)},

			{"GET /api/trade-categories", "/api/trade-categories", "", levels(anyone)},
			{"GET /api/training-modules", "/api/training-modules", "", levels(anyone)},
			{"GET /api/analytics/dashboard-stats", "/api/analytics/dashboard-stats", "", levels(anyone)},
			{"GET /api/analytics/benchmarks", "/api/analytics/benchmarks?period=28d", "", levels(orgMember)},
			{"GET /api/demo-requests", "/api/demo-requests", "", levels(identified)},
			{"POST /api/demo-requests", "/api/demo-requests", `{}`, levels(identified)},
			{"POST /api/xr-sessions", "/api/xr-sessions", `{}`, levels(identified)},
			// Only the session's own learner updates it.
			{"PATCH /api/xr-sessions/{id}", "/api/xr-sessions/" + f.session, `{"duration":5}`,
				with(levels(identified), gus, 403, ian, 403, ivy, 403, adaAdm, 403)},
			// A learner's records: theirs, and their organisation's staff's.
			{"GET /api/users/{userId}/xr-sessions", "/api/users/" + f.leaID + "/xr-sessions", "", with(levels(identified), gus, 403, ivy, 403)},
			// A session path of another learner is refused before it is looked up.
			{"GET /api/users/{userId}/xr-sessions/{id}", "/api/users/" + f.leaID + "/xr-sessions/" + f.session, "", with(levels(identified), gus, 403, ivy, 403)},
			{"GET /api/users/{userId}/xr-sessions/{id}/review", "/api/users/" + f.leaID + "/xr-sessions/" + f.session + "/review", "", with(levels(identified), gus, 403, ivy, 403)},
			{"GET /api/users/{userId}/xr-analytics", "/api/users/" + f.leaID + "/xr-analytics", "", with(levels(identified), gus, 403, ivy, 403)},
			{"GET /api/training-modules/{id}/xr-content", "/api/training-modules/electrical-lockout-tagout/xr-content", "", levels(anyone)},
			{"GET /api/xr-scenes/{id}", "/api/xr-scenes/nope", "", levels(anyone)},
			{"GET /api/live-sessions", "/api/live-sessions", "", levels(anyone)},
			{"GET /api/safety-alerts", "/api/safety-alerts", "", levels(anyone)},
			{"GET /api/voice-modules", "/api/voice-modules", "", levels(anyone)},
			{"POST /api/voice-training/runs", "/api/voice-training/runs", `{}`, levels(identified)},
			{"GET /api/voice-training/runs", "/api/voice-training/runs", "", levels(identified)},

			{"GET /api/ai-learning/learning-preferences", "/api/ai-learning/learning-preferences", "", levels(identified)},
			{"POST /api/ai-learning/learning-preferences", "/api/ai-learning/learning-preferences", `{}`, levels(identified)},
			{"POST /api/ai-learning/skill-assessment", "/api/ai-learning/skill-assessment", `{}`, levels(identified)},
			{"GET /api/ai-learning/skill-assessments", "/api/ai-learning/skill-assessments", "", levels(identified)},
			{"POST /api/ai-learning/generate-recommendations", "/api/ai-learning/generate-recommendations", `{}`, levels(identified)},
			{"GET /api/ai-learning/recommendations", "/api/ai-learning/recommendations", "", levels(identified)},
			{"GET /api/ai-learning/refreshers", "/api/ai-learning/refreshers", "", levels(identified)},
			{"GET /api/personalization", "/api/personalization", "", levels(identified)},
			{"POST /api/personalization/save", "/api/personalization/save", `{}`, levels(identified)},

			{"GET /api/digital-twin/equipment", "/api/digital-twin/equipment", "", levels(anyone)},
			{"GET /api/digital-twin-equipment", "/api/digital-twin-equipment", "", levels(anyone)},
			{"POST /api/digital-twin/equipment", "/api/digital-twin/equipment", `{}`, levels(staff)},
			// A twin org A's staff added is theirs alone; the shared seeded
			// fleet is TestTwinOwnership's.
			{"PUT /api/digital-twin/equipment/{id}", f.twin, `{}`, with(levels(staff), ivy, 403)},
			{"DELETE /api/digital-twin/equipment/{id}", f.retiring, "", with(levels(staff), ivy, 403)},
			{"POST /api/digital-twin/connection-test", "/api/digital-twin/connection-test", `{}`, levels(staff)},
			{"GET /api/digital-twin/equipment-alerts", "/api/digital-twin/equipment-alerts", "", levels(anyone)},
			{"GET /api/digital-twin/equipment/{id}/data-streams", f.twin + "/data-streams", "", levels(anyone)},
			{"POST /api/digital-twin/equipment/{id}/sensor-data", f.twin + "/sensor-data", `{}`, with(levels(staff), ivy, 403)},
			{"POST /api/digital-twin/equipment/{id}/simulate-communication", f.twin + "/simulate-communication", `{}`, with(levels(staff), ivy, 403)},
			{"GET /api/equipment/{id}/mqtt-credentials", strings.Replace(f.twin, "digital-twin/", "", 1) + "/mqtt-credentials", "", with(levels(staff), ivy, 403)},
		}

		var table []string
		for _, rt := range s.apiRoutes() {
			table = append(table, rt.pattern)
		}
		for _, row := range rows {
			if !slices.Contains(table, row.pattern) {
				t.Errorf("matrix row %q is not a route of the table", row.pattern)
			}
			table = slices.DeleteFunc(table, func(p string) bool { return p == row.pattern })
		}
		for _, p := range table {
			t.Errorf("route %q has no row in the authorization matrix", p)
		}

		for _, row := range rows {
			method, _, _ := strings.Cut(row.pattern, " ")
			for _, who := range callers {
				name := who
				if name == "" {
					name = "anonymous"
				}
				t.Run(row.pattern+"/"+name, func(t *testing.T) {
					var req *http.Request
					if row.body == "" {
						req = httptest.NewRequest(method, row.path, nil)
					} else {
						req = httptest.NewRequest(method, row.path, strings.NewReader(row.body))
						if !strings.Contains(row.path, "roster") {
							req.Header.Set("Content-Type", "application/json")
						}
					}
					// Sign-out would end the caller's session for the rows after it.
					if strings.Contains(row.path, "sign-out") && who != anon && who != gus {
						req = withFreshSession(t, s, req, who)
					} else {
						req = as(t, s, req, who)
					}
					res := do(t, s, req)
					if strings.Contains(row.path, "sign-out") && who != anon && who != gus {
						resignIn(t, s, who) // signing out everywhere ended the matrix's session too
					}
					want := row.want[who]
					switch {
					case want == pass && (res.status == 401 || res.status == 403 || res.status >= 500):
						t.Errorf("%s as %s: %d %s, want it let through", row.path, name, res.status, res.body)
					case want != pass && res.status != want:
						t.Errorf("%s as %s: %d %s, want %d", row.path, name, res.status, res.body, want)
					}
				})
			}
		}
	})
}

// withFreshSession signs who in anew for one request, so that ending that
// session leaves the matrix's own session of who alive.
func withFreshSession(t *testing.T, s *Server, req *http.Request, who string) *http.Request {
	t.Helper()
	v, _ := testSessions.Load(s.guests.Fingerprint() + "/" + who)
	rec := httptest.NewRecorder()
	if err := s.signIn(rec, httptest.NewRequest("POST", "/", nil), v.(account).user); err != nil {
		t.Fatal(err)
	}
	for _, c := range rec.Result().Cookies() {
		if c.Name == SessionCookie {
			req.AddCookie(c)
		}
	}
	return req
}

// resignIn gives who a new session in place of one that was ended.
func resignIn(t *testing.T, s *Server, who string) {
	t.Helper()
	key := s.guests.Fingerprint() + "/" + who
	v, _ := testSessions.Load(key)
	u, err := s.store.GetUser(context.Background(), v.(account).user.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	if err := s.signIn(rec, httptest.NewRequest("POST", "/", nil), u); err != nil {
		t.Fatal(err)
	}
	for _, c := range rec.Result().Cookies() {
		if c.Name == SessionCookie {
			testSessions.Store(key, account{session: c.Value, user: u})
		}
	}
}

// A refusal names what the route needs and what the caller is: a staff
// route admits admins as well as instructors, and says so.
func TestRefusalSaysWhatIsNeeded(t *testing.T) {
	learner := identity.Caller{ID: "u1", Role: identity.Learner, OrgID: "o1", Email: "l@example.org", Presented: true}
	instructor := learner
	instructor.Role = identity.Instructor
	lone := learner
	lone.OrgID = ""
	tests := []struct {
		name   string
		caller identity.Caller
		level  identity.Level
		status int
		want   string
	}{
		{"NoIdentity", identity.Caller{Role: identity.Guest}, identity.Identified, 401, "no identity"},
		{"Guest", identity.Caller{ID: "g1", Role: identity.Guest, Presented: true}, identity.Member, 401, "sign in first"},
		{"NoOrganisation", lone, identity.OrgMember, 403, "you are not in one"},
		{"LearnerOnStaff", learner, identity.Staff, 403, "this needs the role of instructor or admin in your organisation; you are learner"},
		{"InstructorOnAdmin", instructor, identity.OrgAdmin, 403, "this needs the role of admin in your organisation; you are instructor"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			s := MustOpenServer(t)
			s.writeError(rec, httptest.NewRequest("GET", "/api/x", nil), refusal(tt.caller, tt.level))
			if rec.Code != tt.status || !strings.Contains(message(t, rec.Body.String()), tt.want) {
				t.Fatalf("got %d %q, want %d with %q", rec.Code, rec.Body.String(), tt.status, tt.want)
			}
		})
	}
}
