package store_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"journeyman/internal/outreach"
	"journeyman/internal/portal"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

// sessionRow is one xr_sessions row as the dashboard reads it.
type sessionRow struct {
	id, learner, module string
	startedAgo          time.Duration // before storetest.FixedNow
	status              string        // completion_status
	ended               bool
	score               *float64
	verified            bool
}

func score(v float64) *float64 { return &v }

// mustInsertSessions stores learners, the test catalog and the sessions. The
// sessions API belongs to another package, so rows are written directly.
func mustInsertSessions(tb testing.TB, s *store.Store, rows []sessionRow) {
	tb.Helper()
	ctx := context.Background()
	if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
		tb.Fatal(err)
	}
	for _, r := range rows {
		if _, err := s.EnsureLearner(ctx, r.learner, "Guest"); err != nil {
			tb.Fatal(err)
		}
		started := storetest.FixedNow.Add(-r.startedAgo)
		var ended *time.Time
		if r.ended {
			e := started.Add(20 * time.Minute)
			ended = &e
		}
		if _, err := s.DB().ExecContext(ctx, `
			INSERT INTO xr_sessions (id, user_id, module_id, session_type, started_at, ended_at, duration,
				completion_status, safety_score, updated_at, verified)
			VALUES ($1, $2, $3, 'desktop', $4, $5, 1200, $6, $7, $4, $8)`,
			r.id, r.learner, r.module, started, ended, r.status, r.score, r.verified); err != nil {
			tb.Fatalf("insert session %s: %v", r.id, err)
		}
	}
}

const (
	learnerA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	learnerB = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	learnerC = "cccccccccccccccccccccccccccccccc"
	learnerD = "dddddddddddddddddddddddddddddddd"
)

func TestDashboardStats(t *testing.T) {
	day := 24 * time.Hour
	tests := []struct {
		name string
		rows []sessionRow
		want outreach.DashboardStats
	}{
		{"EmptyDatabaseIsZeros", nil, outreach.DashboardStats{Scope: outreach.ScopePlatform}},
		{"InProgressOnly", []sessionRow{
			{"s1", learnerA, "electrical-basics", time.Hour, "in_progress", false, nil, false},
		}, outreach.DashboardStats{ActiveLearners: 1, TotalXRSessions: 1, Scope: outreach.ScopePlatform}},
		{"Mixed", []sessionRow{
			// Passing sessions are not certificates: none is counted.
			{"s1", learnerA, "electrical-basics", 1 * day, "completed", true, score(90), true},
			{"s2", learnerA, "electrical-basics", 2 * day, "completed", true, score(85.3), true},
			// B is no longer active.
			{"s3", learnerB, "electrical-loto", 40 * day, "completed", true, score(79), true},
			{"s4", learnerB, "electrical-basics", 31 * day, "completed", true, score(80), true},
			// C is active with a running session and an ended one without a score.
			{"s5", learnerC, "electrical-loto", 10 * day, "in_progress", false, nil, false},
			{"s6", learnerC, "hvac-gauges", 29 * day, "completed", true, nil, true},
			// D started exactly 30 days ago: still active.
			{"s7", learnerD, "hvac-gauges", 30 * day, "in_progress", false, nil, false},
		}, outreach.DashboardStats{
			ActiveLearners:     3,
			TotalXRSessions:    7,
			AverageSafetyScore: 83.6, // (90 + 85.3 + 79 + 80) / 4 = 83.575
			Scope:              outreach.ScopePlatform,
		}},
		// Unverified sessions are not averaged, but they are sessions and
		// make their learner active.
		{"UnverifiedCountsForNothing", []sessionRow{
			{"s1", learnerA, "electrical-basics", 1 * day, "completed", true, score(100), false},
			{"s2", learnerB, "electrical-loto", 2 * day, "completed", true, score(100), false},
			{"s3", learnerB, "electrical-basics", 3 * day, "completed", true, score(82), true},
		}, outreach.DashboardStats{
			ActiveLearners:     2,
			TotalXRSessions:    3,
			AverageSafetyScore: 82,
			Scope:              outreach.ScopePlatform,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, s *store.Store) {
				mustInsertSessions(t, s, tt.rows)
				got, err := s.DashboardStats(context.Background(), "")
				if err != nil {
					t.Fatal(err)
				}
				if got != tt.want {
					t.Fatalf("DashboardStats() = %+v, want %+v", got, tt.want)
				}
			})
		})
	}
}

