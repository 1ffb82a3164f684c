package store_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/realtime"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// seedLearners seeds the test catalog and two learners.
func seedLearners(t *testing.T, s *store.Store) {
	t.Helper()
	ctx := context.Background()
	if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"alice", "bob"} {
		if _, err := s.EnsureLearner(ctx, id, id); err != nil {
			t.Fatal(err)
		}
	}
}

func startSession(t *testing.T, s *store.Store, id, user, module string, startedAt time.Time) training.Session {
	t.Helper()
	x := training.Start(id, user, training.NewSession{ModuleID: module, SessionType: training.SessionVR, DeviceType: "test", StartedAt: startedAt}, startedAt)
	got, err := s.CreateSession(context.Background(), x, nil)
	if err != nil {
		t.Fatalf("create session %s: %v", id, err)
	}
	return got
}

func TestSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seedLearners(t, s)
		t0 := storetest.FixedNow.Add(-time.Hour)

		t.Run("CreateAndGet", func(t *testing.T) {
			created := startSession(t, s, "s1", "alice", "electrical-loto", t0)
			if created.ModuleTitle != "Lockout/Tagout" {
				t.Fatalf("moduleTitle = %q", created.ModuleTitle)
			}
			got, err := s.GetSession(ctx, "s1")
			if err != nil {
				t.Fatal(err)
			}
			if got.UserID != "alice" || got.SessionType != "vr" || !got.StartedAt.Equal(t0) || got.EndedAt != nil ||
				got.CompletionStatus != training.StatusInProgress || got.SafetyScore != nil || got.Position != nil ||
				len(got.InteractionData.Interactions) != 0 || got.InteractionData.SafetyChecks == nil {
				t.Fatalf("got %+v", got)
			}
		})
		t.Run("ErrUnknownModule", func(t *testing.T) {
			x := training.Start("s-bad", "alice", training.NewSession{ModuleID: "nope", SessionType: "desktop", StartedAt: t0}, t0)
			if _, err := s.CreateSession(ctx, x, nil); apperr.Code(err) != apperr.EINVALID {
				t.Fatalf("err = %v, want invalid naming moduleId", err)
			}
		})
		t.Run("ErrUnknownSession", func(t *testing.T) {
			if _, err := s.GetSession(ctx, "nope"); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("err = %v", err)
			}
			_, err := s.UpdateSession(ctx, "nope", nil, func(*training.Session) error { return nil })
			if apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("update err = %v", err)
			}
		})
		t.Run("UpdateAndEnd", func(t *testing.T) {
			scene := training.SceneForModule("electrical-loto", "electrical")
			quaternion := training.Quaternion(0, 0, 0, 1)
			upd := training.SessionPatch{SessionUpdate: training.SessionUpdate{
				Position: &training.Vec3{X: 1, Y: 1.6, Z: -2},
				Rotation: &quaternion,
				InteractionData: &training.InteractionData{Interactions: []training.Interaction{
					{Action: "look", SessionTime: 1000},
				}},
			}}
			if _, err := s.UpdateSession(ctx, "s1", nil, func(x *training.Session) error {
				return x.Apply("alice", upd, scene, storetest.FixedNow)
			}); err != nil {
				t.Fatal(err)
			}
			end := t0.Add(10 * time.Minute)
			status := training.StatusCompleted
			ended, err := s.UpdateSession(ctx, "s1", nil, func(x *training.Session) error {
				return x.Apply("alice", training.SessionPatch{EndedAt: &end, CompletionStatus: &status}, scene, storetest.FixedNow)
			})
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.GetSession(ctx, "s1")
			if err != nil {
				t.Fatal(err)
			}
			if got.Position == nil || got.Position.Z != -2 || *got.Rotation != quaternion || len(got.InteractionData.Interactions) != 1 ||
				got.EndedAt == nil || !got.EndedAt.Equal(end) || got.Duration != 600 || got.CompletionStatus != "completed" ||
				got.SafetyScore == nil || *got.SafetyScore != *ended.SafetyScore || got.InteractionData.CompletionStatus != training.OutcomeFailed {
				t.Fatalf("got %+v", got)
			}
		})
		t.Run("ErrFnAbortsUpdate", func(t *testing.T) {
			_, err := s.UpdateSession(ctx, "s1", nil, func(x *training.Session) error {
				x.Duration = 1
				return apperr.Conflict("stop")
			})
			got, _ := s.GetSession(ctx, "s1")
			if apperr.Code(err) != apperr.ECONFLICT || got.Duration != 600 {
				t.Fatalf("err = %v, duration %d; want the conflict and nothing written", err, got.Duration)
			}
		})
		t.Run("ConcurrentUpdatesKeepEveryInteraction", func(t *testing.T) {
			startSession(t, s, "s-conc", "alice", "hvac-gauges", t0.Add(30*time.Second))
			scene, _ := training.SceneByID(training.DefaultSceneID)
			var wg sync.WaitGroup
			errs := make(chan error, 20)
			for i := range 20 {
				wg.Go(func() {
					_, err := s.UpdateSession(ctx, "s-conc", nil, func(x *training.Session) error {
						return x.Apply("alice", training.SessionPatch{SessionUpdate: training.SessionUpdate{
							InteractionData: &training.InteractionData{Interactions: []training.Interaction{{Action: fmt.Sprint("a", i)}}},
						}}, scene, storetest.FixedNow)
					})
					errs <- err
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Fatal(err)
				}
			}
			got, _ := s.GetSession(ctx, "s-conc")
			if n := len(got.InteractionData.Interactions); n != 20 {
				t.Fatalf("%d interactions stored, want 20", n)
			}
		})
		t.Run("ListNewestFirstPaginated", func(t *testing.T) {
			for i := range 5 {
				startSession(t, s, fmt.Sprint("b", i), "bob", "electrical-basics", t0.Add(time.Duration(i)*time.Minute))
			}
			page, total, err := s.ListSessions(ctx, "bob", 2, 0)
			if err != nil {
				t.Fatal(err)
			}
			if total != 5 || len(page) != 2 || page[0].ID != "b4" || page[1].ID != "b3" || page[0].ModuleTitle != "Electrical Basics" {
				t.Fatalf("page 1 = %+v, total %d", page, total)
			}
			page, _, _ = s.ListSessions(ctx, "bob", 2, 4)
			if len(page) != 1 || page[0].ID != "b0" {
				t.Fatalf("last page = %+v", page)
			}
			page, _, _ = s.ListSessions(ctx, "bob", 10_000, 0)
			if len(page) != 5 {
				t.Fatalf("clamped page has %d items", len(page))
			}
			all, err := s.ListAllSessions(ctx, "alice")
			if err != nil || len(all) != 2 {
				t.Fatalf("all = %+v, %v", all, err)
			}
			for _, x := range all {
				if x.UserID != "alice" {
					t.Fatalf("another learner's session listed: %+v", x)
				}
			}
			ended := all[1]
			if ended.ID != "s1" || ended.Outcome != training.OutcomeFailed || ended.SafetyScore == nil || ended.EndedAt == nil {
				t.Fatalf("ended summary = %+v", ended)
			}
		})
		t.Run("LiveSessions", func(t *testing.T) {
			// s1 has ended; the others were last updated at t0.. or FixedNow.
			live, err := s.ListLiveSessions(ctx, "", storetest.FixedNow.Add(-time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			if len(live) != 1 || live[0].ID != "s-conc" {
				t.Fatalf("live = %+v, want s-conc only", live)
			}
		})
	})
}

