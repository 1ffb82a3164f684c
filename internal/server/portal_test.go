package server

import (
	"context"
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
	"time"

	"journeyman/internal/identity"
	"journeyman/internal/portal"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// readCSV checks that an answer is a CSV download a spreadsheet opens
// correctly and returns its rows.
func readCSV(t *testing.T, res response, filePrefix string) [][]string {
	t.Helper()
	if res.status != http.StatusOK || res.header.Get("Content-Type") != "text/csv; charset=utf-8" {
		t.Fatalf("export: %d %s %s", res.status, res.header.Get("Content-Type"), res.body)
	}
	if cd := res.header.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename=`+filePrefix) || !strings.HasSuffix(cd, ".csv") {
		t.Errorf("Content-Disposition = %q, want an attachment named %s…", cd, filePrefix)
	}
	body, ok := strings.CutPrefix(res.body, "\ufeff")
	if !ok || !strings.Contains(body, "\r\n") {
		t.Fatalf("export does not start with a byte order mark or lacks CRLF line ends: %q", res.body[:min(len(res.body), 40)])
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatalf("export is not valid CSV: %v", err)
	}
	return rows
}

func TestPortal(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s, clock := MustOpenClockedXRServer(t, st)
		ctx := context.Background()
		pia := mustAccount(t, s, "Pia", "Org P", identity.Instructor)
		mustAccount(t, s, "Ned", "Org P", identity.Instructor)
		lou := mustAccount(t, s, "Lou", "Org P", identity.Learner)
		eve := mustAccount(t, s, "Eve", "Org P", identity.Learner)
		mustAccount(t, s, "Oz", "Org Q", identity.Instructor)
		co, err := s.store.CreateCohort(ctx, pia.OrgID, "Line crew", pia.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []store.User{lou, eve} {
			if err := s.store.AddCohortMember(ctx, pia.OrgID, co.ID, u.ID); err != nil {
				t.Fatal(err)
			}
		}
		// Eve's name would run as a formula in a spreadsheet.
		checkError(t, call(t, s, "Eve", "PATCH", "/api/account", `{"displayName":"=HYPERLINK(\"http://x\")"}`), 200, "")

		scene := training.SceneForModule("electrical-lockout-tagout", "electrical")
		x, wantSteps := passModule(t, s, clock, "Lou", "electrical-lockout-tagout")
		cohortPath := "/api/portal/cohorts/" + co.ID

		t.Run("ErrCohortMemberWithoutUserID", func(t *testing.T) {
			// It said "userId  is not a member of your organisation", naming nobody.
			for _, body := range []string{`{}`, `{"userId":""}`, `{"userId":"  "}`} {
				checkError(t, call(t, s, "Pia", "POST", "/api/cohorts/"+co.ID+"/members", body), 400, "userId is required")
			}
		})

		t.Run("CohortLearners", func(t *testing.T) {
			got := decode[cohortLearners](t, call(t, s, "Pia", "GET", cohortPath+"/learners?sort=sessions&dir=desc", ""))
			if got.Cohort.ID != co.ID || got.Total != 2 || len(got.Learners) != 2 {
				t.Fatalf("answer = %+v", got)
			}
			l := got.Learners[0]
			if l.ID != lou.ID || l.Sessions != 1 || l.TimeSeconds != 25 || l.ModulesCompleted != 1 || l.AverageSafetyScore == nil ||
				*l.AverageSafetyScore != 100 || l.UnverifiedSessions != 0 || l.LastActive == nil || !l.LastActive.Equal(clock.now()) {
				t.Errorf("Lou = %+v", l)
			}
			if e := got.Learners[1]; e.ID != eve.ID || e.Sessions != 0 || e.LastActive != nil || e.AverageSafetyScore != nil {
				t.Errorf("Eve = %+v", e)
			}
			// The instructor of another cohort of the organisation is refused;
			// another organisation's does not see it at all.
			checkError(t, call(t, s, "Ned", "GET", cohortPath+"/learners", ""), 403, "taught by another instructor")
			checkError(t, call(t, s, "Oz", "GET", cohortPath+"/learners", ""), 404, "")
		})
		for _, tc := range []struct{ query, problem string }{
			{"sort=email", "sort must be one of"},
			{"dir=up", "dir must be asc or desc"},
			{"flag=lazy", "flag must be one of"},
			{"limit=0", "limit must be an integer from 1 to 100"},
			{"limit=101", "limit must be an integer from 1 to 100"},
			{"offset=-1", "offset must be an integer from 0"},
			{"q=" + strings.Repeat("a", portal.MaxQuery+1), "q must be at most"},
		} {
			t.Run("Err/"+tc.query[:min(len(tc.query), 12)], func(t *testing.T) {
				checkError(t, call(t, s, "Pia", "GET", cohortPath+"/learners?"+tc.query, ""), 400, tc.problem)
			})
		}

		t.Run("Learner", func(t *testing.T) {
			got := decode[portalLearner](t, call(t, s, "Pia", "GET", "/api/portal/learners/"+lou.ID, ""))
			if got.Learner.ID != lou.ID || got.Learner.Email != "lou@example.test" || len(got.Learner.Cohorts) != 1 ||
				got.Learner.Cohorts[0].Name != "Line crew" || got.Figures.Sessions != 1 || got.Figures.ModulesCompleted != 1 {
				t.Errorf("learner = %+v", got)
			}
			// An instructor of another organisation is told whose records these are not, not that they may only read their own.
			checkError(t, call(t, s, "Oz", "GET", "/api/portal/learners/"+lou.ID, ""), 403, "user "+lou.ID+" is not a member of your organisation")
			// The session list carries each session's judged safety checks
			// and device, so that a list shows them without a call a row.
			list := decode[[]training.SessionSummary](t, call(t, s, "Pia", "GET", "/api/users/"+lou.ID+"/xr-sessions", ""))
			if len(list) != 1 || len(list[0].SafetyChecks) != len(scene.SafetyChecks) || list[0].DeviceType != "Mozilla/5.0" {
				t.Fatalf("sessions = %+v", list)
			}
			for _, c := range list[0].SafetyChecks {
				if c.Status != training.CheckPassed {
					t.Errorf("check %+v, want passed", c)
				}
			}
		})

		t.Run("Review", func(t *testing.T) {
			for _, who := range []string{"Pia", "Lou"} {
				got := decode[sessionReview](t, call(t, s, who, "GET", "/api/users/"+lou.ID+"/xr-sessions/"+x.ID+"/review", ""))
				if got.Session.ID != x.ID || got.Session.Outcome != training.OutcomePassed || !got.Session.Verified ||
					len(got.Steps) != len(scene.Steps) || len(got.Events) != len(scene.Steps) || len(got.SafetyChecks) != len(scene.SafetyChecks) {
					t.Fatalf("review as %s = %+v", who, got)
				}
				for k, st := range got.Steps {
					if st.Status != training.StepCompleted || st.DurationMs == nil || *st.DurationMs != wantSteps[k] {
						t.Errorf("step %d = %+v, want completed in %d ms", k, st, wantSteps[k])
					}
				}
				for _, c := range got.SafetyChecks {
					if c.Status != training.CheckPassed || c.Description == "" {
						t.Errorf("check %+v, want passed and described", c)
					}
				}
				// A session without a weld lists none: [], not null.
				if got.Welds == nil || len(got.Welds) != 0 {
					t.Errorf("welds = %#v, want []", got.Welds)
				}
			}
			// Eve's path with Lou's session is not Lou's session.
			checkError(t, call(t, s, "Pia", "GET", "/api/users/"+eve.ID+"/xr-sessions/"+x.ID+"/review", ""), 404, "")
		})

		t.Run("CohortExport", func(t *testing.T) {
			rows := readCSV(t, call(t, s, "Pia", "GET", cohortPath+"/export.csv", ""), "cohort-line-crew-")
			modules := len(s.catalogModules(t))
			if len(rows) != 1+2*modules || rows[0][0] != "Learner" || rows[0][4] != "Status" {
				t.Fatalf("%d rows, header %q; want a header and %d rows", len(rows), rows[0], 2*modules)
			}
			// Learners by name: "=HYPERLINK…" sorts before "Lou", neutralised.
			if rows[1][0] != `'=HYPERLINK("http://x")` {
				t.Errorf("first learner cell %q, want the formula neutralised", rows[1][0])
			}
			found := false
			for _, r := range rows[1:] {
				if r[0] == "Lou" && r[2] == "electrical-lockout-tagout" {
					found = true
					if r[4] != "passed" || r[5] != "100" || r[6] != "1" || r[7] != "0.4" || r[8] != clock.now().Format("2006-01-02 15:04:05") {
						t.Errorf("Lou's lockout row = %q", r)
					}
				} else if r[4] != "not started" || r[6] != "0" {
					t.Errorf("row %q, want not started", r)
				}
			}
			if !found {
				t.Error("no row for Lou's lockout module")
			}
			checkError(t, call(t, s, "Ned", "GET", cohortPath+"/export.csv", ""), 403, "")
		})

		t.Run("LearnerExport", func(t *testing.T) {
			rows := readCSV(t, call(t, s, "Pia", "GET", "/api/portal/learners/"+lou.ID+"/export.csv", ""), "sessions-lou-")
			if len(rows) != 2 || rows[1][0] != x.ID || rows[1][3] != "vr" || rows[1][9] != "passed" || rows[1][10] != "100" ||
				rows[1][11] != "yes" || rows[1][14] != "" || rows[1][13] == "" {
				t.Errorf("rows = %q", rows)
			}
		})

		// Last, as it moves the clock on: Lou's pass scheduled a refresher
		// when the session ended, without Lou opening the refreshers.
		t.Run("RefreshersFollowSessions", func(t *testing.T) {
			clock.advance(400 * 24 * time.Hour)
			got := decode[cohortLearners](t, call(t, s, "Pia", "GET", cohortPath+"/learners?flag=refreshersDue", ""))
			if got.Total != 1 || got.Learners[0].ID != lou.ID || got.Learners[0].RefreshersDue != 1 {
				t.Errorf("learners with refreshers due = %+v", got)
			}
		})
	})
}

