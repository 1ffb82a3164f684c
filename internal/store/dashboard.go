package store

import (
	"context"
	"database/sql"
	"fmt"

	"journeyman/internal/outreach"
)

// DashboardStats computes the platform-wide figures of the landing page's
// dashboard from the stored XR sessions (see outreach.DashboardStats for
// what each counts). An empty database gives zeros. Only verified sessions
// (training.Verify) certify or count towards the average score: these
// figures are public, and an unverified score is the client's word.
func (s *Store) DashboardStats(ctx context.Context) (outreach.DashboardStats, error) {
	var st outreach.DashboardStats
	var avg sql.NullFloat64
	// One statement, so the four figures come from one snapshot.
	err := s.db.QueryRowContext(ctx, `
		SELECT
			(SELECT COUNT(DISTINCT user_id) FROM xr_sessions WHERE started_at >= $1),
			(SELECT COUNT(*) FROM (
				SELECT DISTINCT user_id, module_id FROM xr_sessions
				WHERE completion_status = 'completed' AND verified AND safety_score >= $2) AS certified),
			(SELECT COUNT(*) FROM xr_sessions),
			(SELECT AVG(safety_score) FROM xr_sessions WHERE ended_at IS NOT NULL AND verified AND safety_score IS NOT NULL)`,
		s.Now().Add(-outreach.ActiveLearnerWindow), outreach.CertificationPassMark,
	).Scan(&st.ActiveLearners, &st.TotalCertifications, &st.TotalXRSessions, &avg)
	if err != nil {
		return outreach.DashboardStats{}, fmt.Errorf("dashboard stats: %w", err)
	}
	if avg.Valid {
		st.AverageSafetyScore = outreach.RoundScore(avg.Float64)
	}
	return st, nil
}
