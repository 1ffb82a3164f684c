package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/training"
)

// Page sizes of session lists.
const (
	DefaultSessionPage = 20
	MaxSessionPage     = 100
	// MaxAnalyticsSessions bounds the records one analytics call reads: a
	// learner's newest sessions up to this many.
	MaxAnalyticsSessions = 10_000
	// MaxLiveSessions bounds GET /api/live-sessions.
	MaxLiveSessions = 50
)

const sessionColumns = `x.id, x.user_id, x.module_id, m.title, x.session_type, x.device_type, x.started_at, x.ended_at,
	x.duration, x.completion_status, x.safety_score, x.position, x.rotation, x.interaction_data, x.updated_at,
	x.server_started_at, x.verified, x.verification_issues`

// CreateSession stores a new session record. The module must be in the
// catalog: an unknown moduleId is the caller's mistake, reported as EINVALID.
func (s *Store) CreateSession(ctx context.Context, x training.Session) (training.Session, error) {
	err := s.tx(ctx, "create xr session", func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT title FROM training_modules WHERE id = $1`, x.ModuleID).Scan(&x.ModuleTitle)
		if isNoRows(err) {
			return apperr.Invalid("moduleId %q is not a training module in the catalog", x.ModuleID)
		}
		if err != nil {
			return err
		}
		data, err := json.Marshal(x.InteractionData)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO xr_sessions (id, user_id, module_id, session_type, device_type, started_at, ended_at,
				duration, completion_status, safety_score, position, rotation, interaction_data, outcome, updated_at,
				server_started_at, verified, verification_issues)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
			x.ID, x.UserID, x.ModuleID, x.SessionType, x.DeviceType, x.StartedAt.UTC(), utcPtr(x.EndedAt),
			x.Duration, x.CompletionStatus, x.SafetyScore, jsonOrNull(x.Position), jsonOrNull(x.Rotation),
			string(data), x.InteractionData.CompletionStatus, x.UpdatedAt.UTC(),
			utcPtr(x.ServerStartedAt), x.Verified, issuesJSON(x.VerificationIssues))
		return err
	})
	if err != nil {
		return training.Session{}, err
	}
	return x, nil
}

// GetSession returns a session record, or ENOTFOUND.
func (s *Store) GetSession(ctx context.Context, id string) (training.Session, error) {
	x, err := scanSession(s.db.QueryRowContext(ctx, `SELECT `+sessionColumns+`
		FROM xr_sessions x JOIN training_modules m ON m.id = x.module_id WHERE x.id = $1`, id))
	if isNoRows(err) {
		return x, apperr.NotFound("XR session %q does not exist", id)
	}
	if err != nil {
		return x, fmt.Errorf("get xr session: %w", err)
	}
	return x, nil
}

// UpdateSession reads session id, lets fn change it and writes it back, in
// one transaction, so that concurrent updates of one session never lose
// each other's interactions. fn's error aborts the update and is returned.
func (s *Store) UpdateSession(ctx context.Context, id string, fn func(*training.Session) error) (training.Session, error) {
	var x training.Session
	lock := ""
	if s.dialect == Postgres {
		// SQLite's immediate transactions already hold the write lock.
		lock = " FOR UPDATE OF x"
	}
	getQuery := `SELECT ` + sessionColumns + `
		FROM xr_sessions x JOIN training_modules m ON m.id = x.module_id WHERE x.id = $1` + lock
	const putQuery = `
		UPDATE xr_sessions SET ended_at = $2, duration = $3, completion_status = $4, safety_score = $5,
			position = $6, rotation = $7, interaction_data = $8, outcome = $9, updated_at = $10,
			verified = $11, verification_issues = $12
		WHERE id = $1`
	getStmt, err := s.prepare(ctx, getQuery)
	if err != nil {
		return x, fmt.Errorf("update xr session: %w", err)
	}
	putStmt, err := s.prepare(ctx, putQuery)
	if err != nil {
		return x, fmt.Errorf("update xr session: %w", err)
	}
	err = s.tx(ctx, "update xr session", func(tx *sql.Tx) error {
		var err error
		x, err = scanSession(queryRow(ctx, tx, getStmt, getQuery, id))
		if isNoRows(err) {
			return apperr.NotFound("XR session %q does not exist", id)
		}
		if err != nil {
			return err
		}
		if err := fn(&x); err != nil {
			return err
		}
		data, err := json.Marshal(x.InteractionData)
		if err != nil {
			return err
		}
		_, err = exec(ctx, tx, putStmt, putQuery,
			x.ID, utcPtr(x.EndedAt), x.Duration, x.CompletionStatus, x.SafetyScore,
			jsonOrNull(x.Position), jsonOrNull(x.Rotation), string(data), x.InteractionData.CompletionStatus, x.UpdatedAt.UTC(),
			x.Verified, issuesJSON(x.VerificationIssues))
		return err
	})
	if err != nil {
		return training.Session{}, err
	}
	return x, nil
}

const summaryColumns = `x.id, x.user_id, x.module_id, m.title, x.session_type, x.started_at, x.ended_at,
	x.duration, x.completion_status, x.safety_score, x.outcome, x.updated_at, x.verified, x.verification_issues`

// ListSessions returns one page of a learner's sessions, newest first, as
// summaries (no interaction data), and how many sessions the learner has.
// limit is clamped to 1..MaxSessionPage.
func (s *Store) ListSessions(ctx context.Context, userID string, limit, offset int) ([]training.SessionSummary, int, error) {
	limit = min(max(limit, 1), MaxSessionPage)
	offset = max(offset, 0)
	// Two plain reads, not a transaction: SQLite's immediate transactions
	// would make every history read wait for the write lock.
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM xr_sessions WHERE user_id = $1`, userID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("list xr sessions: %w", err)
	}
	out, err := querySummaries(ctx, s.db, `SELECT `+summaryColumns+`
		FROM xr_sessions x JOIN training_modules m ON m.id = x.module_id
		WHERE x.user_id = $1 ORDER BY x.started_at DESC, x.id DESC LIMIT $2 OFFSET $3`, userID, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list xr sessions: %w", err)
	}
	return out, total, nil
}

