package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"

	"journeyman/internal/outreach"
	"journeyman/internal/portal"
)

// DashboardStats computes the figures of the landing page's dashboard from
// stored records (see outreach.DashboardStats for what each counts): of the
// learners of orgID, or of the whole platform when orgID is "". An empty
// database gives zeros. Only verified sessions (training.Verify) count
// towards the average score: an unverified score is the client's word.
func (s *Store) DashboardStats(ctx context.Context, orgID string) (outreach.DashboardStats, error) {
	st := outreach.DashboardStats{Scope: outreach.ScopePlatform}
	// A platform-wide query reads every session; an organisation's, its
	// learners' (learners_org, then xr_sessions_user).
	sessions, certificates := `xr_sessions x WHERE TRUE`, `certificates c WHERE c.revoked_at IS NULL`
	args := []any{s.Now().Add(-outreach.ActiveLearnerWindow)}
	if orgID != "" {
		st.Scope = outreach.ScopeOrganisation
		sessions = `xr_sessions x JOIN learners l ON l.id = x.user_id WHERE l.org_id = $2`
		certificates += ` AND c.org_id = $2`
		args = append(args, orgID)
	}
	var avg sql.NullFloat64
	// One statement, so the four figures come from one snapshot.
	err := s.db.QueryRowContext(ctx, `
		SELECT
			(SELECT COUNT(DISTINCT x.user_id) FROM `+sessions+` AND x.started_at >= $1),
			(SELECT COUNT(*) FROM `+certificates+`),
			(SELECT COUNT(*) FROM `+sessions+`),
			(SELECT AVG(x.safety_score) FROM `+sessions+` AND x.ended_at IS NOT NULL AND x.verified AND x.safety_score IS NOT NULL)`,
		args...,
	).Scan(&st.ActiveLearners, &st.TotalCertifications, &st.TotalXRSessions, &avg)
	if err != nil {
		return outreach.DashboardStats{}, fmt.Errorf("dashboard stats: %w", err)
	}
	if avg.Valid {
		st.AverageSafetyScore = outreach.RoundScore(avg.Float64)
	}
	return st, nil
}

// OrganisationBenchmarks computes portal.Benchmarks for the learners of
// orgID over the days before now.
func (s *Store) OrganisationBenchmarks(ctx context.Context, orgID string, days int) (portal.Benchmarks, error) {
	now := s.Now().UTC()
	var b portal.Benchmarks
	var secs, safety, rate, modules sql.NullFloat64
	err := s.db.QueryRowContext(ctx, `WITH per AS (
			SELECT x.user_id,
				SUM(x.duration) AS secs,
				AVG(CASE WHEN x.completion_status = 'completed' THEN x.safety_score END) AS safety,
				SUM(CASE WHEN x.completion_status = 'completed' THEN 1 ELSE 0 END) AS ended,
				SUM(CASE WHEN x.completion_status = 'completed' AND x.outcome = 'passed' THEN 1 ELSE 0 END) AS passed,
				COUNT(DISTINCT CASE WHEN x.completion_status = 'completed' AND x.outcome = 'passed' THEN x.module_id END) AS modules
			FROM xr_sessions x JOIN learners l ON l.id = x.user_id
			WHERE l.org_id = $1 AND x.started_at > $2 AND x.started_at <= $3
			GROUP BY x.user_id)
		SELECT COUNT(*), AVG(secs), AVG(safety), AVG(CASE WHEN ended > 0 THEN 100.0 * passed / ended END), AVG(modules) FROM per`,
		orgID, now.Add(-time.Duration(days)*24*time.Hour), now).Scan(&b.Learners, &secs, &safety, &rate, &modules)
	if err != nil {
		return b, fmt.Errorf("organisation benchmarks: %w", err)
	}
	b.HoursPerWeek = outreach.RoundScore(secs.Float64 / 3600 / (float64(days) / 7))
	b.ModulesPerMonth = outreach.RoundScore(modules.Float64 / (float64(days) / 30))
	if safety.Valid {
		v := outreach.RoundScore(safety.Float64)
		b.AverageSafety = &v
	}
	if rate.Valid {
		v := math.Round(rate.Float64)
		b.PassRate = &v
	}
	return b, nil
}
