package server

import (
	"encoding/json"
	"strings"
	"testing"

	"journeyman/internal/twin"
)

const pumpBody = `{"name": "Booster Pump P-7", "manufacturer": "Grundfos", "model": "CR 32-2", "serialNumber": "GF-1",
	"type": "booster-pump", "supportedTradeTypes": ["plumbing"], "communicationProtocol": "Modbus TCP",
	"maintenanceSchedule": {"intervalDays": 90, "tasks": [{"task": "Check seal", "frequency": "quarterly", "trade": "plumbing"}]},
	"connection": null, "writableSensors": []}`

func TestDefineEquipmentAPI(t *testing.T) {
	s := mustTwinServer(t)
	var created twin.Equipment
	t.Run("CreateWithDemoDevice", func(t *testing.T) {
		res := doJSON(t, s, "POST", "/api/digital-twin/equipment", pumpBody, nil)
		if res.status != 201 {
			t.Fatalf("POST = %d %s", res.status, res.body)
		}
		if err := json.Unmarshal([]byte(res.body), &created); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(created.ID, "booster-pump-p-7-") || created.Connection != nil || created.Status != twin.StatusOperational {
			t.Fatalf("created = %+v", created)
		}
		// Its demo device runs: Test Protocol reads it at once.
		var x map[string]any
		if res := doJSON(t, s, "POST", "/api/digital-twin/equipment/"+created.ID+"/simulate-communication", `{"protocol":"Modbus TCP"}`, &x); res.status != 200 {
			t.Fatalf("exchange with the new twin's device = %d %s", res.status, res.body)
		}
		if host := created.ConnectionParameters["host"]; host != "127.0.0.1" {
			t.Fatalf("connectionParameters = %v, want the demo device's address", created.ConnectionParameters)
		}
	})
	t.Run("ConnectHidesPassword", func(t *testing.T) {
		body := strings.Replace(pumpBody, `"connection": null`, `"connection": {"address": "10.1.1.7:502", "unitId": 3,
			"points": [{"sensor": "pressure", "register": 4, "dataType": "uint16", "scale": 0.1}]}`, 1)
		var eq twin.Equipment
		if res := doJSON(t, s, "PUT", "/api/digital-twin/equipment/"+created.ID, body, &eq); res.status != 200 {
			t.Fatalf("PUT = %d %s", res.status, res.body)
		}
		if eq.Connection == nil || eq.Connection.UnitID != 3 || eq.Connection.Points[0].RegisterType != "holding" ||
			eq.SyncStatus != twin.SyncSyncing || eq.ConnectionParameters["host"] != "10.1.1.7" || eq.ConnectionParameters["device"] != "connected" {
			t.Fatalf("connected = %+v", eq)
		}
		res := doJSON(t, s, "POST", "/api/digital-twin/equipment/"+created.ID+"/simulate-communication", `{"protocol":"Modbus TCP"}`, nil)
		if res.status != 409 || !strings.Contains(res.body, "10.1.1.7:502") {
			t.Fatalf("Test Protocol of a connected twin = %d %s, want 409 naming the device", res.status, res.body)
		}

		opc := strings.Replace(pumpBody, `"Modbus TCP"`, `"OPC-UA"`, 1)
		opc = strings.Replace(opc, `"connection": null`, `"connection": {"address": "opc.tcp://plc:4840", "securityPolicy": "Basic256Sha256",
			"username": "op", "password": "s3cret", "points": [{"sensor": "pressure", "nodeId": "ns=2;s=P"}]}`, 1)
		res = doJSON(t, s, "PUT", "/api/digital-twin/equipment/"+created.ID, opc, nil)
		if res.status != 200 || strings.Contains(res.body, "s3cret") || !strings.Contains(res.body, `"hasPassword":true`) {
			t.Fatalf("PUT with a password = %d %s", res.status, res.body)
		}
		list := doJSON(t, s, "GET", "/api/digital-twin/equipment", "", nil)
		if strings.Contains(list.body, "s3cret") || !strings.Contains(list.body, created.ID) {
			t.Fatal("the list shows a connection password, or misses the twin")
		}
		stored, err := s.store.GetEquipment(t.Context(), created.ID)
		if err != nil || stored.Connection.Password != "s3cret" {
			t.Fatalf("stored password = %v %v", stored.Connection, err)
		}
	})
	t.Run("ErrValidationNamesTheField", func(t *testing.T) {
		tests := []struct{ name, from, to, field string }{
			{"NoName", `"name": "Booster Pump P-7"`, `"name": " "`, "name is required"},
			{"UnknownTrade", `["plumbing"]`, `["astrology"]`, "supportedTradeTypes[0]"},
			{"BadProtocol", `"Modbus TCP"`, `"Profibus"`, "communicationProtocol"},
			{"BadFrequency", `"quarterly"`, `"hourly"`, "maintenanceSchedule.tasks[0].frequency"},
			{"BadRegister", `"connection": null`, `"connection": {"address": "plc:502", "points": [{"sensor": "rpm", "register": 65535}]}`, "connection.points[0].register"},
			{"WritableOnModbus", `"writableSensors": []`, `"writableSensors": ["rpm"]`, "writableSensors"},
			{"UnknownField", `"type"`, `"kind": "x", "type"`, `unknown field \"kind\"`},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				res := doJSON(t, s, "POST", "/api/digital-twin/equipment", strings.Replace(pumpBody, tt.from, tt.to, 1), nil)
				if res.status != 400 || !strings.Contains(res.body, tt.field) {
					t.Fatalf("POST = %d %s, want 400 naming %s", res.status, res.body, tt.field)
				}
			})
		}
	})
	t.Run("ErrEditUnknown", func(t *testing.T) {
		if res := doJSON(t, s, "PUT", "/api/digital-twin/equipment/nope", pumpBody, nil); res.status != 404 {
			t.Fatalf("PUT unknown = %d", res.status)
		}
	})
	t.Run("Retire", func(t *testing.T) {
		if res := doJSON(t, s, "DELETE", "/api/digital-twin/equipment/"+created.ID, "", nil); res.status != 204 {
			t.Fatalf("DELETE = %d %s", res.status, res.body)
		}
		if list := doJSON(t, s, "GET", "/api/digital-twin/equipment", "", nil); strings.Contains(list.body, created.ID) {
			t.Fatal("a retired twin is still listed")
		}
		if res := doJSON(t, s, "POST", "/api/digital-twin/equipment/"+created.ID+"/sensor-data", `{"sensorData":{"pressure":1}}`, nil); res.status != 404 {
			t.Fatalf("reading for a retired twin = %d", res.status)
		}
		if res := doJSON(t, s, "DELETE", "/api/digital-twin/equipment/"+created.ID, "", nil); res.status != 404 {
			t.Fatalf("retire twice = %d", res.status)
		}
	})
}

// TestSeedTwinsSaveUnchanged: every seed twin's definition is one the
// manage page can save as it is.
func TestSeedTwinsSaveUnchanged(t *testing.T) {
	for _, eq := range twin.SeedEquipment() {
		t.Run(eq.ID, func(t *testing.T) {
			d := twin.Definition{Name: eq.Name, Manufacturer: eq.Manufacturer, Model: eq.Model, SerialNumber: eq.SerialNumber,
				Type: eq.Type, SupportedTradeTypes: eq.SupportedTradeTypes, CommunicationProtocol: eq.CommunicationProtocol,
				MaintenanceSchedule: eq.MaintenanceSchedule}
			d.Normalize()
			if err := d.Validate(tradeIDs); err != nil {
				t.Fatal(err)
			}
		})
	}
}