// A session of Multimeter Fundamentals recorded before the module had a
// scene of its own trained in the electrical trade's lockout/tagout scene:
// its review replays it against that scene, not against steps it never saw.
func TestReviewOfSessionInItsTradesScene(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s, clock := MustOpenClockedXRServer(t, st)
		lou := mustAccount(t, s, "Lou", "", identity.Learner)
		trade := training.SceneForModule("electrical-lockout-tagout", "electrical")
		own := training.SceneForModule("electrical-meter-basics", "electrical")
		if own.ID == trade.ID {
			t.Fatal("Multimeter Fundamentals has no scene of its own")
		}
		for _, tc := range []struct {
			name  string
			scene training.Scene
		}{{"TradeScene", trade}, {"OwnScene", own}} {
			t.Run(tc.name, func(t *testing.T) {
				x := newSession(t, s, "Lou", "electrical-meter-basics", "desktop")
				var ms int64
				for i, step := range tc.scene.Steps[:2] {
					ms += step.MinDurationMs + 600
					clock.advance(time.Duration(step.MinDurationMs+600) * time.Millisecond)
					checkError(t, call(t, s, "Lou", "PATCH", "/api/xr-sessions/"+x.ID,
						`{"interactionData":{"interactions":[`+stepJSON(step, step.Action, ms, i)+`]}}`), 200, "")
				}
				got := decode[sessionReview](t, call(t, s, "Lou", "GET", "/api/users/"+lou.ID+"/xr-sessions/"+x.ID+"/review", ""))
				if len(got.Steps) != len(tc.scene.Steps) || len(got.SafetyChecks) != len(tc.scene.SafetyChecks) {
					t.Fatalf("review has %d steps and %d checks; want %s's %d and %d", len(got.Steps), len(got.SafetyChecks), tc.scene.ID, len(tc.scene.Steps), len(tc.scene.SafetyChecks))
				}
				for k, st := range got.Steps {
					want := training.StepMissed
					if k < 2 {
						want = training.StepCompleted
					}
					if st.ID != tc.scene.Steps[k].ID || st.Status != want {
						t.Errorf("step %d = %s %s; want %s %s", k, st.ID, st.Status, tc.scene.Steps[k].ID, want)
					}
				}
			})
		}
	})
}

