package store

import (
	"context"
	"database/sql"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
)

// maxGroup bounds the SQLite transactions committed together.
const maxGroup = 64

// writeQueue holds the SQLite transactions waiting for the one writer.
// Whoever takes the writer runs what is queued in one transaction, each in
// a savepoint of its own, and commits once: the pages the writes share
// (index tails, the table's last page, a counter row) go to the WAL once
// per group instead of once per write, and the commit's bookkeeping is
// paid once. A write whose savepoint fails is rolled back alone.
type writeQueue struct {
	slot chan struct{} // the writer: held by whoever runs a group
	mu   sync.Mutex
	q    []*queuedWrite
}

type queuedWrite struct {
	ctx  context.Context
	fn   func(context.Context, *sql.Tx) error
	done chan error
}

func newWriteQueue() *writeQueue { return &writeQueue{slot: make(chan struct{}, 1)} }

// run queues fn and returns once its group has committed or failed. A
// write still waiting when ctx ends is withdrawn; one that has started
// runs to its end, as a cancelled statement would otherwise interrupt the
// whole group's transaction (SQLite rolls an interrupted write's
// transaction back).
func (wq *writeQueue) run(ctx context.Context, db *sql.DB, fn func(context.Context, *sql.Tx) error) error {
	w := &queuedWrite{ctx: ctx, fn: fn, done: make(chan error, 1)}
	wq.mu.Lock()
	wq.q = append(wq.q, w)
	wq.mu.Unlock()
	cancelled := ctx.Done()
	for {
		select {
		case err := <-w.done:
			return err
		case wq.slot <- struct{}{}:
			// Let the goroutines ready to run go first: those about to write
			// join this group instead of waiting for the next. On one core
			// they would otherwise only run once this group's commit was done.
			runtime.Gosched()
			wq.runGroup(db)
			<-wq.slot
		case <-cancelled:
			if wq.withdraw(w) {
				return ctx.Err()
			}
			cancelled = nil // a group has it: wait for its answer
		}
	}
}

// hold runs fn while no write runs, once the writer is free.
func (wq *writeQueue) hold(ctx context.Context, fn func() error) error {
	select {
	case wq.slot <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-wq.slot }()
	return fn()
}

func (wq *writeQueue) withdraw(w *queuedWrite) bool {
	wq.mu.Lock()
	defer wq.mu.Unlock()
	for i, q := range wq.q {
		if q == w {
			wq.q = append(wq.q[:i], wq.q[i+1:]...)
			return true
		}
	}
	return false
}

// runGroup runs up to maxGroup queued writes in one transaction and
// answers each. Writes the transaction could not reach (it broke under an
// earlier one) go back to the head of the queue.
func (wq *writeQueue) runGroup(db *sql.DB) {
	wq.mu.Lock()
	n := min(len(wq.q), maxGroup)
	group := append([]*queuedWrite(nil), wq.q[:n]...)
	wq.q = append(wq.q[:0], wq.q[n:]...)
	wq.mu.Unlock()
	if n == 0 {
		return
	}
	rest := commitGroup(db, group)
	if len(rest) > 0 {
		wq.mu.Lock()
		wq.q = append(rest, wq.q...)
		wq.mu.Unlock()
	}
}

// commitGroup runs group in one transaction and answers every write it
// ran; it returns those it did not reach.
func commitGroup(db *sql.DB, group []*queuedWrite) []*queuedWrite {
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
	return w.fn(context.WithoutCancel(w.ctx), tx)
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
