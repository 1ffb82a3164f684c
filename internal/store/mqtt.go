package store

import (
	"context"
	"fmt"
)

// MQTTDeviceSecret is the deployment's key for per-device MQTT passwords
// (telemetry.DevicePassword). It lives in the database so that it survives
// restarts and every process sharing the database checks the same
// passwords: a device keeps its login, whichever process it reaches.
func (s *Store) MQTTDeviceSecret(ctx context.Context) ([]byte, error) {
	return s.ServerSecret(ctx, "mqtt_device_secret", 32)
}

// EquipmentIDs returns the id of every twin in service, for the broker's
// device logins.
func (s *Store) EquipmentIDs(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id FROM equipment WHERE `+inService)
	if err != nil {
		return nil, fmt.Errorf("equipment ids: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("equipment ids: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("equipment ids: %w", err)
	}
	return ids, nil
}
