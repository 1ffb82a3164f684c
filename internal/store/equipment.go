package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/twin"
)

// SeedEquipment inserts the twins (and a first point on each of their
// streams) that the database does not have yet. Existing twins are left as
// they are: a restart never overwrites live readings.
func (s *Store) SeedEquipment(ctx context.Context, list []twin.Equipment) error {
	for _, eq := range list {
		if err := eq.Validate(); err != nil {
			return fmt.Errorf("seed equipment: %w", err)
		}
	}
	return s.tx(ctx, "seed equipment", func(ctx context.Context, tx *sql.Tx) error {
		for i, eq := range list {
			res, err := tx.ExecContext(ctx, `
				INSERT INTO equipment (id, name, manufacturer, model, serial_number, type, status, alert_level,
					communication_protocol, protocol_version, connection_parameters, sync_status, sync_error_count,
					operating_hours, sensor_data, last_updated, last_maintenance, next_maintenance_date,
					maintenance_schedule, supported_trade_types, position)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)
				ON CONFLICT (id) DO NOTHING`,
				eq.ID, eq.Name, eq.Manufacturer, eq.Model, eq.SerialNumber, eq.Type, eq.Status, eq.AlertLevel,
				eq.CommunicationProtocol, eq.ProtocolVersion, mustJSON(eq.ConnectionParameters), eq.SyncStatus, eq.SyncErrorCount,
				eq.OperatingHours, mustJSON(eq.SensorData), eq.LastUpdated.UTC(), eq.LastMaintenance.UTC(), eq.NextMaintenanceDate.UTC(),
				mustJSON(eq.MaintenanceSchedule), jsonText(eq.SupportedTradeTypes), i)
			if err != nil {
				return fmt.Errorf("equipment %s: %w", eq.ID, err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue
			}
			streams := map[string]*twin.DataStream{}
			seeded := eq
			seeded.SensorData = nil
			values := []twin.Value{}
			for _, k := range eq.SensorData.Keys() {
				values = append(values, twin.Value{Key: k, Value: eq.SensorData[k].Value})
			}
			twin.Apply(&seeded, streams, twin.SensorUpdate{EquipmentID: eq.ID, Values: values, Timestamp: eq.LastUpdated, ReceivedAt: eq.LastUpdated})
			if err := writeStreams(ctx, tx, eq.ID, streams); err != nil {
				return err
			}
		}
		return nil
	})
}

const equipmentColumns = `id, name, manufacturer, model, serial_number, type, status, alert_level,
	communication_protocol, protocol_version, connection_parameters, sync_status, sync_error_count,
	operating_hours, sensor_data, last_updated, last_maintenance, next_maintenance_date,
	maintenance_schedule, supported_trade_types, connection, writable_sensors, COALESCE(org_id, '')`

// inService limits a query to twins that are not retired.
const inService = `retired_at IS NULL`

// ListEquipment returns every twin in fleet order.
func (s *Store) ListEquipment(ctx context.Context) ([]twin.Equipment, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+equipmentColumns+` FROM equipment WHERE `+inService+` ORDER BY position, id`)
	if err != nil {
		return nil, fmt.Errorf("list equipment: %w", err)
	}
	defer rows.Close()
	list := []twin.Equipment{}
	for rows.Next() {
		eq, err := scanEquipment(rows)
		if err != nil {
			return nil, fmt.Errorf("list equipment: %w", err)
		}
		list = append(list, eq)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list equipment: %w", err)
	}
	return list, nil
}

