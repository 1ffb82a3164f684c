package twin

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"journeyman/internal/apperr"
)

var now = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

func twinOf(typ string, readings map[string]float64) Equipment {
	eq := Equipment{ID: "x", Name: "Test " + typ, Type: typ, Status: StatusOperational, SensorData: SensorData{}, LastUpdated: now}
	for k, v := range readings {
		s, _ := SensorByKey(k)
		eq.SensorData[k] = Reading{Value: v, Unit: s.Unit}
	}
	return eq
}

func TestAlertRules(t *testing.T) {
	tests := []struct {
		name      string
		typ       string
		readings  map[string]float64
		level     string  // highest level; normal when no alert
		sensor    string  // sensor of the highest alert
		threshold float64 // the threshold it crossed
	}{
		{"PanelNormal", "panelboard", map[string]float64{"temperature": 35, "current": 150, "voltage": 480}, AlertNormal, "", 0},
		{"PanelHotWarning", "panelboard", map[string]float64{"temperature": 55}, AlertWarning, "temperature", 50},
		{"PanelAtThresholdIsNotOver", "panelboard", map[string]float64{"temperature": 50}, AlertNormal, "", 0},
		{"PanelUndervoltageCritical", "panelboard", map[string]float64{"voltage": 435}, AlertCritical, "voltage", 440},
		{"PanelOvervoltageEmergency", "panelboard", map[string]float64{"voltage": 545}, AlertEmergency, "voltage", 540},
		{"TransformerOilCritical", "transformer", map[string]float64{"temperature": 100}, AlertCritical, "temperature", 95},
		{"ChillerFreezeEmergency", "chiller", map[string]float64{"temperature": 1.5}, AlertEmergency, "temperature", 2},
		{"ChillerEfficiencyWarning", "chiller", map[string]float64{"temperature": 7, "efficiency": 78}, AlertWarning, "efficiency", 80},
		{"PumpLossOfPrime", "booster-pump", map[string]float64{"pressure": 250}, AlertCritical, "pressure", 300},
		{"PumpVibrationISOZone", "booster-pump", map[string]float64{"vibration": 7.5}, AlertCritical, "vibration", 7.1},
		{"RTUHeadPressure", "rooftop-hvac-unit", map[string]float64{"pressure": 2100}, AlertEmergency, "pressure", 2000},
		{"WelderOverload", "welding-power-source", map[string]float64{"current": 320}, AlertWarning, "current", 300},
		{"InverterEfficiency", "solar-inverter", map[string]float64{"efficiency": 89}, AlertCritical, "efficiency", 90},
		{"TurbineOverspeed", "wind-turbine-nacelle", map[string]float64{"rpm": 2050}, AlertEmergency, "rpm", 2000},
		{"ElevatorOverspeed", "elevator-drive", map[string]float64{"rpm": 1900}, AlertWarning, "rpm", 1850},
		{"HighestWins", "booster-pump", map[string]float64{"vibration": 5, "current": 90}, AlertEmergency, "current", 85},
		{"UnknownTypeNoRules", "forklift", map[string]float64{"temperature": 500}, AlertNormal, "", 0},
		{"MissingSensorIgnored", "chiller", map[string]float64{}, AlertNormal, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eq := twinOf(tt.typ, tt.readings)
			if got := SensorAlertLevel(eq); got != tt.level {
				t.Fatalf("level = %s, want %s", got, tt.level)
			}
			alerts := SensorAlerts(eq)
			SortAlerts(alerts)
			if tt.level == AlertNormal {
				if len(alerts) != 0 {
					t.Fatalf("alerts = %+v, want none", alerts)
				}
				return
			}
			a := alerts[0]
			if a.Sensor != tt.sensor || *a.Threshold != tt.threshold || *a.Reading != tt.readings[tt.sensor] || !a.Timestamp.Equal(now) || a.Source != "sensor" {
				t.Fatalf("top alert = %+v, want %s over %g", a, tt.sensor, tt.threshold)
			}
		})
	}
}

