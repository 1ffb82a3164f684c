package store

import (
	"context"
	"database/sql"
	"fmt"
	"runtime/debug"
)

// maxGroup bounds the SQLite transactions committed together.
const maxGroup = 64

// writeQueue holds the SQLite transactions waiting for the one writer.
// Whoever takes the writer runs what is queued in one transaction, each in
// a savepoint of its own, and commits once: the pages the writes share
// (index tails, the table's last page, a counter row) go to the WAL once
// per group instead of once per write, and the commit's bookkeeping is
// paid once. A write whose savepoint fails is rolled back alone.
type writeQueue = groupQueue[txFunc, error]

type txFunc = func(context.Context, *sql.Tx) error

type queuedWrite = queued[txFunc, error]

func newWriteQueue() *writeQueue { return newGroupQueue[txFunc, error](1) }

// runWrite queues fn and returns once its group has committed or failed.
// A write still waiting when ctx ends is withdrawn; one that has started
// runs to its end, as a cancelled statement would otherwise interrupt the
// whole group's transaction (SQLite rolls an interrupted write's
// transaction back).
func runWrite(ctx context.Context, wq *writeQueue, db *sql.DB, fn txFunc) error {
	fnErr, err := wq.submit(ctx, fn, func() { wq.putBack(commitGroup(db, wq.take(maxGroup, nil))) })
	if err != nil {
		return err // withdrawn
	}
	return fnErr
}

// commitGroup runs group in one transaction and answers every write it
// ran; it returns those it did not reach.
func commitGroup(db *sql.DB, group []*queuedWrite) []*queuedWrite {
	if len(group) == 0 {
		return nil
	}
	// The transaction is no one caller's: one leaving must not end it.
	ctx := context.Background()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		for _, w := range group {
			w.done <- err
		}
		return nil
	}
	defer func() { _ = tx.Rollback() }()
	var ran []*queuedWrite // written, waiting for the commit
	fail := func(err error) {
		for _, w := range ran {
			w.done <- err
		}
	}
	alone := len(group) == 1
	for i, w := range group {
		if err := w.ctx.Err(); err != nil {
			w.done <- err
			continue
		}
		if alone {
			if err := call(w, tx); err != nil {
				w.done <- err
				return nil
			}
			ran = append(ran, w)
			continue
		}
		if _, err := tx.ExecContext(ctx, "SAVEPOINT w"); err != nil {
			fail(fmt.Errorf("group commit: %w", err))
			return group[i:]
		}
		if err := call(w, tx); err != nil {
			if rerr := undo(ctx, tx); rerr != nil {
				w.done <- err
				fail(fmt.Errorf("group commit: undoing a failed write: %w", rerr))
				return group[i+1:]
			}
			w.done <- err
			continue
		}
		if _, err := tx.ExecContext(ctx, "RELEASE w"); err != nil {
			ran = append(ran, w)
			fail(fmt.Errorf("group commit: %w", err))
			return group[i+1:]
		}
		ran = append(ran, w)
	}
	err = tx.Commit()
	for _, w := range ran {
		w.done <- err
	}
	return nil
}

// call runs w's function under a context its caller's leaving does not
// end (an interrupted statement would roll back the whole group), and
// turns a panic into w's error, so the rest of its group is answered.
func call(w *queuedWrite, tx *sql.Tx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return w.item(context.WithoutCancel(w.ctx), tx)
}

// undo rolls back to the savepoint w and closes it (ROLLBACK TO keeps it
// open).
func undo(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, "ROLLBACK TO w"); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "RELEASE w")
	return err
}
