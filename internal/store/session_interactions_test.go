package store_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// appendPatch applies a periodic update through AppendSession at the
// store's current time.
func appendPatch(s *store.Store, id string, p training.SessionPatch) (training.Session, error) {
	at := s.Now()
	return s.AppendSession(context.Background(), id, nil, func(x *training.Session) error {
		return x.Apply("alice", p, training.Scene{}, at)
	})
}

func looks(from, n int, withSeq bool) []training.Interaction {
	out := make([]training.Interaction, n)
	for i := range out {
		out[i] = training.Interaction{Action: "look", ObjectID: fmt.Sprint("o", from+i), SessionTime: int64(from + i)}
		if withSeq {
			seq := from + i
			out[i].Seq = &seq
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }

type storedRow struct {
	seq  int
	data string
}

// storedRows reads a session's interaction rows and its row's counters.
func storedRows(t *testing.T, s *store.Store, id string) (rows []storedRow, count, size int) {
	t.Helper()
	ctx := context.Background()
	r, err := s.DB().QueryContext(ctx, `SELECT seq, data FROM xr_session_interactions WHERE session_id = $1 ORDER BY seq`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for r.Next() {
		var row storedRow
		if err := r.Scan(&row.seq, &row.data); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, row)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.DB().QueryRowContext(ctx, `SELECT interaction_count, interaction_bytes FROM xr_sessions WHERE id = $1`, id).Scan(&count, &size); err != nil {
		t.Fatal(err)
	}
	return rows, count, size
}

// checkStored checks that the rows of session id are seqs 0..n-1 and that
// the row's counters agree with them.
func checkStored(t *testing.T, s *store.Store, id string, n int) []storedRow {
	t.Helper()
	rows, count, size := storedRows(t, s, id)
	total := 0
	for i, r := range rows {
		if r.seq != i {
			t.Fatalf("row %d has seq %d", i, r.seq)
		}
		total += len(r.data)
	}
	if len(rows) != n || count != n || size != total {
		t.Fatalf("%d rows, counted %d, %d bytes counted of %d; want %d", len(rows), count, size, total, n)
	}
	return rows
}

func TestAppendSession(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seedLearners(t, s)
		now := storetest.FixedNow
		advancingClock(s, &now)
		t0 := now.Add(-time.Minute)

		t.Run("AppendsInOrderAndAnswersWhatItStored", func(t *testing.T) {
			startSession(t, s, "order", "alice", "electrical-loto", t0)
			var want []training.Interaction
			for k, batch := range [][]training.Interaction{looks(0, 3, true), looks(3, 1, false), looks(4, 5, true), looks(9, 2, false)} {
				now = now.Add(time.Second)
				got, err := appendPatch(s, "order", interactions(batch...))
				if err != nil {
					t.Fatal(err)
				}
				if got.Earlier.Count != len(want) || len(got.InteractionData.Interactions) != len(batch) {
					t.Fatalf("update %d answered %d interactions after %d; want %d after %d",
						k, len(got.InteractionData.Interactions), got.Earlier.Count, len(batch), len(want))
				}
				for i, in := range got.InteractionData.Interactions {
					if in.ObjectID != batch[i].ObjectID || !in.ReceivedAt.Equal(now) {
						t.Fatalf("update %d answered %+v for %+v", k, in, batch[i])
					}
				}
				want = append(want, got.InteractionData.Interactions...)
			}
			rows := checkStored(t, s, "order", len(want))
			x, err := s.GetSession(ctx, "order")
			if err != nil {
				t.Fatal(err)
			}
			// Compared as encoded: an answer's interactions keep the encoding
			// their update made (training's seal), a read one has none.
			if gotJSON, wantJSON := mustJSON(t, x.InteractionData.Interactions), mustJSON(t, want); gotJSON != wantJSON || x.Earlier.Count != 0 {
				t.Fatalf("read back %+v\nwant %+v", x.InteractionData.Interactions, want)
			}
			// Each row is the interaction exactly as the record encodes it.
			for i, in := range want {
				b, _ := json.Marshal(in)
				if rows[i].data != string(b) {
					t.Fatalf("row %d = %s, want %s", i, rows[i].data, b)
				}
			}
			head, err := s.GetSessionHead(ctx, "order")
			if err != nil || head.Earlier.Count != len(want) || len(head.InteractionData.Interactions) != 0 {
				t.Fatalf("head = %+v, %v", head, err)
			}
		})
		t.Run("RetryStoresNothingTwice", func(t *testing.T) {
			startSession(t, s, "retry", "alice", "electrical-loto", t0)
			for range 2 {
				if _, err := appendPatch(s, "retry", interactions(looks(0, 4, true)...)); err != nil {
					t.Fatal(err)
				}
			}
			got, err := appendPatch(s, "retry", interactions(looks(2, 4, true)...)) // overlaps by two
			if err != nil {
				t.Fatal(err)
			}
			if len(got.InteractionData.Interactions) != 2 || *got.InteractionData.Interactions[0].Seq != 4 {
				t.Fatalf("overlapping update answered %+v", got.InteractionData.Interactions)
			}
			checkStored(t, s, "retry", 6)
		})
		t.Run("ErrRejectedUpdateWritesNothing", func(t *testing.T) {
			startSession(t, s, "gap", "alice", "electrical-loto", t0)
			if _, err := appendPatch(s, "gap", interactions(looks(0, 2, true)...)); err != nil {
				t.Fatal(err)
			}
			p := interactions(looks(3, 1, true)...)
			p.Position = &training.Vec3{X: 1}
			if _, err := appendPatch(s, "gap", p); apperr.Code(err) != apperr.ECONFLICT {
				t.Fatalf("err = %v, want a seq conflict", err)
			}
			checkStored(t, s, "gap", 2)
			if x, _ := s.GetSession(ctx, "gap"); x.Position != nil {
				t.Fatalf("position %+v written by a rejected update", x.Position)
			}
			if _, err := appendPatch(s, "nope", p); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("unknown session: %v", err)
			}
		})
		t.Run("ErrEndThroughAppend", func(t *testing.T) {
			// Ending judges every interaction: AppendSession, which loads
			// none, cannot end a session holding some.
			scene, _ := training.SceneByID("electrical-lockout-tagout")
			_, err := s.AppendSession(ctx, "gap", nil, func(x *training.Session) error {
				return x.Apply("alice", endPatch(now), scene, now)
			})
			if err == nil {
				t.Fatal("AppendSession ended a session it had not read")
			}
			if x, _ := s.GetSession(ctx, "gap"); x.EndedAt != nil {
				t.Fatal("the session ended")
			}
		})
	})
}

