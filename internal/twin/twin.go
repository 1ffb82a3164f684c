// Package twin is the digital twin of shop-floor equipment: what a twin is,
// how a sensor update is validated and applied, and which readings raise an
// alert. It holds no HTTP and no SQL.
package twin

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"time"
)

// Equipment states (seed 001 §4).
const (
	StatusOperational = "operational"
	StatusMaintenance = "maintenance"
	StatusOffline     = "offline"
	StatusError       = "error"

	AlertNormal    = "normal"
	AlertWarning   = "warning"
	AlertCritical  = "critical"
	AlertEmergency = "emergency"

	SyncSynced       = "synced"
	SyncSyncing      = "syncing"
	SyncError        = "error"
	SyncDisconnected = "disconnected"
)

// Statuses, AlertLevels and SyncStatuses list the valid values, in order.
var (
	Statuses     = []string{StatusOperational, StatusMaintenance, StatusOffline, StatusError}
	AlertLevels  = []string{AlertNormal, AlertWarning, AlertCritical, AlertEmergency}
	SyncStatuses = []string{SyncSynced, SyncSyncing, SyncError, SyncDisconnected}
)

// AlertRank orders alert levels: normal 0 … emergency 3; -1 when unknown.
func AlertRank(level string) int { return slices.Index(AlertLevels, level) }

// The communication protocols a twin's device speaks.
const (
	ProtocolModbusTCP  = "Modbus TCP"
	ProtocolOPCUA      = "OPC-UA"
	ProtocolMQTT       = "MQTT"
	ProtocolEtherNetIP = "EtherNet/IP"
)

// Protocols lists the supported communication protocols.
var Protocols = []string{ProtocolModbusTCP, ProtocolOPCUA, ProtocolMQTT, ProtocolEtherNetIP}

// Equipment is one twin: the identity of the machine, how it is reached, and
// its latest state.
type Equipment struct {
	ID                    string              `json:"id"`
	Name                  string              `json:"name"`
	Manufacturer          string              `json:"manufacturer"`
	Model                 string              `json:"model"`
	SerialNumber          string              `json:"serialNumber"`
	Type                  string              `json:"type"`
	Status                string              `json:"status"`
	AlertLevel            string              `json:"alertLevel"`
	CommunicationProtocol string              `json:"communicationProtocol"`
	ProtocolVersion       string              `json:"protocolVersion"`
	ConnectionParameters  map[string]any      `json:"connectionParameters"`
	SyncStatus            string              `json:"syncStatus"`
	SyncErrorCount        int                 `json:"syncErrorCount"`
	OperatingHours        float64             `json:"operatingHours"`
	SensorData            SensorData          `json:"sensorData"`
	LastUpdated           time.Time           `json:"lastUpdated"`
	LastMaintenance       time.Time           `json:"lastMaintenance"`
	NextMaintenanceDate   time.Time           `json:"nextMaintenanceDate"`
	MaintenanceSchedule   MaintenanceSchedule `json:"maintenanceSchedule"`
	SupportedTradeTypes   []string            `json:"supportedTradeTypes"`
	// Connection reaches the real device; nil when the demo device serves
	// the twin.
	Connection *Connection `json:"connection"`
	// WritableSensors are the demo device's OPC UA variables a signed-in
	// client may write; a write is stored as the twin's reading.
	WritableSensors []string `json:"writableSensors"`
	// OrganisationID is the organisation whose instructors and admins
	// manage the twin, the one whose staff added it; empty for the seeded
	// fleet, shared by every organisation.
	OrganisationID string `json:"organisationId,omitempty"`
	// RealDevice says, in answers, that the twin reads a real device: so
	// much of its Connection anyone watching may know (Watched).
	RealDevice bool `json:"realDevice"`
}

// MaintenanceSchedule is the planned upkeep of a machine.
type MaintenanceSchedule struct {
	IntervalDays int               `json:"intervalDays"`
	Tasks        []MaintenanceTask `json:"tasks"`
}

// MaintenanceTask is one item of a schedule.
type MaintenanceTask struct {
	Task      string `json:"task"`
	Frequency string `json:"frequency"` // e.g. "monthly", "quarterly", "annual"
	Trade     string `json:"trade"`
}

// Reading is one measured value.
type Reading struct {
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
}

// SensorData holds a twin's latest readings by sensor key. It encodes in
// the canonical sensor order (temperature, pressure, …) so that "the first
// four readings" on a card are always the same four.
type SensorData map[string]Reading

// MarshalJSON writes the readings in canonical order.
func (d SensorData) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, k := range d.Keys() {
		if i > 0 {
			buf.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(d[k])
		if err != nil {
			return nil, err
		}
		buf.Write(kb)
		buf.WriteByte(':')
		buf.Write(vb)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// Keys returns the sensor keys in canonical order, unknown keys last by name.
func (d SensorData) Keys() []string {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		ri, rj := sensorRank(keys[i]), sensorRank(keys[j])
		if ri != rj {
			return ri < rj
		}
		return keys[i] < keys[j]
	})
	return keys
}

func sensorRank(key string) int {
	for i, s := range Sensors {
		if s.Key == key {
			return i
		}
	}
	return len(Sensors)
}

// Clone returns a copy that can be changed without touching d.
func (d SensorData) Clone() SensorData {
	c := make(SensorData, len(d))
	for k, v := range d {
		c[k] = v
	}
	return c
}
