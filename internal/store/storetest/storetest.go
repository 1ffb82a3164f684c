// Package storetest opens real databases for tests: a SQLite file in a
// temporary folder and, where JOURNEYMAN_TEST_POSTGRES_URL names a server, a
// freshly created PostgreSQL database that is dropped afterwards.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver

	"journeyman/internal/store"
)

// FixedNow is the clock of every store these helpers open.
var FixedNow = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)

// Each runs fn once against SQLite and once against PostgreSQL, each with a
// new, migrated database. PostgreSQL is skipped when
// JOURNEYMAN_TEST_POSTGRES_URL is unset, unless CI=true, where that fails.
func Each(t *testing.T, fn func(t *testing.T, s *store.Store)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, OpenSQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, OpenPostgres(t)) })
}

// Migrating a new database takes most of a second under the race detector
// (SQLite) or half a second (PostgreSQL), and most store and server tests
// open one or two: that was most of `go test`'s time. So a test process
// migrates one database of each kind, and each test gets a copy: a file
// written out from memory, or a PostgreSQL database made from a template.

// OpenSQLite opens a new, migrated SQLite store in a temporary folder.
func OpenSQLite(tb testing.TB) *store.Store {
	tb.Helper()
	return Open(tb, SQLitePath(tb))
}

// SQLitePath writes a new, migrated SQLite database into a temporary folder
// and returns its path.
func SQLitePath(tb testing.TB) string {
	tb.Helper()
	migrated, err := sqliteTemplate()
	if err != nil {
		tb.Fatalf("migrate the template SQLite database: %v", err)
	}
	path := filepath.Join(tb.TempDir(), "journeyman.db")
	if err := os.WriteFile(path, migrated, 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}

// sqliteTemplate is the file of a migrated SQLite database. Closing the
// store checkpoints its write-ahead log into the file and removes the log,
// so the file alone is the whole database.
var sqliteTemplate = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "journeyman-template-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "journeyman.db")
	s, err := store.Open(context.Background(), path)
	if err != nil {
		return nil, err
	}
	if err := s.Close(); err != nil {
		return nil, err
	}
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("the write-ahead log outlived the store: %w", err)
	}
	return os.ReadFile(path) //nolint:gosec // G304: the file made just above
})

// OpenPostgres opens a store on a new, migrated PostgreSQL database: a copy
// of the migrated template once Main runs the tests, else an empty database
// the store migrates as it opens.
func OpenPostgres(tb testing.TB) *store.Store {
	tb.Helper()
	return Open(tb, newPostgres(tb, pgTemplate.enabled))
}

// PostgresURL creates a new, empty PostgreSQL database, dropped when the test
// ends, and returns its URL.
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	return newPostgres(tb, false)
}

// Main runs a package's tests (call it from TestMain) and then drops the
// migrated PostgreSQL database that OpenPostgres copies, if they made one.
// Without it, OpenPostgres migrates every database it opens.
func Main(m *testing.M) int {
	pgTemplate.enabled = true
	code := m.Run()
	if pgTemplate.name != "" {
		if err := dropDatabase(pgTemplate.base, pgTemplate.name); err != nil {
			fmt.Fprintf(os.Stderr, "drop the template database %s: %v\n", pgTemplate.name, err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// pgTemplate is the migrated PostgreSQL database of this test process,
// made on first use once Main runs the tests.
var pgTemplate struct {
	enabled    bool
	once       sync.Once
	base, name string
	err        error
}

// newPostgres creates a new PostgreSQL database, a copy of the migrated
// template or empty, dropped when the test ends, and returns its URL.
func newPostgres(tb testing.TB, fromTemplate bool) string {
	tb.Helper()
	base := os.Getenv("JOURNEYMAN_TEST_POSTGRES_URL")
	if base == "" {
		if os.Getenv("CI") == "true" {
			tb.Fatal("JOURNEYMAN_TEST_POSTGRES_URL is not set, and CI=true does not allow skipping PostgreSQL")
		}
		tb.Skip("JOURNEYMAN_TEST_POSTGRES_URL is not set")
	}
	if _, err := url.Parse(base); err != nil {
		tb.Fatalf("JOURNEYMAN_TEST_POSTGRES_URL: %v", err)
	}
	template := ""
	if fromTemplate {
		pgTemplate.once.Do(func() {
			pgTemplate.base = base
			pgTemplate.name, pgTemplate.err = createDatabase(base, "")
			if pgTemplate.err == nil {
				pgTemplate.err = migrate(databaseURL(base, pgTemplate.name))
			}
		})
		if pgTemplate.err != nil {
			tb.Fatalf("migrate the template PostgreSQL database (is PostgreSQL running at %s?): %v", base, pgTemplate.err)
		}
		template = pgTemplate.name
	}
	name, err := createDatabase(base, template)
	if err != nil {
		tb.Fatalf("create test database (is PostgreSQL running at %s?): %v", base, err)
	}
	tb.Cleanup(func() {
		if err := dropDatabase(base, name); err != nil {
			tb.Errorf("drop test database %s: %v", name, err)
		}
	})
	return databaseURL(base, name)
}

func migrate(dsn string) error {
	s, err := store.Open(context.Background(), dsn)
	if err != nil {
		return err
	}
	return s.Close()
}

// createDatabase creates a database with a new name, a copy of template
// when one is named, and returns its name.
func createDatabase(base, template string) (string, error) {
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", err
	}
	defer admin.Close()
	name := "journeyman_test_" + randomHex(8)
	// Both names are made by createDatabase: "journeyman_test_" and hex.
	q := "CREATE DATABASE " + name //nolint:gosec // G202: see above
	if template != "" {
		q += " TEMPLATE " + template
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		_, err = admin.ExecContext(ctx, q)
		// A template's last connection may still be closing on the server
		// ("source database is being accessed by other users").
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "55006" || ctx.Err() != nil {
			return name, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func dropDatabase(base, name string) error {
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return err
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") //nolint:gosec // G701: a name createDatabase made
	return err
}

// databaseURL is base (a URL newPostgres checked) with its database
// replaced by name.
func databaseURL(base, name string) string {
	u, _ := url.Parse(base)
	u.Path = "/" + name
	return u.String()
}

// Open opens a store on dsn with the fixed clock, closed when the test
// ends: a second one on a database stands for a second server process.
func Open(tb testing.TB, dsn string) *store.Store {
	tb.Helper()
	s, err := store.Open(context.Background(), dsn)
	if err != nil {
		tb.Fatalf("open store: %v", err)
	}
	s.Now = func() time.Time { return FixedNow }
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("close store: %v", err)
		}
	})
	return s
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
