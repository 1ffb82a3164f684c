package store

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"journeyman/internal/apperr"
	"journeyman/internal/training"
)

// appendQueue gathers the optimistic session appends that arrive together
// on PostgreSQL and runs them as one read of the rows this process holds
// no head of (sessionHeads) and one statement writing them all, each row
// only if it is still at the revision read. Per append, PostgreSQL then
// parses, plans and commits a share of at most two statements instead of
// two, and the server makes a share of at most two round trips; an append
// arriving alone still costs its own.
type appendQueue = groupQueue[sessionAppend, appendResult]

// sessionAppend is one append: fn applied to session id.
type sessionAppend struct {
	id string
	fn func(*training.Session) error
}

type appendResult struct {
	x    training.Session
	done bool // written; false when another update came first
	err  error
}

// appendBatches is how many batches may be in flight at once: while one
// waits on PostgreSQL, the next is gathered and prepared.
const appendBatches = 2

func newAppendQueue() *appendQueue { return newGroupQueue[sessionAppend, appendResult](appendBatches) }

// appendUnlocked is one optimistic attempt of AppendSession on PostgreSQL:
// it reports done=false when another update of the session came first.
func (s *Store) appendUnlocked(ctx context.Context, id string, fn func(*training.Session) error) (training.Session, bool, error) {
	r, err := s.appends.submit(ctx, sessionAppend{id, fn}, s.runAppends)
	if err != nil {
		return training.Session{}, false, err // withdrawn
	}
	return r.x, r.done, r.err
}

const sessionsByID = `SELECT ` + sessionColumns + `
	FROM xr_sessions x JOIN training_modules m ON m.id = x.module_id WHERE x.id = ANY($1)`

// putSessions is putSession and the appends of putSessionPostgres for many
// sessions, one element of each array per session ($17 to $19: one per
// appended interaction). It locks every row before it writes any, in the
// order of the arrays, which runAppends sorts by id: two processes writing
// batches that share sessions would otherwise each lock in its own plan's
// order and could deadlock. The lateral lock is a nested loop over the
// arrays, in their order, through the primary key, and the array of the
// locked rows' ctids, evaluated before the update, is where the update
// looks for them. Planned as joins on id, both read the whole table
// instead, which the planner prefers while it is small (1,000 sessions in
// bench/compare): PostgreSQL spent 76-79 µs of CPU per PATCH there against
// 59-65 this way.
const putSessions = `WITH v AS (
	SELECT * FROM unnest($1::text[], $2::bigint[], $3::timestamptz[], $4::bigint[], $5::text[], $6::float8[],
		$7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::boolean[], $13::text[],
		$14::integer[], $15::integer[], $16::timestamptz[])
	AS v(id, revision, ended_at, duration, completion_status, safety_score, position, rotation, interaction_data,
		outcome, updated_at, verified, verification_issues, interaction_count, interaction_bytes, updated_minute)
), locked AS (
	SELECT v.*, x.row FROM v, LATERAL (SELECT ctid AS row FROM xr_sessions WHERE id = v.id FOR UPDATE) x
), head AS (
	UPDATE xr_sessions x SET ended_at = v.ended_at, duration = v.duration, completion_status = v.completion_status,
		safety_score = v.safety_score, position = v.position, rotation = v.rotation, interaction_data = v.interaction_data,
		outcome = v.outcome, updated_at = v.updated_at, verified = v.verified, verification_issues = v.verification_issues,
		interaction_count = v.interaction_count, interaction_bytes = v.interaction_bytes, updated_minute = v.updated_minute,
		revision = x.revision + 1
	FROM locked v
	WHERE x.ctid = ANY (ARRAY(SELECT row FROM locked)) AND x.ctid = v.row AND x.revision = v.revision
	RETURNING x.id
), added AS (
	INSERT INTO xr_session_interactions (session_id, seq, data)
	SELECT a.session_id, a.seq, a.data FROM unnest($17::text[], $18::integer[], $19::text[]) AS a(session_id, seq, data)
	JOIN head ON head.id = a.session_id
)
SELECT id FROM head`

