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

// A session is stored as a row of xr_sessions holding its small fields, its
// interaction data but for the interactions (headData), and counters, and
// one row of xr_session_interactions per interaction, keyed by the session
// and the interaction's 0-based seq. An update appends its interactions and
// rewrites the small row: it never reads, decodes or rewrites the
// interactions stored before, so its cost does not grow with the session.
// Interactions are never changed once stored.

const sessionColumns = `x.id, x.user_id, x.module_id, m.title, x.session_type, x.device_type, x.started_at, x.ended_at,
	x.duration, x.completion_status, x.safety_score, x.position, x.rotation, x.interaction_data, x.updated_at,
	x.server_started_at, x.verified, x.verification_issues, x.interaction_count, x.interaction_bytes, x.revision`

const sessionByID = `SELECT ` + sessionColumns + `
	FROM xr_sessions x JOIN training_modules m ON m.id = x.module_id WHERE x.id = $1`

// headData is what xr_sessions.interaction_data holds: a session's
// interaction data without its interactions, and the client's claim of its
// completion status.
type headData struct {
	SafetyChecks           []training.SafetyCheckResult `json:"safetyChecks"`
	CompletionStatus       string                       `json:"completionStatus"`
	ClientCompletionStatus string                       `json:"clientCompletionStatus,omitempty"`
}

func headDataJSON(x training.Session) (string, error) {
	d := x.InteractionData
	b, err := json.Marshal(headData{d.SafetyChecks, d.CompletionStatus, x.ClientCompletionStatus})
	return string(b), err
}

// CreateSession stores a new session record, and with rec its learning
// record's first statements. The module must be in the catalog: an unknown
// moduleId is the caller's mistake, reported as EINVALID.
func (s *Store) CreateSession(ctx context.Context, x training.Session, rec *Recorder) (training.Session, error) {
	added, size, err := encodeInteractions(x.InteractionData.Interactions)
	if err != nil {
		return training.Session{}, fmt.Errorf("create xr session: %w", err)
	}
	head, err := headDataJSON(x)
	if err != nil {
		return training.Session{}, fmt.Errorf("create xr session: %w", err)
	}
	err = s.tx(ctx, "create xr session", func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT title FROM training_modules WHERE id = $1`, x.ModuleID).Scan(&x.ModuleTitle)
		if isNoRows(err) {
			return apperr.Invalid("moduleId %q is not a training module in the catalog", x.ModuleID)
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO xr_sessions (id, user_id, module_id, session_type, device_type, started_at, ended_at,
				duration, completion_status, safety_score, position, rotation, interaction_data, outcome, updated_at,
				server_started_at, verified, verification_issues, interaction_count, interaction_bytes, updated_minute)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`,
			x.ID, x.UserID, x.ModuleID, x.SessionType, x.DeviceType, x.StartedAt.UTC(), utcPtr(x.EndedAt),
			x.Duration, x.CompletionStatus, x.SafetyScore, jsonOrNull(x.Position), jsonOrNull(x.Rotation),
			head, x.InteractionData.CompletionStatus, x.UpdatedAt.UTC(),
			utcPtr(x.ServerStartedAt), x.Verified, issuesJSON(x.VerificationIssues), len(added), size, minuteOf(x.UpdatedAt))
		if err != nil {
			return err
		}
		for i, data := range added {
			if _, err := tx.ExecContext(ctx, insertInteraction, x.ID, i, data); err != nil {
				return err
			}
		}
		return s.recordSession(ctx, tx, rec, training.Session{}, x, x.InteractionData.Interactions)
	})
	if err != nil {
		return training.Session{}, err
	}
	s.heads.put(x, training.StoredInteractions{Count: len(added), Bytes: size}, 0)
	return x, nil
}

// GetSession returns a session record with all its interactions, or
// ENOTFOUND.
func (s *Store) GetSession(ctx context.Context, id string) (training.Session, error) {
	x, _, err := scanSession(s.db.QueryRowContext(ctx, sessionByID, id))
	if isNoRows(err) {
		return x, apperr.NotFound("XR session %q does not exist", id)
	}
	if err != nil {
		return x, fmt.Errorf("get xr session: %w", err)
	}
	// Interactions are only ever appended: those below the count read with
	// the row are the ones it counted, whatever was appended since.
	if x.InteractionData.Interactions, err = readInteractions(ctx, s.db, nil, id, x.Earlier.Count); err != nil {
		return x, fmt.Errorf("get xr session: %w", err)
	}
	x.Earlier = training.StoredInteractions{}
	return x, nil
}