// The per-session limits hold on appends as they did on whole records: at
// most 2,000 interactions, 256 KiB of interactionData and 64 safety checks.
func TestAppendSessionLimits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		seedLearners(t, s)
		t0 := storetest.FixedNow.Add(-time.Minute)

		t.Run("Interactions", func(t *testing.T) {
			startSession(t, s, "many", "alice", "electrical-loto", t0)
			for from := 0; from < training.MaxInteractionsPerSession; from += training.MaxInteractionsPerUpdate {
				ins := looks(from, training.MaxInteractionsPerUpdate, true)
				for i := range ins {
					ins[i].ObjectID = "" // 2,000 fit in interactionData only when small
				}
				if _, err := appendPatch(s, "many", interactions(ins...)); err != nil {
					t.Fatalf("from %d: %v", from, err)
				}
			}
			_, err := appendPatch(s, "many", interactions(training.Interaction{Action: "look"}))
			if apperr.Code(err) != apperr.ETOOLARGE || !strings.Contains(apperr.Message(err), "at most 2000 interactions") {
				t.Fatalf("2,001st interaction: %v", err)
			}
			// A retry of the last update is still recognised, not refused.
			if _, err := appendPatch(s, "many", interactions(training.Interaction{Action: "look", SessionTime: 1999, Seq: ptr(1999)})); err != nil {
				t.Fatalf("retry at the limit: %v", err)
			}
			checkStored(t, s, "many", training.MaxInteractionsPerSession)
		})
		t.Run("Bytes", func(t *testing.T) {
			// The same interactions on a record in memory and through the
			// store are refused at the same one.
			startSession(t, s, "big", "alice", "electrical-loto", t0)
			memory := training.Start("big", "alice", training.NewSession{ModuleID: "electrical-loto", StartedAt: t0}, t0)
			pad := json.RawMessage(`"` + strings.Repeat("x", 1900) + `"`)
			for i := 0; ; i++ {
				in := training.Interaction{Action: "note", SessionTime: int64(i), Extra: map[string]json.RawMessage{"pad": pad}}
				wantErr := memory.Apply("alice", interactions(in), training.Scene{}, s.Now())
				_, err := appendPatch(s, "big", interactions(in))
				if apperr.Code(err) != apperr.Code(wantErr) {
					t.Fatalf("interaction %d: store %v, whole record %v", i, err, wantErr)
				}
				if err != nil {
					if apperr.Code(err) != apperr.ETOOLARGE || !strings.Contains(apperr.Message(err), "262144 bytes") || i < 100 {
						t.Fatalf("interaction %d: %v", i, err)
					}
					checkStored(t, s, "big", i)
					return
				}
			}
		})
		t.Run("SafetyChecks", func(t *testing.T) {
			startSession(t, s, "checks", "alice", "electrical-loto", t0)
			for i := range training.MaxSafetyChecks {
				p := training.SessionPatch{SessionUpdate: training.SessionUpdate{InteractionData: &training.InteractionData{
					SafetyChecks: []training.SafetyCheckResult{{ID: fmt.Sprint("c", i), Status: training.CheckPassed}},
				}}}
				if _, err := appendPatch(s, "checks", p); err != nil {
					t.Fatal(err)
				}
			}
			p := training.SessionPatch{SessionUpdate: training.SessionUpdate{InteractionData: &training.InteractionData{
				SafetyChecks: []training.SafetyCheckResult{{ID: "one-more", Status: training.CheckPassed}},
			}}}
			if _, err := appendPatch(s, "checks", p); apperr.Code(err) != apperr.ETOOLARGE {
				t.Fatalf("65th safety check: %v", err)
			}
			if x, _ := s.GetSession(context.Background(), "checks"); len(x.InteractionData.SafetyChecks) != training.MaxSafetyChecks {
				t.Fatalf("%d safety checks stored", len(x.InteractionData.SafetyChecks))
			}
		})
	})
}

