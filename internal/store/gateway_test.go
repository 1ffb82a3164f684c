package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/twin"
)

func TestClaimDevices(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SeedEquipment(ctx, twin.SeedEquipment()); err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
		connect := func(id string) { connectTwin(t, s, id, now) }
		claim := func(holder string, at time.Time) []string {
			t.Helper()
			ids, err := s.ClaimDevices(ctx, holder, at, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			return ids
		}
		if got := claim("a", now); len(got) != 0 {
			t.Fatalf("claimed %v with no connected twin", got)
		}
		connect("bp-2")
		connect("chlr-1")
		both := []string{"bp-2", "chlr-1"}
		steps := []struct {
			name   string
			do     func()
			holder string
			at     time.Duration
			want   []string
		}{
			{"FirstTakesAll", nil, "a", 0, both},
			{"OtherGetsNoneWhileHeld", nil, "b", 5 * time.Second, nil},
			{"HolderRenews", nil, "a", 8 * time.Second, both},
			{"StillHeldAfterRenewal", nil, "b", 12 * time.Second, nil},
			{"OtherTakesOverAfterExpiry", nil, "b", 19 * time.Second, both},
			{"FormerHolderHasNone", nil, "a", 20 * time.Second, nil},
			{"ReleaseHandsOverAtOnce", func() {
				if err := s.ReleaseDevices(ctx, "b"); err != nil {
					t.Fatal(err)
				}
			}, "a", 21 * time.Second, both},
			{"RetiredTwinLeavesLeases", func() {
				if err := s.RetireEquipment(ctx, "bp-2", now); err != nil {
					t.Fatal(err)
				}
			}, "a", 22 * time.Second, []string{"chlr-1"}},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				if st.do != nil {
					st.do()
				}
				if got := claim(st.holder, now.Add(st.at)); !reflect.DeepEqual(got, st.want) {
					t.Fatalf("%s claims %v, want %v", st.holder, got, st.want)
				}
			})
		}
		t.Run("SetSync", func(t *testing.T) {
			eq, err := s.SetSync(ctx, "chlr-1", twin.SyncDisconnected, 3)
			if err != nil || eq.SyncStatus != twin.SyncDisconnected || eq.SyncErrorCount != 3 {
				t.Fatalf("SetSync = %+v, %v", eq, err)
			}
			stored, _ := s.GetEquipment(ctx, "chlr-1")
			if stored.SyncStatus != twin.SyncDisconnected || stored.SyncErrorCount != 3 {
				t.Fatalf("stored = %s %d", stored.SyncStatus, stored.SyncErrorCount)
			}
		})
	})
}

// connectTwin defines seeded twin id as a Modbus TCP device, which a
// gateway then polls.
func connectTwin(t *testing.T, s *store.Store, id string, at time.Time) {
	t.Helper()
	ctx := context.Background()
	eq, err := s.GetEquipment(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	d := pumpDefinition()
	d.Name, d.CommunicationProtocol = eq.Name, twin.ProtocolModbusTCP
	if _, err := s.DefineEquipment(ctx, id, d, at); err != nil {
		t.Fatal(err)
	}
}
