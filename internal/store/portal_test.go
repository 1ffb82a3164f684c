package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"journeyman/internal/identity"
	"journeyman/internal/portal"
	"journeyman/internal/realtime"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// portalSession is one xr_sessions row of the portal's tests.
type portalSession struct {
	id, learner, module string
	updatedAgo          time.Duration // before storetest.FixedNow; started 10 minutes before that
	duration            int64
	ended, verified     bool
	outcome             string
	score               *float64
}

func mustInsertPortalSessions(tb testing.TB, s *store.Store, rows []portalSession) {
	tb.Helper()
	for _, r := range rows {
		updated := storetest.FixedNow.Add(-r.updatedAgo)
		var ended *time.Time
		status := training.StatusInProgress
		if r.ended {
			ended, status = &updated, training.StatusCompleted
		}
		head := `{"safetyChecks":[{"id":"ppe","status":"passed"},{"id":"lock","status":"skipped"}],"completionStatus":"` + r.outcome + `"}`
		if _, err := s.DB().ExecContext(context.Background(), `
			INSERT INTO xr_sessions (id, user_id, module_id, session_type, device_type, started_at, ended_at, duration,
				completion_status, safety_score, updated_at, verified, outcome, interaction_data)
			VALUES ($1, $2, $3, 'vr', 'Quest 3', $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			r.id, r.learner, r.module, updated.Add(-10*time.Minute), ended, r.duration, status, r.score, updated, r.verified, r.outcome, head); err != nil {
			tb.Fatalf("insert session %s: %v", r.id, err)
		}
	}
}

func TestPortalFigures(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
			t.Fatal(err)
		}
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		ann := mustAccount(t, s, "ann@example.com", "Ann Archer", a.ID, identity.Learner)
		bob := mustAccount(t, s, "bob@example.com", "Bob Brand", a.ID, identity.Learner)
		cy := mustAccount(t, s, "cy@example.com", "Cy Cole", a.ID, identity.Learner)
		cohort, err := s.CreateCohort(ctx, a.ID, "Welding A", a.Instructor.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range []store.User{ann, bob, cy} {
			if err := s.AddCohortMember(ctx, a.ID, cohort.ID, u.ID); err != nil {
				t.Fatal(err)
			}
		}
		mustInsertPortalSessions(t, s, []portalSession{
			{"ann-1", ann.ID, "electrical-basics", 48 * time.Hour, 600, true, true, "passed", score(90)},
			{"ann-2", ann.ID, "electrical-basics", 24 * time.Hour, 300, true, true, "failed", score(70)},
			{"ann-3", ann.ID, "electrical-loto", time.Hour, 100, true, false, "passed", score(100)},
			{"ann-4", ann.ID, "hvac-gauges", 0, 50, false, false, "", nil},
			{"bob-1", bob.ID, "hvac-gauges", 40 * 24 * time.Hour, 1200, true, true, "passed", score(85.5)},
			// Another organisation's learner, whom nothing here counts.
			{"b-1", b.Learner.ID, "hvac-gauges", time.Hour, 999, true, true, "passed", score(10)},
		})
		for _, u := range []string{ann.ID, ann.ID, b.Learner.ID} {
			if _, err := s.CreateSafetyAlert(ctx, u, "", realtime.SafetyAlertPayload{AlertType: "help", Description: "Need a hand"}); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			learner, module string
			due             time.Duration
		}{{bob.ID, "hvac-gauges", -24 * time.Hour}, {ann.ID, "electrical-basics", 72 * time.Hour}, {b.Learner.ID, "hvac-gauges", -time.Hour}} {
			if _, err := s.DB().ExecContext(ctx, `INSERT INTO refresher_cards (learner_id, module_id, due, stability, difficulty,
				elapsed_days, scheduled_days, reps, lapses, state, last_review, last_session_at, last_session_id, updated_at)
				VALUES ($1, $2, $3, 1, 5, 0, 1, 1, 0, 'Review', $4, $4, 'x', $4)`,
				c.learner, c.module, storetest.FixedNow.Add(c.due), storetest.FixedNow.Add(-48*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}

		now := storetest.FixedNow
		bobActive := now.Add(-40 * 24 * time.Hour)
		want := map[string]portal.LearnerFigures{
			"Ann": {ID: ann.ID, DisplayName: "Ann Archer", Email: "ann@example.com", Sessions: 4, TimeSeconds: 1050, LastActive: &now,
				ModulesCompleted: 1, AverageSafetyScore: score(80), Alerts: 2, RefreshersDue: 0, UnverifiedSessions: 1},
			"Bob": {ID: bob.ID, DisplayName: "Bob Brand", Email: "bob@example.com", Sessions: 1, TimeSeconds: 1200, LastActive: &bobActive,
				ModulesCompleted: 1, AverageSafetyScore: score(85.5), RefreshersDue: 1},
			"Cy": {ID: cy.ID, DisplayName: "Cy Cole", Email: "cy@example.com"},
		}
		for _, tc := range []struct {
			name  string
			q     portal.LearnerQuery
			want  []string
			total int
		}{
			{"ByName", portal.LearnerQuery{}, []string{"Ann", "Bob", "Cy"}, 3},
			{"ByNameDesc", portal.LearnerQuery{Desc: true}, []string{"Cy", "Bob", "Ann"}, 3},
			{"MostSessions", portal.LearnerQuery{Sort: "sessions", Desc: true}, []string{"Ann", "Bob", "Cy"}, 3},
			{"MostTime", portal.LearnerQuery{Sort: "timeSeconds", Desc: true}, []string{"Bob", "Ann", "Cy"}, 3},
			{"ScoreAscNoneLast", portal.LearnerQuery{Sort: "averageSafetyScore"}, []string{"Ann", "Bob", "Cy"}, 3},
			{"ScoreDescNoneLast", portal.LearnerQuery{Sort: "averageSafetyScore", Desc: true}, []string{"Bob", "Ann", "Cy"}, 3},
			{"LastActiveAscNoneLast", portal.LearnerQuery{Sort: "lastActive"}, []string{"Bob", "Ann", "Cy"}, 3},
			{"MostAlerts", portal.LearnerQuery{Sort: "alerts", Desc: true}, []string{"Ann", "Bob", "Cy"}, 3},
			{"MostRefreshers", portal.LearnerQuery{Sort: "refreshersDue", Desc: true}, []string{"Bob", "Ann", "Cy"}, 3},
			{"MostUnverified", portal.LearnerQuery{Sort: "unverifiedSessions", Desc: true}, []string{"Ann", "Bob", "Cy"}, 3},
			{"MostModules", portal.LearnerQuery{Sort: "modulesCompleted", Desc: true}, []string{"Ann", "Bob", "Cy"}, 3},
			{"FlagInactive", portal.LearnerQuery{Flag: portal.FlagInactive}, []string{"Bob", "Cy"}, 2},
			{"FlagRefreshers", portal.LearnerQuery{Flag: portal.FlagRefreshersDue}, []string{"Bob"}, 1},
			{"FlagUnverified", portal.LearnerQuery{Flag: portal.FlagUnverified}, []string{"Ann"}, 1},
			{"FlagAlerts", portal.LearnerQuery{Flag: portal.FlagAlerts}, []string{"Ann"}, 1},
			{"SearchName", portal.LearnerQuery{Q: "BRA"}, []string{"Bob"}, 1},
			{"SearchEmail", portal.LearnerQuery{Q: "cy@"}, []string{"Cy"}, 1},
			{"SearchWildcardIsText", portal.LearnerQuery{Q: "%"}, []string{}, 0},
			{"Page", portal.LearnerQuery{Limit: 2, Offset: 2}, []string{"Cy"}, 3},
			{"PastTheEnd", portal.LearnerQuery{Limit: 2, Offset: 10}, []string{}, 3},
			{"PastTheEndFiltered", portal.LearnerQuery{Flag: portal.FlagInactive, Limit: 2, Offset: 10}, []string{}, 2},
		} {
			t.Run(tc.name, func(t *testing.T) {
				q := tc.q
				if err := q.Validate(); err != nil {
					t.Fatal(err)
				}
				got, total, err := s.CohortLearners(ctx, cohort.ID, q)
				if err != nil {
					t.Fatal(err)
				}
				names := []string{}
				for _, f := range got {
					for name, w := range want {
						if f.ID == w.ID {
							names = append(names, name)
							if !reflect.DeepEqual(f, w) {
								t.Errorf("%s's figures = %+v\nwant %+v", name, f, w)
							}
						}
					}
				}
				if !reflect.DeepEqual(names, tc.want) || total != tc.total {
					t.Errorf("learners %v of %d, want %v of %d", names, total, tc.want, tc.total)
				}
			})
		}

		t.Run("OneLearner", func(t *testing.T) {
			got, err := s.LearnerFigures(ctx, ann.ID)
			if err != nil || !reflect.DeepEqual(got, want["Ann"]) {
				t.Errorf("Ann's figures = %+v, %v", got, err)
			}
			if _, err := s.LearnerFigures(ctx, "nobody"); err == nil {
				t.Error("figures of nobody were found")
			}
		})

		t.Run("CohortExport", func(t *testing.T) {
			type row struct {
				learner, module, status string
				attempts                int
				secs                    int64
				best                    *float64
			}
			var got []row
			err := s.EachCohortProgress(ctx, cohort.ID, func(p store.ModuleProgress) error {
				got = append(got, row{p.LearnerName, p.ModuleID, p.Status(), p.Attempts, p.TimeSeconds, p.BestVerifiedScore})
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			wantRows := []row{
				{"Ann Archer", "electrical-basics", "passed", 2, 900, score(90)},
				{"Ann Archer", "electrical-loto", "not passed", 1, 100, nil},
				{"Ann Archer", "hvac-gauges", "in progress", 1, 50, nil},
				{"Bob Brand", "electrical-basics", "not started", 0, 0, nil},
				{"Bob Brand", "electrical-loto", "not started", 0, 0, nil},
				{"Bob Brand", "hvac-gauges", "passed", 1, 1200, score(85.5)},
				{"Cy Cole", "electrical-basics", "not started", 0, 0, nil},
				{"Cy Cole", "electrical-loto", "not started", 0, 0, nil},
				{"Cy Cole", "hvac-gauges", "not started", 0, 0, nil},
			}
			if !reflect.DeepEqual(got, wantRows) {
				t.Errorf("export rows\n%+v\nwant\n%+v", got, wantRows)
			}
		})

		t.Run("LearnerExport", func(t *testing.T) {
			var ids []string
			err := s.EachLearnerSession(ctx, ann.ID, func(r store.SessionRecord) error {
				ids = append(ids, r.ID)
				if r.DeviceType != "Quest 3" || len(r.SafetyChecks) != 2 || r.SafetyChecks[1] != (training.SafetyCheckResult{ID: "lock", Status: "skipped"}) {
					t.Errorf("record %s = %+v", r.ID, r)
				}
				return nil
			})
			if err != nil || !reflect.DeepEqual(ids, []string{"ann-1", "ann-2", "ann-3", "ann-4"}) {
				t.Errorf("Ann's sessions %v, %v; want oldest first", ids, err)
			}
		})
	})
}