// Concurrent updates of one session keep every interaction, each at its own
// seq with none lost, each writer's in the order it sent them, and every
// writer's safety check. On PostgreSQL the updates race optimistically and,
// with no optimistic attempts, all take the row lock.
func TestAppendSessionConcurrently(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		seedLearners(t, s)
		modes := []int{*store.OptimisticAttempts}
		if s.Dialect() == store.Postgres {
			modes = append(modes, 0)
		}
		for _, attempts := range modes {
			t.Run(fmt.Sprint("attempts=", attempts), func(t *testing.T) {
				defer func(n int) { *store.OptimisticAttempts = n }(*store.OptimisticAttempts)
				*store.OptimisticAttempts = attempts
				id := fmt.Sprint("conc-", attempts)
				startSession(t, s, id, "alice", "hvac-gauges", storetest.FixedNow.Add(-time.Minute))
				const writers, each = 8, 6
				var wg sync.WaitGroup
				errs := make(chan error, writers*each)
				for w := range writers {
					wg.Go(func() {
						for k := range each {
							p := interactions(training.Interaction{Action: "look", ObjectID: fmt.Sprintf("w%d-%d", w, k)},
								training.Interaction{Action: "look", ObjectID: fmt.Sprintf("w%d-%d+", w, k)})
							p.InteractionData.SafetyChecks = []training.SafetyCheckResult{{ID: fmt.Sprint("w", w), Status: training.CheckPassed}}
							_, err := appendPatch(s, id, p)
							errs <- err
						}
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					if err != nil {
						t.Fatal(err)
					}
				}
				checkStored(t, s, id, writers*each*2)
				x, err := s.GetSession(context.Background(), id)
				if err != nil {
					t.Fatal(err)
				}
				next := map[int]int{} // writer → next k expected
				ins := x.InteractionData.Interactions
				for i := 0; i < len(ins); i += 2 {
					var w, k int
					if _, err := fmt.Sscanf(ins[i].ObjectID, "w%d-%d", &w, &k); err != nil {
						t.Fatal(err)
					}
					if k != next[w] || ins[i+1].ObjectID != ins[i].ObjectID+"+" {
						t.Fatalf("at seq %d: %s, %s; want writer %d's update %d, both of its interactions", i, ins[i].ObjectID, ins[i+1].ObjectID, w, next[w])
					}
					next[w]++
				}
				if len(x.InteractionData.SafetyChecks) != writers {
					t.Fatalf("safety checks %+v, want one per writer", x.InteractionData.SafetyChecks)
				}
			})
		}
	})
}