// ListEquipmentByID returns the twins in service among ids, in fleet order:
// a realtime flush reloads the few twins that changed, not the fleet.
func (s *Store) ListEquipmentByID(ctx context.Context, ids []string) ([]twin.Equipment, error) {
	list := []twin.Equipment{}
	if len(ids) == 0 {
		return list, nil
	}
	args := make([]any, len(ids))
	marks := make([]string, len(ids))
	for i, id := range ids {
		args[i], marks[i] = id, "$"+strconv.Itoa(i+1)
	}
	// Only placeholders are joined in; the ids are arguments.
	rows, err := s.db.QueryContext(ctx, `SELECT `+equipmentColumns+` FROM equipment WHERE `+inService+ //nolint:gosec // G202: placeholders only
		` AND id IN (`+strings.Join(marks, ", ")+`) ORDER BY position, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("list equipment by id: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		eq, err := scanEquipment(rows)
		if err != nil {
			return nil, fmt.Errorf("list equipment by id: %w", err)
		}
		list = append(list, eq)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list equipment by id: %w", err)
	}
	return list, nil
}

// GetEquipment returns one twin, or an ENOTFOUND error.
func (s *Store) GetEquipment(ctx context.Context, id string) (twin.Equipment, error) {
	eq, err := getEquipment(ctx, s.db, id)
	if err != nil {
		return eq, fmt.Errorf("get equipment: %w", err)
	}
	return eq, nil
}

func getEquipment(ctx context.Context, q querier, id string) (twin.Equipment, error) {
	eq, err := scanEquipment(q.QueryRowContext(ctx, `SELECT `+equipmentColumns+` FROM equipment WHERE id = $1 AND `+inService, id))
	if isNoRows(err) {
		return eq, twin.ErrUnknownEquipment(id)
	}
	return eq, err
}

// lockEquipment reads a twin for update. SQLite's immediate transactions
// already hold the database's one write lock; PostgreSQL locks the row, so
// two processes ingesting for one twin never lose each other's readings.
func (s *Store) lockEquipment(ctx context.Context, tx *sql.Tx, id string) (twin.Equipment, error) {
	q := `SELECT ` + equipmentColumns + ` FROM equipment WHERE id = $1 AND ` + inService
	if s.dialect == Postgres {
		q += ` FOR UPDATE`
	}
	eq, err := scanEquipment(tx.QueryRowContext(ctx, q, id))
	if isNoRows(err) {
		return eq, twin.ErrUnknownEquipment(id)
	}
	return eq, err
}

func scanEquipment(row interface{ Scan(...any) error }) (twin.Equipment, error) {
	var eq twin.Equipment
	var params, sensors, schedule, trades, writable string
	var conn sql.NullString
	err := row.Scan(&eq.ID, &eq.Name, &eq.Manufacturer, &eq.Model, &eq.SerialNumber, &eq.Type, &eq.Status, &eq.AlertLevel,
		&eq.CommunicationProtocol, &eq.ProtocolVersion, &params, &eq.SyncStatus, &eq.SyncErrorCount,
		&eq.OperatingHours, &sensors, &eq.LastUpdated, &eq.LastMaintenance, &eq.NextMaintenanceDate, &schedule, &trades,
		&conn, &writable, &eq.OrganisationID)
	if err != nil {
		return eq, err
	}
	if conn.Valid {
		eq.Connection = &twin.Connection{}
		if err := json.Unmarshal([]byte(conn.String), eq.Connection); err != nil {
			return eq, fmt.Errorf("equipment %s connection: %w", eq.ID, err)
		}
	}
	for _, f := range []struct {
		name, text string
		dst        any
	}{{"connection_parameters", params, &eq.ConnectionParameters}, {"sensor_data", sensors, &eq.SensorData},
		{"maintenance_schedule", schedule, &eq.MaintenanceSchedule}, {"supported_trade_types", trades, &eq.SupportedTradeTypes},
		{"writable_sensors", writable, &eq.WritableSensors}} {
		if err := json.Unmarshal([]byte(f.text), f.dst); err != nil {
			return eq, fmt.Errorf("equipment %s %s: %w", eq.ID, f.name, err)
		}
	}
	eq.LastUpdated, eq.LastMaintenance, eq.NextMaintenanceDate = eq.LastUpdated.UTC(), eq.LastMaintenance.UTC(), eq.NextMaintenanceDate.UTC()
	return eq, nil
}

// ListDataStreams returns the twin's streams in canonical sensor order, each
// with its bounded history. It reads outside a transaction: on SQLite a
// transaction here would take the write lock, and a thousand viewers
// polling every two seconds would queue behind each other.
func (s *Store) ListDataStreams(ctx context.Context, equipmentID string) ([]twin.DataStream, error) {
	byKey, err := readStreams(ctx, s.db, equipmentID)
	if err != nil {
		return nil, fmt.Errorf("list data streams: %w", err)
	}
	if len(byKey) == 0 {
		var exists int
		err := s.db.QueryRowContext(ctx, `SELECT 1 FROM equipment WHERE id = $1 AND `+inService, equipmentID).Scan(&exists)
		if isNoRows(err) {
			return nil, twin.ErrUnknownEquipment(equipmentID)
		}
		if err != nil {
			return nil, fmt.Errorf("list data streams: %w", err)
		}
	}
	return orderedStreams(byKey), nil
}

func orderedStreams(byKey map[string]*twin.DataStream) []twin.DataStream {
	data := twin.SensorData{}
	for k := range byKey {
		data[k] = twin.Reading{}
	}
	out := make([]twin.DataStream, 0, len(byKey))
	for _, k := range data.Keys() {
		out = append(out, *byKey[k])
	}
	return out
}

func readStreams(ctx context.Context, q querier, equipmentID string) (map[string]*twin.DataStream, error) {
	rows, err := q.QueryContext(ctx, `SELECT sensor, stream_name, unit, value, previous_value, quality, recorded_at, history
		FROM equipment_streams WHERE equipment_id = $1
		AND equipment_id IN (SELECT id FROM equipment WHERE id = $1 AND `+inService+`)`, equipmentID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	streams := map[string]*twin.DataStream{}
	for rows.Next() {
		st := &twin.DataStream{EquipmentID: equipmentID}
		var prev sql.NullFloat64
		var history string
		if err := rows.Scan(&st.Sensor, &st.StreamName, &st.Unit, &st.Value, &prev, &st.QualityIndicator, &st.Timestamp, &history); err != nil {
			return nil, err
		}
		st.ID = twin.StreamID(equipmentID, st.Sensor)
		st.Timestamp = st.Timestamp.UTC()
		if prev.Valid {
			st.PreviousValue = &prev.Float64
		}
		if st.History, err = decodeHistory(history); err != nil {
			return nil, fmt.Errorf("stream %s history: %w", st.ID, err)
		}
		streams[st.Sensor] = st
	}
	return streams, rows.Err()
}

func writeStreams(ctx context.Context, tx *sql.Tx, equipmentID string, streams map[string]*twin.DataStream) error {
	for _, st := range streams {
		var prev any
		if st.PreviousValue != nil {
			prev = *st.PreviousValue
		}
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO equipment_streams (equipment_id, sensor, stream_name, unit, value, previous_value, quality, recorded_at, history)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (equipment_id, sensor) DO UPDATE SET stream_name = excluded.stream_name, unit = excluded.unit,
				value = excluded.value, previous_value = excluded.previous_value, quality = excluded.quality,
				recorded_at = excluded.recorded_at, history = excluded.history`,
			equipmentID, st.Sensor, st.StreamName, st.Unit, st.Value, prev, st.QualityIndicator, st.Timestamp.UTC(), encodeHistory(st.History)); err != nil {
			return fmt.Errorf("stream %s: %w", st.ID, err)
		}
	}
	return nil
}