// runAppends runs one batch of queued appends and answers each. A second
// append of a session waits for a later batch: one statement cannot write
// a row twice.
func (s *Store) runAppends() {
	seen := make(map[string]bool)
	batch := s.appends.take(maxGroup, func(a sessionAppend) bool {
		if seen[a.id] {
			return false
		}
		seen[a.id] = true
		return true
	})
	if len(batch) == 0 {
		return
	}
	// The batch is no one caller's: one leaving must not end it.
	ctx := context.Background()
	live := batch[:0]
	read := make(map[string]readSession, len(batch))
	var unread []string
	for _, w := range batch {
		if err := w.ctx.Err(); err != nil {
			w.done <- appendResult{err: err}
			continue
		}
		live = append(live, w)
		if r, ok := s.heads.get(w.item.id); ok {
			read[w.item.id] = r
		} else {
			unread = append(unread, w.item.id)
		}
	}
	if len(live) == 0 {
		return
	}
	if len(unread) > 0 {
		if err := s.readSessions(ctx, unread, read); err != nil {
			for _, w := range live {
				w.done <- appendResult{err: err}
			}
			return
		}
	}
	// putSessions locks in the order of its arrays.
	slices.SortFunc(live, func(a, b *queued[sessionAppend, appendResult]) int { return strings.Compare(a.item.id, b.item.id) })
	var b sessionBatch
	var written []*queued[sessionAppend, appendResult]
	var writes []sessionWrite
	for _, w := range live {
		r, ok := read[w.item.id]
		if !ok {
			w.done <- appendResult{err: apperr.NotFound("XR session %q does not exist", w.item.id)}
			continue
		}
		x := r.x
		sw, err := changeSafely(&x, r.rev, w.item.fn)
		if err != nil {
			if r.head {
				// Refused on this process's word: ask the row.
				s.heads.forget(w.item.id)
				w.done <- appendResult{}
				continue
			}
			w.done <- appendResult{err: err}
			continue
		}
		b.add(sw)
		written = append(written, w)
		writes = append(writes, sw)
	}
	if len(written) == 0 {
		return
	}
	stored, err := s.writeSessions(ctx, &b)
	if isDeadlock(err) {
		// Nothing of the batch was written, and nothing read is stale for
		// that: each append tries again as if it had lost a race.
		for _, w := range written {
			w.done <- appendResult{}
		}
		return
	}
	for i, w := range written {
		sw := writes[i]
		done := err == nil && stored[w.item.id]
		switch {
		case done:
			s.heads.put(sw.x, sw.stored, sw.revision+1)
		case err == nil && read[w.item.id].head:
			s.heads.moved(w.item.id)
		default:
			s.heads.forget(w.item.id)
		}
		w.done <- appendResult{x: sw.x, done: done, err: err}
	}
}

type readSession struct {
	x   training.Session
	rev int64
	// head says x is this process's last write (sessionHeads), not a read.
	head bool
}

// readSessions reads the sessions of ids into read.
func (s *Store) readSessions(ctx context.Context, ids []string, read map[string]readSession) error {
	rows, err := s.db.QueryContext(ctx, sessionsByID, ids)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		x, rev, err := scanSession(rows)
		if err != nil {
			return err
		}
		read[x.ID] = readSession{x: x, rev: rev}
	}
	return rows.Err()
}

// changeSafely is change for one append of a batch: a panic in fn is that
// append's error, so that the rest of its batch is answered.
func changeSafely(x *training.Session, rev int64, fn func(*training.Session) error) (w sessionWrite, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return change(x, rev, x.Earlier, fn)
}

// sessionBatch holds the arguments of putSessions, column by column.
type sessionBatch struct {
	id, status, outcome, head, issues []string
	position, rotation                []*string
	revision, duration                []int64
	ended                             []*time.Time
	score                             []*float64
	updated, minute                   []time.Time
	verified                          []bool
	count, bytes                      []int64
	addedID                           []string
	addedSeq                          []int64
	addedData                         []string
}

func (b *sessionBatch) add(w sessionWrite) {
	x := w.x
	b.id = append(b.id, x.ID)
	b.revision = append(b.revision, w.revision)
	var ended *time.Time
	if x.EndedAt != nil {
		t := x.EndedAt.UTC()
		ended = &t
	}
	b.ended = append(b.ended, ended)
	b.duration = append(b.duration, x.Duration)
	b.status = append(b.status, x.CompletionStatus)
	b.score = append(b.score, x.SafetyScore)
	b.position = append(b.position, nullableJSON(x.Position))
	b.rotation = append(b.rotation, nullableJSON(x.Rotation))
	b.head = append(b.head, w.head)
	b.outcome = append(b.outcome, x.InteractionData.CompletionStatus)
	b.updated = append(b.updated, x.UpdatedAt.UTC())
	b.minute = append(b.minute, minuteOf(x.UpdatedAt))
	b.verified = append(b.verified, x.Verified)
	b.issues = append(b.issues, issuesJSON(x.VerificationIssues))
	b.count = append(b.count, int64(w.stored.Count))
	b.bytes = append(b.bytes, int64(w.stored.Bytes))
	for i, data := range w.added {
		b.addedID = append(b.addedID, x.ID)
		b.addedSeq = append(b.addedSeq, int64(w.from+i))
		b.addedData = append(b.addedData, data)
	}
}

// nullableJSON is jsonOrNull as a nullable string.
func nullableJSON[T any](v *T) *string {
	if s, ok := jsonOrNull(v).(string); ok {
		return &s
	}
	return nil
}

// isDeadlock reports whether PostgreSQL aborted a statement to break a
// deadlock. A batch locks its rows in order, but a transaction writing
// several sessions in another order (a guest's carried over at sign-up)
// can still meet one.
func isDeadlock(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "40P01"
}

// writeSessions runs putSessions for b and reports the sessions written.
func (s *Store) writeSessions(ctx context.Context, b *sessionBatch) (map[string]bool, error) {
	rows, err := s.db.QueryContext(ctx, putSessions, b.id, b.revision, b.ended, b.duration, b.status, b.score,
		b.position, b.rotation, b.head, b.outcome, b.updated, b.verified, b.issues, b.count, b.bytes, b.minute,
		b.addedID, b.addedSeq, b.addedData)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string]bool, len(b.id))
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}
