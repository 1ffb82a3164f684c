package store

import (
	"context"
	"database/sql"
	"fmt"
	"runtime/debug"

	"journeyman/internal/apperr"
)

// maxGroup bounds the transactions committed together.
const maxGroup = 64

// writeQueue holds transactions that take turns: SQLite's, waiting for the
// one writer, and on PostgreSQL an organisation's LRS writes (xapiQueues).
// Whoever takes the turn runs what is queued in one transaction and
// commits once: the pages the writes share (index tails, the table's last
// page, a counter row) go to the log once per group instead of once per
// write, and the commit's bookkeeping and wait are paid once.
type writeQueue = groupQueue[txFunc, error]

// groupTx is where a writeQueue's groups run.
type groupTx struct {
	db interface {
		BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error)
	}
	// changes, when set, is SQLite's total_changes() prepared on the
	// writer: its count of the rows the connection has changed tells a
	// write refused before it wrote anything, and its group goes on.
	// Without it (PostgreSQL, which ends a transaction at its first failed
	// statement anyway), a failed write has the others run again in a new
	// transaction.
	changes *sql.Stmt
}

// totalChangesQuery is groupTx.changes. Run as text rather than prepared,
// the driver parsed it before each write of a group: 6% of the CPU of
// session updates on one core.
const totalChangesQuery = `SELECT total_changes()`

type txFunc = func(context.Context, *sql.Tx) error

type queuedWrite = queued[txFunc, error]

func newWriteQueue() *writeQueue { return newGroupQueue[txFunc, error](1) }

// runWrite queues fn and returns once its group has committed or failed.
// A write still waiting when ctx ends is withdrawn; one that has started
// runs to its end, as a cancelled statement would otherwise interrupt the
// whole group's transaction (SQLite rolls an interrupted write's
// transaction back). fn may run more than once (see commitGroup); only its
// last run's writes are kept.
func runWrite(ctx context.Context, wq *writeQueue, g groupTx, fn txFunc) error {
	fnErr, err := wq.submit(ctx, fn, func() { commitGroup(g, wq.take(maxGroup, nil)) })
	if err != nil {
		return err // withdrawn
	}
	return fnErr
}

// commitGroup runs group's writes in one transaction and answers each. A
// write that fails is answered with its error and must leave nothing
// behind: if it changed nothing (an application's refusal before it
// wrote) the group goes on, and otherwise the transaction is rolled back
// and the writes before it run again, with those after it, in a new one.
// A savepoint around each write would undo a failed one alone, but makes
// SQLite copy every page a write changes into a statement journal first:
// 14% of the server's CPU under a stream of xAPI batches.
func commitGroup(g groupTx, group []*queuedWrite) {
	for len(group) > 0 {
		group = runGroup(g, group)
	}
}

// runGroup is one transaction of commitGroup. It returns the writes to run
// again, unanswered.
func runGroup(g groupTx, group []*queuedWrite) []*queuedWrite {
	// The transaction is no one caller's: one leaving must not end it.
	ctx := context.Background()
	tx, err := g.db.BeginTx(ctx, nil)
	if err != nil {
		for _, w := range group {
			w.done <- err
		}
		return nil
	}
	defer func() { _ = tx.Rollback() }()
	var ran []*queuedWrite // written, waiting for the commit
	// A lone write's failure needs no count: nothing else is undone.
	counted := g.changes != nil && len(group) > 1
	for i, w := range group {
		if err := w.ctx.Err(); err != nil {
			w.done <- err
			continue
		}
		before := int64(-1)
		if counted {
			before = totalChanges(ctx, tx, g.changes)
		}
		err := call(w, tx)
		if err == nil {
			ran = append(ran, w)
			continue
		}
		w.done <- err
		// Only an application's error says the transaction is as it was:
		// after SQLite's own (a full disk, say) it may be gone altogether.
		if before >= 0 && apperr.Code(err) != apperr.EINTERNAL && totalChanges(ctx, tx, g.changes) == before {
			continue
		}
		return append(ran, group[i+1:]...)
	}
	err = tx.Commit()
	for _, w := range ran {
		w.done <- err
	}
	return nil
}

// totalChanges is SQLite's count of the rows tx's connection has
// inserted, updated or deleted, or -1 if it cannot be read. A statement
// that fails is undone and counts nothing.
func totalChanges(ctx context.Context, tx *sql.Tx, changes *sql.Stmt) int64 {
	st := tx.StmtContext(ctx, changes)
	defer st.Close()
	var n int64
	if err := st.QueryRowContext(ctx).Scan(&n); err != nil {
		return -1
	}
	return n
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
