package twin

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"journeyman/internal/apperr"
)

// Definition is what an instructor or admin says a twin is: its identity,
// upkeep and connection. Its state (status, readings, sync) is the
// server's, from what the device reports.
type Definition struct {
	Name                  string              `json:"name"`
	Manufacturer          string              `json:"manufacturer"`
	Model                 string              `json:"model"`
	SerialNumber          string              `json:"serialNumber"`
	Type                  string              `json:"type"`
	SupportedTradeTypes   []string            `json:"supportedTradeTypes"`
	CommunicationProtocol string              `json:"communicationProtocol"`
	MaintenanceSchedule   MaintenanceSchedule `json:"maintenanceSchedule"`
	Connection            *Connection         `json:"connection"`
	WritableSensors       []string            `json:"writableSensors"`
}

// Definition limits.
const (
	MaxTextLen       = 120
	MaxTasks         = 30
	MaxTaskLen       = 200
	MaxIntervalDays  = 3650
	MaxEquipmentList = 1000 // twins a deployment keeps in service
)

// Frequencies are how often a maintenance task is due.
var Frequencies = []string{"daily", "weekly", "monthly", "quarterly", "semi-annual", "annual", "triennial"}

var typePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Normalize trims the texts and fills the connection's defaults.
func (d *Definition) Normalize() {
	for _, s := range []*string{&d.Name, &d.Manufacturer, &d.Model, &d.SerialNumber, &d.Type} {
		*s = strings.TrimSpace(*s)
	}
	if d.SupportedTradeTypes == nil {
		d.SupportedTradeTypes = []string{}
	}
	if d.WritableSensors == nil {
		d.WritableSensors = []string{}
	}
	if d.MaintenanceSchedule.Tasks == nil {
		d.MaintenanceSchedule.Tasks = []MaintenanceTask{}
	}
	for i := range d.MaintenanceSchedule.Tasks {
		d.MaintenanceSchedule.Tasks[i].Task = strings.TrimSpace(d.MaintenanceSchedule.Tasks[i].Task)
	}
	if d.Connection != nil {
		d.Connection.Normalize(d.CommunicationProtocol)
	}
}

// Validate checks a normalized definition; trades lists the known trade
// ids. Messages start with the field's path.
func (d Definition) Validate(trades []string) error {
	for _, f := range []struct{ name, value string }{
		{"name", d.Name}, {"manufacturer", d.Manufacturer}, {"model", d.Model}, {"serialNumber", d.SerialNumber}, {"type", d.Type},
	} {
		if f.value == "" || len(f.value) > MaxTextLen {
			return apperr.Invalid("%s is required, at most %d characters", f.name, MaxTextLen)
		}
	}
	if !typePattern.MatchString(d.Type) {
		return apperr.Invalid("type %q must be lower-case words joined by hyphens, such as booster-pump", d.Type)
	}
	if len(d.SupportedTradeTypes) == 0 {
		return apperr.Invalid("supportedTradeTypes must name at least one trade")
	}
	for i, tr := range d.SupportedTradeTypes {
		if !slices.Contains(trades, tr) {
			return apperr.Invalid("supportedTradeTypes[%d] %q must be one of %s", i, tr, strings.Join(trades, ", "))
		}
		if slices.Index(d.SupportedTradeTypes, tr) != i {
			return apperr.Invalid("supportedTradeTypes[%d] %q is listed twice", i, tr)
		}
	}
	if !contains(Protocols, d.CommunicationProtocol) {
		return apperr.Invalid("communicationProtocol %q must be one of %s", d.CommunicationProtocol, strings.Join(Protocols, ", "))
	}
	if err := d.MaintenanceSchedule.validate(trades); err != nil {
		return err
	}
	for i, s := range d.WritableSensors {
		if _, ok := SensorByKey(s); !ok {
			return apperr.Invalid("writableSensors[%d] %q must be one of %s", i, s, sensorKeyList())
		}
	}
	if len(d.WritableSensors) > 0 && (d.CommunicationProtocol != ProtocolOPCUA || d.Connection != nil) {
		return apperr.Invalid("writableSensors apply only to an OPC-UA twin served by its demo device")
	}
	if d.Connection != nil {
		return d.Connection.Validate(d.CommunicationProtocol)
	}
	return nil
}

