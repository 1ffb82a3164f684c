package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/twin"
)

func pumpDefinition() twin.Definition {
	d := twin.Definition{
		Name: "Booster Pump P-7", Manufacturer: "Grundfos", Model: "CR 32-2", SerialNumber: "GF-1", Type: "booster-pump",
		SupportedTradeTypes: []string{"plumbing"}, CommunicationProtocol: twin.ProtocolModbusTCP,
		MaintenanceSchedule: twin.MaintenanceSchedule{IntervalDays: 90, Tasks: []twin.MaintenanceTask{{Task: "Check seal", Frequency: "quarterly", Trade: "plumbing"}}},
		Connection: &twin.Connection{Address: "10.1.1.7:502", Password: "", Points: []twin.Point{
			{Sensor: "pressure", Register: 4, DataType: "uint16", Scale: 0.1}}},
	}
	d.Normalize()
	return d
}

func TestDefineEquipment(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SeedEquipment(ctx, twin.SeedEquipment()); err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
		eq := twin.Define(twin.Equipment{}, pumpDefinition(), now)
		eq.ID = "booster-pump-p-7-abc123"
		t.Run("CreateLastInFleetOrder", func(t *testing.T) {
			if err := s.CreateEquipment(ctx, eq); err != nil {
				t.Fatal(err)
			}
			list, err := s.ListEquipment(ctx)
			if err != nil {
				t.Fatal(err)
			}
			got := list[len(list)-1]
			if got.ID != eq.ID || got.SyncStatus != twin.SyncSyncing || got.Connection == nil ||
				!reflect.DeepEqual(*got.Connection, *eq.Connection) || !got.NextMaintenanceDate.Equal(now.AddDate(0, 0, 90)) {
				t.Fatalf("stored = %+v", got)
			}
		})
		t.Run("OwnedByItsOrganisation", func(t *testing.T) {
			org := mustOrg(t, s, "Plant School", "plant")
			owned := eq
			owned.ID, owned.OrganisationID = "booster-pump-p-7-owned", org.ID
			if err := s.CreateEquipment(ctx, owned); err != nil {
				t.Fatal(err)
			}
			renamed := pumpDefinition()
			renamed.Name = "Booster Pump P-7B"
			defined, err := s.DefineEquipment(ctx, owned.ID, renamed, now)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.GetEquipment(ctx, owned.ID)
			if err != nil {
				t.Fatal(err)
			}
			seeded, err := s.GetEquipment(ctx, twin.SeedEquipment()[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			if defined.OrganisationID != org.ID || got.OrganisationID != org.ID || seeded.OrganisationID != "" {
				t.Fatalf("organisation: defined %q, stored %q, seeded %q; want %q, %q, none", defined.OrganisationID, got.OrganisationID,
					seeded.OrganisationID, org.ID, org.ID)
			}
		})
		t.Run("ErrCreateTwice", func(t *testing.T) {
			if err := s.CreateEquipment(ctx, eq); apperr.Code(err) != apperr.ECONFLICT {
				t.Fatalf("err = %v, want a conflict", err)
			}
		})
		t.Run("EditKeepsStateAndPassword", func(t *testing.T) {
			withPassword := pumpDefinition()
			withPassword.CommunicationProtocol = twin.ProtocolOPCUA
			withPassword.Connection = &twin.Connection{Address: "opc.tcp://plc:4840", Username: "op", Password: "secret",
				Points: []twin.Point{{Sensor: "pressure", NodeID: "ns=2;s=P"}}}
			withPassword.Normalize()
			if _, err := s.DefineEquipment(ctx, eq.ID, withPassword, now); err != nil {
				t.Fatal(err)
			}
			if _, err := s.RecordSensorData(ctx, []twin.SensorUpdate{{EquipmentID: eq.ID, Values: []twin.Value{{Key: "pressure", Value: 420}},
				Timestamp: now, ReceivedAt: now}}); err != nil {
				t.Fatal(err)
			}
			edit := withPassword
			edit.Name = "Booster Pump P-7A"
			conn := *withPassword.Connection
			conn.Password = ""
			edit.Connection = &conn
			got, err := s.DefineEquipment(ctx, eq.ID, edit, now.Add(time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			stored, err := s.GetEquipment(ctx, eq.ID)
			if err != nil {
				t.Fatal(err)
			}
			if got.Name != "Booster Pump P-7A" || stored.Name != got.Name || stored.Connection.Password != "secret" ||
				stored.SensorData["pressure"].Value != 420 || !stored.NextMaintenanceDate.Equal(now.AddDate(0, 0, 90)) {
				t.Fatalf("stored after edit = %+v", stored)
			}
		})
		t.Run("ErrEditUnknown", func(t *testing.T) {
			if _, err := s.DefineEquipment(ctx, "nope", pumpDefinition(), now); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("err = %v, want not found", err)
			}
		})
		t.Run("RetireLeavesEveryPath", func(t *testing.T) {
			if err := s.RetireEquipment(ctx, eq.ID, now); err != nil {
				t.Fatal(err)
			}
			list, _ := s.ListEquipment(ctx)
			for _, e := range list {
				if e.ID == eq.ID {
					t.Fatal("a retired twin is still listed")
				}
			}
			ids, _ := s.EquipmentIDs(ctx)
			for _, id := range ids {
				if id == eq.ID {
					t.Fatal("a retired twin still has a device login")
				}
			}
			if _, err := s.GetEquipment(ctx, eq.ID); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("get retired: %v", err)
			}
			if _, err := s.ListDataStreams(ctx, eq.ID); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("streams of retired: %v", err)
			}
			out, err := s.RecordSensorData(ctx, []twin.SensorUpdate{{EquipmentID: eq.ID, Values: []twin.Value{{Key: "pressure", Value: 1}}, Timestamp: now, ReceivedAt: now}})
			if err != nil || apperr.Code(out[0].Err) != apperr.ENOTFOUND {
				t.Fatalf("reading for retired: %v %v", err, out)
			}
			if err := s.RetireEquipment(ctx, eq.ID, now); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("retire twice: %v", err)
			}
		})
		t.Run("ListByIDInFleetOrder", func(t *testing.T) {
			list, err := s.ListEquipmentByID(ctx, []string{"bp-2", eq.ID, "nope", "pnl-lp2a"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range list {
				got = append(got, e.ID)
			}
			if !reflect.DeepEqual(got, []string{"pnl-lp2a", "bp-2"}) {
				t.Fatalf("by id = %v, want the two in service in fleet order", got)
			}
			if empty, err := s.ListEquipmentByID(ctx, nil); err != nil || len(empty) != 0 {
				t.Fatalf("by no id = %v, %v", empty, err)
			}
		})
		t.Run("SeedDoesNotReviveRetired", func(t *testing.T) {
			if err := s.RetireEquipment(ctx, "chlr-1", now); err != nil {
				t.Fatal(err)
			}
			if err := s.SeedEquipment(ctx, twin.SeedEquipment()); err != nil {
				t.Fatal(err)
			}
			if _, err := s.GetEquipment(ctx, "chlr-1"); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("seed revived a retired twin: %v", err)
			}
		})
	})
}
