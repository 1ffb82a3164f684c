package store

// Exported for tests.
var (
	Migrations   = migrations
	OpenSQLiteDB = openSQLite
	// OptimisticAttempts is AppendSession's number of unlocked attempts.
	OptimisticAttempts = &optimisticAttempts
)
