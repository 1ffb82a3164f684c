// Package store keeps the application's data in SQLite (the embedded default)
// or PostgreSQL (deployments where several processes share one database).
//
// Both dialects run the same SQL text wherever they agree: modernc's SQLite
// accepts $1 placeholders and ON CONFLICT. Times are always written in UTC so
// that SQLite's textual timestamps compare in time order.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Dialect names the database behind a Store.
type Dialect string

// The supported dialects.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

//go:embed migrations
var migrations embed.FS

// Store is the application's database.
type Store struct {
	db      *sql.DB
	pool    *pgxpool.Pool // PostgreSQL only: LISTEN/NOTIFY needs pgx connections
	dialect Dialect
	dsn     string

	listeners listeners // in-process delivery of Notify
	stmts     sync.Map  // query text → *sql.Stmt, for hot paths (see prepare)
	// writes admits one SQLite transaction at a time, and commits those
	// that queue up together. SQLite allows one writer; without this
	// queue, waiting transactions poll the database lock in SQLite's busy
	// handler, which sleeps up to 100 ms a turn.
	writes *writeQueue
	// writer is the connection of SQLite's write transactions. In WAL mode a
	// connection that finds the database changed by another drops every
	// page it caches: with writes spread over the pool, each write began
	// on a cold cache (and the connections' frees of 16 MB caches were a
	// tenth of the LRS's CPU).
	writer *sql.Conn
	// writeGroup is where the writes queued in writes run: the writer,
	// with its count of changes prepared on it.
	writeGroup groupTx
	// heads are the running sessions as this process last wrote them.
	heads *sessionHeads
	// appends gathers PostgreSQL's optimistic session appends (nil on SQLite).
	appends *appendQueue
	// xapiWrites gathers each organisation's LRS writes on PostgreSQL.
	xapiWrites xapiQueues

	// stopCheckpoints ends the SQLite checkpoints (checkpoint.go), and
	// checkpointsDone says they ended.
	stopCheckpoints context.CancelFunc
	checkpointsDone chan struct{}

	// Now is the store's clock; tests replace it with a fixed one.
	Now func() time.Time
}

// Open connects to the database named by dsn, a SQLite file path or a
// postgres:// URL, and applies the pending migrations.
func Open(ctx context.Context, dsn string) (*Store, error) {
	s := &Store{dsn: dsn, heads: newSessionHeads(maxSessionHeads), Now: func() time.Time { return time.Now().UTC() }}
	var err error
	if IsPostgresURL(dsn) {
		s.dialect = Postgres
		s.appends = newAppendQueue()
		s.pool, err = pgxpool.New(ctx, dsn)
		if err == nil {
			s.db = stdlib.OpenDBFromPool(s.pool)
		}
	} else {
		s.dialect = SQLite
		s.writes = newWriteQueue()
		s.db, err = openSQLite(dsn)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s database: %w", s.dialect, err)
	}
	if err := s.db.PingContext(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("connect to %s database: %w", s.dialect, err)
	}
	if err := s.migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if s.dialect == SQLite {
		if s.writer, err = s.db.Conn(ctx); err != nil {
			s.Close()
			return nil, fmt.Errorf("connect to %s database: %w", s.dialect, err)
		}
		changes, err := s.prepare(ctx, totalChangesQuery)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("prepare %s's count of changes: %w", s.dialect, err)
		}
		s.writeGroup = groupTx{db: s.writer, changes: changes}
		// Only now: the first connection has turned a new file to WAL,
		// which takes an exclusive lock that a checkpoint's connection
		// opening beside it would fail to get (SQLITE_BUSY, no retry).
		if dsn != ":memory:" {
			var checkpointing context.Context
			checkpointing, s.stopCheckpoints = context.WithCancel(context.Background())
			s.checkpointsDone = make(chan struct{})
			go s.checkpoints(checkpointing)
		}
	}
	return s, nil
}

