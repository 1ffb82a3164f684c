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
)

// Tx runs fn in one of the store's write transactions.
func Tx(ctx context.Context, s *Store, op string, fn func(*sql.Tx) error) error {
	return s.tx(ctx, op, fn)
}
