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

	"journeyman/internal/catalog"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// MustOpenXRServer returns a started server on st seeded with the real
// catalog; its realtime listeners stop and its sockets close with the test.
func MustOpenXRServer(tb testing.TB, st *store.Store) *Server {
	tb.Helper()
	if err := st.SeedCatalog(context.Background(), catalog.Trades(), catalog.Modules()); err != nil {
		tb.Fatal(err)
	}
	s, err := New(st, Config{Logger: slog.New(slog.DiscardHandler), App: testApp})
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.Start(ctx)
	tb.Cleanup(func() {
		s.CloseRealtime()
		cancel()
	})
	return s
}

var (
	alice = "alice"
	bob   = "bob"
)

// call sends a JSON request as the person named user ("" for nobody) and
// returns the response.
func call(tb testing.TB, s *Server, user, method, path, body string) response {
	tb.Helper()
	var req *http.Request
	if body == "" {
		req = httptest.NewRequest(method, path, nil)
	} else {
		req = httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	}
	return do(tb, s, as(tb, s, req, user))
}

func decode[T any](tb testing.TB, res response) T {
	tb.Helper()
	var v T
	if err := json.Unmarshal([]byte(res.body), &v); err != nil {
		tb.Fatalf("decode %s: %v", res.body, err)
	}
	return v
}

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

var (
	started      = storetest.FixedNow.Add(-10 * time.Minute)
	sessionClock int
)

// newSession starts a session; each starts a second after the one before,
// so that history order is defined.
func newSession(tb testing.TB, s *Server, user, module, typ string) training.Session {
	tb.Helper()
	sessionClock++
	res := call(tb, s, user, "POST", "/api/xr-sessions",
		fmt.Sprintf(`{"moduleId":%q,"sessionType":%q,"deviceType":"Mozilla/5.0","startedAt":%q}`, module, typ, ts(started.Add(time.Duration(sessionClock)*time.Second))))
	if res.status != http.StatusCreated {
		tb.Fatalf("create session: %d %s", res.status, res.body)
	}
	return decode[training.Session](tb, res)
}

// checkError asserts a status and that the JSON message names want.
func checkError(tb testing.TB, res response, status int, want string) {
	tb.Helper()
	if res.status != status {
		tb.Fatalf("status = %d, want %d; body %s", res.status, status, res.body)
	}
	if want != "" && !strings.Contains(message(tb, res.body), want) {
		tb.Fatalf("message %q lacks %q", message(tb, res.body), want)
	}
}

func TestCreateSession(t *testing.T) {
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	at := ts(started)
	tests := []struct {
		name, body string
		status     int
		want       string
	}{
		{"OK", `{"moduleId":"electrical-lockout-tagout","sessionType":"vr","deviceType":"UA","startedAt":"` + at + `"}`, 201, ""},
		{"OKDefaultsToDesktop", `{"moduleId":"electrical-lockout-tagout","startedAt":"` + at + `"}`, 201, ""},
		{"OKOwnUserId", `{"userId":"` + idOf(t, s, alice) + `","moduleId":"electrical-lockout-tagout","sessionType":"ar","startedAt":"` + at + `"}`, 201, ""},
		{"ErrOtherUserId", `{"userId":"` + idOf(t, s, bob) + `","moduleId":"electrical-lockout-tagout","startedAt":"` + at + `"}`, 403, "userId"},
		{"ErrNoModule", `{"sessionType":"vr","startedAt":"` + at + `"}`, 400, "moduleId is required"},
		{"ErrRouteDefaultModule", `{"moduleId":"default","startedAt":"` + at + `"}`, 400, `moduleId "default" is not a training module`},
		{"ErrComponentDefaultModule", `{"moduleId":"sample-welding-module","startedAt":"` + at + `"}`, 400, "moduleId"},
		{"ErrModuleTooLong", `{"moduleId":"` + strings.Repeat("m", 129) + `","startedAt":"` + at + `"}`, 400, "moduleId must be at most 128"},
		{"ErrSessionType", `{"moduleId":"electrical-lockout-tagout","sessionType":"hologram","startedAt":"` + at + `"}`, 400, "sessionType must be one of desktop, vr, ar"},
		{"ErrNoStartedAt", `{"moduleId":"electrical-lockout-tagout"}`, 400, "startedAt is required"},
		{"ErrStartedAtNotATime", `{"moduleId":"electrical-lockout-tagout","startedAt":"yesterday"}`, 400, "malformed JSON"},
		{"ErrStartedAtFuture", `{"moduleId":"electrical-lockout-tagout","startedAt":"` + ts(storetest.FixedNow.Add(time.Hour)) + `"}`, 400, "startedAt must not be in the future"},
		{"ErrStartedAtOld", `{"moduleId":"electrical-lockout-tagout","startedAt":"` + ts(storetest.FixedNow.Add(-48*time.Hour)) + `"}`, 400, "startedAt must be within the last 24 hours"},
		{"ErrDeviceTypeTooLong", `{"moduleId":"electrical-lockout-tagout","deviceType":"` + strings.Repeat("d", 513) + `","startedAt":"` + at + `"}`, 400, "deviceType must be at most 512"},
		{"ErrUnknownField", `{"moduleId":"electrical-lockout-tagout","startedAt":"` + at + `","colour":"red"}`, 400, `unknown field "colour"`},
		{"ErrWrongType", `{"moduleId":7,"startedAt":"` + at + `"}`, 400, `field "moduleId" must be a string`},
		{"ErrEmptyBody", ``, 400, "request body is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, s, alice, "POST", "/api/xr-sessions", tt.body)
			checkError(t, res, tt.status, tt.want)
			if tt.status != 201 {
				return
			}
			x := decode[training.Session](t, res)
			if x.ID == "" || x.UserID != idOf(t, s, alice) || x.ModuleTitle == "" || x.CompletionStatus != "in_progress" ||
				x.EndedAt != nil || x.SafetyScore != nil || !x.StartedAt.Equal(started) {
				t.Fatalf("record = %+v", x)
			}
			if x.SessionType == "" {
				t.Fatal("no session type")
			}
		})
	}
}

