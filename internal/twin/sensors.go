package twin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"journeyman/internal/apperr"
)

// Sensor describes one kind of reading: its key, unit and the physical range
// a real sensor of that kind can report. A value outside the range is a
// broken or spoofed sensor, refused rather than stored.
type Sensor struct {
	Key      string
	Name     string
	Unit     string
	Min, Max float64
}

// Sensors lists the readings a sensor update may carry, in canonical order.
var Sensors = []Sensor{
	{"temperature", "Temperature", "°C", -60, 600},
	{"pressure", "Pressure", "kPa", 0, 50000},
	{"vibration", "Vibration", "mm/s", 0, 100},
	{"current", "Current", "A", 0, 10000},
	{"voltage", "Voltage", "V", 0, 40000},
	{"rpm", "Speed", "rpm", 0, 100000},
	{"efficiency", "Efficiency", "%", 0, 100},
}

// SensorByKey returns the sensor named key.
func SensorByKey(key string) (Sensor, bool) {
	for _, s := range Sensors {
		if s.Key == key {
			return s, true
		}
	}
	return Sensor{}, false
}

// Limits on sensor timestamps: a device clock may run a little ahead, and a
// buffered reading may arrive late, but not by days.
const (
	MaxClockSkew    = 5 * time.Minute
	MaxReadingAge   = 24 * time.Hour
	StaleAfter      = 5 * time.Minute // older readings are marked uncertain
	StreamRetention = 120             // history points kept per data stream (4 min at one reading per 2 s)
)

// SensorUpdate is one validated set of readings for one twin.
type SensorUpdate struct {
	EquipmentID string
	Values      []Value   // in canonical sensor order
	Timestamp   time.Time // when the readings were taken
	ReceivedAt  time.Time // when the server got them
}

// Value is one reading of an update.
type Value struct {
	Key   string
	Value float64
}

// ParseSensorData decodes and validates the sensorData object of a
// sensor-data call or a telemetry message. Each reading is a number or
// {"value": number, "unit": "…"}; timestamp is RFC 3339 and optional
// (default now). Every error names the offending key.
func ParseSensorData(raw json.RawMessage, now time.Time) (SensorUpdate, error) {
	u := SensorUpdate{Timestamp: now, ReceivedAt: now}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return u, apperr.Invalid("sensorData must be an object of readings")
	}
	fields := map[string]json.RawMessage{}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.UseNumber()
	if err := dec.Decode(&fields); err != nil {
		return u, apperr.Invalid("sensorData: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return u, apperr.Invalid("sensorData must be a single JSON object")
	}
	for key := range fields {
		if key == "timestamp" {
			continue
		}
		if _, ok := SensorByKey(key); !ok {
			return u, apperr.Invalid("sensorData.%s is not a known sensor; use %s or timestamp", key, sensorKeyList())
		}
	}
	if ts, ok := fields["timestamp"]; ok && string(ts) != "null" {
		var text string
		if err := json.Unmarshal(ts, &text); err != nil {
			return u, apperr.Invalid("sensorData.timestamp must be an RFC 3339 string such as \"2026-03-02T09:30:00Z\"")
		}
		t, err := time.Parse(time.RFC3339Nano, text)
		if err != nil {
			return u, apperr.Invalid("sensorData.timestamp %q is not an RFC 3339 time such as \"2026-03-02T09:30:00Z\"", text)
		}
		switch {
		case t.After(now.Add(MaxClockSkew)):
			return u, apperr.Invalid("sensorData.timestamp %s is more than %s in the future", text, MaxClockSkew)
		case t.Before(now.Add(-MaxReadingAge)):
			return u, apperr.Invalid("sensorData.timestamp %s is more than %s old", text, MaxReadingAge)
		}
		u.Timestamp = t.UTC()
	}
	for _, s := range Sensors {
		raw, ok := fields[s.Key]
		if !ok || string(raw) == "null" {
			continue
		}
		v, err := parseReading(s, raw)
		if err != nil {
			return u, err
		}
		u.Values = append(u.Values, Value{s.Key, v})
	}
	if len(u.Values) == 0 {
		return u, apperr.Invalid("sensorData holds no readings; send at least one of %s", sensorKeyList())
	}
	return u, nil
}

