package store_test

import (
	"context"
	"testing"
	"time"

	"journeyman/internal/outreach"
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
		{"EmptyDatabaseIsZeros", nil, outreach.DashboardStats{}},
		{"InProgressOnly", []sessionRow{
			{"s1", learnerA, "electrical-basics", time.Hour, "in_progress", false, nil, false},
		}, outreach.DashboardStats{ActiveLearners: 1, TotalXRSessions: 1}},
		{"Mixed", []sessionRow{
			// A passes one module twice: one certification.
			{"s1", learnerA, "electrical-basics", 1 * day, "completed", true, score(90), true},
			{"s2", learnerA, "electrical-basics", 2 * day, "completed", true, score(85.3), true},
			// B is no longer active; 79 misses the pass mark, 80 meets it.
			{"s3", learnerB, "electrical-loto", 40 * day, "completed", true, score(79), true},
			{"s4", learnerB, "electrical-basics", 31 * day, "completed", true, score(80), true},
			// C is active with a running session and an ended one without a score.
			{"s5", learnerC, "electrical-loto", 10 * day, "in_progress", false, nil, false},
			{"s6", learnerC, "hvac-gauges", 29 * day, "completed", true, nil, true},
			// D started exactly 30 days ago: still active.
			{"s7", learnerD, "hvac-gauges", 30 * day, "in_progress", false, nil, false},
		}, outreach.DashboardStats{
			ActiveLearners:      3,
			TotalCertifications: 2,
			TotalXRSessions:     7,
			AverageSafetyScore:  83.6, // (90 + 85.3 + 79 + 80) / 4 = 83.575
		}},
		// Unverified sessions certify nothing and are not averaged, but they
		// are sessions and make their learner active.
		{"UnverifiedCountsForNothing", []sessionRow{
			{"s1", learnerA, "electrical-basics", 1 * day, "completed", true, score(100), false},
			{"s2", learnerB, "electrical-loto", 2 * day, "completed", true, score(100), false},
			{"s3", learnerB, "electrical-basics", 3 * day, "completed", true, score(82), true},
		}, outreach.DashboardStats{
			ActiveLearners:      2,
			TotalCertifications: 1,
			TotalXRSessions:     3,
			AverageSafetyScore:  82,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, s *store.Store) {
				mustInsertSessions(t, s, tt.rows)
				got, err := s.DashboardStats(context.Background())
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