// GetSessionHead returns a session record without its stored interactions
// (x.Earlier counts them), or ENOTFOUND: for callers that need only its
// small fields, whose cost should not grow with the session.
func (s *Store) GetSessionHead(ctx context.Context, id string) (training.Session, error) {
	x, _, err := scanSession(s.db.QueryRowContext(ctx, sessionByID, id))
	if isNoRows(err) {
		return x, apperr.NotFound("XR session %q does not exist", id)
	}
	if err != nil {
		return x, fmt.Errorf("get xr session: %w", err)
	}
	return x, nil
}

// UpdateSession reads session id with all its interactions, lets fn change
// it and stores the change, in one transaction, so that concurrent updates
// of one session never lose each other's interactions. fn may change the
// small fields and append interactions, nothing else; its error aborts the
// update and is returned. It is for ending a session, whose judgement
// reads every interaction once; a periodic update is AppendSession's. rec,
// when set, records the change as statements in the same transaction.
func (s *Store) UpdateSession(ctx context.Context, id string, rec *Recorder, fn func(*training.Session) error) (training.Session, error) {
	return s.updateLocked(ctx, id, true, rec, fn)
}

// optimisticAttempts is how many times AppendSession tries to write
// without locking on PostgreSQL before it locks the row (a variable for
// tests of either path).
var optimisticAttempts = 3

// AppendSession is UpdateSession for a periodic update: fn sees the session
// without the interactions already stored (x.Earlier counts them), so
// InteractionData.Interactions holds only the ones fn appends, and so does
// the record returned. fn may run more than once (it must be a pure change
// of x). Its cost does not grow with the interactions stored. rec, when
// set, records the change as statements in the same transaction.
func (s *Store) AppendSession(ctx context.Context, id string, rec *Recorder, fn func(*training.Session) error) (training.Session, error) {
	// The optimistic path writes in one statement, outside a transaction;
	// recording statements needs one.
	if s.dialect == Postgres && rec == nil {
		// Read, then write only if nobody wrote in between: two round trips
		// and no lock held across them. After a few lost races, take the row
		// lock, which always makes progress.
		for range optimisticAttempts {
			x, done, err := s.appendUnlocked(ctx, id, fn)
			if err != nil {
				return training.Session{}, fmt.Errorf("update xr session: %w", err)
			}
			if done {
				return x, nil
			}
		}
	}
	return s.updateLocked(ctx, id, false, rec, fn)
}

// updateLocked reads session id (with its interactions if whole), lets fn
// change it and writes it back in one transaction holding the row's lock.
// Without whole it starts from the session's head when this process holds
// one, and reads the row only if fn refuses it or the row has moved on.
func (s *Store) updateLocked(ctx context.Context, id string, whole bool, rec *Recorder, fn func(*training.Session) error) (training.Session, error) {
	var x training.Session
	getQuery := sessionByID
	if s.dialect == Postgres {
		// SQLite's immediate transactions already hold the write lock.
		getQuery += " FOR UPDATE OF x"
	}
	st, err := s.sessionStmts(ctx, getQuery)
	if err != nil {
		return x, fmt.Errorf("update xr session: %w", err)
	}
	var w sessionWrite
	err = s.tx(ctx, "update xr session", func(ctx context.Context, tx *sql.Tx) error {
		r, ok := readSession{}, false
		if !whole {
			r, ok = s.heads.get(id)
		}
		for {
			stored := r.x.Earlier
			if !ok {
				var err error
				if r, stored, err = s.readLocked(ctx, tx, &st, getQuery, id, whole); err != nil {
					return err
				}
			}
			x = r.x
			before := x
			var err error
			w, err = change(&x, r.rev, stored, fn)
			done := false
			if err == nil {
				done, err = s.writeSession(ctx, tx, &st, w)
			}
			if r.head && err == nil && !done {
				s.heads.moved(id) // another writer moved the row on: read it
				ok = false
				continue
			}
			if r.head && err != nil && apperr.Code(err) != apperr.EINTERNAL {
				s.heads.forget(id) // refused on this process's word: ask the row
				ok = false
				continue
			}
			if err == nil && !done {
				err = fmt.Errorf("xr session %s changed under its lock", id)
			}
			if err != nil {
				return err
			}
			return s.recordSession(ctx, tx, rec, before, x, w.appended)
		}
	})
	if err != nil {
		return training.Session{}, err
	}
	s.heads.put(x, w.stored, w.revision+1)
	return x, nil
}

