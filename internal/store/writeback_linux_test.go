package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"journeyman/internal/store"
)

// The write-out is asked of the database file and its WAL; a WAL not made
// yet is no error, and a path the kernel cannot write back is one.
func TestSQLiteWriteback(t *testing.T) {
	written := filepath.Join(t.TempDir(), "j.db")
	s, err := store.Open(context.Background(), written)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.DB().ExecContext(context.Background(), `CREATE TABLE scratch (b BLOB)`); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		found      int
		fails      bool
	}{
		{"database and WAL", written, 2, false},
		{"no database yet", filepath.Join(t.TempDir(), "new.db"), 0, false},
		{"not a file", "/dev/null", 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			found, err := store.StartWriteback(tc.path)
			if found != tc.found || (err != nil) != tc.fails {
				t.Errorf("StartWriteback(%s) found %d files, err %v; want %d, failure %v", tc.path, found, err, tc.found, tc.fails)
			}
		})
	}
}
