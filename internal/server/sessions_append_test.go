package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// A periodic update answers the session with the interactions it stored,
// each with its receipt; the end answers it with every interaction in the
// order stored, and interactionData keeps its three fields throughout.
func TestPatchAnswers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s, clock := MustOpenClockedXRServer(t, st)
		x := newSession(t, s, alice, "electrical-lockout-tagout", "desktop")
		path := "/api/xr-sessions/" + x.ID
		var received []time.Time
		for k := range 3 {
			clock.advance(time.Second)
			ins := []string{
				fmt.Sprintf(`{"action":"look","sessionTime":%d,"seq":%d,"input":"mouse"}`, 100*k, 2*k),
				fmt.Sprintf(`{"action":"inspect","objectId":"panel","sessionTime":%d,"seq":%d,"input":"mouse"}`, 100*k+50, 2*k+1),
			}
			res := call(t, s, alice, "PATCH", path, `{"duration":`+fmt.Sprint(k)+`,"interactionData":{"interactions":[`+strings.Join(ins, ",")+`],"safetyChecks":[]}}`)
			checkError(t, res, 200, "")
			checkInteractionDataShape(t, res.body)
			got := decode[training.Session](t, res)
			if len(got.InteractionData.Interactions) != 2 || *got.InteractionData.Interactions[0].Seq != 2*k ||
				!got.InteractionData.Interactions[1].ReceivedAt.Equal(clock.now()) || got.Duration != int64(k) {
				t.Fatalf("update %d answered %+v", k, got)
			}
			received = append(received, clock.now(), clock.now())
		}
		clock.advance(time.Second)
		res := call(t, s, alice, "PATCH", path, endBody(clock, `{"action":"look","sessionTime":400,"seq":6}`))
		checkError(t, res, 200, "")
		checkInteractionDataShape(t, res.body)
		received = append(received, clock.now())
		got := decode[training.Session](t, res)
		if len(got.InteractionData.Interactions) != len(received) || got.CompletionStatus != training.StatusCompleted {
			t.Fatalf("end answered %d interactions, want %d", len(got.InteractionData.Interactions), len(received))
		}
		for i, in := range got.InteractionData.Interactions {
			if *in.Seq != i || !in.ReceivedAt.Equal(received[i]) || (i < 6 && in.Extra["input"] == nil) {
				t.Fatalf("end's interaction %d = %+v, want seq %d received at %v", i, in, i, received[i])
			}
		}
	})
}

// checkInteractionDataShape checks that a session answer's interactionData
// has exactly its three fields, none of them null.
func checkInteractionDataShape(t *testing.T, body string) {
	t.Helper()
	var answer struct {
		InteractionData map[string]json.RawMessage `json:"interactionData"`
	}
	if err := json.Unmarshal([]byte(body), &answer); err != nil {
		t.Fatal(err)
	}
	d := answer.InteractionData
	if len(d) != 3 || !strings.HasPrefix(string(d["interactions"]), "[") || !strings.HasPrefix(string(d["safetyChecks"]), "[") ||
		!strings.HasPrefix(string(d["completionStatus"]), `"`) {
		t.Fatalf("interactionData = %v", d)
	}
}

// Concurrent PATCHes of one session through the handler, as a client that
// does not wait for each answer sends them, keep every interaction.
func TestConcurrentPatchesKeepEveryInteraction(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s := MustOpenXRServer(t, st)
		x := newSession(t, s, alice, "electrical-lockout-tagout", "vr")
		const senders, each = 6, 5
		var wg sync.WaitGroup
		statuses := make(chan string, senders*each)
		for w := range senders {
			wg.Go(func() {
				for k := range each {
					res := call(t, s, alice, "PATCH", "/api/xr-sessions/"+x.ID,
						fmt.Sprintf(`{"position":{"x":%d,"y":1,"z":1},"interactionData":{"interactions":[{"action":"look","objectId":"w%d-%d"}]}}`, w, w, k))
					if res.status != 200 {
						statuses <- res.body
					}
				}
			})
		}
		wg.Wait()
		close(statuses)
		for body := range statuses {
			t.Fatal(body)
		}
		stored, err := st.GetSession(context.Background(), x.ID)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, in := range stored.InteractionData.Interactions {
			seen[in.ObjectID] = true
		}
		if len(stored.InteractionData.Interactions) != senders*each || len(seen) != senders*each {
			t.Fatalf("%d interactions stored (%d distinct), want %d", len(stored.InteractionData.Interactions), len(seen), senders*each)
		}
	})
}
