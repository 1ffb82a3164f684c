package store_test

import (
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

// TestSQLiteFilesOwnerOnly opens a database where neither its folders nor
// its file exist yet, writes to it so that the WAL and shared-memory files
// appear, and checks that all of them are the owner's alone. SQLite only,
// where the server creates files.
func TestSQLiteFilesOwnerOnly(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data", "journeyman")
	path := filepath.Join(dir, "journeyman.db")
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.EnsureLearner(ctx, "0123456789abcdef0123456789abcdef", "Guest 0123"); err != nil {
		t.Fatal(err)
	}
	want := map[string]fs.FileMode{
		filepath.Dir(dir): 0o700 | fs.ModeDir,
		dir:               0o700 | fs.ModeDir,
		path:              0o600,
		path + "-wal":     0o600,
		path + "-shm":     0o600,
	}
	for name, mode := range want {
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode() != mode {
			t.Errorf("%s: mode %v, want %v", name, fi.Mode(), mode)
		}
	}
}

// An existing database keeps the mode its operator gave it.
func TestSQLiteExistingFileModeKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journeyman.db")
	if err := os.WriteFile(path, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil { // whatever the umask
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode() != 0o640 {
		t.Fatalf("mode %v, %v; want the operator's 0640", fi.Mode(), err)
	}
}

// Every SQLite connection of the pool is set up alike (openSQLite).
func TestSQLiteConnectionSettings(t *testing.T) {
	s := storetest.OpenSQLite(t)
	db := s.DB()
	// Hold every connection at once, so each is checked: the writer keeps
	// one of the 8 (store.Open), the readers' are the others.
	ctx := context.Background()
	var conns []*sql.Conn
	for range 7 {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for i, c := range conns {
		for _, tt := range []struct{ pragma, want string }{
			{"journal_mode", "wal"},
			{"synchronous", "1"},
			{"foreign_keys", "1"},
			{"wal_autocheckpoint", "0"},
			{"cache_size", "-16384"},
			{"mmap_size", "2147418112"},
		} {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+tt.pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("connection %d: PRAGMA %s = %s, want %s", i, tt.pragma, got, tt.want)
			}
		}
	}
	for _, c := range conns {
		c.Close()
	}
}