func parseReading(s Sensor, raw json.RawMessage) (float64, error) {
	raw = bytes.TrimSpace(raw)
	var num json.Number
	switch {
	case len(raw) > 0 && raw[0] == '{':
		var obj struct {
			Value json.RawMessage `json:"value"`
			Unit  *string         `json:"unit"`
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		dec.DisallowUnknownFields()
		if err := dec.Decode(&obj); err != nil {
			return 0, apperr.Invalid("sensorData.%s must be a number or {\"value\": number, \"unit\": %q}: %v", s.Key, s.Unit, err)
		}
		if len(obj.Value) == 0 || string(obj.Value) == "null" {
			return 0, apperr.Invalid("sensorData.%s.value is required", s.Key)
		}
		if obj.Unit != nil && !sameUnit(*obj.Unit, s.Unit) {
			return 0, apperr.Invalid("sensorData.%s.unit must be %q, not %q", s.Key, s.Unit, *obj.Unit)
		}
		if !isJSONNumber(obj.Value) || json.Unmarshal(obj.Value, &num) != nil {
			return 0, apperr.Invalid("sensorData.%s.value must be a number in %s, not %s", s.Key, s.Unit, truncate(string(obj.Value), 40))
		}
	default:
		// json.Number would also take a quoted number: readings are numbers.
		if !isJSONNumber(raw) || json.Unmarshal(raw, &num) != nil {
			return 0, apperr.Invalid("sensorData.%s must be a number in %s, not %s", s.Key, s.Unit, truncate(string(raw), 40))
		}
	}
	v, err := num.Float64()
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, apperr.Invalid("sensorData.%s must be a finite number, not %s", s.Key, num)
	}
	if v < s.Min || v > s.Max {
		return 0, apperr.Invalid("sensorData.%s = %g %s is outside the physical range %g to %g %s", s.Key, v, s.Unit, s.Min, s.Max, s.Unit)
	}
	return v, nil
}

