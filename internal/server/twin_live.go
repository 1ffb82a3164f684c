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
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"journeyman/internal/realtime"
	"journeyman/internal/twin"
)

// twinChannel carries the changed twins between processes as lines of
// "announcing process<TAB>equipment id"; each process moves its devices to
// the others' and tells its watchers of all.
const twinChannel = "journeyman_twins"

// EquipmentUpdate is a twin as stored with the alerts it raises: the
// sensor-data call's answer, and the payload of an equipment_update.
type EquipmentUpdate struct {
	Equipment twin.Equipment `json:"equipment"`
	Alerts    []twin.Alert   `json:"alerts"`
}

// equipmentUpdate is eq, presented as its receiver may see it, with its
// alerts at now, most severe first.
func equipmentUpdate(eq twin.Equipment, now time.Time) EquipmentUpdate {
	alerts := twin.Alerts(eq, now)
	twin.SortAlerts(alerts)
	if alerts == nil {
		alerts = []twin.Alert{}
	}
	return EquipmentUpdate{Equipment: eq, Alerts: alerts}
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
			s.noteTwin(o.Equipment.ID)
		}
	}
	return outcomes, nil
}

// noteTwin announces, at the next flush, that this process stored twin id:
// the other processes move their devices to it, and watchers hear of it.
func (s *Server) noteTwin(id string) { s.twinChanges.note(id, s.process+"\t"+id) }

// newProcessID names one Server among those sharing a database. Not the
// request ids' prefix, which is one per OS process: tests run several
// Servers in one.
func newProcessID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Ingest is the one path by which sensor readings reach the store, for the
// sensor-data call and MQTT telemetry alike.
func (s *Server) Ingest() *twin.Ingester { return s.ingest }

// deliverTwins moves this process's devices to the twins of a twinChannel
// payload, as stored now, and sends them to its watchers.
func (s *Server) deliverTwins(ctx context.Context, payload string) {
	// changed says, per twin, whether another process stored it: this
	// one's own readings reached its devices when they were stored.
	changed := map[string]bool{}
	foreign := false
	for line := range strings.SplitSeq(strings.TrimSpace(payload), "\n") {
		from, id, ok := strings.Cut(line, "\t")
		if !ok {
			continue
		}
		changed[id] = changed[id] || from != s.process
		foreign = foreign || from != s.process
	}
	watched := s.hub.WatchingEquipment()
	if !watched && !foreign {
		return
	}
	// One read of the twins the flush names, rather than a query per twin:
	// it names every twin that reported in the last quarter second.
	ids := make([]string, 0, len(changed))
	for id := range changed {
		ids = append(ids, id)
	}
	list, err := s.store.ListEquipmentByID(ctx, ids)
	if err != nil {
		s.log.Error("realtime: load changed twins", "err", err)
		return
	}
	now := s.store.Now()
	for _, eq := range list {
		fromOther, ok := changed[eq.ID]
		if !ok {
			continue
		}
		delete(changed, eq.ID)
		if fromOther {
			// Put follows the readings, and starts or replaces the demo
			// device of a twin another process created or edited.
			if err := s.fleet.Put(ctx, eq); err != nil {
				s.log.Warn("field device for a twin another process defined", "equipment", eq.ID, "err", err)
			}
		}
		if !watched {
			continue
		}
		// One message for every watcher: the twin as anyone may watch it.
		b, err := json.Marshal(equipmentUpdate(s.present(eq).Watched(), now))
		if err != nil {
			s.log.Error("realtime: encode equipment update", "equipment", eq.ID, "err", err)
			continue
		}
		s.hub.Deliver(realtime.Message{Type: realtime.TypeEquipmentUpdate, Payload: b, Timestamp: eq.LastUpdated.UTC()})
	}
	// What is left was retired.
	for id, fromOther := range changed {
		if fromOther {
			s.fleet.Remove(id)
		}
	}
}