// TestIdleSessions: the sessions not ended and not updated since a time,
// longest idle first, and no other.
func TestIdleSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seedLearners(t, s)
		day := storetest.FixedNow.Add(-24 * time.Hour)
		startSession(t, s, "idle-2d", "alice", "electrical-loto", day.Add(-24*time.Hour))
		startSession(t, s, "idle-1d", "bob", "electrical-loto", day.Add(-time.Minute))
		startSession(t, s, "idle-30s", "bob", "electrical-loto", day.Add(-30*time.Second)) // in the last minute before: by updated_at
		startSession(t, s, "recent", "alice", "electrical-loto", day.Add(time.Hour))
		startSession(t, s, "ended", "alice", "electrical-loto", day.Add(-48*time.Hour))
		end := training.SessionPatch{EndedAt: ptr(day.Add(-47 * time.Hour)), CompletionStatus: ptr(training.StatusCompleted)}
		if _, err := s.UpdateSession(ctx, "ended", nil, func(x *training.Session) error {
			return x.Apply("alice", end, training.Scene{}, storetest.FixedNow)
		}); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			limit int
			want  []string
		}{{10, []string{"idle-2d", "idle-1d", "idle-30s"}}, {2, []string{"idle-2d", "idle-1d"}}} {
			ids, err := s.IdleSessions(ctx, day, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(ids) != fmt.Sprint(tt.want) {
				t.Fatalf("idle sessions (limit %d) = %v, want %v", tt.limit, ids, tt.want)
			}
		}
	})
}

