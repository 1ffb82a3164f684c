package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/twin"
)

// TestSQLiteGroupCommit queues writes behind a held writer, in a known
// order, and checks that they run in one transaction until one fails
// having changed something: that one is undone with its transaction, and
// the others run again in a new one. A refusal that changed nothing costs
// the group nothing. Whatever ran how often, every write that succeeded is
// kept exactly once and nothing of a failed one is.
func TestSQLiteGroupCommit(t *testing.T) {
	s := storetest.OpenSQLite(t)
	ctx := context.Background()
	if _, err := s.DB().ExecContext(ctx, `CREATE TABLE scratch (k TEXT PRIMARY KEY); CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0)`); err != nil {
		t.Fatal(err)
	}
	release := holdWriter(t, s)

	// insert keeps k and counts it, so a write applied twice shows.
	insert := func(tx *sql.Tx, k string) error {
		if _, err := tx.ExecContext(ctx, `UPDATE counter SET n = n + 1`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO scratch (k) VALUES ($1)`, k)
		return err
	}
	cases := []struct {
		key     string
		fn      func(tx *sql.Tx, cancel func()) error
		wantErr string // "" = committed
		runs    int
	}{
		// Runs in all four transactions: each failure below undoes it.
		{"ok-1", func(tx *sql.Tx, _ func()) error { return insert(tx, "ok-1") }, "", 4},
		// Changes nothing: the group goes on.
		{"refused", func(*sql.Tx, func()) error { return apperr.Conflict("refused") }, "refused", 1},
		// An application's refusal after a write undoes the transaction.
		{"fails", func(tx *sql.Tx, _ func()) error {
			if err := insert(tx, "fails"); err != nil {
				return err
			}
			return apperr.Invalid("fails")
		}, "fails", 1},
		{"ok-2", func(tx *sql.Tx, _ func()) error { return insert(tx, "ok-2") }, "", 3},
		{"panics", func(tx *sql.Tx, _ func()) error {
			if err := insert(tx, "panics"); err != nil {
				return err
			}
			panic("boom")
		}, "panic: boom", 1},
		{"duplicate", func(tx *sql.Tx, _ func()) error {
			if err := insert(tx, "duplicate"); err != nil {
				return err
			}
			return insert(tx, "duplicate")
		}, "UNIQUE", 1},
		// Its caller leaves mid-write: the write still completes, and an
		// interrupt does not roll the group back.
		{"caller-leaves", func(tx *sql.Tx, cancel func()) error {
			cancel()
			return insert(tx, "caller-leaves")
		}, "", 1},
		{"ok-3", func(tx *sql.Tx, _ func()) error { return insert(tx, "ok-3") }, "", 1},
	}
	var mu sync.Mutex
	txs := map[*sql.Tx]bool{}
	runs := make([]int, len(cases))
	errs := make([]error, len(cases))
	var wg sync.WaitGroup
	for i, tc := range cases {
		wctx, cancel := context.WithCancel(ctx)
		defer cancel()
		wg.Go(func() {
			errs[i] = store.Tx(wctx, s, tc.key, func(tx *sql.Tx) error {
				mu.Lock()
				txs[tx] = true
				runs[i]++
				mu.Unlock()
				return tc.fn(tx, cancel)
			})
		})
		waitFor(t, func() bool { return store.QueuedWrites(s) == i+1 })
	}
	release()
	wg.Wait()
	if len(txs) != 4 {
		t.Errorf("the queued writes ran in %d transactions; want 4 (one, then one after each failed write that changed something)", len(txs))
	}
	committed := 0
	for i, tc := range cases {
		var n int
		if err := s.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM scratch WHERE k = $1`, tc.key).Scan(&n); err != nil {
			t.Fatal(err)
		}
		switch {
		case tc.wantErr == "" && (errs[i] != nil || n != 1):
			t.Errorf("%s: error %v, %d rows; want committed", tc.key, errs[i], n)
		case tc.wantErr != "" && (errs[i] == nil || !strings.Contains(errs[i].Error(), tc.wantErr) || n != 0):
			t.Errorf("%s: error %v, %d rows; want %q and nothing kept", tc.key, errs[i], n, tc.wantErr)
		}
		if runs[i] != tc.runs {
			t.Errorf("%s ran %d times; want %d", tc.key, runs[i], tc.runs)
		}
		if tc.wantErr == "" {
			committed++
		}
	}
	var counted int
	if err := s.DB().QueryRowContext(ctx, `SELECT n FROM counter`).Scan(&counted); err != nil {
		t.Fatal(err)
	}
	if counted != committed {
		t.Errorf("counter %d; want %d, one for each committed write", counted, committed)
	}
}

