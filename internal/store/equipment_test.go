package store_test

import (
	"context"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/twin"
)

func TestEquipment(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seed := twin.SeedEquipment()
		if err := s.SeedEquipment(ctx, seed); err != nil {
			t.Fatal(err)
		}
		t.Run("SeedAndList", func(t *testing.T) {
			list, err := s.ListEquipment(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != len(seed) {
				t.Fatalf("%d twins, want %d", len(list), len(seed))
			}
			for i, eq := range list {
				want := seed[i]
				if eq.ID != want.ID || eq.Status != want.Status || eq.AlertLevel != want.AlertLevel ||
					!eq.LastUpdated.Equal(want.LastUpdated) || !eq.NextMaintenanceDate.Equal(want.NextMaintenanceDate) ||
					len(eq.SensorData) != len(want.SensorData) || len(eq.ConnectionParameters) != len(want.ConnectionParameters) ||
					len(eq.MaintenanceSchedule.Tasks) != len(want.MaintenanceSchedule.Tasks) {
					t.Errorf("twin %d = %s (%s, %s) differs from the seed", i, eq.ID, eq.Status, eq.AlertLevel)
				}
			}
		})
		t.Run("SeedStreams", func(t *testing.T) {
			streams, err := s.ListDataStreams(ctx, "chlr-1")
			if err != nil {
				t.Fatal(err)
			}
			if len(streams) != 7 || streams[0].Sensor != "temperature" || streams[0].Value != 6.7 || len(streams[0].History) != 1 || streams[0].PreviousValue != nil {
				t.Fatalf("streams = %+v", streams)
			}
		})
		t.Run("RecordUpdatesTwinAndStreams", func(t *testing.T) {
			at := storetest.FixedNow
			updates := []twin.SensorUpdate{
				{EquipmentID: "chlr-1", Values: []twin.Value{{Key: "temperature", Value: 7.1}, {Key: "current", Value: 220}}, Timestamp: at, ReceivedAt: at},
				{EquipmentID: "nope", Values: []twin.Value{{Key: "temperature", Value: 1}}, Timestamp: at, ReceivedAt: at},
				{EquipmentID: "chlr-1", Values: []twin.Value{{Key: "temperature", Value: 14.2}}, Timestamp: at.Add(time.Second), ReceivedAt: at.Add(time.Second)},
			}
			outcomes, err := s.RecordSensorData(ctx, updates)
			if err != nil {
				t.Fatal(err)
			}
			if apperr.Code(outcomes[1].Err) != apperr.ENOTFOUND {
				t.Errorf("unknown twin: err = %v, want not found", outcomes[1].Err)
			}
			if o := outcomes[0]; o.Err != nil || o.Equipment.SensorData["temperature"].Value != 7.1 || o.Equipment.AlertLevel != twin.AlertNormal {
				t.Errorf("first outcome = %+v", o)
			}
			eq, err := s.GetEquipment(ctx, "chlr-1")
			if err != nil {
				t.Fatal(err)
			}
			if eq.SensorData["temperature"].Value != 14.2 || eq.AlertLevel != twin.AlertCritical || !eq.LastUpdated.Equal(at.Add(time.Second)) {
				t.Errorf("stored twin = %+v; want temperature 14.2, critical, updated at %s", eq, at.Add(time.Second))
			}
			streams, err := s.ListDataStreams(ctx, "chlr-1")
			if err != nil {
				t.Fatal(err)
			}
			temp := streams[0]
			if temp.Value != 14.2 || temp.PreviousValue == nil || *temp.PreviousValue != 7.1 || len(temp.History) != 3 {
				t.Errorf("temperature stream = %+v", temp)
			}
		})
		t.Run("HistoryBoundedByRetention", func(t *testing.T) {
			at := storetest.FixedNow
			var updates []twin.SensorUpdate
			for i := range twin.StreamRetention + 30 {
				ts := at.Add(time.Duration(i) * time.Second)
				updates = append(updates, twin.SensorUpdate{EquipmentID: "bp-2", Values: []twin.Value{{Key: "pressure", Value: float64(500 + i)}}, Timestamp: ts, ReceivedAt: ts})
			}
			if _, err := s.RecordSensorData(ctx, updates); err != nil {
				t.Fatal(err)
			}
			streams, err := s.ListDataStreams(ctx, "bp-2")
			if err != nil {
				t.Fatal(err)
			}
			p := streams[1]
			if p.Sensor != "pressure" || len(p.History) != twin.StreamRetention || p.History[len(p.History)-1].Value != float64(500+twin.StreamRetention+29) {
				t.Fatalf("pressure stream has %d points, last %+v; want %d ending at the newest", len(p.History), p.History[len(p.History)-1], twin.StreamRetention)
			}
		})
		t.Run("SeedAgainKeepsReadings", func(t *testing.T) {
			if err := s.SeedEquipment(ctx, twin.SeedEquipment()); err != nil {
				t.Fatal(err)
			}
			eq, err := s.GetEquipment(ctx, "chlr-1")
			if err != nil || eq.SensorData["temperature"].Value != 14.2 {
				t.Fatalf("GetEquipment = %+v, %v; want the recorded reading kept", eq, err)
			}
		})
		t.Run("ErrUnknownEquipment", func(t *testing.T) {
			if _, err := s.GetEquipment(ctx, "nope"); apperr.Code(err) != apperr.ENOTFOUND {
				t.Errorf("GetEquipment err = %v", err)
			}
			if _, err := s.ListDataStreams(ctx, "nope"); apperr.Code(err) != apperr.ENOTFOUND {
				t.Errorf("ListDataStreams err = %v", err)
			}
		})
	})
}

