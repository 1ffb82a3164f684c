package store_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// A session keeps what its client sent, in either database: rotations in
// their form, interactions with every field as sent, and the client's
// claim of its completion status beside the server's outcome. Rotations
// stored before the form was kept are quaternions, read by their shape.
func TestSessionKeepsWhatWasSent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seedLearners(t, s)
		t0 := storetest.FixedNow.Add(-time.Hour)
		sent := `{"rotation":{"x":0.1,"y":-1.2,"z":3},"interactionData":{"completionStatus":"in_progress","interactions":[
			{"type":"grab","target":{"id":"gloves"},"timestamp":1773480599123.5,"sessionTime":1200.25},
			{"action":"look","timestamp":"2026-03-14T10:29:59.123+01:00","sessionTime":1300},
			{"note":"no action, no sessionTime"}]}}`
		stored := `[{"sessionTime":1200.25,"target":{"id":"gloves"},"timestamp":1773480599123.5,"type":"grab"},` +
			`{"action":"look","sessionTime":1300,"timestamp":"2026-03-14T10:29:59.123+01:00"},` +
			`{"note":"no action, no sessionTime","timestamp":"` + storetest.FixedNow.UTC().Format(time.RFC3339Nano) + `"}]`
		var p training.SessionPatch
		if err := json.Unmarshal([]byte(sent), &p); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name   string
			update func(id string) error
		}{
			{"Append", func(id string) error { _, err := appendPatch(s, id, p); return err }},
			{"Locked", func(id string) error {
				_, err := s.UpdateSession(ctx, id, nil, func(x *training.Session) error { return x.Apply("alice", p, training.Scene{}, s.Now()) })
				return err
			}},
		} {
			t.Run(tc.name, func(t *testing.T) {
				id := "forms-" + tc.name
				startSession(t, s, id, "alice", "electrical-loto", t0)
				if err := tc.update(id); err != nil {
					t.Fatal(err)
				}
				got, err := s.GetSession(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				if *got.Rotation != training.Euler(0.1, -1.2, 3) || got.ClientCompletionStatus != "in_progress" || got.InteractionData.CompletionStatus != "" {
					t.Fatalf("rotation %v claim %q outcome %q", got.Rotation, got.ClientCompletionStatus, got.InteractionData.CompletionStatus)
				}
				// As sent, without the server's receivedAt.
				ins := got.InteractionData.Interactions
				for i := range ins {
					ins[i].ReceivedAt = time.Time{}
				}
				if b, _ := json.Marshal(ins); string(b) != stored {
					t.Fatalf("interactions read back as\n%s\nwant\n%s", b, stored)
				}
				if ins[0].Kind() != "grab" || ins[0].SessionTime != 1200 || ins[2].HasSessionTime() {
					t.Fatalf("read back %+v", ins)
				}
			})
		}

		t.Run("LegacyQuaternion", func(t *testing.T) {
			startSession(t, s, "forms-legacy", "alice", "electrical-loto", t0)
			if _, err := s.DB().ExecContext(ctx, `UPDATE xr_sessions SET rotation = '{"x":0,"y":0.6,"z":0,"w":0.8}' WHERE id = 'forms-legacy'`); err != nil {
				t.Fatal(err)
			}
			got, err := s.GetSession(ctx, "forms-legacy")
			if err != nil {
				t.Fatal(err)
			}
			if *got.Rotation != training.Quaternion(0, 0.6, 0, 0.8) {
				t.Fatalf("legacy rotation read as %v", got.Rotation)
			}
		})
	})
}