// TestSQLiteWritesShareOneConnection checks that every write runs on the
// same connection, whose page cache stays warm, whichever connections
// reads hold meanwhile: a TEMP table exists on its connection alone.
func TestSQLiteWritesShareOneConnection(t *testing.T) {
	s := storetest.OpenSQLite(t)
	ctx := context.Background()
	if err := store.Tx(ctx, s, "mark", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `CREATE TEMP TABLE writer_mark (n INTEGER)`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		var held []*sql.Conn
		for range i % 4 {
			c, err := s.DB().Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, c)
		}
		if err := store.Tx(ctx, s, "write", func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO temp.writer_mark (n) VALUES ($1)`, i)
			return err
		}); err != nil {
			t.Fatalf("write %d, with %d connections held by reads: %v", i, len(held), err)
		}
		for _, c := range held {
			c.Close()
		}
	}
}

// TestSQLiteWriteRunAgainHandsOutOneRun runs a write that hands out a
// list (ClaimDevices) twice, as a failed write after it in its group makes
// it: what it answers is its last run's, not both runs' together.
func TestSQLiteWriteRunAgainHandsOutOneRun(t *testing.T) {
	s := storetest.OpenSQLite(t)
	ctx := context.Background()
	if err := s.SeedEquipment(ctx, twin.SeedEquipment()); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	connectTwin(t, s, "bp-2", now)
	connectTwin(t, s, "chlr-1", now)
	release := holdWriter(t, s)
	var ids []string
	var claimErr, failErr error
	var wg sync.WaitGroup
	wg.Go(func() { ids, claimErr = s.ClaimDevices(ctx, "gateway", now, time.Minute) })
	waitFor(t, func() bool { return store.QueuedWrites(s) == 1 })
	wg.Go(func() {
		failErr = store.Tx(ctx, s, "fails after a write", func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, `DELETE FROM gateway_leases`); err != nil {
				return err
			}
			return apperr.Invalid("refused")
		})
	})
	waitFor(t, func() bool { return store.QueuedWrites(s) == 2 })
	release()
	wg.Wait()
	if claimErr != nil || failErr == nil {
		t.Fatalf("claim: %v; failing write: %v (want an error)", claimErr, failErr)
	}
	if want := []string{"bp-2", "chlr-1"}; !slices.Equal(ids, want) {
		t.Errorf("claimed %v; want %v", ids, want)
	}
}

// TestSQLiteGroupCommitUnderLoad runs many writers at once, each adding to
// a counter and a row of its own, as requests would: every write is kept
// exactly once.
func TestSQLiteGroupCommitUnderLoad(t *testing.T) {
	s := storetest.OpenSQLite(t)
	ctx := context.Background()
	if _, err := s.DB().ExecContext(ctx, `CREATE TABLE scratch (k TEXT PRIMARY KEY); CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0)`); err != nil {
		t.Fatal(err)
	}
	const writers, each = 16, 40
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				err := store.Tx(ctx, s, "count", func(tx *sql.Tx) error {
					if _, err := tx.ExecContext(ctx, `UPDATE counter SET n = n + 1`); err != nil {
						return err
					}
					_, err := tx.ExecContext(ctx, `INSERT INTO scratch (k) VALUES ($1)`, fmt.Sprintf("%d-%d", w, i))
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	var n, rows int
	if err := s.DB().QueryRowContext(ctx, `SELECT (SELECT n FROM counter), (SELECT COUNT(*) FROM scratch)`).Scan(&n, &rows); err != nil {
		t.Fatal(err)
	}
	if n != writers*each || rows != writers*each {
		t.Errorf("counter %d, rows %d; want %d each", n, rows, writers*each)
	}
}

// holdWriter holds SQLite's writer with a write of its own until the
// returned function is called, which then checks that write's answer.
func holdWriter(t *testing.T, s *store.Store) (release func()) {
	t.Helper()
	holding, done := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- store.Tx(context.Background(), s, "hold", func(*sql.Tx) error {
			close(holding)
			<-done
			return nil
		})
	}()
	<-holding
	return func() {
		t.Helper()
		close(done)
		if err := <-held; err != nil {
			t.Fatal(err)
		}
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(time.Millisecond)
	}
}