// readLocked reads session id for updateLocked, with its interactions if
// whole (x.Earlier then counts none), and the interactions its row holds.
func (s *Store) readLocked(ctx context.Context, tx *sql.Tx, st *sessionStatements, getQuery, id string, whole bool) (readSession, training.StoredInteractions, error) {
	x, rev, err := scanSession(queryRow(ctx, tx, st.get, getQuery, id))
	if isNoRows(err) {
		return readSession{}, x.Earlier, apperr.NotFound("XR session %q does not exist", id)
	}
	if err != nil {
		return readSession{}, x.Earlier, err
	}
	stored := x.Earlier
	if whole {
		if x.InteractionData.Interactions, err = readInteractions(ctx, tx, st.read, id, x.Earlier.Count); err != nil {
			return readSession{}, stored, err
		}
		x.Earlier = training.StoredInteractions{}
	}
	return readSession{x: x, rev: rev}, stored, nil
}

// sessionWrite is what an update stores: the changed row, written only if
// the row is still at revision, and the interactions it appends.
type sessionWrite struct {
	x        training.Session
	head     string   // interaction_data
	revision int64    // the revision read
	from     int      // seq of the first appended interaction
	added    []string // appended interactions, encoded
	appended []training.Interaction
	stored   training.StoredInteractions
}

// change applies fn to x, read at revision rev from a row counting stored
// interactions, and returns what to write.
func change(x *training.Session, rev int64, stored training.StoredInteractions, fn func(*training.Session) error) (sessionWrite, error) {
	loaded := len(x.InteractionData.Interactions)
	if err := fn(x); err != nil {
		return sessionWrite{}, err
	}
	ins := x.InteractionData.Interactions
	if len(ins) < loaded {
		return sessionWrite{}, fmt.Errorf("xr session %s: an update removed stored interactions", x.ID)
	}
	added, size, err := encodeInteractions(ins[loaded:])
	if err != nil {
		return sessionWrite{}, err
	}
	head, err := headDataJSON(*x)
	if err != nil {
		return sessionWrite{}, err
	}
	return sessionWrite{
		x: *x, head: head, revision: rev, from: stored.Count, added: added, appended: ins[loaded:],
		stored: training.StoredInteractions{Count: stored.Count + len(added), Bytes: stored.Bytes + size},
	}, nil
}

// encodeInteractions encodes interactions for xr_session_interactions.data
// and returns their total size.
func encodeInteractions(ins []training.Interaction) ([]string, int, error) {
	out := make([]string, len(ins))
	size := 0
	for i, in := range ins {
		b, err := in.MarshalJSON() // compact already: no pass of encoding/json over it
		if err != nil {
			return nil, 0, fmt.Errorf("encode interaction: %w", err)
		}
		out[i] = string(b)
		size += len(b)
	}
	return out, size, nil
}

const insertInteraction = `INSERT INTO xr_session_interactions (session_id, seq, data) VALUES ($1, $2, $3)`

// putSession writes a session's row if it is still at the revision read
// ($2). On PostgreSQL the same statement appends the interactions, so an
// update is one statement.
const putSession = `UPDATE xr_sessions SET ended_at = $3, duration = $4, completion_status = $5, safety_score = $6,
		position = $7, rotation = $8, interaction_data = $9, outcome = $10, updated_at = $11,
		verified = $12, verification_issues = $13, interaction_count = $14, interaction_bytes = $15,
		updated_minute = $16, revision = revision + 1
	WHERE id = $1 AND revision = $2`

// putSessionInPlace is putSession for SQLite when no indexed column
// changes, which it checks itself: it writes only the columns no index
// holds. SQLite rewrites an index's entry whenever an UPDATE sets one of
// its columns, to the same value or not, so the full statement deleted and
// inserted an entry of xr_sessions_live and of xr_sessions_learner_figures
// on every update. Without them an append runs 180k instructions instead
// of 224k (callgrind, 3,000 appends one at a time), and bench/compare's
// PATCH writes 7.3 KB to disk instead of 8.1. When it finds no row (an
// indexed column changed; updated_minute does once a minute), putSession
// follows.
const putSessionInPlace = `UPDATE xr_sessions SET duration = $4, completion_status = $5,
		position = $7, rotation = $8, interaction_data = $9, updated_at = $11,
		verification_issues = $13, interaction_count = $14, interaction_bytes = $15, revision = revision + 1
	WHERE id = $1 AND revision = $2 AND ended_at IS $3 AND safety_score IS $6 AND outcome = $10 AND verified = $12
		AND updated_minute = $16`

