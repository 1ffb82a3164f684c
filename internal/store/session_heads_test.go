package store

import (
	"testing"
	"time"

	"journeyman/internal/training"
)

func TestSessionHeads(t *testing.T) {
	running := func(id string, duration int64) training.Session {
		score := 80.0
		return training.Session{
			ID: id, Duration: duration, SafetyScore: &score, Position: &training.Vec3{X: 1},
			InteractionData:    training.InteractionData{Interactions: []training.Interaction{{Action: "look"}}, SafetyChecks: []training.SafetyCheckResult{{ID: "ppe"}}},
			VerificationIssues: []string{},
		}
	}
	stored := training.StoredInteractions{Count: 3, Bytes: 120}

	t.Run("HeldApart", func(t *testing.T) {
		h := newSessionHeads(10)
		x := running("a", 10)
		h.put(x, stored, 4)
		x.Position.X, x.InteractionData.SafetyChecks[0].ID = 9, "changed by the writer"
		got, ok := h.get("a")
		if !ok || !got.head || got.rev != 4 || got.x.Earlier != stored || len(got.x.InteractionData.Interactions) != 0 {
			t.Fatalf("get = %+v, %v; want the head at revision 4 holding 3 stored interactions and none loaded", got, ok)
		}
		got.x.Position.X, got.x.InteractionData.SafetyChecks[0].ID, *got.x.SafetyScore = 7, "changed by the reader", 1
		again, _ := h.get("a")
		if again.x.Position.X != 1 || again.x.InteractionData.SafetyChecks[0].ID != "ppe" || *again.x.SafetyScore != 80 {
			t.Fatalf("the head shares memory with a writer or a reader: %+v", again.x)
		}
	})
	t.Run("LaterRevisionStays", func(t *testing.T) {
		h := newSessionHeads(10)
		h.put(running("a", 20), stored, 6)
		h.put(running("a", 10), stored, 5) // an earlier write finishing last
		if got, _ := h.get("a"); got.rev != 6 || got.x.Duration != 20 {
			t.Fatalf("head at revision %d with duration %d; want revision 6's", got.rev, got.x.Duration)
		}
	})
	t.Run("EndedForgotten", func(t *testing.T) {
		h := newSessionHeads(10)
		h.put(running("a", 10), stored, 1)
		ended := running("a", 30)
		at := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
		ended.EndedAt = &at
		h.put(ended, stored, 2)
		if _, ok := h.get("a"); ok {
			t.Fatal("an ended session's head is held")
		}
	})
	t.Run("Bounded", func(t *testing.T) {
		h := newSessionHeads(2)
		for _, id := range []string{"a", "b", "c"} {
			h.put(running(id, 1), stored, 1)
		}
		if len(h.m) != 2 {
			t.Fatalf("%d heads held, want at most 2", len(h.m))
		}
		if _, ok := h.get("c"); !ok {
			t.Fatal("the newest head was not kept")
		}
	})
}

// A session whose row another writer moved on is read from then on: its
// head is neither given nor taken again.
func TestSessionHeadsMoved(t *testing.T) {
	h := newSessionHeads(10)
	x := training.Session{ID: "a"}
	h.put(x, training.StoredInteractions{}, 1)
	h.moved("a")
	if _, ok := h.get("a"); ok {
		t.Fatal("a moved session's head is given")
	}
	h.put(x, training.StoredInteractions{}, 3)
	if _, ok := h.get("a"); ok {
		t.Fatal("a moved session's head was taken again")
	}
}
