package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/outreach"
	"journeyman/internal/portal"
	"journeyman/internal/training"
)

// learnerFigures computes portal.LearnerFigures for the learners the members
// query selects ($1 is its one argument); $2 is now. Each figure is grouped
// over the members' own rows only, so its cost follows the members' records,
// not the whole table.
func learnerFigures(members string) string {
	return `WITH members AS (` + members + `),
	sess AS (
		SELECT x.user_id,
			COUNT(*) AS n,
			SUM(x.duration) AS secs,
			MAX(x.updated_at) AS last_active,
			COUNT(DISTINCT CASE WHEN x.verified AND x.outcome = 'passed' THEN x.module_id END) AS modules,
			AVG(CASE WHEN x.verified AND x.ended_at IS NOT NULL THEN x.safety_score END) AS score,
			SUM(CASE WHEN x.ended_at IS NOT NULL AND NOT x.verified THEN 1 ELSE 0 END) AS unverified
		FROM xr_sessions x JOIN members m ON m.id = x.user_id GROUP BY x.user_id),
	alerts AS (SELECT a.user_id, COUNT(*) AS n FROM safety_alerts a JOIN members m ON m.id = a.user_id GROUP BY a.user_id),
	due AS (SELECT r.learner_id, COUNT(*) AS n FROM refresher_cards r JOIN members m ON m.id = r.learner_id
		WHERE r.due <= $2 GROUP BY r.learner_id),
	f AS (
		SELECT m.id, m.display_name, m.email, COALESCE(s.n, 0) AS sessions, COALESCE(s.secs, 0) AS time_seconds,
			s.last_active, COALESCE(s.modules, 0) AS modules_completed, s.score AS average_safety_score,
			COALESCE(alerts.n, 0) AS alerts, COALESCE(due.n, 0) AS refreshers_due, COALESCE(s.unverified, 0) AS unverified_sessions
		FROM members m LEFT JOIN sess s ON s.user_id = m.id LEFT JOIN alerts ON alerts.user_id = m.id
		LEFT JOIN due ON due.learner_id = m.id)
	SELECT f.id, f.display_name, f.email, f.sessions, f.time_seconds, f.last_active, f.modules_completed,
		f.average_safety_score, f.alerts, f.refreshers_due, f.unverified_sessions`
}

// cohortMembers selects a cohort's learners ($1) as learnerFigures and the
// cohort export read them.
const cohortMembers = `SELECT l.id, l.display_name, COALESCE(l.email, '') AS email
	FROM cohort_members cm JOIN learners l ON l.id = cm.learner_id WHERE cm.cohort_id = $1`

// sortColumns maps portal.SortKeys to the columns of learnerFigures' f.
var sortColumns = map[string]string{
	"displayName": "LOWER(f.display_name)", "sessions": "f.sessions", "timeSeconds": "f.time_seconds",
	"lastActive": "f.last_active", "modulesCompleted": "f.modules_completed", "averageSafetyScore": "f.average_safety_score",
	"alerts": "f.alerts", "refreshersDue": "f.refreshers_due", "unverifiedSessions": "f.unverified_sessions",
}

var flagConditions = map[string]string{
	"":                       "TRUE",
	portal.FlagRefreshersDue: "f.refreshers_due > 0",
	portal.FlagUnverified:    "f.unverified_sessions > 0",
	portal.FlagAlerts:        "f.alerts > 0",
	portal.FlagInactive:      "(f.last_active IS NULL OR f.last_active < $6)",
}

func scanFigures(row interface{ Scan(...any) error }, extra ...any) (portal.LearnerFigures, error) {
	var f portal.LearnerFigures
	var score sql.NullFloat64
	last := anyTime{&f.LastActive}
	err := row.Scan(append([]any{&f.ID, &f.DisplayName, &f.Email, &f.Sessions, &f.TimeSeconds, last, &f.ModulesCompleted,
		&score, &f.Alerts, &f.RefreshersDue, &f.UnverifiedSessions}, extra...)...)
	if score.Valid {
		v := outreach.RoundScore(score.Float64)
		f.AverageSafetyScore = &v
	}
	return f, err
}

// CohortLearners returns one page of a cohort's learners with their figures,
// filtered and sorted as q says (q must be valid), and how many learners
// the filter keeps.
func (s *Store) CohortLearners(ctx context.Context, cohortID string, q portal.LearnerQuery) ([]portal.LearnerFigures, int, error) {
	now := s.Now().UTC()
	like := containsPattern(q.Q)
	dir := "ASC"
	if q.Desc {
		dir = "DESC"
	}
	col, ok := sortColumns[q.Sort]
	cond, okFlag := flagConditions[q.Flag]
	if !ok || !okFlag {
		return nil, 0, apperr.Invalid("unknown sort %q or flag %q", q.Sort, q.Flag)
	}
	// Learners without a value (no session yet) sort last either way.
	tail := `, COUNT(*) OVER () FROM f
		WHERE (LOWER(f.display_name) LIKE $3 ESCAPE '\' OR LOWER(f.email) LIKE $3 ESCAPE '\') AND ` + cond + `
		ORDER BY (` + col + ` IS NULL), ` + col + ` ` + dir + `, LOWER(f.display_name), f.id LIMIT $4 OFFSET $5`
	query := learnerFigures(cohortMembers) + tail //nolint:gosec // G202: cond, col and dir come from the fixed tables above, never from the request
	args := []any{cohortID, now, like, q.Limit, q.Offset}
	if q.Flag == portal.FlagInactive {
		// Only then: PostgreSQL refuses a parameter the query does not use.
		args = append(args, now.Add(-portal.InactiveAfter))
	}
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("cohort learners: %w", err)
	}
	defer rows.Close()
	out := []portal.LearnerFigures{}
	total := 0
	for rows.Next() {
		f, err := scanFigures(rows, &total)
		if err != nil {
			return nil, 0, fmt.Errorf("cohort learners: %w", err)
		}
		out = append(out, f)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("cohort learners: %w", err)
	}
	if len(out) == 0 && q.Offset > 0 {
		// Past the last page: the window count came with no row.
		q.Offset, q.Limit = 0, 1
		if _, total, err = s.CohortLearners(ctx, cohortID, q); err != nil {
			return nil, 0, err
		}
	}
	return out, total, nil
}

