package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"journeyman/internal/store"
)

// SQLite's automatic checkpoint is off: the store copies the WAL into the
// database file in the background, while it is open.
func TestSQLiteCheckpointsInBackground(t *testing.T) {
	every := *store.CheckpointEvery
	*store.CheckpointEvery = 10 * time.Millisecond
	t.Cleanup(func() { *store.CheckpointEvery = every })
	path := filepath.Join(t.TempDir(), "j.db")
	s, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The migrations wrote a few hundred KB to the WAL; only a checkpoint
	// puts them in the database file.
	waitFor(t, func() bool {
		fi, err := os.Stat(path)
		return err == nil && fi.Size() > 64<<10
	})
}