// RecordSensorData applies a batch of validated sensor updates in one
// transaction, in order: each twin's readings, lastUpdated, status and alert
// level, and its streams. Each twin is read and written once per batch
// however many of the updates name it, which is what makes batched
// ingest fast. An update naming no twin fails alone (its Outcome holds an
// ENOTFOUND error); the error return is for the batch as a whole.
func (s *Store) RecordSensorData(ctx context.Context, updates []twin.SensorUpdate) ([]twin.Outcome, error) {
	outcomes := make([]twin.Outcome, len(updates))
	err := s.tx(ctx, "record sensor data", func(ctx context.Context, tx *sql.Tx) error {
		clear(outcomes) // a write may run again (runWrite)
		type state struct {
			eq      twin.Equipment
			streams map[string]*twin.DataStream
		}
		touched := map[string]*state{}
		var order []string
		for i, u := range updates {
			st, seen := touched[u.EquipmentID]
			if !seen {
				eq, err := s.lockEquipment(ctx, tx, u.EquipmentID)
				if apperr.Code(err) == apperr.ENOTFOUND {
					touched[u.EquipmentID] = nil
					outcomes[i].Err = err
					continue
				}
				if err != nil {
					return err
				}
				streams, err := readStreams(ctx, tx, u.EquipmentID)
				if err != nil {
					return err
				}
				st = &state{eq: eq, streams: streams}
				touched[u.EquipmentID] = st
				order = append(order, u.EquipmentID)
			}
			if st == nil {
				outcomes[i].Err = twin.ErrUnknownEquipment(u.EquipmentID)
				continue
			}
			twin.Apply(&st.eq, st.streams, u)
			outcomes[i].Equipment = st.eq
			outcomes[i].Equipment.SensorData = st.eq.SensorData.Clone()
		}
		for _, id := range order {
			st := touched[id]
			eq := st.eq
			if _, err := tx.ExecContext(ctx, `UPDATE equipment SET sensor_data = $1, last_updated = $2, status = $3,
				alert_level = $4, sync_status = $5 WHERE id = $6`,
				mustJSON(eq.SensorData), eq.LastUpdated.UTC(), eq.Status, eq.AlertLevel, eq.SyncStatus, id); err != nil {
				return fmt.Errorf("equipment %s: %w", id, err)
			}
			if err := writeStreams(ctx, tx, id, st.streams); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return outcomes, nil
}

// Stream history is stored compactly, as [[unix milliseconds, value,
// quality code], …]: every ingest rewrites it and every poll reads it, so
// its size is what those cost.
var qualityCodes = []string{twin.QualityGood, twin.QualityUncertain, twin.QualityBad}

func encodeHistory(points []twin.StreamPoint) string {
	b := make([]byte, 0, 2+len(points)*32)
	b = append(b, '[')
	for i, p := range points {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, p.Timestamp.UnixMilli(), 10)
		b = append(b, ',')
		b = strconv.AppendFloat(b, p.Value, 'g', -1, 64)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(max(0, slices.Index(qualityCodes, p.QualityIndicator))), 10)
		b = append(b, ']')
	}
	return string(append(b, ']'))
}

// decodeHistory reads what encodeHistory wrote. It scans the triples by
// hand: this runs for every stream of every poll, and reflection-based
// decoding was half of a poll's cost.
func decodeHistory(text string) ([]twin.StreamPoint, error) {
	text = strings.TrimSpace(text)
	if len(text) < 2 || text[0] != '[' || text[len(text)-1] != ']' {
		return nil, fmt.Errorf("history %.40q is not a JSON array", text)
	}
	body := text[1 : len(text)-1]
	points := make([]twin.StreamPoint, 0, strings.Count(body, "]"))
	for body = strings.TrimSpace(body); body != ""; {
		end := strings.IndexByte(body, ']')
		if body[0] != '[' || end < 0 {
			return nil, fmt.Errorf("history: malformed point near %.40q", body)
		}
		parts := strings.Split(body[1:end], ",")
		if len(parts) != 3 {
			return nil, fmt.Errorf("history: point %q is not [ms, value, quality]", body[:end+1])
		}
		ms, err1 := strconv.ParseInt(strings.TrimSpace(parts[0]), 10, 64)
		v, err2 := strconv.ParseFloat(strings.TrimSpace(parts[1]), 64)
		q, err3 := strconv.Atoi(strings.TrimSpace(parts[2]))
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, fmt.Errorf("history: point %q: %w", body[:end+1], err)
		}
		if q < 0 || q >= len(qualityCodes) {
			q = 0
		}
		points = append(points, twin.StreamPoint{Value: v, QualityIndicator: qualityCodes[q], Timestamp: time.UnixMilli(ms).UTC()})
		body = strings.TrimLeft(body[end+1:], " ,")
	}
	return points, nil
}

