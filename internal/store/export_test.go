package store

import (
	"context"
	"database/sql"
)

// Exported for tests.
var (
	Migrations   = migrations
	OpenSQLiteDB = openSQLite
	// OptimisticAttempts is AppendSession's number of unlocked attempts.
	OptimisticAttempts = &optimisticAttempts
	// HistoryPage is ListSessions' query of one page.
	HistoryPage = historyPage
	// PutSession and PutSessionInPlace are SQLite's writes of a session's row.
	PutSession        = putSession
	PutSessionInPlace = putSessionInPlace
	// PutSessions is PostgreSQL's write of a batch of appends.
	PutSessions = putSessions
)

// Tx runs fn in one of the store's write transactions.
func Tx(ctx context.Context, s *Store, op string, fn func(*sql.Tx) error) error {
	return s.tx(ctx, op, func(_ context.Context, tx *sql.Tx) error { return fn(tx) })
}

// QueuedWrites is how many SQLite writes wait for the writer.
func QueuedWrites(s *Store) int {
	s.writes.mu.Lock()
	defer s.writes.mu.Unlock()
	return len(s.writes.q)
}

// CheckpointEvery and CheckpointRestart are the SQLite checkpoints' period
// and the WAL's length, in pages, at which it starts over.
var (
	CheckpointEvery   = &checkpointEvery
	CheckpointRestart = &checkpointRestart
)

// HoldGroups runs fn while no group of writes runs: SQLite's writer, or
// PostgreSQL's session appends.
func HoldGroups(ctx context.Context, s *Store, fn func()) error {
	run := func() error { fn(); return nil }
	if s.appends != nil {
		return s.appends.hold(ctx, run)
	}
	return s.writes.hold(ctx, run)
}

// QueuedGroupItems is how many writes HoldGroups's queue holds.
func QueuedGroupItems(s *Store) int {
	if s.appends != nil {
		s.appends.mu.Lock()
		defer s.appends.mu.Unlock()
		return len(s.appends.q)
	}
	return QueuedWrites(s)
}

// HoldXAPIWrites runs fn while no group of orgID's LRS writes runs
// (PostgreSQL).
func HoldXAPIWrites(ctx context.Context, s *Store, orgID string, fn func()) error {
	return s.xapiWrites.of(orgID).hold(ctx, func() error { fn(); return nil })
}

// QueuedXAPIWrites is how many LRS writes of orgID wait (PostgreSQL).
func QueuedXAPIWrites(s *Store, orgID string) int {
	q := s.xapiWrites.of(orgID)
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.q)
}

// StartWriteback starts the write-out of the SQLite database at path and
// of its WAL once, and answers how many of the two files it found.
func StartWriteback(path string) (int, error) {
	w := newWriteback(path)
	defer w.close()
	err := w.start()
	found := 0
	for _, f := range w.files {
		if f != nil {
			found++
		}
	}
	return found, err
}
