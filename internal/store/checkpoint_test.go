package store_test

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"journeyman/internal/store"
)

// SQLite's automatic checkpoint is off: the store copies the WAL into the
// database file beside the writer, and under writes that never pause the
// WAL still starts over, so that it stays short.
func TestSQLiteCheckpoints(t *testing.T) {
	every, restart := *store.CheckpointEvery, *store.CheckpointRestart
	*store.CheckpointEvery, *store.CheckpointRestart = 5*time.Millisecond, 64
	t.Cleanup(func() { *store.CheckpointEvery, *store.CheckpointRestart = every, restart })
	path := filepath.Join(t.TempDir(), "j.db")
	s, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	size := func(name string) int64 {
		fi, err := os.Stat(name)
		if err != nil {
			return 0
		}
		return fi.Size()
	}

	t.Run("CopiedInBackground", func(t *testing.T) {
		// The migrations wrote a few hundred KB to the WAL; only a
		// checkpoint puts them in the database file.
		waitFor(t, func() bool { return size(path) > 64<<10 })
	})

	t.Run("StartsOverUnderConstantWrites", func(t *testing.T) {
		if _, err := s.DB().ExecContext(ctx, `CREATE TABLE scratch (b BLOB NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		// Four writers that never pause, each row two pages, until 40 MB
		// have gone through the WAL: without its restarts the WAL would
		// hold them all.
		const rowBytes, total = 8 << 10, 40 << 20
		var written atomic.Int64
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				row := make([]byte, rowBytes)
				for written.Load() < total {
					err := store.Tx(ctx, s, "fill", func(tx *sql.Tx) error {
						_, err := tx.ExecContext(ctx, `INSERT INTO scratch (b) VALUES ($1)`, row)
						return err
					})
					if err != nil {
						t.Error(err)
						return
					}
					written.Add(rowBytes)
				}
			})
		}
		wg.Wait()
		// The WAL file keeps the length it reached before it started over,
		// and how soon that was depends on how promptly a loaded machine
		// runs the checkpointer: the bound is only that it did start over.
		if wal := size(path + "-wal"); wal >= total {
			t.Errorf("the WAL is %d MB after %d MB written: it did not start over", wal>>20, total>>20)
		}
		var rows int64
		if err := s.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM scratch`).Scan(&rows); err != nil || rows*rowBytes != written.Load() {
			t.Errorf("%d rows kept of %d written (%v)", rows, written.Load()/rowBytes, err)
		}
	})
}
