package server

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"journeyman/internal/fieldbus"
	"journeyman/internal/identity"
	"journeyman/internal/store/storetest"
	"journeyman/internal/telemetry"
	"journeyman/internal/twin"
)

// mustTwinServer returns a server on a new SQLite store holding the seed
// fleet, with an embedded MQTT broker behind its devices.
func mustTwinServer(tb testing.TB) *Server {
	tb.Helper()
	st := storetest.OpenSQLite(tb)
	if err := st.SeedEquipment(context.Background(), twin.SeedEquipment()); err != nil {
		tb.Fatal(err)
	}
	secret, err := st.MQTTDeviceSecret(context.Background())
	if err != nil {
		tb.Fatal(err)
	}
	broker, err := telemetry.StartBroker("127.0.0.1:0", telemetry.BrokerAuth{DeviceSecret: secret, EquipmentIDs: st.EquipmentIDs}, slog.New(slog.DiscardHandler))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { broker.Close() })
	fleet := fieldbus.NewFleet(broker.Addr())
	fleet.BrokerUser, fleet.BrokerPassword = broker.Credential().Username, broker.Credential().Password
	tb.Cleanup(func() { fleet.Close() })
	s, err := New(st, Config{Logger: slog.New(slog.DiscardHandler), App: testApp, Fleet: fleet,
		MQTT: MQTTBroker{URL: "tcp://" + broker.Addr()}})
	if err != nil {
		tb.Fatal(err)
	}
	mustAccount(tb, s, twinInstructor, "Plant School", identity.Instructor)
	return s
}

// twinInstructor drives the twins in these tests: twin writes need an
// instructor or admin.
const twinInstructor = "Ines"

func doJSON(tb testing.TB, s *Server, method, path, body string, dst any) response {
	tb.Helper()
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res := do(tb, s, as(tb, s, req, twinInstructor))
	if dst != nil && res.status == 200 {
		if err := json.Unmarshal([]byte(res.body), dst); err != nil {
			tb.Fatalf("decode %s: %v", res.body, err)
		}
	}
	return res
}

func TestEquipmentList(t *testing.T) {
	s := mustTwinServer(t)
	for _, path := range []string{"/api/digital-twin/equipment", "/api/digital-twin-equipment"} {
		t.Run(path, func(t *testing.T) {
			var list []map[string]any
			res := doJSON(t, s, "GET", path, "", &list)
			if res.status != 200 || len(list) != len(twin.SeedEquipment()) {
				t.Fatalf("GET %s = %d with %d twins", path, res.status, len(list))
			}
			for _, field := range []string{"id", "name", "manufacturer", "model", "serialNumber", "type", "status", "alertLevel",
				"communicationProtocol", "protocolVersion", "connectionParameters", "syncStatus", "syncErrorCount", "operatingHours",
				"sensorData", "lastUpdated", "lastMaintenance", "nextMaintenanceDate", "maintenanceSchedule", "supportedTradeTypes"} {
				if _, ok := list[0][field]; !ok {
					t.Errorf("equipment lacks %s", field)
				}
			}
			// Canonical sensor order: a card shows the first four.
			if !strings.Contains(res.body, `"sensorData":{"temperature":{"value":34.5,"unit":"°C"},"pressure":`) {
				t.Errorf("sensorData not in canonical order: %.300s", res.body)
			}
		})
	}
}

func TestEquipmentAlerts(t *testing.T) {
	s := mustTwinServer(t)
	var alerts []twin.Alert
	res := doJSON(t, s, "GET", "/api/digital-twin/equipment-alerts", "", &alerts)
	if res.status != 200 {
		t.Fatalf("status %d: %s", res.status, res.body)
	}
	want := map[string]string{"bp-2:vibration:above": "warning", "elev-2:status": "warning", "elev-2:sync": "warning"}
	for _, a := range alerts {
		if lvl, ok := want[a.ID]; ok {
			if a.Level != lvl {
				t.Errorf("%s level = %s, want %s", a.ID, a.Level, lvl)
			}
			delete(want, a.ID)
		}
	}
	if len(want) != 0 {
		t.Errorf("missing alerts %v in %+v", want, alerts)
	}
	// A reading past the emergency threshold goes to the top.
	doJSON(t, s, "POST", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"temperature":17}}`, nil)
	doJSON(t, s, "GET", "/api/digital-twin/equipment-alerts", "", &alerts)
	if a := alerts[0]; a.ID != "chlr-1:temperature:above" || a.Level != "emergency" || *a.Reading != 17 || *a.Threshold != 16 || a.Timestamp.IsZero() {
		t.Fatalf("first alert = %+v, want the chiller's emergency with reading 17 over 16", a)
	}
}

func TestSensorData(t *testing.T) {
	tests := []struct {
		name, equipment, body string
		status, alertLevel    string
		streamValue           float64
	}{
		{"Normal", "chlr-1", `{"sensorData":{"temperature":6.9,"pressure":650,"vibration":2.2,"current":215,"voltage":460,"rpm":3560,"efficiency":90.1,"timestamp":"2026-03-02T09:29:00Z"}}`, "operational", "normal", 6.9},
		{"WithUnits", "chlr-1", `{"sensorData":{"temperature":{"value":11.2,"unit":"°C"},"pressure":{"value":700,"unit":"kPa"}}}`, "operational", "warning", 11.2},
		{"CriticalKeepsMaintenance", "rtu-3", `{"sensorData":{"temperature":26}}`, "maintenance", "critical", 26},
		{"EmergencyTrips", "bp-2", `{"sensorData":{"temperature":40,"vibration":12}}`, "error", "emergency", 40},
		{"OfflineBackOnline", "elev-2", `{"sensorData":{"temperature":45,"vibration":1.2}}`, "operational", "normal", 45},
	}
	s := mustTwinServer(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out EquipmentUpdate
			res := doJSON(t, s, "POST", "/api/digital-twin/equipment/"+tt.equipment+"/sensor-data", tt.body, &out)
			if res.status != 200 {
				t.Fatalf("status %d: %s", res.status, res.body)
			}
			if out.Equipment.Status != tt.status || out.Equipment.AlertLevel != tt.alertLevel || out.Equipment.SyncStatus != "synced" {
				t.Errorf("twin = %s/%s/%s, want %s/%s/synced", out.Equipment.Status, out.Equipment.AlertLevel, out.Equipment.SyncStatus, tt.status, tt.alertLevel)
			}
			var list []twin.Equipment
			doJSON(t, s, "GET", "/api/digital-twin/equipment", "", &list)
			for _, eq := range list {
				if eq.ID == tt.equipment && (eq.Status != tt.status || eq.SensorData["temperature"].Value != tt.streamValue) {
					t.Errorf("stored twin = %s %v", eq.Status, eq.SensorData)
				}
			}
			var streams []twin.DataStream
			doJSON(t, s, "GET", "/api/digital-twin/equipment/"+tt.equipment+"/data-streams", "", &streams)
			if len(streams) == 0 || streams[0].Sensor != "temperature" || streams[0].Value != tt.streamValue || streams[0].PreviousValue == nil ||
				streams[0].QualityIndicator != "good" || streams[0].History[len(streams[0].History)-1].Value != tt.streamValue {
				t.Errorf("temperature stream = %+v", streams)
			}
		})
	}
}

func TestSensorDataErrors(t *testing.T) {
	s := mustTwinServer(t)
	tests := []struct {
		name, path, body string
		status           int
		message          string
	}{
		{"UnknownEquipment", "/api/digital-twin/equipment/nope/sensor-data", `{"sensorData":{"temperature":1}}`, 404, `equipment "nope" does not exist`},
		{"MissingSensorData", "/api/digital-twin/equipment/chlr-1/sensor-data", `{}`, 400, "sensorData is required"},
		{"UnknownTopLevel", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"temperature":1},"x":1}`, 400, `unknown field "x"`},
		{"UnknownSensor", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"humidity":40}}`, 400, "sensorData.humidity is not a known sensor"},
		{"NotANumber", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"pressure":"NaN"}}`, 400, "sensorData.pressure must be a number"},
		{"NaNLiteral", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"pressure":NaN}}`, 400, "malformed JSON"},
		{"OutOfRange", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"rpm":-5}}`, 400, "sensorData.rpm = -5 rpm is outside the physical range 0 to 100000 rpm"},
		{"Efficiency", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"efficiency":140}}`, 400, "sensorData.efficiency = 140"},
		{"WrongUnit", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"temperature":{"value":70,"unit":"°F"}}}`, 400, `sensorData.temperature.unit must be "°C", not "°F"`},
		{"BadTimestamp", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"temperature":7,"timestamp":"yesterday"}}`, 400, "sensorData.timestamp \"yesterday\" is not an RFC 3339 time"},
		{"FutureTimestamp", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"temperature":7,"timestamp":"2030-01-01T00:00:00Z"}}`, 400, "in the future"},
		{"Empty", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{}}`, 400, "holds no readings"},
		{"NotObject", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":[1,2]}`, 400, "sensorData must be an object"},
		{"StreamsUnknown", "/api/digital-twin/equipment/nope/data-streams", "", 404, `equipment "nope" does not exist`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			method := "POST"
			if tt.body == "" {
				method = "GET"
			}
			res := doJSON(t, s, method, tt.path, tt.body, nil)
			if res.status != tt.status || !strings.Contains(message(t, res.body), tt.message) {
				t.Fatalf("got %d %s, want %d with %q", res.status, res.body, tt.status, tt.message)
			}
		})
	}
}