// The end judges every interaction stored by earlier updates, each with the
// time its update was received: one that arrived ahead of real time, stored
// long before the end, leaves the session unverified.
func TestEndJudgesEveryAppendedInteraction(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seedLearners(t, s)
		scene, _ := training.SceneByID("electrical-lockout-tagout")
		for _, early := range []bool{false, true} {
			t.Run(fmt.Sprint("early=", early), func(t *testing.T) {
				now := storetest.FixedNow
				advancingClock(s, &now)
				id := fmt.Sprint("judged-", early)
				x := training.Start(id, "alice", training.NewSession{ModuleID: "electrical-loto", StartedAt: now}, now)
				if _, err := s.CreateSession(ctx, x, nil); err != nil {
					t.Fatal(err)
				}
				// Each step in its own update, with a look between steps; in
				// the early run the second step claims 20 s more than has
				// passed when it arrives.
				var received []time.Time
				var at int64
				seq := 0
				for i, st := range scene.Steps {
					at += st.MinDurationMs + 700
					now = storetest.FixedNow.Add(time.Duration(at+250) * time.Millisecond)
					claimed := at
					if early && i == 1 {
						claimed += 20_000
						at = claimed
					}
					s1, s2 := seq, seq+1
					got, err := appendPatch(s, id, interactions(
						training.Interaction{Action: "look", SessionTime: claimed - 100, Seq: &s1},
						training.Interaction{Action: st.Action, ObjectID: st.Target, StepID: st.ID, SessionTime: claimed, Seq: &s2}))
					if err != nil {
						t.Fatal(err)
					}
					if len(got.InteractionData.Interactions) != 2 {
						t.Fatalf("step %d stored %d", i, len(got.InteractionData.Interactions))
					}
					received = append(received, now, now)
					seq += 2
				}
				now = now.Add(time.Second)
				ended := apply(t, s, id, endPatch(now))
				stored, err := s.GetSession(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				for _, got := range [][]training.Interaction{ended.InteractionData.Interactions, stored.InteractionData.Interactions} {
					if len(got) != len(received) {
						t.Fatalf("%d interactions, want %d", len(got), len(received))
					}
					for i, in := range got {
						if !in.ReceivedAt.Equal(received[i]) {
							t.Fatalf("interaction %d received at %v, want %v", i, in.ReceivedAt, received[i])
						}
					}
				}
				want := training.Verify(scene, storetest.FixedNow, stored.InteractionData.Interactions)
				if ended.Verified != !early || want.Verified != !early || fmt.Sprint(ended.VerificationIssues) != fmt.Sprint(want.Issues) {
					t.Fatalf("verified %v %q; Verify of the stored record: %v %q", ended.Verified, ended.VerificationIssues, want.Verified, want.Issues)
				}
				if early && !strings.Contains(ended.VerificationIssues[0], "ahead of real time") {
					t.Fatalf("issues %q", ended.VerificationIssues)
				}
				checkStored(t, s, id, len(received))
			})
		}
	})
}

// SQLite has one writer: a write transaction waits for the one in progress,
// gives up when its context ends, and runs once the writer is free. (That it
// waits in the store's queue rather than SQLite's sleeping busy handler is
// speed, which bench/sessions shows.)
func TestSQLiteWritesQueue(t *testing.T) {
	s := storetest.OpenSQLite(t)
	seedLearners(t, s)
	release := holdWriter(t, s)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err := store.Tx(ctx, s, "wait", func(*sql.Tx) error {
		t.Error("a second write ran while the first held the writer")
		return nil
	})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("waiting write: %v; want the context's deadline", err)
	}

	queued := make(chan error, 1)
	go func() { queued <- store.Tx(context.Background(), s, "queued", func(*sql.Tx) error { return nil }) }()
	release()
	if err := <-queued; err != nil {
		t.Fatalf("queued write after the first: %v", err)
	}
	startSession(t, s, "after-queue", "alice", "hvac-gauges", storetest.FixedNow.Add(-time.Minute))
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