// TestRecordSensorDataTwoProcesses ingests for one twin from two stores on
// one database at once, as two server processes would: no reading is lost.
func TestRecordSensorDataTwoProcesses(t *testing.T) {
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			dsn := filepath.Join(t.TempDir(), "shared.db")
			if dialect == "postgres" {
				dsn = storetest.PostgresURL(t)
			}
			ctx := context.Background()
			var stores []*store.Store
			for range 2 {
				s, err := store.Open(ctx, dsn)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				stores = append(stores, s)
			}
			if err := stores[0].SeedEquipment(ctx, twin.SeedEquipment()); err != nil {
				t.Fatal(err)
			}
			const per = 25
			var wg sync.WaitGroup
			for p, s := range stores {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range per {
						at := storetest.FixedNow.Add(time.Duration(p*per+i) * time.Millisecond)
						u := twin.SensorUpdate{EquipmentID: "xfmr-t1", Values: []twin.Value{{Key: "current", Value: float64(300 + p*per + i)}}, Timestamp: at, ReceivedAt: at}
						if _, err := s.RecordSensorData(ctx, []twin.SensorUpdate{u}); err != nil {
							t.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			streams, err := stores[1].ListDataStreams(ctx, "xfmr-t1")
			if err != nil {
				t.Fatal(err)
			}
			if got := len(streams[3].History); streams[3].Sensor != "current" || got != 2*per+1 {
				t.Fatalf("current stream has %d points, want %d", got, 2*per+1)
			}
		})
	}
}

func TestHistoryEncoding(t *testing.T) {
	at := time.Date(2026, 11, 23, 4, 0, 0, 123e6, time.UTC)
	points := []twin.StreamPoint{{Value: 6.7, QualityIndicator: "good", Timestamp: at}, {Value: -1e-3, QualityIndicator: "bad", Timestamp: at.Add(time.Second)},
		{Value: 12345678.5, QualityIndicator: "uncertain", Timestamp: at.Add(2 * time.Second)}}
	got, err := store.DecodeHistory(store.EncodeHistory(points))
	if err != nil || !reflect.DeepEqual(got, points) {
		t.Fatalf("round trip = %+v, %v; want %+v", got, err, points)
	}
	for _, bad := range []string{"", "{}", "[[1,2]]", "[[1,x,0]]", "[[1,2,0]"} {
		if _, err := store.DecodeHistory(bad); err == nil {
			t.Errorf("DecodeHistory(%q) succeeded", bad)
		}
	}
	if got, err := store.DecodeHistory("[]"); err != nil || len(got) != 0 {
		t.Errorf("empty history = %v, %v", got, err)
	}
}
