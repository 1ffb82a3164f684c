package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"journeyman/internal/identity"
	"journeyman/internal/realtime"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/twin"
)

// twinServer is a started server on st with the seed fleet.
func twinServer(t *testing.T, st *store.Store) (*Server, *httptest.Server) {
	t.Helper()
	if err := st.SeedEquipment(context.Background(), twin.SeedEquipment()); err != nil {
		t.Fatal(err)
	}
	s := MustOpenXRServer(t, st)
	return s, serveHTTP(t, s)
}

// watchTwins subscribes c to the twins' equipment_update messages.
func watchTwins(t *testing.T, c *websocket.Conn) {
	t.Helper()
	wsSend(t, c, map[string]any{"type": "watch_equipment"})
	wsRead(t, c, realtime.TypeWatchingEquipment)
}

func equipmentUpdateOf(t *testing.T, m realtime.Message) EquipmentUpdate {
	t.Helper()
	var u EquipmentUpdate
	if err := json.Unmarshal(m.Payload, &u); err != nil {
		t.Fatalf("equipment_update payload %s: %v", m.Payload, err)
	}
	return u
}

// TestEquipmentLive: a reading stored through the sensor-data call reaches
// the clients that watch the twins, with the twin's alerts, and no other.
func TestEquipmentLive(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s, srv := twinServer(t, st)
		mustAccount(t, s, "Lea", "", identity.Learner)
		mustAccount(t, s, "Bo", "", identity.Learner)
		mustAccount(t, s, "Ines", "Plant School", identity.Instructor)
		watcher, other := mustDial(t, srv, "Lea"), mustDial(t, srv, "Bo")
		waitConns(t, s, 2)
		watchTwins(t, watcher)

		checkError(t, call(t, s, "Ines", "POST", "/api/digital-twin/equipment/bp-2/sensor-data", `{"sensorData":{"vibration":9.5}}`), 200, "")
		u := equipmentUpdateOf(t, wsNext(t, watcher, realtime.TypeEquipmentUpdate))
		if u.Equipment.ID != "bp-2" || u.Equipment.SensorData["vibration"].Value != 9.5 {
			t.Fatalf("watcher heard %s with %+v", u.Equipment.ID, u.Equipment.SensorData)
		}
		var vibration bool
		for _, a := range u.Alerts {
			if a.EquipmentID != "bp-2" {
				t.Fatalf("bp-2's update carries an alert of %s", a.EquipmentID)
			}
			vibration = vibration || a.Sensor == "vibration"
		}
		if !vibration {
			t.Fatalf("no vibration alert in %+v", u.Alerts)
		}

		// Bo did not ask: the next thing he hears is an alert raised after the update.
		wsSend(t, watcher, map[string]any{"type": "safety_alert", "payload": map[string]string{"alertType": "equipment", "description": "Pump shaking"}})
		if m := wsRead(t, other, realtime.TypeSafetyAlert); alertOf(t, m).Description != "Pump shaking" {
			t.Fatalf("Bo heard %s", m.Payload)
		}
	})
}

// TestEquipmentLiveTwoProcesses: a reading stored by one process reaches
// the other's watchers and its running device.
func TestEquipmentLiveTwoProcesses(t *testing.T) {
	dsn := storetest.PostgresURL(t)
	open := func() (*Server, *httptest.Server) {
		st, err := store.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return twinServer(t, st)
	}
	s1, _ := open()
	s2, srv2 := open()
	mustAccount(t, s1, "Ines", "Plant School", identity.Instructor)
	mustAccount(t, s2, "Lea", "", identity.Learner)
	mustAccount(t, s2, "Ian", "Plant School", identity.Instructor)
	watcher := mustDial(t, srv2, "Lea")
	waitConns(t, s2, 1)
	watchTwins(t, watcher)
	deviceTemperature := func() float64 {
		res := call(t, s2, "Ian", "POST", "/api/digital-twin/equipment/chlr-1/simulate-communication", `{"protocol":"Modbus TCP","data":{"registerCount":2}}`)
		checkError(t, res, 200, "")
		x := decode[struct{ Result []struct{ Value float64 } }](t, res)
		if len(x.Result) == 0 {
			t.Fatalf("exchange result: %s", res.body)
		}
		return x.Result[0].Value
	}
	deviceTemperature() // process 2 starts chlr-1's device

	checkError(t, call(t, s1, "Ines", "POST", "/api/digital-twin/equipment/chlr-1/sensor-data", `{"sensorData":{"temperature":11.25}}`), 200, "")
	if u := equipmentUpdateOf(t, wsNext(t, watcher, realtime.TypeEquipmentUpdate)); u.Equipment.ID != "chlr-1" || u.Equipment.SensorData["temperature"].Value != 11.25 {
		t.Fatalf("process 2's watcher heard %s with %+v", u.Equipment.ID, u.Equipment.SensorData)
	}
	// The watcher heard it after process 2 moved its device.
	if got := deviceTemperature(); got != 11.25 {
		t.Fatalf("process 2's device serves temperature %v, want 11.25", got)
	}
}

