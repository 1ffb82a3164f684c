package store_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"journeyman/internal/identity"
	"journeyman/internal/realtime"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

func TestAlertsAndLiveSessionsByOrganisation(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
			t.Fatal(err)
		}
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		solo := mustAccount(t, s, "solo@example.com", "Solo", "", "")
		const guest = "55555555555555555555555555555555"
		if err := s.EnsureGuest(ctx, guest); err != nil {
			t.Fatal(err)
		}

		// One alert and one live session each, a second apart.
		alertOf := map[string]int64{}
		for i, user := range []string{a.Learner.ID, b.Learner.ID, solo.ID, guest, a.Instructor.ID} {
			at(t, s, time.Duration(i)*time.Second)
			alert, err := s.CreateSafetyAlert(ctx, user, "room-"+user, realtime.SafetyAlertPayload{AlertType: "help", Description: "from " + user})
			if err != nil {
				t.Fatal(err)
			}
			alertOf[user] = alert.ID
			insertSession(t, s, "live-"+user, user, "electrical-loto", "in_progress", nil, nil, `{}`)
		}
		ended := storetest.FixedNow.Add(-time.Minute)
		insertSession(t, s, "ended-a", a.Learner.ID, "electrical-loto", "completed", &ended, fptr(90), `{}`)

		alertIDs := func(list []realtime.SafetyAlert) []int64 {
			out := []int64{}
			for _, x := range list {
				out = append(out, x.ID)
			}
			return out
		}
		sessionIDs := func(list []training.SessionSummary) map[string]bool {
			out := map[string]bool{}
			for _, x := range list {
				out[x.ID] = true
			}
			return out
		}
		for _, tc := range []struct {
			name     string
			org      string
			channel  string
			alerts   []int64 // newest first
			sessions map[string]bool
		}{
			{"OrgA", a.ID, "org:" + a.ID, []int64{alertOf[a.Instructor.ID], alertOf[a.Learner.ID]},
				map[string]bool{"live-" + a.Learner.ID: true, "live-" + a.Instructor.ID: true}},
			{"OrgB", b.ID, "org:" + b.ID, []int64{alertOf[b.Learner.ID]}, map[string]bool{"live-" + b.Learner.ID: true}},
			{"Demo", "", identity.DemoChannel, []int64{alertOf[guest], alertOf[solo.ID]},
				map[string]bool{"live-" + guest: true, "live-" + solo.ID: true}},
			{"UnknownOrg", "nope", "org:nope", []int64{}, map[string]bool{}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				list, err := s.ListSafetyAlerts(ctx, tc.org, store.MaxAlertPage)
				if err != nil || !reflect.DeepEqual(alertIDs(list), tc.alerts) {
					t.Fatalf("alerts = %v, %v; want %v", alertIDs(list), err, tc.alerts)
				}
				for _, x := range list {
					if x.Channel != tc.channel {
						t.Errorf("alert %d in channel %q, want %q", x.ID, x.Channel, tc.channel)
					}
				}
				live, err := s.ListLiveSessions(ctx, tc.org, storetest.FixedNow.Add(-time.Hour))
				if err != nil || !reflect.DeepEqual(sessionIDs(live), tc.sessions) {
					t.Fatalf("live sessions = %v, %v; want %v", sessionIDs(live), err, tc.sessions)
				}
			})
		}
		t.Run("GetCarriesChannel", func(t *testing.T) {
			got, err := s.GetSafetyAlert(ctx, alertOf[b.Learner.ID])
			if err != nil || got.Channel != "org:"+b.ID || got.UserID != b.Learner.ID || got.DisplayName != "b Learner" || got.SessionID != "room-"+b.Learner.ID {
				t.Fatalf("alert = %+v, %v", got, err)
			}
		})
		t.Run("Limit", func(t *testing.T) {
			list, err := s.ListSafetyAlerts(ctx, a.ID, 1)
			if err != nil || !reflect.DeepEqual(alertIDs(list), []int64{alertOf[a.Instructor.ID]}) {
				t.Fatalf("one alert = %v, %v", alertIDs(list), err)
			}
		})
		t.Run("AfterLeaving", func(t *testing.T) {
			// An alert stays in the channel it was raised in; a live
			// session follows its learner out of the organisation.
			if err := s.RemoveMember(ctx, a.ID, a.Learner.ID); err != nil {
				t.Fatal(err)
			}
			list, _ := s.ListSafetyAlerts(ctx, a.ID, store.MaxAlertPage)
			if !reflect.DeepEqual(alertIDs(list), []int64{alertOf[a.Instructor.ID], alertOf[a.Learner.ID]}) {
				t.Fatalf("org A alerts = %v", alertIDs(list))
			}
			live, _ := s.ListLiveSessions(ctx, a.ID, storetest.FixedNow.Add(-time.Hour))
			if want := map[string]bool{"live-" + a.Instructor.ID: true}; !reflect.DeepEqual(sessionIDs(live), want) {
				t.Fatalf("org A live sessions = %v, want %v", sessionIDs(live), want)
			}
			live, _ = s.ListLiveSessions(ctx, "", storetest.FixedNow.Add(-time.Hour))
			if !sessionIDs(live)["live-"+a.Learner.ID] {
				t.Fatalf("demo live sessions = %v, want the learner who left", sessionIDs(live))
			}
		})
	})
}