func TestStatusAlerts(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Equipment)
		id     string
		level  string
	}{
		{"Error", func(e *Equipment) { e.Status = StatusError }, "x:status", AlertCritical},
		{"Offline", func(e *Equipment) { e.Status = StatusOffline }, "x:status", AlertWarning},
		{"SyncErrors", func(e *Equipment) { e.SyncErrorCount = 4 }, "x:sync", AlertWarning},
		{"MaintenanceOverdue", func(e *Equipment) { e.NextMaintenanceDate = now.Add(-72 * time.Hour) }, "x:maintenance", AlertWarning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eq := twinOf("chiller", nil)
			eq.NextMaintenanceDate = now.Add(24 * time.Hour)
			tt.mutate(&eq)
			alerts := Alerts(eq, now)
			if len(alerts) != 1 || alerts[0].ID != tt.id || alerts[0].Level != tt.level {
				t.Fatalf("alerts = %+v, want one %s %s", alerts, tt.level, tt.id)
			}
		})
	}
	eq := twinOf("chiller", nil)
	eq.NextMaintenanceDate = now.Add(-72 * time.Hour)
	if a := Alerts(eq, now)[0]; *a.Reading != 3 || *a.Threshold != 0 {
		t.Errorf("overdue alert = %+v, want 3 days over 0", a)
	}
}

func TestParseSensorData(t *testing.T) {
	tests := []struct {
		name, body string
		values     int
		err        string
	}{
		{"AllSeven", `{"temperature":21.5,"pressure":101.3,"vibration":2.1,"current":12,"voltage":480,"rpm":1750,"efficiency":91,"timestamp":"2026-11-23T08:59:00Z"}`, 7, ""},
		{"ValueObjects", `{"temperature":{"value":20,"unit":"C"},"rpm":{"value":100,"unit":"rpm"}}`, 2, ""},
		{"NullSkipped", `{"temperature":20,"pressure":null}`, 1, ""},
		{"UnknownKey", `{"humidity":3}`, 0, "sensorData.humidity is not a known sensor"},
		{"String", `{"voltage":"480"}`, 0, "sensorData.voltage must be a number"},
		{"Bool", `{"voltage":true}`, 0, "sensorData.voltage must be a number"},
		{"Huge", `{"current":1e400}`, 0, "sensorData.current must be a finite number"},
		{"BelowRange", `{"temperature":-300}`, 0, "sensorData.temperature = -300 °C is outside the physical range -60 to 600 °C"},
		{"NegativeVibration", `{"vibration":-0.1}`, 0, "sensorData.vibration = -0.1"},
		{"WrongUnit", `{"pressure":{"value":14,"unit":"psi"}}`, 0, `sensorData.pressure.unit must be "kPa", not "psi"`},
		{"MissingValue", `{"pressure":{"unit":"kPa"}}`, 0, "sensorData.pressure.value is required"},
		{"ExtraKeyInObject", `{"pressure":{"value":1,"quality":"good"}}`, 0, "sensorData.pressure must be a number or"},
		{"OldTimestamp", `{"temperature":1,"timestamp":"2026-11-01T00:00:00Z"}`, 0, "more than 24h0m0s old"},
		{"TimestampNumber", `{"temperature":1,"timestamp":12}`, 0, "sensorData.timestamp must be an RFC 3339 string"},
		{"NoReadings", `{"timestamp":"2026-11-23T08:59:00Z"}`, 0, "holds no readings"},
		{"Array", `[1]`, 0, "sensorData must be an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := ParseSensorData(json.RawMessage(tt.body), now)
			if tt.err != "" {
				if apperr.Code(err) != apperr.EINVALID || !strings.Contains(apperr.Message(err), tt.err) {
					t.Fatalf("err = %v, want invalid with %q", err, tt.err)
				}
				return
			}
			if err != nil || len(u.Values) != tt.values {
				t.Fatalf("ParseSensorData = %+v, %v; want %d values", u, err, tt.values)
			}
		})
	}
}

