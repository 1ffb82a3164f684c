package server

import (
	"context"
	"testing"
	"time"

	"journeyman/internal/identity"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// TestAbandonedSessionsEnd: a session idle for a day, a learner's or a
// guest's, is ended as of its last update and judged; a running one is
// left alone, and a second sweep finds nothing more.
func TestAbandonedSessionsEnd(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		ctx := context.Background()
		s := MustOpenXRServer(t, st)
		lea := mustAccount(t, s, "Lea", "Plant School", identity.Learner)
		const module = "electrical-lockout-tagout"
		left := newSession(t, s, "Lea", module, "vr")
		guests := newSession(t, s, alice, module, "desktop")
		checkError(t, call(t, s, "Lea", "PATCH", "/api/xr-sessions/"+left.ID, `{"duration": 95}`), 200, "")
		before, err := st.GetSession(ctx, left.ID)
		if err != nil {
			t.Fatal(err)
		}

		st.Now = func() time.Time { return before.UpdatedAt.Add(abandonAfter + time.Minute) }
		t.Cleanup(func() { st.Now = func() time.Time { return storetest.FixedNow } })
		res := call(t, s, "Lea", "POST", "/api/xr-sessions", `{"moduleId":"`+module+`","sessionType":"desktop","deviceType":"Mozilla/5.0","startedAt":"`+ts(st.Now())+`"}`)
		checkError(t, res, 201, "")
		running := decode[training.Session](t, res)
		n, err := s.endAbandoned(ctx)
		if err != nil || n != 2 {
			t.Fatalf("ended %d (%v), want the learner's and the guest's", n, err)
		}
		for _, id := range []string{left.ID, guests.ID} {
			x, err := st.GetSession(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if x.CompletionStatus != training.StatusCompleted || x.EndedAt == nil || x.InteractionData.CompletionStatus != training.OutcomeFailed || x.SafetyScore == nil {
				t.Fatalf("abandoned session %s = %s, ended %v, outcome %q", id, x.CompletionStatus, x.EndedAt, x.InteractionData.CompletionStatus)
			}
			if id == left.ID && !x.EndedAt.Equal(before.UpdatedAt) {
				t.Fatalf("ended at %v, want its last update %v", x.EndedAt, before.UpdatedAt)
			}
		}
		if x, err := st.GetSession(ctx, running.ID); err != nil || x.EndedAt != nil {
			t.Fatalf("a running session was ended: %+v %v", x.EndedAt, err)
		}
		if n, err := s.endAbandoned(ctx); err != nil || n != 0 {
			t.Fatalf("second sweep ended %d (%v)", n, err)
		}
		// The learner's history shows it ended.
		list := decode[[]training.SessionSummary](t, call(t, s, "Lea", "GET", "/api/users/"+lea.ID+"/xr-sessions", ""))
		for _, x := range list {
			if x.ID == left.ID && x.CompletionStatus != training.StatusCompleted {
				t.Fatalf("history = %+v", x)
			}
		}
	})
}
