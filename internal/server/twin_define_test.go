package server

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"journeyman/internal/identity"
	"journeyman/internal/twin"
)

const pumpBody = `{"name": "Booster Pump P-7", "manufacturer": "Grundfos", "model": "CR 32-2", "serialNumber": "GF-1",
	"type": "booster-pump", "supportedTradeTypes": ["plumbing"], "communicationProtocol": "Modbus TCP",
	"maintenanceSchedule": {"intervalDays": 90, "tasks": [{"task": "Check seal", "frequency": "quarterly", "trade": "plumbing"}]},
	"connection": null, "writableSensors": []}`

// mustOwnedTwin stores a twin named name, as organisation orgID's staff
// would add it, and returns its id.
func mustOwnedTwin(tb testing.TB, s *Server, orgID, name string) string {
	tb.Helper()
	var d twin.Definition
	if err := json.Unmarshal([]byte(pumpBody), &d); err != nil {
		tb.Fatal(err)
	}
	d.Name = name
	d.Normalize()
	eq := twin.Define(twin.Equipment{}, d, s.store.Now())
	eq.ID, eq.OrganisationID = twin.NewID(name), orgID
	if err := s.store.CreateEquipment(context.Background(), eq); err != nil {
		tb.Fatal(err)
	}
	return eq.ID
}

// TestTwinOwnership: a twin an organisation's staff added is theirs alone
// to drive and manage; the seeded fleet is every organisation's to drive
// and none's to manage.
func TestTwinOwnership(t *testing.T) {
	s := mustTwinServer(t)
	plantSchool := mustOrg(t, s, "Plant School") // twinInstructor's
	mustAccount(t, s, "Olga", "Other School", identity.Admin)
	created := doJSON(t, s, "POST", "/api/digital-twin/equipment", pumpBody, nil)
	var own twin.Equipment
	if err := json.Unmarshal([]byte(created.body), &own); err != nil || created.status != 201 {
		t.Fatalf("POST = %d %s", created.status, created.body)
	}
	if own.OrganisationID != plantSchool {
		t.Fatalf("organisationId = %q, want the creator's %q", own.OrganisationID, plantSchool)
	}
	const shared = "chlr-1"
	before, err := s.store.GetEquipment(t.Context(), shared)
	if err != nil {
		t.Fatal(err)
	}
	readings := `{"sensorData":{"pressure":640}}`
	exchange := `{"protocol":"Modbus TCP"}`
	tests := []struct {
		name, caller, method, path, body string
		status                           int
		has                              string
	}{
		{"OwnerDrives", twinInstructor, "POST", "/api/digital-twin/equipment/" + own.ID + "/sensor-data", readings, 200, ""},
		{"OwnerTests", twinInstructor, "POST", "/api/digital-twin/equipment/" + own.ID + "/simulate-communication", exchange, 200, ""},
		{"OwnerRedefines", twinInstructor, "PUT", "/api/digital-twin/equipment/" + own.ID, pumpBody, 200, ""},
		{"OwnerGetsDeviceLogin", twinInstructor, "GET", "/api/equipment/" + own.ID + "/mqtt-credentials", "", 200, ""},
		{"ErrOtherDrives", "Olga", "POST", "/api/digital-twin/equipment/" + own.ID + "/sensor-data", readings, 403, "belongs to another organisation"},
		{"ErrOtherTests", "Olga", "POST", "/api/digital-twin/equipment/" + own.ID + "/simulate-communication", exchange, 403, "belongs to another organisation"},
		{"ErrOtherRedefines", "Olga", "PUT", "/api/digital-twin/equipment/" + own.ID, pumpBody, 403, "belongs to another organisation"},
		{"ErrOtherRetires", "Olga", "DELETE", "/api/digital-twin/equipment/" + own.ID, "", 403, "belongs to another organisation"},
		{"ErrOtherGetsDeviceLogin", "Olga", "GET", "/api/equipment/" + own.ID + "/mqtt-credentials", "", 403, "belongs to another organisation"},
		{"AnyStaffDriveShared", "Olga", "POST", "/api/digital-twin/equipment/" + shared + "/sensor-data", readings, 200, ""},
		{"AnyStaffTestShared", "Olga", "POST", "/api/digital-twin/equipment/" + shared + "/simulate-communication", `{"protocol":"Modbus TCP"}`, 200, ""},
		{"ErrRedefineShared", twinInstructor, "PUT", "/api/digital-twin/equipment/" + shared, pumpBody, 403, "shared demo equipment"},
		{"ErrRetireShared", twinInstructor, "DELETE", "/api/digital-twin/equipment/" + shared, "", 403, "shared demo equipment"},
		{"ErrDeviceLoginShared", twinInstructor, "GET", "/api/equipment/" + shared + "/mqtt-credentials", "", 403, "shared demo equipment"},
		{"ErrUnknown", twinInstructor, "PUT", "/api/digital-twin/equipment/nope", pumpBody, 404, "does not exist"},
		{"OwnerRetires", twinInstructor, "DELETE", "/api/digital-twin/equipment/" + own.ID, "", 204, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			req.Header.Set("Content-Type", "application/json")
			res := do(t, s, as(t, s, req, tt.caller))
			if res.status != tt.status || !strings.Contains(res.body, tt.has) {
				t.Fatalf("%s %s as %s = %d %.300s; want %d with %q", tt.method, tt.path, tt.caller, res.status, res.body, tt.status, tt.has)
			}
		})
	}
	// Nothing a refused caller sent was kept.
	stored, err := s.store.GetEquipment(t.Context(), shared)
	if err != nil || stored.Name != before.Name || stored.OrganisationID != "" {
		t.Fatalf("shared twin after refused edits = %q %v", stored.Name, err)
	}
}

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
