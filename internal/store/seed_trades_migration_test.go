package store_test

import (
	"context"
	"database/sql"
	"io/fs"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/twin"
)

// TestMigrationSeedTradeIDs: a twin stored with the seed's old trade names
// and frequency comes out of migration 00014 with the catalog's.
func TestMigrationSeedTradeIDs(t *testing.T) {
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
			ctx := context.Background()
			dsn := tc.dsn(t)
			db, err := tc.open(dsn)
			if err != nil {
				t.Fatal(err)
			}
			dir, err := fs.Sub(store.Migrations, "migrations/"+string(tc.dialect))
			if err != nil {
				t.Fatal(err)
			}
			p, err := goose.NewProvider(tc.goose, db, dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := p.UpTo(ctx, 13); err != nil {
				t.Fatal(err)
			}
			at := time.Date(2026, 11, 20, 8, 0, 0, 0, time.UTC)
			if _, err := db.ExecContext(ctx, `INSERT INTO equipment (id, name, manufacturer, model, serial_number, type, status, alert_level,
				communication_protocol, protocol_version, sync_status, last_updated, last_maintenance, next_maintenance_date,
				maintenance_schedule, supported_trade_types, position)
				VALUES ('wtg', 'Turbine', 'V', 'M', 'S', 'wind-turbine-nacelle', 'operational', 'normal', 'OPC-UA', '', 'synced', $1, $1, $1,
				'{"intervalDays":180,"tasks":[{"task":"Bolts","frequency":"every 3 years","trade":"wind"},{"task":"Line","frequency":"annual","trade":"lineworkers"}]}',
				'["wind","electrical","lineworkers"]', 0)`, at); err != nil {
				t.Fatal(err)
			}
			db.Close()

			s, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			eq, err := s.GetEquipment(ctx, "wtg")
			if err != nil {
				t.Fatal(err)
			}
			wantTasks := []twin.MaintenanceTask{{Task: "Bolts", Frequency: "triennial", Trade: "solar-wind"}, {Task: "Line", Frequency: "annual", Trade: "lineworker"}}
			if !reflect.DeepEqual(eq.SupportedTradeTypes, []string{"solar-wind", "electrical", "lineworker"}) || !reflect.DeepEqual(eq.MaintenanceSchedule.Tasks, wantTasks) {
				t.Fatalf("after the migration: %v, %+v", eq.SupportedTradeTypes, eq.MaintenanceSchedule.Tasks)
			}
		})
	}
}