const putSessionPostgres = `WITH head AS (` + putSession + ` RETURNING id
), added AS (
	INSERT INTO xr_session_interactions (session_id, seq, data)
	SELECT head.id, $17::integer + a.n::integer - 1, a.data FROM head, unnest($18::text[]) WITH ORDINALITY AS a(data, n)
)
SELECT count(*) FROM head`

// minuteOf is updated_minute for updated_at t (migration 00021): the live
// views' index holds it, so that an update changes it at most once a
// minute.
func minuteOf(t time.Time) time.Time { return t.UTC().Truncate(time.Minute) }

// sessionStatements are the statements of a locked update, prepared on
// SQLite (nil on PostgreSQL: see prepare).
type sessionStatements struct{ get, read, putInPlace, put, insert *sql.Stmt }

func (s *Store) sessionStmts(ctx context.Context, getQuery string) (sessionStatements, error) {
	var st sessionStatements
	var err error
	for _, p := range []struct {
		stmt  **sql.Stmt
		query string
	}{{&st.get, getQuery}, {&st.read, readInteractionsQuery}, {&st.putInPlace, putSessionInPlace}, {&st.put, putSession},
		{&st.insert, insertInteraction}} {
		if *p.stmt, err = s.prepare(ctx, p.query); err != nil { //nolint:sqlclosecheck // cached for the store's life; Store.Close closes it
			return st, err
		}
	}
	return st, nil
}

// writeSession stores w in q (a transaction, or on PostgreSQL also the
// database) and reports whether the row was still at the revision read.
// st holds SQLite's prepared statements, if any.
func (s *Store) writeSession(ctx context.Context, q execQuerier, st *sessionStatements, w sessionWrite) (bool, error) {
	x := w.x
	args := []any{x.ID, w.revision, utcPtr(x.EndedAt), x.Duration, x.CompletionStatus, x.SafetyScore,
		jsonOrNull(x.Position), jsonOrNull(x.Rotation), w.head, x.InteractionData.CompletionStatus, x.UpdatedAt.UTC(),
		x.Verified, issuesJSON(x.VerificationIssues), w.stored.Count, w.stored.Bytes, minuteOf(x.UpdatedAt)}
	if s.dialect == Postgres {
		var n int
		err := q.QueryRowContext(ctx, putSessionPostgres, append(args, w.from, w.added)...).Scan(&n)
		return n == 1, err
	}
	// SQLite: the caller's immediate transaction makes the two one change.
	tx, ok := q.(*sql.Tx)
	if !ok {
		return false, fmt.Errorf("write xr session %s: SQLite writes need a transaction", x.ID)
	}
	var putInPlace, put, insert *sql.Stmt
	if st != nil {
		putInPlace, put, insert = st.putInPlace, st.put, st.insert
	}
	res, err := exec(ctx, tx, putInPlace, putSessionInPlace, args...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err == nil && n == 0 {
		if res, err = exec(ctx, tx, put, putSession, args...); err == nil {
			n, err = res.RowsAffected()
		}
	}
	if err != nil || n != 1 {
		return false, err
	}
	for i, data := range w.added {
		if _, err := exec(ctx, tx, insert, insertInteraction, x.ID, w.from+i, data); err != nil {
			return false, err
		}
	}
	return true, nil
}

const readInteractionsQuery = `SELECT seq, data FROM xr_session_interactions WHERE session_id = $1 AND seq < $2 ORDER BY seq`

// readInteractions reads the first n interactions of session id, in order.
func readInteractions(ctx context.Context, q querier, st *sql.Stmt, id string, n int) ([]training.Interaction, error) {
	var rows *sql.Rows
	var err error
	if tx, ok := q.(*sql.Tx); ok && st != nil {
		ts := tx.StmtContext(ctx, st)
		defer ts.Close()
		rows, err = ts.QueryContext(ctx, id, n)
	} else {
		rows, err = q.QueryContext(ctx, readInteractionsQuery, id, n)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]training.Interaction, 0, n)
	for rows.Next() {
		var seq int
		var data string
		if err := rows.Scan(&seq, &data); err != nil {
			return nil, err
		}
		if seq != len(out) {
			return nil, fmt.Errorf("session %s: interaction %d is missing", id, len(out))
		}
		var in training.Interaction
		if err := json.Unmarshal([]byte(data), &in); err != nil {
			return nil, fmt.Errorf("session %s interaction %d: %w", id, seq, err)
		}
		out = append(out, in)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) != n {
		return nil, fmt.Errorf("session %s: %d interactions stored, %d counted", id, len(out), n)
	}
	return out, nil
}

const summaryColumns = `x.id, x.user_id, x.module_id, m.title, x.session_type, x.device_type, x.started_at, x.ended_at,
	x.duration, x.completion_status, x.safety_score, x.outcome, x.updated_at, x.verified, x.verification_issues, x.interaction_data`

// historyPage is one page of a learner's sessions; xr_sessions_user holds
// them in its order.
const historyPage = `SELECT ` + summaryColumns + `
	FROM xr_sessions x JOIN training_modules m ON m.id = x.module_id
	WHERE x.user_id = $1 ORDER BY x.started_at DESC, x.id DESC LIMIT $2 OFFSET $3`

// ListSessions returns one page of a learner's sessions, newest first, as
// summaries (no interaction data), and how many sessions the learner has.
// limit is clamped to 1..MaxSessionPage.
func (s *Store) ListSessions(ctx context.Context, userID string, limit, offset int) ([]training.SessionSummary, int, error) {
	limit = min(max(limit, 1), MaxSessionPage)
	offset = max(offset, 0)
	// Two plain reads, not a transaction: SQLite's immediate transactions
	// would make every history read wait for the write lock.
	q := preparedReads{s}
	var total int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM xr_sessions WHERE user_id = $1`, userID).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("list xr sessions: %w", err)
	}
	out, err := querySummaries(ctx, q, historyPage, userID, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("list xr sessions: %w", err)
	}
	return out, total, nil
}

// ListAllSessions returns a learner's sessions for analytics, newest first,
// at most MaxAnalyticsSessions of them.
func (s *Store) ListAllSessions(ctx context.Context, userID string) ([]training.SessionSummary, error) {
	out, err := querySummaries(ctx, preparedReads{s}, `SELECT `+summaryColumns+`
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
		WHERE x.ended_at IS NULL AND x.updated_minute >= $4 AND x.updated_at >= $2 AND `+orgIs("l.org_id", orgID)+`
		ORDER BY x.updated_at DESC, x.id DESC LIMIT $3`,
		orgID, since.UTC(), MaxLiveSessions, minuteOf(since))
	if err != nil {
		return nil, fmt.Errorf("list live xr sessions: %w", err)
	}
	return out, nil
}

// IdleSessions returns the ids of at most limit sessions not yet ended
// whose last update came before before, longest idle first. Like the live
// views it reads the running sessions' index by updated_minute, so it
// never reads an ended session or a recent one.
func (s *Store) IdleSessions(ctx context.Context, before time.Time, limit int) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM xr_sessions
		WHERE ended_at IS NULL AND updated_minute < $1 AND updated_at < $2 ORDER BY updated_minute, id LIMIT $3`,
		minuteOf(before), before.UTC(), limit)
	if err != nil {
		return nil, fmt.Errorf("list idle xr sessions: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("list idle xr sessions: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

func querySummaries(ctx context.Context, q querier, query string, args ...any) ([]training.SessionSummary, error) {
	out := []training.SessionSummary{}
	err := eachSummary(ctx, q, query, args, func(x training.SessionSummary) error {
		out = append(out, x)
		return nil
	})
	return out, err
}

// eachSummary calls fn with each row of a query of summaryColumns, as the
// rows are read.
func eachSummary(ctx context.Context, q querier, query string, args []any, fn func(training.SessionSummary) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var x training.SessionSummary
		var ended sql.NullTime
		var score sql.NullFloat64
		var issues, head string
		if err := rows.Scan(&x.ID, &x.UserID, &x.ModuleID, &x.ModuleTitle, &x.SessionType, &x.DeviceType, &x.StartedAt, &ended,
			&x.Duration, &x.CompletionStatus, &score, &x.Outcome, &x.UpdatedAt, &x.Verified, &issues, &head); err != nil {
			return err
		}
		var err error
		if x.VerificationIssues, err = decodeIssues(x.ID, issues); err != nil {
			return err
		}
		var h headData
		if err := json.Unmarshal([]byte(head), &h); err != nil {
			return fmt.Errorf("session %s interaction data: %w", x.ID, err)
		}
		x.SafetyChecks = h.SafetyChecks
		if x.SafetyChecks == nil {
			x.SafetyChecks = []training.SafetyCheckResult{}
		}
		x.StartedAt, x.UpdatedAt = x.StartedAt.UTC(), x.UpdatedAt.UTC()
		if ended.Valid {
			t := ended.Time.UTC()
			x.EndedAt = &t
		}
		if score.Valid {
			x.SafetyScore = &score.Float64
		}
		if err := fn(x); err != nil {
			return err
		}
	}
	return rows.Err()
}

// scanSession reads a row of sessionByID: the record without its stored
// interactions, which x.Earlier counts, and the row's revision.
func scanSession(row interface{ Scan(...any) error }) (training.Session, int64, error) {
	var x training.Session
	var ended sql.NullTime
	var score sql.NullFloat64
	var pos, rot sql.NullString
	var data, issues string
	var serverStart sql.NullTime
	var rev int64
	if err := row.Scan(&x.ID, &x.UserID, &x.ModuleID, &x.ModuleTitle, &x.SessionType, &x.DeviceType, &x.StartedAt, &ended,
		&x.Duration, &x.CompletionStatus, &score, &pos, &rot, &data, &x.UpdatedAt,
		&serverStart, &x.Verified, &issues, &x.Earlier.Count, &x.Earlier.Bytes, &rev); err != nil {
		return x, 0, err
	}
	if serverStart.Valid {
		t := serverStart.Time.UTC()
		x.ServerStartedAt = &t
	}
	var err error
	if x.VerificationIssues, err = decodeIssues(x.ID, issues); err != nil {
		return x, 0, err
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
			return x, 0, fmt.Errorf("session %s position: %w", x.ID, err)
		}
	}
	if rot.Valid {
		x.Rotation = new(training.Rotation)
		if err := json.Unmarshal([]byte(rot.String), x.Rotation); err != nil {
			return x, 0, fmt.Errorf("session %s rotation: %w", x.ID, err)
		}
	}
	var head headData
	if err := json.Unmarshal([]byte(data), &head); err != nil {
		return x, 0, fmt.Errorf("session %s interaction data: %w", x.ID, err)
	}
	x.InteractionData = training.InteractionData{
		Interactions: []training.Interaction{}, SafetyChecks: head.SafetyChecks, CompletionStatus: head.CompletionStatus,
	}
	x.ClientCompletionStatus = head.ClientCompletionStatus
	if x.InteractionData.SafetyChecks == nil {
		x.InteractionData.SafetyChecks = []training.SafetyCheckResult{}
	}
	return x, rev, nil
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
		st.Close() //nolint:sqlclosecheck // another caller's preparation won the cache; this one is not used
		st = prev.(*sql.Stmt)
	}
	return st, nil
}

