package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"journeyman/internal/records"
	"journeyman/internal/training"
	"journeyman/internal/xapi"
)

// Recorder asks a session write to record the change as xAPI statements
// about Learner, in the write's own transaction, so that a session and its
// learning record never disagree. Learner's cohorts are read here.
type Recorder struct {
	Learner records.Learner
}

// recordSession stores the statements of a session change: before is the
// session as it was (zero when new), after as written, added what the
// change appended. A nil rec records nothing.
func (s *Store) recordSession(ctx context.Context, tx *sql.Tx, rec *Recorder, before, after training.Session, added []training.Interaction) error {
	ended := after.CompletionStatus == training.StatusCompleted && before.CompletionStatus != training.StatusCompleted
	if rec == nil || before.ID != "" && len(added) == 0 && !ended {
		return nil
	}
	var m records.Module
	err := tx.QueryRowContext(ctx, `SELECT m.id, m.title, m.description, m.trade_id, t.name
		FROM training_modules m JOIN trades t ON t.id = m.trade_id WHERE m.id = $1`, after.ModuleID).
		Scan(&m.ID, &m.Title, &m.Description, &m.TradeID, &m.TradeName)
	if err != nil {
		return fmt.Errorf("record session %s: module %s: %w", after.ID, after.ModuleID, err)
	}
	l := rec.Learner
	if l.Cohorts, err = learnerCohorts(ctx, tx, l.ID); err != nil {
		return fmt.Errorf("record session %s: %w", after.ID, err)
	}
	return s.storeRecords(ctx, tx, l, "session "+after.ID, l.SessionStatements(m, before, after, added))
}

// storeRecords stores body, a JSON array of statements about l built by
// the records package (nil for none), in tx; what names the record in
// errors.
func (s *Store) storeRecords(ctx context.Context, tx *sql.Tx, l records.Learner, what string, body []byte) error {
	if body == nil {
		return nil
	}
	ins, err := xapi.Decode(body, xapi.V200)
	if err != nil {
		// Our own statements: invalid ones are our bug, not the client's.
		return fmt.Errorf("record %s: statements the LRS refuses: %s", what, err.Error())
	}
	_, err = s.storeXAPI(ctx, tx, XAPIWrite{OrgID: l.OrgID, LearnerID: l.ID, Authority: records.Authority(l.Base), Version: xapi.V200, Statements: ins})
	return err
}

// recordLearner is rec's learner with their cohorts, read in tx.
func recordLearner(ctx context.Context, tx *sql.Tx, rec *Recorder) (records.Learner, error) {
	l := rec.Learner
	var err error
	l.Cohorts, err = learnerCohorts(ctx, tx, l.ID)
	return l, err
}

// tradeName is a trade's name, or its id when the catalog lacks it.
func tradeName(ctx context.Context, tx *sql.Tx, tradeID string) (string, error) {
	var name string
	err := tx.QueryRowContext(ctx, `SELECT name FROM trades WHERE id = $1`, tradeID).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return tradeID, nil
	}
	return name, err
}

// learnerCohorts lists the cohorts a learner belongs to, by name.
func learnerCohorts(ctx context.Context, q querier, learnerID string) ([]records.Cohort, error) {
	rows, err := q.QueryContext(ctx, `SELECT c.id, c.name FROM cohort_members m JOIN cohorts c ON c.id = m.cohort_id
		WHERE m.learner_id = $1 ORDER BY c.name`, learnerID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []records.Cohort
	for rows.Next() {
		var c records.Cohort
		if err := rows.Scan(&c.ID, &c.Name); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
