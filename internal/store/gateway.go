package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"journeyman/internal/twin"
)

// connectedInService selects the twins a gateway polls.
const connectedInService = `connection IS NOT NULL AND ` + inService

// ClaimDevices renews holder's leases on connected twins and takes over
// those nobody holds or whose holder let them expire, until now+ttl. It
// returns the ids holder now polls. Leases of twins no longer connected are
// dropped.
func (s *Store) ClaimDevices(ctx context.Context, holder string, now time.Time, ttl time.Duration) ([]string, error) {
	var ids []string
	err := s.tx(ctx, "claim devices", func(ctx context.Context, tx *sql.Tx) error {
		ids = nil // a write may run again (runWrite)
		if _, err := tx.ExecContext(ctx, `DELETE FROM gateway_leases WHERE equipment_id NOT IN
			(SELECT id FROM equipment WHERE `+connectedInService+`)`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO gateway_leases (equipment_id, holder, expires_at)
			SELECT id, $1, $2 FROM equipment WHERE `+connectedInService+`
			ON CONFLICT (equipment_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
			WHERE gateway_leases.holder = excluded.holder OR gateway_leases.expires_at < $3`,
			holder, now.Add(ttl).UTC(), now.UTC()); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT equipment_id FROM gateway_leases WHERE holder = $1 ORDER BY equipment_id`, holder)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return rows.Err()
	})
	return ids, err
}

// ReleaseDevices gives up holder's leases, so that another process takes
// its devices over at once rather than when the leases expire.
func (s *Store) ReleaseDevices(ctx context.Context, holder string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM gateway_leases WHERE holder = $1`, holder); err != nil {
		return fmt.Errorf("release devices: %w", err)
	}
	return nil
}

// SetSync records what the gateway found of a twin's device: its sync
// status and the failures since its last good read. It returns the twin as
// stored.
func (s *Store) SetSync(ctx context.Context, id, status string, errorCount int) (twin.Equipment, error) {
	var eq twin.Equipment
	err := s.tx(ctx, "set sync", func(ctx context.Context, tx *sql.Tx) error {
		var err error
		if eq, err = s.lockEquipment(ctx, tx, id); err != nil {
			return err
		}
		eq.SyncStatus, eq.SyncErrorCount = status, errorCount
		_, err = tx.ExecContext(ctx, `UPDATE equipment SET sync_status = $1, sync_error_count = $2 WHERE id = $3`, status, errorCount, id)
		return err
	})
	return eq, err
}