func (m MaintenanceSchedule) validate(trades []string) error {
	if m.IntervalDays < 1 || m.IntervalDays > MaxIntervalDays {
		return apperr.Invalid("maintenanceSchedule.intervalDays must be from 1 to %d", MaxIntervalDays)
	}
	if len(m.Tasks) > MaxTasks {
		return apperr.Invalid("maintenanceSchedule.tasks may list at most %d tasks", MaxTasks)
	}
	for i, task := range m.Tasks {
		field := fmt.Sprintf("maintenanceSchedule.tasks[%d]", i)
		switch {
		case task.Task == "" || len(task.Task) > MaxTaskLen:
			return apperr.Invalid("%s.task is required, at most %d characters", field, MaxTaskLen)
		case !contains(Frequencies, task.Frequency):
			return apperr.Invalid("%s.frequency %q must be one of %s", field, task.Frequency, strings.Join(Frequencies, ", "))
		case !slices.Contains(trades, task.Trade):
			return apperr.Invalid("%s.trade %q must be one of %s", field, task.Trade, strings.Join(trades, ", "))
		}
	}
	return nil
}

// Define applies d to eq: a new twin when eq is zero (operational, no
// readings yet, maintenance due one interval from now), or an edit that
// keeps the twin's state. A connection whose password is left empty keeps
// the one eq had.
func Define(eq Equipment, d Definition, now time.Time) Equipment {
	if eq.ID == "" {
		eq.Status, eq.AlertLevel = StatusOperational, AlertNormal
		eq.SensorData = SensorData{}
		eq.LastUpdated, eq.LastMaintenance = now, now
		eq.NextMaintenanceDate = now.AddDate(0, 0, d.MaintenanceSchedule.IntervalDays)
	}
	if d.Connection != nil && d.Connection.Password == "" && eq.Connection != nil && eq.CommunicationProtocol == d.CommunicationProtocol {
		d.Connection.Password = eq.Connection.Password
	}
	if d.Connection == nil {
		eq.SyncStatus = SyncSynced
	} else if eq.Connection == nil || !sameDevice(*eq.Connection, *d.Connection) {
		eq.SyncStatus, eq.SyncErrorCount = SyncSyncing, 0
	}
	eq.Name, eq.Manufacturer, eq.Model, eq.SerialNumber, eq.Type = d.Name, d.Manufacturer, d.Model, d.SerialNumber, d.Type
	eq.SupportedTradeTypes, eq.CommunicationProtocol = d.SupportedTradeTypes, d.CommunicationProtocol
	eq.MaintenanceSchedule, eq.Connection, eq.WritableSensors = d.MaintenanceSchedule, d.Connection, d.WritableSensors
	return eq
}

func sameDevice(a, b Connection) bool {
	return a.Address == b.Address && a.UnitID == b.UnitID && a.CIPPath == b.CIPPath && a.Topic == b.Topic
}

// Public is the twin as the API shows it: the connection's password is
// never sent back, only whether one is kept.
func (eq Equipment) Public() Equipment {
	eq.RealDevice = eq.Connection != nil
	if eq.Connection != nil {
		c := *eq.Connection
		c.HasPassword, c.Password = c.Password != "", ""
		eq.Connection = &c
	}
	if eq.WritableSensors == nil {
		eq.WritableSensors = []string{}
	}
	return eq
}

// WatchedParams are the connection parameters of a twin on device c that
// anyone watching may see: how it is read, not where or as whom. The
// fleet adds the device's whereabouts for the staff who manage it.
func WatchedParams(c Connection) map[string]any {
	return map[string]any{"device": "connected", "intervalMs": c.IntervalMs, "timeoutMs": c.TimeoutMs, "points": len(c.Points)}
}

// Watched is a public answer (Public) as those who do not manage the twin
// see it: a twin on a real device says so (RealDevice) but not the
// device's address, login, topic or point map, which would map a site's
// plant network for anyone watching.
func (eq Equipment) Watched() Equipment {
	if eq.Connection == nil {
		return eq
	}
	eq.ConnectionParameters = WatchedParams(*eq.Connection)
	eq.Connection = nil
	return eq
}

// NewID makes a new twin's id from its name and a random suffix: readable
// in MQTT topics and OPC UA node ids, and unique without asking the
// database.
func NewID(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
		if b.Len() >= 24 {
			break
		}
	}
	slug := strings.TrimSuffix(b.String(), "-")
	if slug == "" {
		slug = "twin"
	}
	suffix := make([]byte, 3)
	_, _ = rand.Read(suffix) // crypto/rand.Read never fails
	return slug + "-" + hex.EncodeToString(suffix)
}
