package store

// Exported for tests.
var (
	Migrations   = migrations
	OpenSQLiteDB = openSQLite
)