func TestApply(t *testing.T) {
	tests := []struct {
		name, status string
		reading      float64 // chiller leaving-water temperature
		wantStatus   string
		wantLevel    string
	}{
		{"StaysOperational", StatusOperational, 7, StatusOperational, AlertNormal},
		{"EmergencyTrips", StatusOperational, 17, StatusError, AlertEmergency},
		{"ErrorClearsWhenNormal", StatusError, 7, StatusOperational, AlertNormal},
		{"OfflineComesBack", StatusOffline, 11, StatusOperational, AlertWarning},
		{"MaintenanceStays", StatusMaintenance, 14, StatusMaintenance, AlertCritical},
		{"EmergencyInMaintenanceTrips", StatusMaintenance, 20, StatusError, AlertEmergency},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			eq := twinOf("chiller", map[string]float64{"temperature": 7})
			eq.Status, eq.SyncStatus = tt.status, SyncDisconnected
			streams := map[string]*DataStream{}
			at := now.Add(time.Minute)
			Apply(&eq, streams, SensorUpdate{EquipmentID: "x", Values: []Value{{Key: "temperature", Value: tt.reading}}, Timestamp: at, ReceivedAt: at})
			if eq.Status != tt.wantStatus || eq.AlertLevel != tt.wantLevel || eq.SyncStatus != SyncSynced || !eq.LastUpdated.Equal(at) {
				t.Fatalf("twin = %s/%s/%s at %s, want %s/%s/synced", eq.Status, eq.AlertLevel, eq.SyncStatus, eq.LastUpdated, tt.wantStatus, tt.wantLevel)
			}
			if st := streams["temperature"]; st == nil || st.Value != tt.reading || st.PreviousValue != nil || len(st.History) != 1 {
				t.Fatalf("stream = %+v", st)
			}
		})
	}
}

