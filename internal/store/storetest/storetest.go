// Package storetest opens real databases for tests: a SQLite file in a
// temporary folder and, where JOURNEYMAN_TEST_POSTGRES_URL names a server, a
// freshly created PostgreSQL database that is dropped afterwards.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

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

// OpenSQLite opens a new SQLite store in a temporary folder.
func OpenSQLite(tb testing.TB) *store.Store {
	tb.Helper()
	return Open(tb, filepath.Join(tb.TempDir(), "journeyman.db"))
}

// OpenPostgres opens a store on a new PostgreSQL database.
func OpenPostgres(tb testing.TB) *store.Store {
	tb.Helper()
	return Open(tb, PostgresURL(tb))
}

// PostgresURL creates a new, empty PostgreSQL database, dropped when the test
// ends, and returns its URL.
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	base := os.Getenv("JOURNEYMAN_TEST_POSTGRES_URL")
	if base == "" {
		if os.Getenv("CI") == "true" {
			tb.Fatal("JOURNEYMAN_TEST_POSTGRES_URL is not set, and CI=true does not allow skipping PostgreSQL")
		}
		tb.Skip("JOURNEYMAN_TEST_POSTGRES_URL is not set")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		tb.Fatalf("open %s: %v", base, err)
	}
	tb.Cleanup(func() { admin.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	name := "journeyman_test_" + randomHex(8)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		tb.Fatalf("create test database (is PostgreSQL running at %s?): %v", base, err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			tb.Errorf("drop test database %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("parse %s: %v", base, err)
	}
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