func isJSONNumber(raw []byte) bool {
	return len(raw) > 0 && (raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'))
}

// sameUnit accepts the unit as written or in its plain-ASCII spelling.
func sameUnit(got, want string) bool {
	g := strings.TrimSpace(got)
	if g == want {
		return true
	}
	switch want {
	case "°C":
		return g == "C" || g == "degC"
	case "mm/s":
		return strings.EqualFold(g, "mm/s")
	case "rpm":
		return strings.EqualFold(g, "rpm") || strings.EqualFold(g, "r/min")
	}
	return false
}

func sensorKeyList() string {
	keys := make([]string, len(Sensors))
	for i, s := range Sensors {
		keys[i] = s.Key
	}
	return strings.Join(keys, ", ")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// DataStream is one sensor's stream of readings on a twin.
type DataStream struct {
	ID               string        `json:"id"`
	EquipmentID      string        `json:"equipmentId"`
	StreamName       string        `json:"streamName"`
	Sensor           string        `json:"sensor"`
	Value            float64       `json:"value"`
	PreviousValue    *float64      `json:"previousValue"`
	Unit             string        `json:"unit"`
	QualityIndicator string        `json:"qualityIndicator"`
	Timestamp        time.Time     `json:"timestamp"`
	History          []StreamPoint `json:"history"`
}

// StreamPoint is one past reading of a stream, oldest first in History.
type StreamPoint struct {
	Value            float64   `json:"value"`
	QualityIndicator string    `json:"qualityIndicator"`
	Timestamp        time.Time `json:"timestamp"`
}

// Quality indicators of a reading.
const (
	QualityGood      = "good"
	QualityUncertain = "uncertain"
	QualityBad       = "bad"
)

// StreamID names the stream of sensor key on a twin.
func StreamID(equipmentID, key string) string { return equipmentID + ":" + key }

// Quality judges how far a reading can be trusted: bad when the sensor is
// pinned at the end of its physical range (saturated or wired open),
// uncertain when the reading was already stale on arrival, good otherwise.
func Quality(s Sensor, v float64, taken, received time.Time) string {
	switch {
	case (v <= s.Min && s.Min != 0) || v >= s.Max:
		return QualityBad
	case received.Sub(taken) > StaleAfter:
		return QualityUncertain
	default:
		return QualityGood
	}
}

// Apply folds u into the twin and its streams (keyed by sensor key; missing
// streams are created). It sets the readings, lastUpdated, the alert level
// from the rules, the status that follows from it, and marks the twin synced.
func Apply(eq *Equipment, streams map[string]*DataStream, u SensorUpdate) {
	if eq.SensorData == nil {
		eq.SensorData = SensorData{}
	}
	for _, v := range u.Values {
		s, _ := SensorByKey(v.Key)
		eq.SensorData[v.Key] = Reading{Value: v.Value, Unit: s.Unit}
		st := streams[v.Key]
		if st == nil {
			st = &DataStream{ID: StreamID(eq.ID, v.Key), EquipmentID: eq.ID, StreamName: eq.Name + " " + s.Name, Sensor: v.Key, Unit: s.Unit}
			streams[v.Key] = st
		} else {
			prev := st.Value
			st.PreviousValue = &prev
		}
		st.Value = v.Value
		st.Timestamp = u.Timestamp
		st.QualityIndicator = Quality(s, v.Value, u.Timestamp, u.ReceivedAt)
		st.History = append(st.History, StreamPoint{Value: v.Value, QualityIndicator: st.QualityIndicator, Timestamp: u.Timestamp})
		if over := len(st.History) - StreamRetention; over > 0 {
			st.History = append(st.History[:0], st.History[over:]...)
		}
	}
	eq.LastUpdated = u.Timestamp
	eq.AlertLevel = SensorAlertLevel(*eq)
	switch {
	case eq.AlertLevel == AlertEmergency:
		// An emergency reading trips the machine: operators must clear it.
		eq.Status = StatusError
	case eq.Status == StatusOffline || eq.Status == StatusError:
		// It reports again and nothing is in emergency: back in service.
		eq.Status = StatusOperational
	}
	eq.SyncStatus = SyncSynced
}

// Validate checks the stored shape of a twin (used for the seed).
func (eq Equipment) Validate() error {
	switch {
	case eq.ID == "" || strings.ContainsAny(eq.ID, " /:"):
		return apperr.Invalid("equipment id %q must be non-empty without spaces, slashes or colons", eq.ID)
	case strings.TrimSpace(eq.Name) == "":
		return apperr.Invalid("equipment %s: name is required", eq.ID)
	case !contains(Statuses, eq.Status):
		return apperr.Invalid("equipment %s: status %q must be one of %s", eq.ID, eq.Status, strings.Join(Statuses, ", "))
	case !contains(AlertLevels, eq.AlertLevel):
		return apperr.Invalid("equipment %s: alertLevel %q must be one of %s", eq.ID, eq.AlertLevel, strings.Join(AlertLevels, ", "))
	case !contains(SyncStatuses, eq.SyncStatus):
		return apperr.Invalid("equipment %s: syncStatus %q must be one of %s", eq.ID, eq.SyncStatus, strings.Join(SyncStatuses, ", "))
	case !contains(Protocols, eq.CommunicationProtocol):
		return apperr.Invalid("equipment %s: communicationProtocol %q must be one of %s", eq.ID, eq.CommunicationProtocol, strings.Join(Protocols, ", "))
	case eq.OperatingHours < 0:
		return apperr.Invalid("equipment %s: operatingHours must not be negative", eq.ID)
	case len(eq.SupportedTradeTypes) == 0:
		return apperr.Invalid("equipment %s: supportedTradeTypes must name at least one trade", eq.ID)
	}
	for k, r := range eq.SensorData {
		s, ok := SensorByKey(k)
		if !ok {
			return apperr.Invalid("equipment %s: sensorData.%s is not a known sensor", eq.ID, k)
		}
		if r.Unit != s.Unit || r.Value < s.Min || r.Value > s.Max {
			return apperr.Invalid("equipment %s: sensorData.%s = %g %s must be in %g to %g %s", eq.ID, k, r.Value, r.Unit, s.Min, s.Max, s.Unit)
		}
	}
	return nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// ErrUnknownEquipment is returned for an update naming no twin.
func ErrUnknownEquipment(id string) error {
	return apperr.NotFound("equipment %q does not exist", id)
}

// String is for logs.
func (u SensorUpdate) String() string {
	return fmt.Sprintf("%s@%s(%d readings)", u.EquipmentID, u.Timestamp.Format(time.RFC3339), len(u.Values))
}
