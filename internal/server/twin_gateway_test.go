package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"journeyman/internal/fieldbus/fieldbustest"
	"journeyman/internal/identity"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/twin"
)

func TestConnectionTest(t *testing.T) {
	s := mustTwinServer(t)
	plc := fieldbustest.StartPLC(t, "")
	plc.SetHolding(0, 0x41C8, 0x0000) // 25.0
	tests := []struct {
		name   string
		body   string
		status int
		want   string // in the body
	}{
		{"Reads", `{"communicationProtocol": "Modbus TCP", "connection": {"address": "` + plc.Addr + `", "points": [{"sensor": "temperature", "register": 0}]}}`,
			200, `"ok":true`},
		{"PointException", `{"communicationProtocol": "Modbus TCP", "connection": {"address": "` + plc.Addr + `", "points": [{"sensor": "temperature", "register": 9}]}}`,
			200, `illegal data address`},
		{"Refused", `{"communicationProtocol": "Modbus TCP", "connection": {"address": "127.0.0.1:1", "timeoutMs": 200, "points": [{"sensor": "temperature"}]}}`,
			200, `"ok":false`},
		{"ErrInvalid", `{"communicationProtocol": "Modbus TCP", "connection": {"address": "plc", "points": [{"sensor": "temperature"}]}}`,
			400, "connection.address"},
		{"ErrNoConnection", `{"communicationProtocol": "Modbus TCP"}`, 400, "connection is required"},
		{"ErrProtocol", `{"communicationProtocol": "CAN", "connection": {"address": "plc:1", "points": []}}`, 400, "communicationProtocol"},
		{"ErrUnknownTwin", `{"communicationProtocol": "Modbus TCP", "equipmentId": "nope", "connection": {"address": "plc:1", "points": [{"sensor": "rpm"}]}}`, 404, "nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := doJSON(t, s, "POST", "/api/digital-twin/connection-test", tt.body, nil)
			if res.status != tt.status || !strings.Contains(res.body, tt.want) {
				t.Fatalf("POST = %d %s, want %d with %s", res.status, res.body, tt.status, tt.want)
			}
		})
	}
	t.Run("NothingSaved", func(t *testing.T) {
		list := doJSON(t, s, "GET", "/api/digital-twin/equipment", "", nil)
		if strings.Contains(list.body, plc.Addr) {
			t.Fatal("a connection test changed a twin")
		}
	})
}

// startProcess runs a server on st, as one process of several, until the
// returned stop is called.
func startProcess(t *testing.T, st *store.Store) (*Server, context.CancelFunc) {
	t.Helper()
	s, err := New(st, Config{Logger: slog.New(slog.DiscardHandler), App: testApp})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.Start(ctx)
	t.Cleanup(func() { s.CloseRealtime(); cancel() })
	return s, cancel
}

func polling(ss ...*Server) []string {
	var ids []string
	for _, s := range ss {
		ids = append(ids, s.gateway.Polling()...)
	}
	return ids
}

// TestGatewayOneProcessPolls connects a twin to a device in a deployment of
// two processes: exactly one polls it, the readings reach the twin, and
// polling moves to the other process when the first stops.
func TestGatewayOneProcessPolls(t *testing.T) {
	dsn := storetest.PostgresURL(t)
	open := func() *store.Store {
		st, err := store.Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	st1, st2 := open(), open()
	if err := st1.SeedEquipment(context.Background(), twin.SeedEquipment()); err != nil {
		t.Fatal(err)
	}
	s1, stop1 := startProcess(t, st1)
	s2, stop2 := startProcess(t, st2)
	mustAccount(t, s1, "Ines", "Plant School", identity.Instructor)

	plc := fieldbustest.StartPLC(t, "")
	plc.SetHolding(0, 0x41C8, 0x0000) // 25.0
	body := strings.Replace(pumpBody, `"connection": null`, `"connection": {"address": "`+plc.Addr+`", "intervalMs": 200,
		"points": [{"sensor": "temperature", "register": 0}]}`, 1)
	var eq twin.Equipment
	res := call(t, s1, "Ines", "POST", "/api/digital-twin/equipment", body)
	checkError(t, res, 201, "")
	if err := json.Unmarshal([]byte(res.body), &eq); err != nil {
		t.Fatal(err)
	}
	temperature := func() float64 {
		got, err := st2.GetEquipment(context.Background(), eq.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.SensorData["temperature"].Value
	}
	waitFor(t, "the device's reading reaches the twin", func() bool { return temperature() == 25 })
	if p := polling(s1, s2); len(p) != 1 || p[0] != eq.ID {
		t.Fatalf("polling %v, want %s by one process", p, eq.ID)
	}
	// Stop the process that polls; the other takes over.
	other := s2
	if len(s1.gateway.Polling()) == 1 {
		stop1()
	} else {
		stop2()
		other = s1
	}
	plc.SetHolding(0, 0x41D0, 0x0000) // 26.0
	waitFor(t, "the other process takes polling over", func() bool {
		return len(other.gateway.Polling()) == 1 && temperature() == 26
	})
	if got, err := st2.GetEquipment(context.Background(), eq.ID); err != nil || got.SyncStatus != twin.SyncSynced {
		t.Fatalf("sync = %s, %v", got.SyncStatus, err)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