// ListAllSessions returns a learner's sessions for analytics, newest first,
// at most MaxAnalyticsSessions of them.
func (s *Store) ListAllSessions(ctx context.Context, userID string) ([]training.SessionSummary, error) {
	out, err := querySummaries(ctx, s.db, `SELECT `+summaryColumns+`
		FROM xr_sessions x JOIN training_modules m ON m.id = x.module_id
		WHERE x.user_id = $1 ORDER BY x.started_at DESC, x.id DESC LIMIT $2`, userID, MaxAnalyticsSessions)
	if err != nil {
		return nil, fmt.Errorf("list all xr sessions: %w", err)
	}
	return out, nil
}

// ListLiveSessions returns the sessions of one organisation's learners (""
// for everyone outside one) not yet ended that were updated since since,
// most recently updated first, at most MaxLiveSessions.
func (s *Store) ListLiveSessions(ctx context.Context, orgID string, since time.Time) ([]training.SessionSummary, error) {
	out, err := querySummaries(ctx, s.db, `SELECT `+summaryColumns+`
		FROM xr_sessions x JOIN training_modules m ON m.id = x.module_id JOIN learners l ON l.id = x.user_id
		WHERE x.ended_at IS NULL AND x.updated_at >= $2 AND `+orgIs("l.org_id", orgID)+`
		ORDER BY x.updated_at DESC, x.id DESC LIMIT $3`,
		orgID, since.UTC(), MaxLiveSessions)
	if err != nil {
		return nil, fmt.Errorf("list live xr sessions: %w", err)
	}
	return out, nil
}

func querySummaries(ctx context.Context, q querier, query string, args ...any) ([]training.SessionSummary, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []training.SessionSummary{}
	for rows.Next() {
		var x training.SessionSummary
		var ended sql.NullTime
		var score sql.NullFloat64
		var issues string
		if err := rows.Scan(&x.ID, &x.UserID, &x.ModuleID, &x.ModuleTitle, &x.SessionType, &x.StartedAt, &ended,
			&x.Duration, &x.CompletionStatus, &score, &x.Outcome, &x.UpdatedAt, &x.Verified, &issues); err != nil {
			return nil, err
		}
		var err error
		if x.VerificationIssues, err = decodeIssues(x.ID, issues); err != nil {
			return nil, err
		}
		x.StartedAt, x.UpdatedAt = x.StartedAt.UTC(), x.UpdatedAt.UTC()
		if ended.Valid {
			t := ended.Time.UTC()
			x.EndedAt = &t
		}
		if score.Valid {
			x.SafetyScore = &score.Float64
		}
		out = append(out, x)
	}
	return out, rows.Err()
}

