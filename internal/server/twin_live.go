package server

// Digital twins over /ws. A client's watch_equipment (anyone may send it,
// as anyone may read GET /api/digital-twin/equipment) subscribes its
// connection to equipment_update messages: a twin as stored, with its
// alerts, within flushEvery of a reading reaching any server process.
//
//	equipment_update payload: {"equipment": Equipment, "alerts": [Alert]}
//	                          (the shapes of twin.go's list and alerts answers;
//	                          alerts are that twin's only, most severe first)

import (
	"context"
	"encoding/json"
	"strings"

	"journeyman/internal/realtime"
	"journeyman/internal/twin"
)

// twinChannel carries the ids of changed twins between processes, one per
// line; each process moves its devices to them and tells its watchers.
const twinChannel = "journeyman_twins"

// EquipmentUpdate is the payload of an equipment_update message.
type EquipmentUpdate struct {
	Equipment twin.Equipment `json:"equipment"`
	Alerts    []twin.Alert   `json:"alerts"`
}

// recordReadings is the ingester's way to the store: what it stores reaches
// this process's devices at once, and every process's devices and watchers
// after the next flush.
func (s *Server) recordReadings(ctx context.Context, updates []twin.SensorUpdate) ([]twin.Outcome, error) {
	outcomes, err := s.store.RecordSensorData(ctx, updates)
	if err != nil {
		return outcomes, err
	}
	for _, o := range outcomes {
		if o.Err == nil {
			s.fleet.Follow(o.Equipment)
			s.twinChanges.note(o.Equipment.ID, o.Equipment.ID)
		}
	}
	return outcomes, nil
}

// Ingest is the one path by which sensor readings reach the store, for the
// sensor-data call and MQTT telemetry alike.
func (s *Server) Ingest() *twin.Ingester { return s.ingest }

// deliverTwins moves this process's devices to the twins of a twinChannel
// payload, as stored now, and sends them to its watchers.
func (s *Server) deliverTwins(ctx context.Context, payload string) {
	changed := map[string]bool{}
	for id := range strings.SplitSeq(strings.TrimSpace(payload), "\n") {
		changed[id] = true
	}
	// One read of the fleet, a few rows, rather than a query per twin: a
	// flush names every twin that reported in the last quarter second.
	list, err := s.store.ListEquipment(ctx)
	if err != nil {
		s.log.Error("realtime: load changed twins", "err", err)
		return
	}
	watched := s.hub.WatchingEquipment()
	now := s.store.Now()
	for _, eq := range list {
		if !changed[eq.ID] {
			continue
		}
		s.fleet.Follow(eq)
		if !watched {
			continue
		}
		alerts := twin.Alerts(eq, now)
		twin.SortAlerts(alerts)
		if alerts == nil {
			alerts = []twin.Alert{}
		}
		b, err := json.Marshal(EquipmentUpdate{Equipment: s.fleet.Present(eq), Alerts: alerts})
		if err != nil {
			s.log.Error("realtime: encode equipment update", "equipment", eq.ID, "err", err)
			continue
		}
		s.hub.Deliver(realtime.Message{Type: realtime.TypeEquipmentUpdate, Payload: b, Timestamp: eq.LastUpdated.UTC()})
	}
}
