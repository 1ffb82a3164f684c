package server

import (
	"os"
	"testing"

	"journeyman/internal/store/storetest"
)

// The package's tests open their migrated PostgreSQL databases as copies
// of one (storetest.Main).
func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }
