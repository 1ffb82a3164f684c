package store_test

import (
	"context"
	"database/sql"
	"reflect"
	"testing"
	"time"

	"journeyman/internal/store"
	"journeyman/internal/twin"
)

// TestMigrationSeedTradeIDs: a twin stored with the seed's old trade names
// and frequency comes out of migration 00014 with the catalog's.
func TestMigrationSeedTradeIDs(t *testing.T) {
	eachOldDB(t, 13, func(t *testing.T, o oldDB, db *sql.DB) {
		ctx := context.Background()
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

		s, err := store.Open(ctx, o.dsn)
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