// passingInteractions performs every step of scene in order, each half a
// second over its minimum duration, and returns them with the sessionTime
// of the last.
func passingInteractions(scene training.Scene) (string, time.Duration) {
	var b strings.Builder
	var at int64
	for i, st := range scene.Steps {
		if i > 0 {
			b.WriteByte(',')
		}
		at += st.MinDurationMs + 500
		fmt.Fprintf(&b, `{"action":%q,"objectId":%q,"stepId":%q,"sessionTime":%d,"seq":%d,"hand":"right"}`, st.Action, st.Target, st.ID, at, i)
	}
	return b.String(), time.Duration(at) * time.Millisecond
}

func TestSessionLifecycle(t *testing.T) {
	s, clock := MustOpenClockedXRServer(t, storetest.OpenSQLite(t))
	x := newSession(t, s, alice, "electrical-lockout-tagout", "desktop")
	path := "/api/xr-sessions/" + x.ID
	scene := training.SceneForModule("electrical-lockout-tagout", "electrical")

	t.Run("ErrBadUpdates", func(t *testing.T) {
		tests := []struct{ name, body, want string }{
			{"Position", `{"position":{"x":1e6,"y":0,"z":0}}`, "position.x must be a finite number of metres between -10000 and 10000"},
			{"Rotation", `{"rotation":{"x":0,"y":0,"z":0,"w":2}}`, "rotation as a quaternion {x, y, z, w} must have unit length"},
			{"DurationNegative", `{"duration":-1}`, "duration must be between 0"},
			{"DurationTooLong", `{"duration":999999}`, "duration must be between 0"},
			{"DurationNotNumber", `{"duration":"10"}`, `field "duration" must be a whole number, not string`},
			{"InteractionTooBig", `{"interactionData":{"interactions":[{"action":"look","note":"` + strings.Repeat("x", 3000) + `"}]}}`, "interactions[0] is"},
			{"InteractionSessionTime", `{"interactionData":{"interactions":[{"action":"look","sessionTime":-5}]}}`, "interactions[0].sessionTime"},
			{"TooManyInteractions", `{"interactionData":{"interactions":[` + strings.TrimSuffix(strings.Repeat(`{"action":"look"},`, 101), ",") + `]}}`, "at most 100"},
			{"SafetyCheckStatus", `{"interactionData":{"safetyChecks":[{"id":"lock-applied","status":"maybe"}]}}`, "safetyChecks[0].status"},
			{"SafetyCheckID", `{"interactionData":{"safetyChecks":[{"id":"","status":"passed"}]}}`, "safetyChecks[0].id"},
			{"EndWrongStatus", `{"endedAt":"` + ts(storetest.FixedNow) + `","completionStatus":"abandoned"}`, "completionStatus must be completed"},
			{"EndNoEndedAt", `{"completionStatus":"completed"}`, "endedAt is required"},
			{"EndBeforeStart", `{"endedAt":"` + ts(started.Add(-time.Minute)) + `","completionStatus":"completed"}`, "endedAt must not be before startedAt"},
			{"EndInFuture", `{"endedAt":"` + ts(storetest.FixedNow.Add(time.Hour)) + `","completionStatus":"completed"}`, "endedAt must not be in the future"},
			{"ModuleMismatch", `{"moduleId":"hvac-refrigerant-gauges","duration":5}`, "moduleId"},
			{"SessionTypeMismatch", `{"sessionType":"vr","duration":5}`, "sessionType"},
			{"UnknownField", `{"speed":3}`, `unknown field "speed"`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				checkError(t, call(t, s, alice, "PATCH", path, tt.body), 400, tt.want)
			})
		}
	})
	t.Run("ErrUnknownSession", func(t *testing.T) {
		checkError(t, call(t, s, alice, "PATCH", "/api/xr-sessions/nope", `{"duration":1}`), 404, "does not exist")
		checkError(t, call(t, s, alice, "PATCH", "/api/xr-sessions/nope", `{"endedAt":"`+ts(storetest.FixedNow)+`","completionStatus":"completed"}`), 404, "does not exist")
	})
	t.Run("ErrAnotherLearners", func(t *testing.T) {
		checkError(t, call(t, s, bob, "PATCH", path, `{"duration":1}`), 403, "another learner")
		checkError(t, call(t, s, alice, "PATCH", path, `{"userId":"`+bob+`","duration":1}`), 403, "userId")
	})
	t.Run("PeriodicUpdate", func(t *testing.T) {
		ins, took := passingInteractions(scene)
		clock.advance(took) // the learner took that long
		body := `{"position":{"x":0.5,"y":1.6,"z":-1},"rotation":{"x":0,"y":0,"z":0,"w":1},"duration":30,
			"interactionData":{"interactions":[` + ins + `],"safetyChecks":[{"id":"lock-applied","status":"passed"}]}}`
		res := call(t, s, alice, "PATCH", path, body)
		checkError(t, res, 200, "")
		got := decode[training.Session](t, res)
		if got.Duration != 30 || got.Position.Z != -1 || len(got.InteractionData.Interactions) != len(scene.Steps) ||
			got.CompletionStatus != "in_progress" || got.SafetyScore != nil {
			t.Fatalf("after update: %+v", got)
		}
		// A retried update (same seqs) stores nothing twice; its answer lists
		// only what it stored.
		res = call(t, s, alice, "PATCH", path, body)
		if n := len(decode[training.Session](t, res).InteractionData.Interactions); n != 0 {
			t.Fatalf("retry answered %d new interactions, want 0", n)
		}
		if stored, err := s.store.GetSession(context.Background(), x.ID); err != nil || len(stored.InteractionData.Interactions) != len(scene.Steps) {
			t.Fatalf("after the retry: %d interactions stored (%v), want %d", len(stored.InteractionData.Interactions), err, len(scene.Steps))
		}
	})
	t.Run("LiveWhileRunning", func(t *testing.T) {
		live := decode[[]training.SessionSummary](t, call(t, s, bob, "GET", "/api/live-sessions", ""))
		if len(live) != 1 || live[0].ID != x.ID || live[0].ModuleTitle == "" {
			t.Fatalf("live = %+v", live)
		}
		checkError(t, call(t, s, bob, "GET", "/api/live-sessions?minutes=0", ""), 400, "minutes must be an integer from 1 to 60")
	})
	t.Run("End", func(t *testing.T) {
		res := call(t, s, alice, "PATCH", path, `{"endedAt":"`+ts(storetest.FixedNow)+`","duration":600,"completionStatus":"completed",
			"userId":"`+idOf(t, s, alice)+`","moduleId":"electrical-lockout-tagout","sessionType":"desktop","deviceType":"Mozilla/5.0",
			"interactionData":{"interactions":[],"safetyChecks":[]}}`)
		checkError(t, res, 200, "")
		got := decode[training.Session](t, res)
		if got.CompletionStatus != "completed" || got.EndedAt == nil || got.Duration != 600 || got.SafetyScore == nil ||
			*got.SafetyScore != 100 || got.InteractionData.CompletionStatus != "passed" || len(got.InteractionData.SafetyChecks) != len(scene.SafetyChecks) ||
			!got.Verified || len(got.VerificationIssues) != 0 {
			t.Fatalf("ended: %+v", got)
		}
	})
	t.Run("ErrAlreadyEnded", func(t *testing.T) {
		checkError(t, call(t, s, alice, "PATCH", path, `{"duration":700}`), 409, "already ended")
		checkError(t, call(t, s, alice, "PATCH", path, `{"endedAt":"`+ts(storetest.FixedNow)+`","completionStatus":"completed"}`), 409, "already ended")
	})
	t.Run("SkippedSafetyCheckLowersScore", func(t *testing.T) {
		y := newSession(t, s, alice, "electrical-lockout-tagout", "vr")
		// The lock is skipped: every step but apply-lock is done, at a
		// learner's pace.
		var ins []string
		var at int64
		for _, st := range scene.Steps {
			action := st.Action
			if st.ID == "apply-lock" {
				action = training.ActionSkip
			}
			at += st.MinDurationMs + 500
			ins = append(ins, fmt.Sprintf(`{"action":%q,"objectId":%q,"stepId":%q,"sessionTime":%d}`, action, st.Target, st.ID, at))
		}
		clock.advance(time.Duration(at) * time.Millisecond)
		res := call(t, s, alice, "PATCH", "/api/xr-sessions/"+y.ID, `{"endedAt":"`+ts(storetest.FixedNow)+`","completionStatus":"completed",
			"interactionData":{"interactions":[`+strings.Join(ins, ",")+`]}}`)
		got := decode[training.Session](t, res)
		if got.SafetyScore == nil || *got.SafetyScore != 76.9 || got.InteractionData.CompletionStatus != "failed" || got.Duration != 600-int64(sessionClock) || !got.Verified {
			t.Fatalf("score %v outcome %s duration %d; want 76.9 (lock weight 3 of 13), failed, endedAt - startedAt",
				got.SafetyScore, got.InteractionData.CompletionStatus, got.Duration)
		}
	})
	t.Run("HistoryAndAnalytics", func(t *testing.T) {
		newSession(t, s, alice, "hvac-refrigerant-gauges", "ar") // still running
		res := call(t, s, alice, "GET", "/api/users/"+idOf(t, s, alice)+"/xr-sessions?limit=2", "")
		checkError(t, res, 200, "")
		list := decode[[]training.SessionSummary](t, res)
		if res.header.Get("X-Total-Count") != "3" || len(list) != 2 || list[0].ID == x.ID {
			t.Fatalf("page = %+v, total %s", list, res.header.Get("X-Total-Count"))
		}
		all := decode[[]training.SessionSummary](t, call(t, s, alice, "GET", "/api/users/"+idOf(t, s, alice)+"/xr-sessions", ""))
		if len(all) != 3 || all[2].ID != x.ID || all[2].ModuleTitle == "" || all[2].SafetyScore == nil || all[2].EndedAt == nil {
			t.Fatalf("all = %+v", all)
		}
		if rest := decode[[]training.SessionSummary](t, call(t, s, alice, "GET", "/api/users/"+idOf(t, s, alice)+"/xr-sessions?offset=2", "")); len(rest) != 1 || rest[0].ID != x.ID {
			t.Fatalf("offset 2 = %+v", rest)
		}

		a := decode[training.Analytics](t, call(t, s, alice, "GET", "/api/users/"+idOf(t, s, alice)+"/xr-analytics", ""))
		if a.TotalSessions != 2 || a.TotalDuration != 1200-int64(sessionClock)+1 || a.AverageSafetyScore != 88.5 || a.CompletedModules != 1 || len(a.TradeProgress) != len(catalog.Trades()) {
			t.Fatalf("analytics = %+v", a)
		}
		for _, tp := range a.TradeProgress {
			if tp.TradeID == "electrical" && (tp.Completed != 1 || tp.Total == 0 || tp.Percent == 0 || tp.TradeName != "Electrical") {
				t.Fatalf("electrical progress = %+v", tp)
			}
		}
		empty := decode[training.Analytics](t, call(t, s, bob, "GET", "/api/users/"+idOf(t, s, bob)+"/xr-analytics", ""))
		if empty.TotalSessions != 0 || empty.CompletedModules != 0 || empty.AverageSafetyScore != 0 {
			t.Fatalf("bob's analytics = %+v", empty)
		}
	})
	t.Run("ErrBadListRequests", func(t *testing.T) {
		tests := []struct {
			name, path string
			status     int
			want       string
		}{
			{"OtherLearnersHistory", "/api/users/" + idOf(t, s, bob) + "/xr-sessions", 403, "only read your own"},
			{"OtherLearnersAnalytics", "/api/users/" + idOf(t, s, bob) + "/xr-analytics", 403, "only read your own"},
			{"LimitZero", "/api/users/" + idOf(t, s, alice) + "/xr-sessions?limit=0", 400, "limit must be an integer from 1 to 100"},
			{"LimitTooBig", "/api/users/" + idOf(t, s, alice) + "/xr-sessions?limit=101", 400, "limit"},
			{"LimitNotNumber", "/api/users/" + idOf(t, s, alice) + "/xr-sessions?limit=ten", 400, "limit"},
			{"OffsetNegative", "/api/users/" + idOf(t, s, alice) + "/xr-sessions?offset=-1", 400, "offset"},
			{"AlertsLimit", "/api/safety-alerts?limit=500", 400, "limit must be an integer from 1 to 200"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) { checkError(t, call(t, s, alice, "GET", tt.path, ""), tt.status, tt.want) })
		}
	})
}