// passModule has who train a module as the player records it, a PATCH per
// step each a little after the step's minimum, and end it passed and
// verified. It returns the session and each step's time.
func passModule(t *testing.T, s *Server, clock *testClock, who, moduleID string) (training.Session, []int64) {
	t.Helper()
	m, err := s.store.GetModule(context.Background(), moduleID)
	if err != nil {
		t.Fatal(err)
	}
	scene := training.SceneForModule(m.ID, m.TradeID)
	x := newSession(t, s, who, moduleID, "vr")
	var ms int64
	var took []int64
	for i, step := range scene.Steps {
		d := step.MinDurationMs + 600
		ms += d
		took = append(took, d)
		clock.advance(time.Duration(d) * time.Millisecond)
		checkError(t, call(t, s, who, "PATCH", "/api/xr-sessions/"+x.ID,
			`{"interactionData":{"interactions":[`+stepJSON(step, step.Action, ms, i)+`]}}`), 200, "")
	}
	clock.advance(2 * time.Second)
	ended := decode[training.Session](t, call(t, s, who, "PATCH", "/api/xr-sessions/"+x.ID,
		`{"endedAt":"`+ts(clock.now())+`","completionStatus":"completed","duration":25}`))
	if !ended.Verified || ended.InteractionData.CompletionStatus != training.OutcomePassed {
		t.Fatalf("%s's session of %s: verified %v outcome %s %v", who, moduleID, ended.Verified, ended.InteractionData.CompletionStatus, ended.VerificationIssues)
	}
	return ended, took
}

// catalogModules lists the seeded catalog.
func (s *Server) catalogModules(t *testing.T) []string {
	t.Helper()
	mods, err := s.store.ListModules(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(mods))
	for i, m := range mods {
		ids[i] = m.ID
	}
	return ids
}