// IsPostgresURL reports whether dsn selects PostgreSQL.
func IsPostgresURL(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

func openSQLite(path string) (*sql.DB, error) {
	if path != ":memory:" {
		// The database holds people's names, emails and records: its folder
		// and files, when we create them, are the owner's alone. SQLite
		// gives the -wal and -shm files the mode of the database file.
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600) //nolint:gosec // G304: the operator names the database file (JOURNEYMAN_DB)
		if err != nil {
			return nil, err
		}
		f.Close()
	}
	q := url.Values{}
	// No automatic checkpoints: the store runs them beside the writer
	// (checkpoint.go). Statement journals stay in memory, and each
	// connection caches 16 MB of pages rather than 2: a write transaction
	// of the LRS outgrew 2 MB and spilled dirty pages mid-transaction
	// (6,300 → 7,900 statements/s, server on one core). Reads go through a
	// memory map of the file, up to the 2 GB this SQLite allows, rather
	// than a read call and a copy per page the cache misses: a query of
	// 125 statements over an LRS of 1,000,000 (bench/xapi) took ~1,000
	// calls, and 8 connections of them served 1,070 → 1,950 req/s.
	for _, p := range []string{"busy_timeout(5000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(1)", "wal_autocheckpoint(0)", "temp_store(MEMORY)", "cache_size(-16384)", "mmap_size(2147418112)"} {
		q.Add("_pragma", p)
	}
	// Without immediate transactions, two read-then-write transactions
	// deadlock on the upgrade to a write lock and one fails with SQLITE_BUSY.
	q.Set("_txlock", "immediate")
	q.Set("_time_format", "sqlite")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	// One writer at a time is SQLite's rule; readers use WAL snapshots.
	// Idle connections are kept: opening one costs its pragmas and the
	// statements prepared on it.
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	return db, nil
}

func (s *Store) migrate(ctx context.Context) error {
	dir, err := fs.Sub(migrations, "migrations/"+string(s.dialect))
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	opts := []goose.ProviderOption{goose.WithAllowOutofOrder(true)}
	gooseDialect := goose.DialectSQLite3
	if s.dialect == Postgres {
		gooseDialect = goose.DialectPostgres
		// Several processes may start together: one migrates, the others wait.
		// Poll for the lock every second, for up to five minutes.
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
		if err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(gooseDialect, s.db, dir, opts...)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// Dialect tells which database the store uses.
func (s *Store) Dialect() Dialect { return s.dialect }

// DB returns the underlying handle, for benchmarks and tests.
func (s *Store) DB() *sql.DB { return s.db }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// Close releases the database.
func (s *Store) Close() error {
	if s.stopCheckpoints != nil {
		s.stopCheckpoints()
		<-s.checkpointsDone
	}
	s.stmts.Range(func(_, st any) bool {
		st.(*sql.Stmt).Close()
		return true
	})
	if s.writer != nil {
		s.writer.Close()
	}
	err := s.db.Close()
	if s.pool != nil {
		s.pool.Close()
	}
	return err
}

// tx runs fn in one transaction, committed when fn returns nil. fn is
// given the context its statements run under: on SQLite, where writes are
// committed in groups (writeQueue), one that has started is not cut short
// by its caller leaving. On SQLite fn may also run more than once, when
// another write of its group fails (commitGroup): what it hands out must
// be set afresh by each run, not added to.
func (s *Store) tx(ctx context.Context, op string, fn func(context.Context, *sql.Tx) error) error {
	var err error
	if s.writes != nil {
		err = runWrite(ctx, s.writes, s.writeGroup, fn)
	} else {
		err = runTx(ctx, s.db, fn)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

func runTx(ctx context.Context, db *sql.DB, fn func(context.Context, *sql.Tx) error) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	// After Commit, Rollback does nothing (sql.ErrTxDone); before it, the
	// error worth reporting is fn's or Commit's.
	defer func() { _ = tx.Rollback() }()
	if err := fn(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// querier is what *sql.DB and *sql.Tx share, so a read can run inside or
// outside a transaction.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// execQuerier is what *sql.DB and *sql.Tx share for writes.
type execQuerier interface {
	querier
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// isNoRows reports whether err means a query found nothing.
func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