func TestSafetyAlerts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		seedLearners(t, s)
		var ids []int64
		for i, typ := range realtime.AlertTypes {
			s.Now = func() time.Time { return storetest.FixedNow.Add(time.Duration(i) * time.Second) }
			a, err := s.CreateSafetyAlert(ctx, "alice", "room-1", realtime.SafetyAlertPayload{AlertType: typ, Description: "d" + typ})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, a.ID)
		}
		got, err := s.GetSafetyAlert(ctx, ids[0])
		if err != nil || got.AlertType != "emergency" || got.Description != "demergency" || got.SessionID != "room-1" ||
			got.UserID != "alice" || !got.CreatedAt.Equal(storetest.FixedNow) {
			t.Fatalf("get = %+v, %v", got, err)
		}
		list, err := s.ListSafetyAlerts(ctx, "", 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 3 || list[0].ID != ids[3] || list[2].ID != ids[1] {
			t.Fatalf("list = %+v, want the 3 newest, newest first", list)
		}
		if _, err := s.GetSafetyAlert(ctx, 999999); apperr.Code(err) != apperr.ENOTFOUND {
			t.Fatalf("err = %v", err)
		}
		if _, err := s.CreateSafetyAlert(ctx, "alice", "", realtime.SafetyAlertPayload{AlertType: "fire", Description: "x"}); err == nil {
			t.Fatal("the database accepted an unknown alert type")
		}
	})
}

// A page of history reads the learner's sessions in the index's order and
// stops at the page's end: no sort of all their sessions, which a page of
// 20 out of 1,000 would otherwise pay for on every request.
func TestHistoryPageReadsTheIndexInOrder(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		tx, err := s.DB().BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback() }()
		explain := `EXPLAIN QUERY PLAN `
		if s.Dialect() == store.Postgres {
			// The test's tables are too small for an index to be worth it;
			// left a sort as its only choice, the planner shows one.
			for _, set := range []string{"enable_seqscan", "enable_sort", "enable_incremental_sort"} {
				if _, err := tx.ExecContext(ctx, `SET LOCAL `+set+` = off`); err != nil {
					t.Fatal(err)
				}
			}
			explain = `EXPLAIN `
		}
		rows, err := tx.QueryContext(ctx, explain+store.HistoryPage, "alice", 20, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		var plan string
		for rows.Next() {
			cells := make([]any, len(cols))
			var detail string
			for i := range cells {
				cells[i] = new(any)
			}
			cells[len(cells)-1] = &detail // SQLite's detail, PostgreSQL's only column
			if err := rows.Scan(cells...); err != nil {
				t.Fatal(err)
			}
			plan += detail + "\n"
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(plan, "xr_sessions_user") || strings.Contains(plan, "TEMP B-TREE") || strings.Contains(plan, "Sort") {
			t.Fatalf("a history page should read xr_sessions_user in order, with no sort; plan:\n%s", plan)
		}
	})
}