// TestSensorDataConcurrent sends readings from many clients at once: group
// commit must give each its own outcome and lose none.
func TestSensorDataConcurrent(t *testing.T) {
	s := mustTwinServer(t)
	const n = 60
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := doJSON(t, s, "POST", "/api/digital-twin/equipment/xfmr-t1/sensor-data", fmt.Sprintf(`{"sensorData":{"current":%d}}`, 300+i), nil)
			if res.status != 200 {
				errs <- res.body
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	var streams []twin.DataStream
	doJSON(t, s, "GET", "/api/digital-twin/equipment/xfmr-t1/data-streams", "", &streams)
	for _, st := range streams {
		if st.Sensor == "current" && len(st.History) != n+1 {
			t.Fatalf("current stream has %d points, want %d", len(st.History), n+1)
		}
	}
}

// TestDeviceFollowsSensorData: a reading stored through the sensor-data
// call reaches the twin's running device, and the equipment list names the
// device's real address.
func TestDeviceFollowsSensorData(t *testing.T) {
	s := mustTwinServer(t)
	read := func() (device string, temperature float64) {
		t.Helper()
		var x struct {
			Device string
			Result []struct{ Value float64 }
		}
		res := doJSON(t, s, "POST", "/api/digital-twin/equipment/chlr-1/simulate-communication", `{"protocol":"Modbus TCP","data":{"registerCount":2}}`, &x)
		if res.status != 200 {
			t.Fatalf("exchange: %d %s", res.status, res.body)
		}
		return x.Device, x.Result[0].Value
	}
	device, _ := read() // starts the device
	if res := doJSON(t, s, "POST", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"temperature":12.5}}`, nil); res.status != 200 {
		t.Fatalf("sensor-data: %d %s", res.status, res.body)
	}
	if _, got := read(); got != 12.5 {
		t.Fatalf("device serves temperature %v, want 12.5", got)
	}
	var list []twin.Equipment
	doJSON(t, s, "GET", "/api/digital-twin/equipment", "", &list)
	for _, eq := range list {
		if eq.ID != "chlr-1" {
			continue
		}
		if got := fmt.Sprintf("%v:%v", eq.ConnectionParameters["host"], eq.ConnectionParameters["port"]); got != device {
			t.Fatalf("connectionParameters name %s, the device answered from %s", got, device)
		}
		return
	}
	t.Fatal("no chlr-1 in the list")
}

func TestSimulateCommunication(t *testing.T) {
	s := mustTwinServer(t)
	tests := []struct {
		name, equipment, body string
		status                int
		has                   string
	}{
		{"Modbus", "chlr-1", `{"protocol":"Modbus TCP","data":{"functionCode":3,"startAddress":0,"registerCount":2}}`, 200, `"summary":"Read Holding Registers: 2 from address 0"`},
		{"ModbusDefaults", "pnl-lp2a", `{"protocol":"modbus"}`, 200, `"summary":"Read Holding Registers: 14 from address 0"`},
		{"MQTTTestTopic", "rtu-3", `{"protocol":"MQTT","data":{"qos":0}}`, 200, `"topic":"journeyman/equipment/rtu-3/test"`},
		{"ErrMQTTTelemetryTopic", "rtu-3", `{"protocol":"MQTT","data":{"topic":"journeyman/equipment/rtu-3/telemetry"}}`, 400,
			`data.topic \"journeyman/equipment/rtu-3/telemetry\" is not allowed: Test Protocol publishes only to the twin's test topic \"journeyman/equipment/rtu-3/test\"`},
		{"EtherNetIP", "weld-cell-4", `{"protocol":"EtherNet/IP","data":{"assembly":101}}`, 200, `"generalStatus":"0x00 Success"`},
		{"ErrNoProtocol", "chlr-1", `{"data":{}}`, 400, "protocol is required"},
		{"ErrRange", "chlr-1", `{"protocol":"Modbus TCP","data":{"functionCode":3,"registerCount":200}}`, 400, "data.registerCount 200 must be 1 to 125"},
		{"ErrWrongProtocol", "chlr-1", `{"protocol":"MQTT"}`, 400, "speaks Modbus TCP, not MQTT"},
		{"ErrUnknownEquipment", "nope", `{"protocol":"MQTT"}`, 404, `does not exist`},
		{"ErrDataType", "chlr-1", `{"protocol":"Modbus TCP","data":[1]}`, 400, "data must be an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := doJSON(t, s, "POST", "/api/digital-twin/equipment/"+tt.equipment+"/simulate-communication", tt.body, nil)
			if res.status != tt.status || !strings.Contains(res.body, tt.has) {
				t.Fatalf("got %d %.600s, want %d with %s", res.status, res.body, tt.status, tt.has)
			}
		})
	}
}

