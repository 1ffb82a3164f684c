package twin

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// AlertRule raises an alert when a sensor of a kind of equipment crosses a
// threshold. Thresholds are ordered by severity: for "above" rules
// Warning < Critical < Emergency, for "below" rules the reverse.
type AlertRule struct {
	Type       string // equipment type
	Sensor     string // sensor key
	Comparison string // "above" or "below"
	Warning    float64
	Critical   float64
	Emergency  float64
	Reason     string // what crossing it means on the floor
}

// Alert is one reason a twin needs attention.
type Alert struct {
	ID            string    `json:"id"`
	EquipmentID   string    `json:"equipmentId"`
	EquipmentName string    `json:"equipmentName"`
	EquipmentType string    `json:"equipmentType"`
	Level         string    `json:"level"`  // warning, critical or emergency
	Source        string    `json:"source"` // sensor, status, sync or maintenance
	Sensor        string    `json:"sensor,omitempty"`
	Reading       *float64  `json:"reading"`
	Threshold     *float64  `json:"threshold"`
	Comparison    string    `json:"comparison,omitempty"` // above or below
	Unit          string    `json:"unit"`
	Message       string    `json:"message"`
	Timestamp     time.Time `json:"timestamp"`
}

// Rules are the threshold rules per kind of equipment. Vibration limits
// follow the ISO 10816 zones for medium machines (4.5 / 7.1 / 11 mm/s);
// electrical limits are set from nameplate ratings of the seeded machines.
var Rules = []AlertRule{
	{"panelboard", "temperature", "above", 50, 60, 75, "bus or lug overheating"},
	{"panelboard", "current", "above", 200, 225, 250, "main bus loading against its 225 A rating"},
	{"panelboard", "voltage", "below", 456, 440, 420, "undervoltage on the 480 V service"},
	{"panelboard", "voltage", "above", 504, 520, 540, "overvoltage on the 480 V service"},

	{"transformer", "temperature", "above", 85, 95, 110, "top-oil temperature"},
	{"transformer", "current", "above", 450, 500, 560, "secondary loading against the 500 A rating"},
	{"transformer", "voltage", "below", 456, 440, 420, "secondary undervoltage"},

	{"rooftop-hvac-unit", "temperature", "above", 20, 25, 30, "supply air too warm: cooling not keeping up"},
	{"rooftop-hvac-unit", "pressure", "above", 1500, 1750, 2000, "high refrigerant head pressure"},
	{"rooftop-hvac-unit", "vibration", "above", 4.5, 7.1, 11, "fan or compressor vibration"},
	{"rooftop-hvac-unit", "current", "above", 55, 65, 80, "compressor overcurrent"},

	{"chiller", "temperature", "above", 10, 13, 16, "leaving chilled water too warm"},
	{"chiller", "temperature", "below", 4, 3, 2, "leaving chilled water near freezing"},
	{"chiller", "pressure", "above", 900, 1000, 1100, "high condenser pressure"},
	{"chiller", "vibration", "above", 4.5, 7.1, 11, "compressor vibration"},
	{"chiller", "current", "above", 300, 340, 380, "compressor overcurrent"},
	{"chiller", "efficiency", "below", 80, 75, 65, "efficiency loss: fouled tubes or low charge"},

	{"booster-pump", "pressure", "above", 800, 900, 1000, "discharge pressure over the piping rating"},
	{"booster-pump", "pressure", "below", 350, 300, 200, "low discharge pressure: loss of prime or a leak"},
	{"booster-pump", "vibration", "above", 4.5, 7.1, 11, "pump or motor vibration"},
	{"booster-pump", "current", "above", 65, 75, 85, "motor overcurrent"},
	{"booster-pump", "temperature", "above", 70, 80, 95, "motor winding temperature"},

	{"welding-power-source", "temperature", "above", 75, 85, 95, "thermal overload of the power source"},
	{"welding-power-source", "current", "above", 300, 350, 400, "output current over the duty-cycle rating"},
	{"welding-power-source", "voltage", "above", 35, 40, 45, "open-circuit voltage too high"},

	{"solar-inverter", "temperature", "above", 65, 75, 85, "heatsink temperature"},
	{"solar-inverter", "voltage", "above", 510, 530, 550, "grid overvoltage"},
	{"solar-inverter", "voltage", "below", 440, 420, 400, "grid undervoltage"},
	{"solar-inverter", "efficiency", "below", 94, 90, 85, "conversion efficiency loss"},

	{"wind-turbine-nacelle", "temperature", "above", 80, 90, 100, "gearbox oil temperature"},
	{"wind-turbine-nacelle", "vibration", "above", 6, 9, 12, "drivetrain vibration"},
	{"wind-turbine-nacelle", "rpm", "above", 1800, 1900, 2000, "generator overspeed"},
	{"wind-turbine-nacelle", "pressure", "below", 150, 120, 100, "low hydraulic brake pressure"},

	{"elevator-drive", "temperature", "above", 70, 80, 90, "drive heatsink temperature"},
	{"elevator-drive", "vibration", "above", 4.5, 7.1, 11, "hoist motor vibration"},
	{"elevator-drive", "current", "above", 75, 90, 110, "hoist motor overcurrent"},
	{"elevator-drive", "rpm", "above", 1850, 1950, 2100, "hoist overspeed"},
}

