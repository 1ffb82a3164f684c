package store_test

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

// oldDB is a new database of one dialect, for a test of a migration on
// rows stored before it.
type oldDB struct {
	dialect store.Dialect
	dsn     string
	open    func(dsn string) (*sql.DB, error)
	goose   goose.Dialect
}

// provider runs the dialect's migrations on db.
func (o oldDB) provider(t *testing.T, db *sql.DB) *goose.Provider {
	t.Helper()
	dir, err := fs.Sub(store.Migrations, "migrations/"+string(o.dialect))
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(o.goose, db, dir, goose.WithAllowOutofOrder(true))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// eachOldDB runs fn, on SQLite and on PostgreSQL, with a new database
// migrated up to version only and a connection to it, which fn closes
// before store.Open migrates the rest.
func eachOldDB(t *testing.T, version int64, fn func(t *testing.T, o oldDB, db *sql.DB)) {
	for _, tc := range []struct {
		dialect store.Dialect
		dsn     func(tb testing.TB) string
		open    func(dsn string) (*sql.DB, error)
		goose   goose.Dialect
	}{
		{store.SQLite, func(tb testing.TB) string { return filepath.Join(tb.TempDir(), "old.db") }, store.OpenSQLiteDB, goose.DialectSQLite3},
		{store.Postgres, storetest.PostgresURL, func(dsn string) (*sql.DB, error) { return sql.Open("pgx", dsn) }, goose.DialectPostgres},
	} {
		t.Run(string(tc.dialect), func(t *testing.T) {
			o := oldDB{dialect: tc.dialect, dsn: tc.dsn(t), open: tc.open, goose: tc.goose}
			db, err := o.open(o.dsn)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := o.provider(t, db).UpTo(context.Background(), version); err != nil {
				t.Fatal(err)
			}
			fn(t, o, db)
		})
	}
}

// seedOldDB stores what the migration tests' old sessions refer to: the
// learner alice, created at, and the module electrical-loto of the trade
// electrical.
func seedOldDB(t *testing.T, db *sql.DB, at time.Time) {
	t.Helper()
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO learners (id, display_name, created_at) VALUES ('alice', 'Alice', $1)`, []any{at}},
		{`INSERT INTO trades (id, name, description, position) VALUES ('electrical', 'Electrical', 'd', 0)`, nil},
		{`INSERT INTO training_modules (id, trade_id, title, description, difficulty, estimated_duration, position)
				VALUES ('electrical-loto', 'electrical', 'Lockout/Tagout', 'd', 'beginner', 30, 0)`, nil},
	} {
		if _, err := db.ExecContext(context.Background(), q.sql, q.args...); err != nil {
			t.Fatalf("%s: %v", q.sql, err)
		}
	}
}