// TestSimulateCommunicationHidesBrokerLogin: the MQTT exchange shows every
// frame, CONNECT included, but never the server's own broker password.
func TestSimulateCommunicationHidesBrokerLogin(t *testing.T) {
	s := mustTwinServer(t)
	var x struct {
		Frames []struct{ Summary, Hex string }
	}
	res := doJSON(t, s, "POST", "/api/digital-twin/equipment/rtu-3/simulate-communication", `{"protocol":"MQTT"}`, &x)
	if res.status != 200 || len(x.Frames) == 0 || x.Frames[0].Summary != "CONNECT" {
		t.Fatalf("got %d %.300s", res.status, res.body)
	}
	password := s.fleet.BrokerPassword
	if strings.Contains(res.body, password) || strings.Contains(res.body, hex.EncodeToString([]byte(password))) {
		t.Fatal("the exchange shows the broker password")
	}
	if stars := hex.EncodeToString([]byte(strings.Repeat("*", len(password)))); !strings.Contains(x.Frames[0].Hex, stars) {
		t.Fatalf("CONNECT %s does not star the password out", x.Frames[0].Hex)
	}
}

func TestMQTTCredentials(t *testing.T) {
	s := mustTwinServer(t)
	secret, err := s.store.MQTTDeviceSecret(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	mustAccount(t, s, "Lee", "Plant School", identity.Learner)
	// A twin of Ines's organisation: only its staff may hand out its login.
	own := mustOwnedTwin(t, s, mustOrg(t, s, "Plant School"), "Booster Pump P-7")
	// Servers on the same database, whose sessions and twins they share.
	other := func(mqtt MQTTBroker) *Server {
		o, err := New(s.store, Config{Logger: slog.New(slog.DiscardHandler), App: testApp, MQTT: mqtt})
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	external := other(MQTTBroker{URL: "tcp://broker.plant:1883", External: true})
	none := other(MQTTBroker{})

	tests := []struct {
		name   string
		s      *Server
		caller string
		path   string
		status int
		has    string
	}{
		{"OK", s, twinInstructor, "/api/equipment/" + own + "/mqtt-credentials", 200, `"username":"` + own + `"`},
		{"ErrUnknownEquipment", s, twinInstructor, "/api/equipment/nope/mqtt-credentials", 404, "does not exist"},
		{"ErrBadID", s, twinInstructor, "/api/equipment/a%20b/mqtt-credentials", 404, "does not exist"},
		{"ErrLearner", s, "Lee", "/api/equipment/" + own + "/mqtt-credentials", 403, "instructor"},
		{"ErrAnonymous", s, "", "/api/equipment/" + own + "/mqtt-credentials", 401, ""},
		{"ErrExternalBroker", external, twinInstructor, "/api/equipment/" + own + "/mqtt-credentials", 409, "managed by the external broker at tcp://broker.plant:1883"},
		{"ErrExternalUnknownEquipment", external, twinInstructor, "/api/equipment/nope/mqtt-credentials", 404, "does not exist"},
		{"ErrNoBroker", none, twinInstructor, "/api/equipment/" + own + "/mqtt-credentials", 409, "runs no MQTT broker"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, tt.s, as(t, tt.s, httptest.NewRequest("GET", tt.path, nil), tt.caller))
			if res.status != tt.status || !strings.Contains(res.body, tt.has) {
				t.Fatalf("got %d %.300s; want %d with %s", res.status, res.body, tt.status, tt.has)
			}
		})
	}

	t.Run("LogsIn", func(t *testing.T) {
		var c telemetry.DeviceCredentials
		if res := doJSON(t, s, "GET", "/api/equipment/"+own+"/mqtt-credentials", "", &c); res.status != 200 {
			t.Fatalf("got %d %s", res.status, res.body)
		}
		want := telemetry.DeviceCredentials{Broker: s.mqtt.URL, Username: own, Password: telemetry.DevicePassword(secret, own),
			PublishTopic: "journeyman/equipment/" + own + "/telemetry", SubscribeTopic: "journeyman/equipment/" + own + "/test"}
		if c != want {
			t.Fatalf("credentials = %+v; want %+v", c, want)
		}
		// The answer is what a device needs: it logs in and publishes.
		client := paho.NewClient(paho.NewClientOptions().AddBroker(c.Broker).SetUsername(c.Username).SetPassword(c.Password).
			SetClientID("server-test-" + own).SetAutoReconnect(false))
		if tok := client.Connect(); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("connect with the answered login: %v", tok.Error())
		}
		defer client.Disconnect(50)
		if tok := client.Publish(c.PublishTopic, 1, false, `{"rpm":1200}`); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Fatalf("publish: %v", tok.Error())
		}
	})
}