// Thresholds beyond sensor readings.
const (
	SyncErrorWarning = 3 // failed syncs in a row before it is worth a look
)

// level returns the severity a value reaches under r and the threshold it
// crossed; "" when it crosses none.
func (r AlertRule) level(v float64) (string, float64) {
	crossed := func(t float64) bool {
		if r.Comparison == "below" {
			return v < t
		}
		return v > t
	}
	switch {
	case crossed(r.Emergency):
		return AlertEmergency, r.Emergency
	case crossed(r.Critical):
		return AlertCritical, r.Critical
	case crossed(r.Warning):
		return AlertWarning, r.Warning
	}
	return "", 0
}

// SensorAlerts applies the rules of the twin's type to its latest readings.
func SensorAlerts(eq Equipment) []Alert {
	var alerts []Alert
	for _, r := range Rules {
		if r.Type != eq.Type {
			continue
		}
		reading, ok := eq.SensorData[r.Sensor]
		if !ok {
			continue
		}
		level, threshold := r.level(reading.Value)
		if level == "" {
			continue
		}
		v, t := reading.Value, threshold
		alerts = append(alerts, Alert{
			ID:         fmt.Sprintf("%s:%s:%s", eq.ID, r.Sensor, r.Comparison),
			Level:      level,
			Source:     "sensor",
			Sensor:     r.Sensor,
			Reading:    &v,
			Threshold:  &t,
			Comparison: r.Comparison,
			Unit:       reading.Unit,
			Message:    fmt.Sprintf("%s %s %g %s, %s the %s threshold of %g %s: %s", eq.Name, r.Sensor, round(v), reading.Unit, r.Comparison, level, t, reading.Unit, r.Reason),
			Timestamp:  eq.LastUpdated,
		})
	}
	return fill(eq, alerts)
}

// SensorAlertLevel is the highest level the twin's readings reach.
func SensorAlertLevel(eq Equipment) string {
	level := AlertNormal
	for _, a := range SensorAlerts(eq) {
		if AlertRank(a.Level) > AlertRank(level) {
			level = a.Level
		}
	}
	return level
}

// Alerts lists everything wrong with the twin at now: threshold crossings
// of its latest readings, a fault or offline status, a failing link and
// overdue maintenance.
func Alerts(eq Equipment, now time.Time) []Alert {
	alerts := SensorAlerts(eq)
	switch eq.Status {
	case StatusError:
		alerts = append(alerts, Alert{ID: eq.ID + ":status", Level: AlertCritical, Source: "status",
			Message: eq.Name + " reports a fault (status error); inspect before returning it to service", Timestamp: eq.LastUpdated})
	case StatusOffline:
		alerts = append(alerts, Alert{ID: eq.ID + ":status", Level: AlertWarning, Source: "status",
			Message: eq.Name + " is offline: no readings are arriving", Timestamp: eq.LastUpdated})
	}
	if eq.SyncErrorCount >= SyncErrorWarning {
		v, t := float64(eq.SyncErrorCount), float64(SyncErrorWarning)
		alerts = append(alerts, Alert{ID: eq.ID + ":sync", Level: AlertWarning, Source: "sync", Reading: &v, Threshold: &t,
			Comparison: "above", Unit: "errors",
			Message:   fmt.Sprintf("%s: %d failed syncs over %s (sync status %s)", eq.Name, eq.SyncErrorCount, eq.CommunicationProtocol, eq.SyncStatus),
			Timestamp: eq.LastUpdated})
	}
	if !eq.NextMaintenanceDate.IsZero() && now.After(eq.NextMaintenanceDate) {
		days := math.Floor(now.Sub(eq.NextMaintenanceDate).Hours() / 24)
		zero := 0.0
		alerts = append(alerts, Alert{ID: eq.ID + ":maintenance", Level: AlertWarning, Source: "maintenance", Reading: &days, Threshold: &zero,
			Comparison: "above", Unit: "days overdue",
			Message:   fmt.Sprintf("%s maintenance was due %s (%g days ago)", eq.Name, eq.NextMaintenanceDate.Format("2006-01-02"), days),
			Timestamp: eq.NextMaintenanceDate})
	}
	return fill(eq, alerts)
}

func fill(eq Equipment, alerts []Alert) []Alert {
	for i := range alerts {
		alerts[i].EquipmentID = eq.ID
		alerts[i].EquipmentName = eq.Name
		alerts[i].EquipmentType = eq.Type
	}
	return alerts
}

// SortAlerts orders alerts most severe first, then newest first.
func SortAlerts(alerts []Alert) {
	sort.SliceStable(alerts, func(i, j int) bool {
		ri, rj := AlertRank(alerts[i].Level), AlertRank(alerts[j].Level)
		if ri != rj {
			return ri > rj
		}
		if !alerts[i].Timestamp.Equal(alerts[j].Timestamp) {
			return alerts[i].Timestamp.After(alerts[j].Timestamp)
		}
		return alerts[i].ID < alerts[j].ID
	})
}

func round(v float64) float64 { return math.Round(v*100) / 100 }
