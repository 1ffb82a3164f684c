package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

// TestSQLiteGroupCommit queues writes behind a held writer and checks that
// they run in one transaction, and that a failing or panicking write, or
// one whose caller leaves after it started, costs the others nothing.
func TestSQLiteGroupCommit(t *testing.T) {
	s := storetest.OpenSQLite(t)
	ctx := context.Background()
	if _, err := s.DB().ExecContext(ctx, `CREATE TABLE scratch (k TEXT PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	holding, release := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- store.Tx(ctx, s, "hold", func(*sql.Tx) error {
			close(holding)
			<-release
			return nil
		})
	}()
	<-holding

	insert := func(tx *sql.Tx, k string) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO scratch (k) VALUES ($1)`, k)
		return err
	}
	refused := errors.New("refused")
	cases := []struct {
		key     string
		fn      func(tx *sql.Tx, cancel func()) error
		wantErr string // "" = committed
	}{
		{"ok-1", func(tx *sql.Tx, _ func()) error { return insert(tx, "ok-1") }, ""},
		{"fails", func(tx *sql.Tx, _ func()) error {
			if err := insert(tx, "fails"); err != nil {
				return err
			}
			return refused
		}, "refused"},
		{"panics", func(tx *sql.Tx, _ func()) error {
			if err := insert(tx, "panics"); err != nil {
				return err
			}
			panic("boom")
		}, "panic: boom"},
		{"duplicate", func(tx *sql.Tx, _ func()) error {
			if err := insert(tx, "duplicate"); err != nil {
				return err
			}
			return insert(tx, "duplicate")
		}, "UNIQUE"},
		// Its caller leaves mid-write: the write still completes, and an
		// interrupt does not roll the group back.
		{"caller-leaves", func(tx *sql.Tx, cancel func()) error {
			cancel()
			return insert(tx, "caller-leaves")
		}, ""},
		{"ok-2", func(tx *sql.Tx, _ func()) error { return insert(tx, "ok-2") }, ""},
	}
	var mu sync.Mutex
	txs := map[*sql.Tx]bool{}
	errs := make([]error, len(cases))
	var wg sync.WaitGroup
	for i, tc := range cases {
		wctx, cancel := context.WithCancel(ctx)
		defer cancel()
		wg.Go(func() {
			errs[i] = store.Tx(wctx, s, tc.key, func(tx *sql.Tx) error {
				mu.Lock()
				txs[tx] = true
				mu.Unlock()
				return tc.fn(tx, cancel)
			})
		})
	}
	waitFor(t, func() bool { return store.QueuedWrites(s) == len(cases) })
	close(release)
	wg.Wait()
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	if len(txs) != 1 {
		t.Errorf("the queued writes ran in %d transactions; want 1", len(txs))
	}
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