// LearnerFigures returns one learner's figures, or ENOTFOUND.
func (s *Store) LearnerFigures(ctx context.Context, learnerID string) (portal.LearnerFigures, error) {
	f, err := scanFigures(s.db.QueryRowContext(ctx, learnerFigures(`SELECT l.id, l.display_name, COALESCE(l.email, '') AS email
		FROM learners l WHERE l.id = $1`)+` FROM f`, learnerID, s.Now().UTC()))
	if isNoRows(err) {
		return f, apperr.NotFound("learner %s does not exist", learnerID)
	}
	if err != nil {
		return f, fmt.Errorf("learner figures: %w", err)
	}
	return f, nil
}

// ModuleProgress is one learner's record in one module, a row of the
// cohort export.
type ModuleProgress struct {
	LearnerName, LearnerEmail string
	ModuleID, ModuleTitle     string
	Attempts                  int
	TimeSeconds               int64
	BestVerifiedScore         *float64 // of the ended, verified sessions
	Passed                    bool     // a verified, passed session exists
	Running                   bool     // a session has not ended
	LastActive                *time.Time
}

// Status names the learner's standing in the module.
func (p ModuleProgress) Status() string {
	switch {
	case p.Passed:
		return "passed"
	case p.Running:
		return "in progress"
	case p.Attempts > 0:
		return "not passed"
	default:
		return "not started"
	}
}

// EachCohortProgress calls fn for every learner of the cohort and every
// module of the catalog, by learner name then catalog order, reading the
// rows as fn consumes them: an export never holds the table in memory.
func (s *Store) EachCohortProgress(ctx context.Context, cohortID string, fn func(ModuleProgress) error) error {
	rows, err := s.db.QueryContext(ctx, `WITH members AS (`+cohortMembers+`),
		per AS (
			SELECT x.user_id, x.module_id, COUNT(*) AS attempts, SUM(x.duration) AS secs,
				MAX(CASE WHEN x.verified AND x.ended_at IS NOT NULL THEN x.safety_score END) AS best,
				MAX(CASE WHEN x.verified AND x.outcome = 'passed' THEN 1 ELSE 0 END) AS passed,
				MAX(CASE WHEN x.ended_at IS NULL THEN 1 ELSE 0 END) AS running,
				MAX(x.updated_at) AS last_active
			FROM xr_sessions x JOIN members m ON m.id = x.user_id GROUP BY x.user_id, x.module_id)
		SELECT m.display_name, m.email, t.id, t.title, COALESCE(p.attempts, 0), COALESCE(p.secs, 0), p.best,
			COALESCE(p.passed, 0), COALESCE(p.running, 0), p.last_active
		FROM members m CROSS JOIN training_modules t LEFT JOIN per p ON p.user_id = m.id AND p.module_id = t.id
		ORDER BY LOWER(m.display_name), m.id, t.trade_id, t.position, t.id`, cohortID)
	if err != nil {
		return fmt.Errorf("cohort export: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var p ModuleProgress
		var best sql.NullFloat64
		var passed, running int
		if err := rows.Scan(&p.LearnerName, &p.LearnerEmail, &p.ModuleID, &p.ModuleTitle, &p.Attempts, &p.TimeSeconds,
			&best, &passed, &running, anyTime{&p.LastActive}); err != nil {
			return fmt.Errorf("cohort export: %w", err)
		}
		if best.Valid {
			p.BestVerifiedScore = &best.Float64
		}
		p.Passed, p.Running = passed == 1, running == 1
		if err := fn(p); err != nil {
			return err
		}
	}
	return rows.Err()
}

// EachLearnerSession calls fn for every session of a learner, oldest first,
// reading the rows as fn consumes them.
func (s *Store) EachLearnerSession(ctx context.Context, learnerID string, fn func(training.SessionSummary) error) error {
	err := eachSummary(ctx, s.db, `SELECT `+summaryColumns+` FROM xr_sessions x JOIN training_modules m ON m.id = x.module_id
		WHERE x.user_id = $1 ORDER BY x.started_at, x.id`, []any{learnerID}, fn)
	if err != nil {
		return fmt.Errorf("learner export: %w", err)
	}
	return nil
}

// anyTime scans a timestamp an aggregate computed. SQLite knows a column's
// declared type only for a plain column, so it returns MAX(updated_at) as
// the text it stored (the driver's "sqlite" time format); PostgreSQL
// returns a time.
type anyTime struct{ t **time.Time }

func (a anyTime) Scan(v any) error {
	var text string
	switch v := v.(type) {
	case nil:
		*a.t = nil
		return nil
	case time.Time:
		t := v.UTC()
		*a.t = &t
		return nil
	case string:
		text = v
	case []byte:
		text = string(v)
	default:
		return fmt.Errorf("a time cannot be read from %T", v)
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999999-07:00", time.RFC3339Nano, "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, text); err == nil {
			t = t.UTC()
			*a.t = &t
			return nil
		}
	}
	return fmt.Errorf("%q is not a time", text)
}