// mustJSON encodes one of our own values for a JSON text column.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("mustJSON: %v", err)) // only plain data types reach here
	}
	return string(b)
}

// CreateEquipment adds a new twin, last in fleet order. It refuses one
// beyond twin.MaxEquipmentList in service.
func (s *Store) CreateEquipment(ctx context.Context, eq twin.Equipment) error {
	return s.tx(ctx, "create equipment", func(ctx context.Context, tx *sql.Tx) error {
		var count, position int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FILTER (WHERE `+inService+`), COALESCE(MAX(position), -1) + 1 FROM equipment`).
			Scan(&count, &position); err != nil {
			return err
		}
		if count >= twin.MaxEquipmentList {
			return apperr.Conflict("a deployment keeps at most %d twins in service; retire one first", twin.MaxEquipmentList)
		}
		_, err := tx.ExecContext(ctx, `
			INSERT INTO equipment (id, name, manufacturer, model, serial_number, type, status, alert_level,
				communication_protocol, protocol_version, connection_parameters, sync_status, sync_error_count,
				operating_hours, sensor_data, last_updated, last_maintenance, next_maintenance_date,
				maintenance_schedule, supported_trade_types, position, connection, writable_sensors, org_id)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, NULLIF($24, ''))`,
			eq.ID, eq.Name, eq.Manufacturer, eq.Model, eq.SerialNumber, eq.Type, eq.Status, eq.AlertLevel,
			eq.CommunicationProtocol, eq.ProtocolVersion, mustJSON(eq.ConnectionParameters), eq.SyncStatus, eq.SyncErrorCount,
			eq.OperatingHours, mustJSON(eq.SensorData), eq.LastUpdated.UTC(), eq.LastMaintenance.UTC(), eq.NextMaintenanceDate.UTC(),
			mustJSON(eq.MaintenanceSchedule), jsonText(eq.SupportedTradeTypes), position, connectionJSON(eq.Connection), jsonText(eq.WritableSensors), eq.OrganisationID)
		if isUniqueViolation(err) {
			return apperr.Conflict("equipment %q already exists", eq.ID)
		}
		return err
	})
}

// DefineEquipment applies a definition to the twin in service named id, in
// one transaction with its current state (twin.Define), and returns the
// twin as stored.
func (s *Store) DefineEquipment(ctx context.Context, id string, d twin.Definition, now time.Time) (twin.Equipment, error) {
	var eq twin.Equipment
	err := s.tx(ctx, "define equipment", func(ctx context.Context, tx *sql.Tx) error {
		old, err := s.lockEquipment(ctx, tx, id)
		if err != nil {
			return err
		}
		eq = twin.Define(old, d, now)
		_, err = tx.ExecContext(ctx, `UPDATE equipment SET name = $1, manufacturer = $2, model = $3, serial_number = $4,
			type = $5, supported_trade_types = $6, communication_protocol = $7, maintenance_schedule = $8,
			connection = $9, writable_sensors = $10, sync_status = $11, sync_error_count = $12 WHERE id = $13`,
			eq.Name, eq.Manufacturer, eq.Model, eq.SerialNumber, eq.Type, jsonText(eq.SupportedTradeTypes), eq.CommunicationProtocol,
			mustJSON(eq.MaintenanceSchedule), connectionJSON(eq.Connection), jsonText(eq.WritableSensors), eq.SyncStatus, eq.SyncErrorCount, id)
		return err
	})
	return eq, err
}

// RetireEquipment takes the twin named id out of service: it leaves every
// list and path, its rows and streams stay.
func (s *Store) RetireEquipment(ctx context.Context, id string, now time.Time) error {
	return s.tx(ctx, "retire equipment", func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE equipment SET retired_at = $1 WHERE id = $2 AND `+inService, now.UTC(), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return twin.ErrUnknownEquipment(id)
		}
		return nil
	})
}

func connectionJSON(c *twin.Connection) any {
	if c == nil {
		return nil
	}
	return mustJSON(c)
}
