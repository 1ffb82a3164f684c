package store_test

import (
	"context"
	"database/sql"
	"reflect"
	"testing"
	"time"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// advancingClock makes s's clock read from *now, for runs paced in time.
func advancingClock(s *store.Store, now *time.Time) { s.Now = func() time.Time { return *now } }

// apply applies a patch at the store's current time.
func apply(t *testing.T, s *store.Store, id string, p training.SessionPatch) training.Session {
	t.Helper()
	scene, _ := training.SceneByID("electrical-lockout-tagout")
	x, err := s.UpdateSession(context.Background(), id, nil, func(x *training.Session) error {
		return x.Apply("alice", p, scene, s.Now())
	})
	if err != nil {
		t.Fatalf("apply to %s: %v", id, err)
	}
	return x
}

func interactions(ins ...training.Interaction) training.SessionPatch {
	return training.SessionPatch{SessionUpdate: training.SessionUpdate{InteractionData: &training.InteractionData{Interactions: ins}}}
}

func endPatch(at time.Time, ins ...training.Interaction) training.SessionPatch {
	p := interactions(ins...)
	status := training.StatusCompleted
	p.EndedAt, p.CompletionStatus = &at, &status
	return p
}

// The verification columns round-trip on both databases: the server's start,
// each interaction's receipt, and the verdict with its reasons, in the
// record and in every summary list.
func TestSessionVerification(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seedLearners(t, s)
		scene, _ := training.SceneByID("electrical-lockout-tagout")
		now := storetest.FixedNow
		advancingClock(s, &now)

		t.Run("StartRecordsTheServersTime", func(t *testing.T) {
			// The learner says they started a minute ago; the server saw it now.
			startSession(t, s, "genuine", "alice", "electrical-loto", now.Add(-time.Minute))
			x := training.Start("genuine2", "alice", training.NewSession{ModuleID: "electrical-loto", StartedAt: now.Add(-time.Minute)}, now)
			if _, err := s.CreateSession(ctx, x, nil); err != nil {
				t.Fatal(err)
			}
			got, err := s.GetSession(ctx, "genuine2")
			if err != nil {
				t.Fatal(err)
			}
			if got.ServerStartedAt == nil || !got.ServerStartedAt.Equal(now) || got.Verified || !reflect.DeepEqual(got.VerificationIssues, []string{}) {
				t.Fatalf("started: serverStartedAt %v verified %v issues %#v", got.ServerStartedAt, got.Verified, got.VerificationIssues)
			}
		})
		t.Run("GenuineRunIsVerified", func(t *testing.T) {
			// One update per step, each sent as the learner does it.
			var at int64
			for i, st := range scene.Steps {
				at += st.MinDurationMs + 700
				now = storetest.FixedNow.Add(time.Duration(at+250) * time.Millisecond)
				x := apply(t, s, "genuine2", interactions(training.Interaction{
					Action: st.Action, ObjectID: st.Target, StepID: st.ID, SessionTime: at, Seq: &i,
				}))
				if got := x.InteractionData.Interactions[i].ReceivedAt; !got.Equal(now) {
					t.Fatalf("step %d received at %v, want %v", i, got, now)
				}
			}
			now = now.Add(2 * time.Second)
			apply(t, s, "genuine2", endPatch(now))
			got, err := s.GetSession(ctx, "genuine2")
			if err != nil {
				t.Fatal(err)
			}
			if !got.Verified || len(got.VerificationIssues) != 0 || *got.SafetyScore != 100 ||
				!got.InteractionData.Interactions[0].ReceivedAt.Equal(storetest.FixedNow.Add(time.Duration(scene.Steps[0].MinDurationMs+700+250)*time.Millisecond)) {
				t.Fatalf("genuine run: verified %v issues %q score %v receipt %v", got.Verified, got.VerificationIssues, *got.SafetyScore, got.InteractionData.Interactions[0].ReceivedAt)
			}
		})
		t.Run("OnePatchAttackIsStoredUnverified", func(t *testing.T) {
			x := training.Start("attack", "alice", training.NewSession{ModuleID: "electrical-loto", StartedAt: now}, now)
			if _, err := s.CreateSession(ctx, x, nil); err != nil {
				t.Fatal(err)
			}
			var ins []training.Interaction
			for i, st := range scene.Steps {
				ins = append(ins, training.Interaction{Action: st.Action, ObjectID: st.Target, StepID: st.ID, SessionTime: int64(5000 * (i + 1))})
			}
			now = now.Add(3 * time.Second)
			apply(t, s, "attack", endPatch(now, ins...))
			got, err := s.GetSession(ctx, "attack")
			if err != nil {
				t.Fatal(err)
			}
			if got.CompletionStatus != training.StatusCompleted || *got.SafetyScore != 100 || got.Verified || len(got.VerificationIssues) != 1 {
				t.Fatalf("attack: status %s score %v verified %v issues %q", got.CompletionStatus, *got.SafetyScore, got.Verified, got.VerificationIssues)
			}
		})
		t.Run("SummariesCarryTheVerdict", func(t *testing.T) {
			attack, _ := s.GetSession(ctx, "attack")
			want := map[string]struct {
				verified bool
				issues   []string
			}{
				"attack":   {false, attack.VerificationIssues},
				"genuine2": {true, []string{}},
				"genuine":  {false, []string{}},
			}
			page, _, err := s.ListSessions(ctx, "alice", 100, 0)
			if err != nil {
				t.Fatal(err)
			}
			all, err := s.ListAllSessions(ctx, "alice")
			if err != nil {
				t.Fatal(err)
			}
			live, err := s.ListLiveSessions(ctx, "", storetest.FixedNow.Add(-time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			for _, list := range [][]training.SessionSummary{page, all, live} {
				for _, x := range list {
					w := want[x.ID]
					if x.Verified != w.verified || !reflect.DeepEqual(x.VerificationIssues, w.issues) {
						t.Errorf("summary %s: verified %v issues %#v; want %v %#v", x.ID, x.Verified, x.VerificationIssues, w.verified, w.issues)
					}
				}
			}
			if len(live) != 1 || live[0].ID != "genuine" {
				t.Fatalf("live = %+v", live)
			}
		})
	})
}

// Migration 00007 marks the sessions that had ended unverified, with the
// reason the learner reads, and leaves running ones to be judged when they
// end (when they lack the server's start, for the same reason).
func TestMigrationMarksEarlierSessionsUnverified(t *testing.T) {
	eachOldDB(t, 5, func(t *testing.T, o oldDB, db *sql.DB) {
		ctx := context.Background()
		started := storetest.FixedNow.Add(-time.Hour)
		seedOldDB(t, db, started)
		for _, q := range []struct {
			sql  string
			args []any
		}{
			{`INSERT INTO xr_sessions (id, user_id, module_id, session_type, started_at, ended_at, completion_status, safety_score, interaction_data, outcome, updated_at)
					VALUES ('old-ended', 'alice', 'electrical-loto', 'vr', $1, $1, 'completed', 100, '{"interactions":[],"completionStatus":"passed"}', 'passed', $1)`, []any{started}},
			{`INSERT INTO xr_sessions (id, user_id, module_id, session_type, started_at, interaction_data, updated_at)
					VALUES ('old-running', 'alice', 'electrical-loto', 'vr', $1, '{"interactions":[{"action":"look","sessionTime":5}]}', $1)`, []any{started}},
		} {
			if _, err := db.ExecContext(ctx, q.sql, q.args...); err != nil {
				t.Fatalf("%s: %v", q.sql, err)
			}
		}
		db.Close()

		s, err := store.Open(ctx, o.dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.Now = func() time.Time { return storetest.FixedNow }
		ended, err := s.GetSession(ctx, "old-ended")
		if err != nil {
			t.Fatal(err)
		}
		legacy := []string{training.IssueRecordedBeforeVerification}
		if ended.Verified || !reflect.DeepEqual(ended.VerificationIssues, legacy) || ended.ServerStartedAt != nil {
			t.Fatalf("ended before 00007: verified %v issues %q serverStartedAt %v", ended.Verified, ended.VerificationIssues, ended.ServerStartedAt)
		}
		running, err := s.GetSession(ctx, "old-running")
		if err != nil {
			t.Fatal(err)
		}
		if running.Verified || len(running.VerificationIssues) != 0 {
			t.Fatalf("running at 00007: verified %v issues %q", running.Verified, running.VerificationIssues)
		}
		scene, _ := training.SceneByID("electrical-lockout-tagout")
		got, err := s.UpdateSession(ctx, "old-running", nil, func(x *training.Session) error {
			return x.Apply("alice", endPatch(storetest.FixedNow), scene, storetest.FixedNow)
		})
		if err != nil {
			t.Fatal(err)
		}
		if got.Verified || !reflect.DeepEqual(got.VerificationIssues, legacy) {
			t.Fatalf("ended after 00007: verified %v issues %q", got.Verified, got.VerificationIssues)
		}
		stats, err := s.DashboardStats(ctx, "")
		if err != nil || stats.AverageSafetyScore != 0 {
			t.Fatalf("dashboard after 00007 = %+v, %v; want no score averaged", stats, err)
		}
	})
}