func scanSession(row *sql.Row) (training.Session, error) {
	var x training.Session
	var ended sql.NullTime
	var score sql.NullFloat64
	var pos, rot sql.NullString
	var data, issues string
	var serverStart sql.NullTime
	if err := row.Scan(&x.ID, &x.UserID, &x.ModuleID, &x.ModuleTitle, &x.SessionType, &x.DeviceType, &x.StartedAt, &ended,
		&x.Duration, &x.CompletionStatus, &score, &pos, &rot, &data, &x.UpdatedAt,
		&serverStart, &x.Verified, &issues); err != nil {
		return x, err
	}
	if serverStart.Valid {
		t := serverStart.Time.UTC()
		x.ServerStartedAt = &t
	}
	var err error
	if x.VerificationIssues, err = decodeIssues(x.ID, issues); err != nil {
		return x, err
	}
	x.StartedAt, x.UpdatedAt = x.StartedAt.UTC(), x.UpdatedAt.UTC()
	if ended.Valid {
		t := ended.Time.UTC()
		x.EndedAt = &t
	}
	if score.Valid {
		x.SafetyScore = &score.Float64
	}
	if pos.Valid {
		x.Position = new(training.Vec3)
		if err := json.Unmarshal([]byte(pos.String), x.Position); err != nil {
			return x, fmt.Errorf("session %s position: %w", x.ID, err)
		}
	}
	if rot.Valid {
		x.Rotation = new(training.Quat)
		if err := json.Unmarshal([]byte(rot.String), x.Rotation); err != nil {
			return x, fmt.Errorf("session %s rotation: %w", x.ID, err)
		}
	}
	if err := json.Unmarshal([]byte(data), &x.InteractionData); err != nil {
		return x, fmt.Errorf("session %s interaction data: %w", x.ID, err)
	}
	if x.InteractionData.Interactions == nil {
		x.InteractionData.Interactions = []training.Interaction{}
	}
	if x.InteractionData.SafetyChecks == nil {
		x.InteractionData.SafetyChecks = []training.SafetyCheckResult{}
	}
	return x, nil
}

// issuesJSON encodes verification issues for their column: a JSON array,
// never null.
func issuesJSON(issues []string) string {
	if len(issues) == 0 {
		return "[]"
	}
	b, err := json.Marshal(issues)
	if err != nil {
		panic(fmt.Sprintf("issuesJSON: %v", err)) // strings always encode
	}
	return string(b)
}

func decodeIssues(id, text string) ([]string, error) {
	issues := []string{}
	if err := json.Unmarshal([]byte(text), &issues); err != nil {
		return nil, fmt.Errorf("session %s verification issues: %w", id, err)
	}
	if issues == nil {
		issues = []string{}
	}
	return issues, nil
}

func utcPtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC()
}

// jsonOrNull encodes a pointer to a value as JSON text, or NULL for nil.
func jsonOrNull[T any](v *T) any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("jsonOrNull: %v", err)) // plain number structs always encode
	}
	return string(b)
}

// prepare returns query prepared once for the store's life on SQLite, whose
// driver otherwise parses every query afresh (a quarter of a session
// update's cost); database/sql keeps one preparation per connection. It
// returns nil on PostgreSQL, where pgx caches statements itself. Call it
// before opening a transaction: preparing takes a pooled connection.
func (s *Store) prepare(ctx context.Context, query string) (*sql.Stmt, error) {
	if s.dialect != SQLite {
		return nil, nil
	}
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := s.db.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	if prev, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		st = prev.(*sql.Stmt)
	}
	return st, nil
}

// queryRow runs st in tx, or query when st is nil.
func queryRow(ctx context.Context, tx *sql.Tx, st *sql.Stmt, query string, args ...any) *sql.Row {
	if st != nil {
		return tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return tx.QueryRowContext(ctx, query, args...)
}

// exec runs st in tx, or query when st is nil.
func exec(ctx context.Context, tx *sql.Tx, st *sql.Stmt, query string, args ...any) (sql.Result, error) {
	if st != nil {
		return tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, query, args...)
}