// An organisation's dashboard counts its own learners' sessions and the
// certificates it issued and has not revoked; the platform's counts all.
func TestDashboardStatsByOrganisation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
			t.Fatal(err)
		}
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		if _, err := s.EnsureLearner(ctx, learnerA, "Guest"); err != nil {
			t.Fatal(err)
		}
		mustInsertPortalSessions(t, s, []portalSession{
			{"a1", a.Learner.ID, "electrical-basics", time.Hour, 600, true, true, "passed", score(90)},
			{"a2", a.Instructor.ID, "electrical-basics", 40 * 24 * time.Hour, 600, true, true, "passed", score(70)},
			{"b1", b.Learner.ID, "hvac-gauges", time.Hour, 600, true, true, "passed", score(50)},
			{"g1", learnerA, "hvac-gauges", time.Hour, 600, false, false, "", nil},
		})
		for i, c := range []struct {
			org, learner string
			revoked      bool
		}{{a.ID, a.Learner.ID, false}, {a.ID, a.Learner.ID, true}, {b.ID, b.Learner.ID, false}} {
			var revoked any
			if c.revoked {
				revoked = storetest.FixedNow
			}
			if _, err := s.DB().ExecContext(ctx, `INSERT INTO certificates (id, code, org_id, learner_id, programme, content, issued_at, revoked_at)
				VALUES ($1, $2, $3, $4, 'electrical', '{}', $5, $6)`, fmt.Sprint("cert", i), fmt.Sprint("code", i), c.org, c.learner, storetest.FixedNow, revoked); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct {
			name, org string
			want      outreach.DashboardStats
		}{
			{"OrgA", a.ID, outreach.DashboardStats{ActiveLearners: 1, TotalCertifications: 1, TotalXRSessions: 2, AverageSafetyScore: 80, Scope: outreach.ScopeOrganisation}},
			{"OrgB", b.ID, outreach.DashboardStats{ActiveLearners: 1, TotalCertifications: 1, TotalXRSessions: 1, AverageSafetyScore: 50, Scope: outreach.ScopeOrganisation}},
			{"Platform", "", outreach.DashboardStats{ActiveLearners: 3, TotalCertifications: 2, TotalXRSessions: 4, AverageSafetyScore: 70, Scope: outreach.ScopePlatform}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				got, err := s.DashboardStats(ctx, tc.org)
				if err != nil || got != tc.want {
					t.Errorf("DashboardStats(%s) = %+v, %v; want %+v", tc.name, got, err, tc.want)
				}
			})
		}
	})
}

func TestOrganisationBenchmarks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
			t.Fatal(err)
		}
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		empty := mustOrg(t, s, "Org C", "c")
		day := 24 * time.Hour
		mustInsertPortalSessions(t, s, []portalSession{
			// The learner: 2 ended (1 passed) and 1 running, 7200 s in all.
			{"l1", a.Learner.ID, "electrical-basics", day, 3000, true, true, "passed", score(90)},
			{"l2", a.Learner.ID, "electrical-loto", 2 * day, 3000, true, false, "failed", score(70)},
			{"l3", a.Learner.ID, "hvac-gauges", 0, 1200, false, false, "", nil},
			// The instructor: one passed, 3600 s.
			{"i1", a.Instructor.ID, "hvac-gauges", 3 * day, 3600, true, true, "passed", score(100)},
			// Outside the period, and another organisation: not counted.
			{"old", a.Learner.ID, "hvac-gauges", 40 * day, 99999, true, true, "passed", score(0)},
			{"b1", b.Learner.ID, "hvac-gauges", day, 99999, true, true, "failed", score(0)},
		})
		// Per learner: hours 2 and 1 → 1.5 over 28 days = 0.375 a week;
		// safety 80 and 100 → 90; pass rate 50 and 100 → 75; modules 1
		// and 1 → 1 over 28/30 months = 1.07.
		want := portal.Benchmarks{Learners: 2, HoursPerWeek: 0.4, AverageSafety: score(90), PassRate: score(75), ModulesPerMonth: 1.1}
		got, err := s.OrganisationBenchmarks(ctx, a.ID, 28)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("benchmarks = %+v, %v; want %+v", got, err, want)
		}
		got, err = s.OrganisationBenchmarks(ctx, empty.ID, 28)
		if err != nil || !reflect.DeepEqual(got, portal.Benchmarks{}) {
			t.Errorf("an organisation without sessions: %+v, %v", got, err)
		}
	})
}