func TestSessionStartsAreRateLimited(t *testing.T) {
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	body := `{"moduleId":"electrical-lockout-tagout","startedAt":"` + ts(started) + `"}`
	for i := range SessionStartBurst {
		if res := call(t, s, bob, "POST", "/api/xr-sessions", body); res.status != http.StatusCreated {
			t.Fatalf("start %d: %d %s", i, res.status, res.body)
		}
	}
	res := call(t, s, bob, "POST", "/api/xr-sessions", body)
	checkError(t, res, http.StatusTooManyRequests, "too many sessions started")
	if res.header.Get("Retry-After") == "" {
		t.Error("no Retry-After")
	}
	// Another learner has their own budget.
	checkError(t, call(t, s, alice, "POST", "/api/xr-sessions", body), http.StatusCreated, "")
}

func TestXRContent(t *testing.T) {
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	tests := []struct {
		name, path string
		status     int
		want       string
	}{
		{"Module", "/api/training-modules/electrical-lockout-tagout/xr-content", 200, `"sceneUrl":"/api/xr-scenes/electrical-lockout-tagout"`},
		{"ModuleOfOtherTrade", "/api/training-modules/hvac-refrigerant-gauges/xr-content", 200, `"safetyChecks"`},
		{"ErrUnknownModule", "/api/training-modules/default/xr-content", 404, `training module \"default\" does not exist`},
		{"Scene", "/api/xr-scenes/welding-joint-preparation", 200, `"passCriteria"`},
		{"ErrUnknownScene", "/api/xr-scenes/moon-base", 404, `XR scene \"moon-base\" does not exist`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, s, alice, "GET", tt.path, "")
			if res.status != tt.status || !strings.Contains(res.body, tt.want) {
				t.Fatalf("got %d %s; want %d with %s", res.status, res.body, tt.status, tt.want)
			}
		})
	}
	c := decode[training.XRContent](t, call(t, s, alice, "GET", "/api/training-modules/electrical-lockout-tagout/xr-content", ""))
	if c.ModuleTitle == "" || len(c.Scene.Steps) == 0 || c.Scene.ID != "electrical-lockout-tagout" {
		t.Fatalf("content = %+v", c)
	}
}

// The records survive a restart: a second server on the same database file
// reads them back.
func TestSessionsSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	open := func() *store.Store {
		st, err := store.Open(context.Background(), dir+"/j.db")
		if err != nil {
			t.Fatal(err)
		}
		st.Now = func() time.Time { return storetest.FixedNow }
		return st
	}
	st := open()
	s := MustOpenXRServer(t, st)
	x := newSession(t, s, alice, "welding-joint-preparation", "desktop")
	s.CloseRealtime()
	st.Close()

	st2 := open()
	defer st2.Close()
	s2 := MustOpenXRServer(t, st2)
	list := decode[[]training.SessionSummary](t, call(t, s2, alice, "GET", "/api/users/"+idOf(t, s2, alice)+"/xr-sessions", ""))
	if len(list) != 1 || list[0].ID != x.ID {
		t.Fatalf("after restart: %+v", list)
	}
}