func TestQuality(t *testing.T) {
	temp, _ := SensorByKey("temperature")
	eff, _ := SensorByKey("efficiency")
	tests := []struct {
		name     string
		s        Sensor
		v        float64
		lateness time.Duration
		want     string
	}{
		{"Good", temp, 20, 0, QualityGood},
		{"Stale", temp, 20, 10 * time.Minute, QualityUncertain},
		{"SaturatedHigh", eff, 100, 0, QualityBad},
		{"PinnedLow", temp, -60, 0, QualityBad},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Quality(tt.s, tt.v, now.Add(-tt.lateness), now); got != tt.want {
				t.Fatalf("Quality = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestSeed(t *testing.T) {
	list := SeedEquipment()
	if len(list) < 8 {
		t.Fatalf("%d twins, want at least 8", len(list))
	}
	protocols := map[string]bool{}
	ids := map[string]bool{}
	for _, eq := range list {
		if err := eq.Validate(); err != nil {
			t.Error(err)
		}
		if ids[eq.ID] {
			t.Errorf("duplicate id %s", eq.ID)
		}
		ids[eq.ID] = true
		protocols[eq.CommunicationProtocol] = true
		if eq.ProtocolVersion == "" || len(eq.ConnectionParameters) == 0 || len(eq.MaintenanceSchedule.Tasks) == 0 || eq.OperatingHours <= 0 || len(eq.SensorData) != 7 {
			t.Errorf("%s is missing protocol, maintenance, hours or readings", eq.ID)
		}
		hasRule := false
		for _, r := range Rules {
			hasRule = hasRule || r.Type == eq.Type
		}
		if !hasRule {
			t.Errorf("%s: no alert rules for type %s", eq.ID, eq.Type)
		}
	}
	for _, p := range Protocols {
		if !protocols[p] {
			t.Errorf("no twin speaks %s", p)
		}
	}
}

func TestRulesOrdered(t *testing.T) {
	for _, r := range Rules {
		ok := r.Warning < r.Critical && r.Critical < r.Emergency
		if r.Comparison == "below" {
			ok = r.Warning > r.Critical && r.Critical > r.Emergency
		}
		if _, known := SensorByKey(r.Sensor); !ok || !known || (r.Comparison != "above" && r.Comparison != "below") {
			t.Errorf("rule %+v: thresholds out of order or unknown sensor", r)
		}
	}
}

func TestSensorDataJSONOrder(t *testing.T) {
	d := SensorData{"rpm": {1, "rpm"}, "zeta": {2, "x"}, "temperature": {3, "°C"}, "current": {4, "A"}}
	b, _ := json.Marshal(d)
	want := `{"temperature":{"value":3,"unit":"°C"},"current":{"value":4,"unit":"A"},"rpm":{"value":1,"unit":"rpm"},"zeta":{"value":2,"unit":"x"}}`
	if string(b) != want {
		t.Fatalf("JSON = %s, want %s", b, want)
	}
}

// TestIngesterGroupsCommits checks that updates arriving while a
// transaction runs are committed together, each with its own outcome.
func TestIngesterGroupsCommits(t *testing.T) {
	var mu sync.Mutex
	var batches []int
	release := make(chan struct{})
	first := true
	in := NewIngester(func(ctx context.Context, updates []SensorUpdate) ([]Outcome, error) {
		mu.Lock()
		batches = append(batches, len(updates))
		wait := first
		first = false
		mu.Unlock()
		if wait {
			<-release // hold the first transaction open while others queue
		}
		out := make([]Outcome, len(updates))
		for i, u := range updates {
			out[i].Equipment = Equipment{ID: u.EquipmentID}
			if u.EquipmentID == "bad" {
				out[i].Err = ErrUnknownEquipment("bad")
			}
		}
		return out, nil
	})
	var wg sync.WaitGroup
	results := make(chan error, 11)
	submit := func(id string) {
		defer wg.Done()
		eq, err := in.Submit(context.Background(), SensorUpdate{EquipmentID: id})
		if err == nil && eq.ID != id {
			t.Errorf("outcome for %s went to %s", id, eq.ID)
		}
		results <- err
	}
	wg.Add(1)
	go submit("a")
	for {
		mu.Lock()
		started := len(batches) == 1
		mu.Unlock()
		if started {
			break
		}
		time.Sleep(time.Millisecond)
	}
	for i := range 10 {
		wg.Add(1)
		id := "b"
		if i == 3 {
			id = "bad"
		}
		go submit(id)
	}
	for {
		in.mu.Lock()
		queued := len(in.pending)
		in.mu.Unlock()
		if queued == 10 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	close(release)
	wg.Wait()
	close(results)
	failed := 0
	for err := range results {
		if err != nil {
			failed++
		}
	}
	if len(batches) != 2 || batches[0] != 1 || batches[1] != 10 || failed != 1 {
		t.Fatalf("batches = %v, failed = %d; want [1 10] and 1 failure", batches, failed)
	}
}

// TestWatched: anyone watching a twin on a real device learns that it is on
// one and how it is read, never where the device is or as whom.
func TestWatched(t *testing.T) {
	eq := SeedEquipment()[0]
	eq.Connection = &Connection{Address: "opc.tcp://10.20.2.7:4840", Username: "gateway", Password: "secret", Topic: "plant/ahu3",
		IntervalMs: 500, TimeoutMs: 2000, Points: []Point{{Sensor: "temperature", NodeID: "ns=2;s=SupplyTemp"}}}
	eq.ConnectionParameters = map[string]any{"device": "connected", "intervalMs": 500, "timeoutMs": 2000, "points": 1,
		"endpointUrl": "opc.tcp://10.20.2.7:4840", "securityPolicy": "Basic256Sha256"}
	public := eq.Public()
	if !public.RealDevice || public.Connection == nil || public.Connection.Address == "" || public.Connection.Password != "" {
		t.Fatalf("public = %+v", public.Connection)
	}
	watched := public.Watched()
	b, err := json.Marshal(watched)
	if err != nil {
		t.Fatal(err)
	}
	for _, hidden := range []string{"10.20.2.7", "gateway", "secret", "plant/ahu3", "SupplyTemp", "Basic256Sha256"} {
		if strings.Contains(string(b), hidden) {
			t.Errorf("watched twin shows %q: %s", hidden, b)
		}
	}
	want := map[string]any{"device": "connected", "intervalMs": 500, "timeoutMs": 2000, "points": 1}
	if !watched.RealDevice || watched.Connection != nil || !reflect.DeepEqual(watched.ConnectionParameters, want) {
		t.Fatalf("watched: realDevice %v, connection %+v, parameters %v", watched.RealDevice, watched.Connection, watched.ConnectionParameters)
	}
	// A twin on its demo device hides nothing: its parameters are the demo device's.
	demo := SeedEquipment()[0].Public()
	if w := demo.Watched(); w.RealDevice || !reflect.DeepEqual(w.ConnectionParameters, demo.ConnectionParameters) {
		t.Fatalf("demo twin watched = %+v", w)
	}
}