// TestTwinDeviceWhereabouts: the address, login and point map of a twin's
// real device reach only the staff of the organisation that manages it;
// anyone else, and every watcher of equipment_update, learns only that it
// is on a real device.
func TestTwinDeviceWhereabouts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s, srv := twinServer(t, st)
		mustAccount(t, s, "Ines", "Plant School", identity.Instructor)
		mustAccount(t, s, "Olga", "Other School", identity.Admin)
		mustAccount(t, s, "Lea", "Plant School", identity.Learner)
		body := strings.Replace(strings.Replace(pumpBody, `"Modbus TCP"`, `"OPC-UA"`, 1), `"connection": null`,
			`"connection": {"address": "opc.tcp://plc.plant:4840", "securityPolicy": "Basic256Sha256", "username": "gateway-op",
			"password": "s3cret", "points": [{"sensor": "pressure", "nodeId": "ns=2;s=DischargePressure"}]}`, 1)
		created := call(t, s, "Ines", "POST", "/api/digital-twin/equipment", body)
		if created.status != 201 || !strings.Contains(created.body, "plc.plant:4840") {
			t.Fatalf("POST = %d %.300s; want 201 with the device's address, to its own staff", created.status, created.body)
		}
		id := decode[twin.Equipment](t, created).ID
		hidden := []string{"plc.plant", "gateway-op", "s3cret", "DischargePressure", "Basic256Sha256"}
		shows := func(t *testing.T, what, body string) {
			t.Helper()
			for _, h := range hidden {
				if strings.Contains(body, h) {
					t.Errorf("%s shows %q: %.400s", what, h, body)
				}
			}
		}

		for _, tt := range []struct {
			who  string
			full bool
		}{{"Ines", true}, {"Olga", false}, {"Lea", false}, {"", false}} {
			res := call(t, s, tt.who, "GET", "/api/digital-twin/equipment", "")
			checkError(t, res, 200, "")
			var got *twin.Equipment
			for _, eq := range decode[[]twin.Equipment](t, res) {
				if eq.ID == id {
					got = &eq
				}
			}
			switch {
			case got == nil || !got.RealDevice:
				t.Fatalf("%q: twin %s missing or not on a real device: %+v", tt.who, id, got)
			case tt.full && (got.Connection == nil || got.Connection.Address != "opc.tcp://plc.plant:4840" || got.Connection.Username != "gateway-op"):
				t.Fatalf("its own staff see connection %+v", got.Connection)
			case !tt.full:
				shows(t, fmt.Sprintf("the list to %q", tt.who), res.body)
			}
		}

		// Any watcher hears of a change as anyone may watch it, whoever made it.
		watcher := mustDial(t, srv, "Lea")
		waitConns(t, s, 1)
		watchTwins(t, watcher)
		checkError(t, call(t, s, "Ines", "PUT", "/api/digital-twin/equipment/"+id, strings.Replace(body, "Booster Pump P-7", "Booster Pump P-7B", 1)), 200, "")
		m := wsReadUntil(t, watcher, realtime.TypeEquipmentUpdate, func(m realtime.Message) bool { return equipmentUpdateOf(t, m).Equipment.ID == id })
		if u := equipmentUpdateOf(t, m); !u.Equipment.RealDevice || u.Equipment.Name != "Booster Pump P-7B" {
			t.Fatalf("equipment_update = %+v", u.Equipment)
		}
		shows(t, "equipment_update", string(m.Payload))
	})
}
