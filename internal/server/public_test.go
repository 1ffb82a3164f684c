package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"journeyman/internal/outreach"
	"journeyman/internal/store/storetest"
)

// guest makes one API call and returns the learner cookie it was given.
func guest(tb testing.TB, s *Server) *http.Cookie {
	tb.Helper()
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("GET", "/api/me", nil))
	for _, c := range rec.Result().Cookies() {
		if c.Name == GuestCookie {
			return c
		}
	}
	tb.Fatal("no learner cookie issued")
	return nil
}

func asGuest(req *http.Request, c *http.Cookie) *http.Request {
	req.AddCookie(c)
	return req
}

func postJSON(path, body string) *http.Request {
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return req
}

func TestDashboardStatsEndpoint(t *testing.T) {
	s := MustOpenServer(t)
	t.Run("EmptyDatabaseIsZeros", func(t *testing.T) {
		res := do(t, s, httptest.NewRequest("GET", "/api/analytics/dashboard-stats", nil))
		want := `{"activeLearners":0,"totalCertifications":0,"totalXrSessions":0,"averageSafetyScore":0,"scope":"platform"}` + "\n"
		if res.status != 200 || res.body != want {
			t.Fatalf("got %d %s, want 200 %s", res.status, res.body, want)
		}
	})
	t.Run("FromStoredSessions", func(t *testing.T) {
		c := guest(t, s)
		id, _ := s.guests.Check(c.Value)
		if err := s.store.EnsureGuest(context.Background(), id); err != nil {
			t.Fatal(err)
		}
		for i, sc := range []float64{92.4, 70} {
			started := storetest.FixedNow.Add(-time.Duration(i+1) * time.Hour)
			if _, err := s.store.DB().ExecContext(context.Background(), `
				INSERT INTO xr_sessions (id, user_id, module_id, session_type, started_at, ended_at, completion_status, safety_score, updated_at, verified)
				VALUES ($1, $2, 'electrical-loto', 'vr', $3, $3, 'completed', $4, $3, TRUE)`, "s"+string(rune('1'+i)), id, started, sc); err != nil {
				t.Fatal(err)
			}
		}
		res := do(t, s, httptest.NewRequest("GET", "/api/analytics/dashboard-stats", nil))
		var got outreach.DashboardStats
		if err := json.Unmarshal([]byte(res.body), &got); err != nil {
			t.Fatal(err)
		}
		want := outreach.DashboardStats{ActiveLearners: 1, TotalXRSessions: 2, AverageSafetyScore: 81.2, Scope: outreach.ScopePlatform}
		if got != want {
			t.Fatalf("got %+v, want %+v", got, want)
		}
	})
}

const goodDemoRequest = `{"name":"Ada Lovelace","email":"ada@example.com","organisation":"Local 26 JATC","message":"Please show us the welding modules.","interest":"welding"}`

func TestCreateDemoRequest(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		status  int
		bodyHas []string
	}{
		{"OK", goodDemoRequest, 201, []string{`"name":"Ada Lovelace"`, `"interest":"welding"`, `"createdAt":"`}},
		{"OKTrimsAndOmitsInterest", `{"name":" Ada ","email":"ada@example.com","organisation":"JATC","message":"  Show me the HVAC line.  "}`, 201,
			[]string{`"name":"Ada"`, `"message":"Show me the HVAC line."`, `"interest":""`}},
		{"ErrEveryField", `{"name":"","email":"ada","organisation":"","message":"hi"}`, 400,
			[]string{"name: is required", "email: must be an address like name@example.com", "organisation: is required", "message: must be at least 10 characters"}},
		{"ErrTooLong", `{"name":"` + strings.Repeat("n", 101) + `","email":"ada@example.com","organisation":"JATC","message":"Please show us around."}`, 400,
			[]string{"name: must be at most 100 characters"}},
		{"ErrUnknownField", `{"name":"Ada","phone":"555"}`, 400, []string{`unknown field "phone"`}},
		{"ErrWrongType", `{"name":7}`, 400, []string{`field "name" must be a string`}},
		{"ErrEmptyBody", ``, 400, []string{"request body is empty"}},
		{"ErrMalformed", `{"name":`, 400, []string{"malformed JSON"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := MustOpenServer(t)
			res := do(t, s, as(t, s, postJSON("/api/demo-requests", tt.body), "ada"))
			if res.status != tt.status {
				t.Fatalf("status = %d, want %d; body %s", res.status, tt.status, res.body)
			}
			text := res.body
			if tt.status >= 400 {
				text = message(t, res.body)
			}
			for _, want := range tt.bodyHas {
				if !strings.Contains(text, want) {
					t.Errorf("answer %s lacks %q", text, want)
				}
			}
			if strings.Contains(res.body, "learner") {
				t.Errorf("body %s shows the learner id", res.body)
			}
		})
	}
}

func TestDemoRequestsStoredPerLearnerAndRateLimited(t *testing.T) {
	s := MustOpenServer(t)
	ada, bob := guest(t, s), guest(t, s)
	for i := range outreach.DemoRequestLimit {
		if res := do(t, s, asGuest(postJSON("/api/demo-requests", goodDemoRequest), ada)); res.status != 201 {
			t.Fatalf("request %d: %d %s", i+1, res.status, res.body)
		}
	}
	res := do(t, s, asGuest(postJSON("/api/demo-requests", goodDemoRequest), ada))
	if res.status != http.StatusTooManyRequests || !strings.Contains(message(t, res.body), "demo requests in the last hour") {
		t.Fatalf("request %d: %d %s, want 429", outreach.DemoRequestLimit+1, res.status, res.body)
	}
	if res := do(t, s, asGuest(postJSON("/api/demo-requests", goodDemoRequest), bob)); res.status != 201 {
		t.Fatalf("another learner: %d %s, want 201", res.status, res.body)
	}

	var list []outreach.DemoRequest
	res = do(t, s, asGuest(httptest.NewRequest("GET", "/api/demo-requests", nil), ada))
	if err := json.Unmarshal([]byte(res.body), &list); err != nil || res.status != 200 {
		t.Fatalf("list: %d %s", res.status, res.body)
	}
	if len(list) != outreach.DemoRequestLimit || list[0].Organisation != "Local 26 JATC" {
		t.Fatalf("ada's list has %d requests (%+v), want %d", len(list), list, outreach.DemoRequestLimit)
	}
}

func TestDemoRequestRejectsCrossOriginPost(t *testing.T) {
	s := MustOpenServer(t)
	req := postJSON("/api/demo-requests", goodDemoRequest)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if res := do(t, s, req); res.status != http.StatusForbidden {
		t.Fatalf("cross-site POST: %d %s, want 403", res.status, res.body)
	}
}