// preparedReads is the database as a querier whose queries SQLite prepares
// once (prepare), for reads that run the same query text on every request:
// parsing the two queries of a learner's history page was a fifth of its
// cost. Only fixed query texts may go through it: each stays prepared for
// the store's life.
type preparedReads struct{ s *Store }

func (p preparedReads) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := p.s.prepare(ctx, query) //nolint:sqlclosecheck // cached for the store's life; Store.Close closes it
	if err != nil {
		return nil, err
	}
	if st == nil {
		return p.s.db.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

func (p preparedReads) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st, err := p.s.prepare(ctx, query); err == nil && st != nil { //nolint:sqlclosecheck // cached for the store's life; Store.Close closes it
		return st.QueryRowContext(ctx, args...)
	}
	// On PostgreSQL, or when preparing failed: the query says why itself.
	return p.s.db.QueryRowContext(ctx, query, args...)
}

// queryRow runs st in tx, or query when st is nil.
func queryRow(ctx context.Context, tx *sql.Tx, st *sql.Stmt, query string, args ...any) *sql.Row {
	if st != nil {
		// The Row is scanned after this returns, so the transaction's copy
		// of st stays open until the transaction ends, which closes it.
		return tx.StmtContext(ctx, st).QueryRowContext(ctx, args...) //nolint:sqlclosecheck // closed with the transaction, see above
	}
	return tx.QueryRowContext(ctx, query, args...)
}

// exec runs st in tx, or query when st is nil.
func exec(ctx context.Context, tx *sql.Tx, st *sql.Stmt, query string, args ...any) (sql.Result, error) {
	if st != nil {
		ts := tx.StmtContext(ctx, st)
		defer ts.Close()
		return ts.ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, query, args...)
}
