package store_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"journeyman/internal/learning"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

// learnerA and learnerB are declared with the dashboard tests.

// MustOpenLearningStore seeds the test catalog and two learners.
func MustOpenLearningStore(t *testing.T, s *store.Store) {
	t.Helper()
	ctx := context.Background()
	if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{learnerA, learnerB} {
		if _, err := s.EnsureLearner(ctx, id, "Guest "+id[:4]); err != nil {
			t.Fatal(err)
		}
	}
}

// insertSession records an XR session the way the session endpoints do, by
// SQL, so these tests do not depend on them.
// insertSession stores a verified session record; insertUnverifiedSession
// one that training.Verify did not accept.
func insertSession(t *testing.T, s *store.Store, id, learner, module, status string, ended *time.Time, score *float64, data string) {
	t.Helper()
	insertSessionRow(t, s, id, learner, module, status, ended, score, data, true)
}

func insertUnverifiedSession(t *testing.T, s *store.Store, id, learner, module, status string, ended *time.Time, score *float64, data string) {
	t.Helper()
	insertSessionRow(t, s, id, learner, module, status, ended, score, data, false)
}

func insertSessionRow(t *testing.T, s *store.Store, id, learner, module, status string, ended *time.Time, score *float64, data string, verified bool) {
	t.Helper()
	start := storetest.FixedNow.Add(-time.Hour)
	if ended != nil {
		start = ended.Add(-20 * time.Minute)
	}
	var endedArg any
	if ended != nil {
		endedArg = ended.UTC()
	}
	var scoreArg any
	if score != nil {
		scoreArg = *score
	}
	_, err := s.DB().ExecContext(context.Background(), `
		INSERT INTO xr_sessions (id, user_id, module_id, session_type, started_at, ended_at, duration,
			completion_status, safety_score, interaction_data, updated_at, verified)
		VALUES ($1, $2, $3, 'vr', $4, $5, 1200, $6, $7, $8, $9, $10)`,
		id, learner, module, start.UTC(), endedArg, status, scoreArg, data, start.Add(30*time.Minute).UTC(), verified)
	if err != nil {
		t.Fatalf("insert session %s: %v", id, err)
	}
}

func fptr(v float64) *float64 { return &v }

func TestLearningPreferences(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		MustOpenLearningStore(t, s)
		ctx := context.Background()
		t.Run("DefaultsBeforeSave", func(t *testing.T) {
			got, err := s.GetLearningPreferences(ctx, learnerA)
			if err != nil {
				t.Fatal(err)
			}
			want := store.SavedPreferences{LearningPreferences: learning.DefaultPreferences()}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %+v, want %+v", got, want)
			}
		})
		prefs := learning.LearningPreferences{
			PreferredLearningStyle: "kinesthetic", XRComfortLevel: "comfortable", SessionDuration: 45,
			IndustryExperience: 3, LearningGoals: "Pass the journeyman exam", DifficultyProgression: "moderate",
			FocusAreas: []string{"safety", "troubleshooting"}, AvailableTimeSlots: []string{"weekday evenings"},
			CertificationGoals: nil,
		}
		t.Run("SaveThenGet", func(t *testing.T) {
			saved, err := s.SaveLearningPreferences(ctx, learnerA, prefs)
			if err != nil {
				t.Fatal(err)
			}
			want := prefs
			want.CertificationGoals = []string{}
			if !saved.Saved || saved.UpdatedAt == nil || !saved.UpdatedAt.Equal(storetest.FixedNow) || !reflect.DeepEqual(saved.LearningPreferences, want) {
				t.Fatalf("saved = %+v, want %+v saved at %v", saved, want, storetest.FixedNow)
			}
			got, err := s.GetLearningPreferences(ctx, learnerA)
			if err != nil || !reflect.DeepEqual(got, saved) {
				t.Fatalf("get = %+v, %v; want %+v", got, err, saved)
			}
		})
		t.Run("SaveAgainReplaces", func(t *testing.T) {
			next := learning.DefaultPreferences()
			next.SessionDuration = 120
			saved, err := s.SaveLearningPreferences(ctx, learnerA, next)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(saved.LearningPreferences, next) {
				t.Fatalf("saved = %+v, want %+v", saved.LearningPreferences, next)
			}
		})
		t.Run("OtherLearnerUnaffected", func(t *testing.T) {
			got, err := s.GetLearningPreferences(ctx, learnerB)
			if err != nil || got.Saved {
				t.Fatalf("learner B = %+v, %v; want defaults", got, err)
			}
		})
	})
}

func TestSkillAssessments(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		MustOpenLearningStore(t, s)
		ctx := context.Background()
		t.Run("EmptyBeforeSave", func(t *testing.T) {
			got, err := s.ListSkillAssessments(ctx, learnerA)
			if err != nil || got == nil || len(got) != 0 {
				t.Fatalf("list = %#v, %v; want an empty list", got, err)
			}
		})
		var added []store.StoredAssessment
		t.Run("AddNewestFirst", func(t *testing.T) {
			for i, score := range []int{20, 50, 90} {
				a := learning.DefaultAssessment()
				a.OverallScore = score
				a.Strengths = []string{fmt.Sprintf("strength %d", i)}
				a.ImprovementAreas = nil
				got, err := s.AddSkillAssessment(ctx, learnerA, a, nil)
				if err != nil {
					t.Fatal(err)
				}
				added = append([]store.StoredAssessment{got}, added...)
			}
			list, err := s.ListSkillAssessments(ctx, learnerA)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(list, added) {
				t.Fatalf("list = %+v\nwant %+v", list, added)
			}
			if list[0].Level != "advanced" || list[1].Level != "intermediate" || list[2].Level != "beginner" {
				t.Errorf("levels = %s, %s, %s", list[0].Level, list[1].Level, list[2].Level)
			}
			if list[0].ImprovementAreas == nil || len(list[0].ImprovementAreas) != 0 {
				t.Errorf("improvementAreas = %#v, want []", list[0].ImprovementAreas)
			}
		})
		t.Run("KeepsLatest", func(t *testing.T) {
			for i := range store.MaxAssessmentsKept {
				a := learning.DefaultAssessment()
				a.OverallScore = (i % 10) * 10
				if _, err := s.AddSkillAssessment(ctx, learnerB, a, nil); err != nil {
					t.Fatal(err)
				}
			}
			list, err := s.ListSkillAssessments(ctx, learnerB)
			if err != nil || len(list) != store.MaxAssessmentsKept {
				t.Fatalf("learner B has %d assessments, %v; want %d", len(list), err, store.MaxAssessmentsKept)
			}
			if mine, _ := s.ListSkillAssessments(ctx, learnerA); len(mine) != 3 {
				t.Fatalf("learner A has %d assessments, want 3", len(mine))
			}
			newest := list[0]
			a := learning.DefaultAssessment()
			if _, err := s.AddSkillAssessment(ctx, learnerB, a, nil); err != nil {
				t.Fatal(err)
			}
			list, _ = s.ListSkillAssessments(ctx, learnerB)
			if len(list) != store.MaxAssessmentsKept || list[1].ID != newest.ID {
				t.Fatalf("after one more: %d kept, second newest %d; want %d kept, second newest %d", len(list), list[1].ID, store.MaxAssessmentsKept, newest.ID)
			}
		})
	})
}

func TestRecommendationSets(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		MustOpenLearningStore(t, s)
		ctx := context.Background()
		t.Run("NoneBeforeGenerate", func(t *testing.T) {
			got, err := s.LatestRecommendationSet(ctx, learnerA)
			if err != nil || got != nil {
				t.Fatalf("latest = %+v, %v; want nil", got, err)
			}
		})
		req := learning.RecommendationRequest{TradeCategory: "electrical", CurrentSkillLevel: "beginner",
			TimeConstraints: learning.TimeConstraints{HoursPerWeek: 1, PreferredSessionLength: 30}, FocusAreas: []string{}}
		recs := learning.Recommend(learning.RecommendInput{Trades: testTrades, Modules: testModules, Request: req,
			Preferences: learning.DefaultPreferences()}).Recommendations
		t.Run("LatestWins", func(t *testing.T) {
			first, err := s.AddRecommendationSet(ctx, learnerA, req, learning.Recommendations{ReasoningExplanation: "old",
				RecommendedPaths: []learning.RecommendedPath{}, PersonalizedModifications: []string{}, EstimatedOutcomes: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			second, err := s.AddRecommendationSet(ctx, learnerA, req, recs)
			if err != nil {
				t.Fatal(err)
			}
			if second.ID <= first.ID {
				t.Fatalf("ids %d then %d, want increasing", first.ID, second.ID)
			}
			got, err := s.LatestRecommendationSet(ctx, learnerA)
			if err != nil || got == nil || !reflect.DeepEqual(*got, second) {
				t.Fatalf("latest = %+v, %v; want %+v", got, err, second)
			}
			if len(got.Recommendations.RecommendedPaths) == 0 {
				t.Fatal("stored set lost its paths")
			}
		})
		t.Run("KeepsLatest", func(t *testing.T) {
			for range store.MaxRecommendationSetsKept + 3 {
				if _, err := s.AddRecommendationSet(ctx, learnerB, req, recs); err != nil {
					t.Fatal(err)
				}
			}
			var n int
			if err := s.DB().QueryRowContext(ctx, `SELECT COUNT(*) FROM recommendation_sets WHERE learner_id = $1`, learnerB).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != store.MaxRecommendationSetsKept {
				t.Fatalf("learner B has %d sets, want %d", n, store.MaxRecommendationSetsKept)
			}
		})
	})
}

func TestCompletedSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		MustOpenLearningStore(t, s)
		ctx := context.Background()
		at := func(h int) *time.Time { v := storetest.FixedNow.Add(time.Duration(h) * time.Hour); return &v }
		insertSession(t, s, "passed", learnerA, "electrical-basics", "completed", at(-5), fptr(88), `{"completionStatus":"passed"}`)
		insertSession(t, s, "failed", learnerA, "electrical-loto", "completed", at(-4), fptr(95), `{"completionStatus":"failed"}`)
		insertSession(t, s, "spec-client", learnerA, "hvac-gauges", "completed", at(-3), nil, `{"interactions":[],"completionStatus":"completed"}`)
		insertSession(t, s, "running", learnerA, "electrical-loto", "in_progress", nil, nil, `{}`)
		insertSession(t, s, "no-end", learnerA, "electrical-basics", "completed", nil, nil, `not json`)
		insertSession(t, s, "other", learnerB, "electrical-basics", "completed", at(-2), fptr(70), `{}`)
		// An unverified pass is no completion, and an unverified failure no lapse.
		insertUnverifiedSession(t, s, "unverified-pass", learnerA, "hvac-gauges", "completed", at(-1), fptr(100), `{"completionStatus":"passed"}`)
		insertUnverifiedSession(t, s, "unverified-fail", learnerA, "electrical-basics", "completed", at(-1), fptr(0), `{"completionStatus":"failed"}`)

		got, err := s.CompletedSessions(ctx, learnerA)
		if err != nil {
			t.Fatal(err)
		}
		byID := map[string]learning.SessionResult{}
		for _, r := range got {
			byID[r.ID] = r
		}
		want := map[string]learning.SessionResult{
			"passed":      {ID: "passed", ModuleID: "electrical-basics", EndedAt: *at(-5), SafetyScore: fptr(88), Passed: true},
			"failed":      {ID: "failed", ModuleID: "electrical-loto", EndedAt: *at(-4), SafetyScore: fptr(95), Passed: false},
			"spec-client": {ID: "spec-client", ModuleID: "hvac-gauges", EndedAt: *at(-3), Passed: true},
			// No ended_at: the last update stands in for the end.
			"no-end": {ID: "no-end", ModuleID: "electrical-basics", EndedAt: storetest.FixedNow.Add(-30 * time.Minute), Passed: true},
		}
		if !reflect.DeepEqual(byID, want) {
			t.Fatalf("completed sessions = %+v\nwant %+v", byID, want)
		}
	})
}

func TestSyncRefreshers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		MustOpenLearningStore(t, s)
		ctx := context.Background()
		day := func(d float64) *time.Time {
			v := storetest.FixedNow.Add(time.Duration(d * 24 * float64(time.Hour)))
			return &v
		}
		t.Run("NoneBeforeCompletion", func(t *testing.T) {
			insertSession(t, s, "practice", learnerA, "electrical-loto", "completed", day(-10), fptr(30), `{"completionStatus":"failed"}`)
			got, err := s.SyncRefreshers(ctx, learnerA)
			if err != nil || got == nil || len(got) != 0 {
				t.Fatalf("refreshers = %#v, %v; want an empty list", got, err)
			}
		})
		t.Run("CompletionSchedulesFirstRefresherWithinADay", func(t *testing.T) {
			insertSession(t, s, "s1", learnerA, "electrical-loto", "completed", day(-9), fptr(85), `{"completionStatus":"passed"}`)
			insertSession(t, s, "s2", learnerA, "hvac-gauges", "completed", day(-1), nil, `{}`)
			got, err := s.SyncRefreshers(ctx, learnerA)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got[0].ModuleID != "electrical-loto" || got[1].ModuleID != "hvac-gauges" {
				t.Fatalf("refreshers = %+v, want electrical-loto then hvac-gauges", got)
			}
			if got[0].ModuleTitle != "Lockout/Tagout" || got[0].TradeID != "electrical" || got[1].ModuleTitle != "Reading Gauges" {
				t.Errorf("titles = %q (%s), %q", got[0].ModuleTitle, got[0].TradeID, got[1].ModuleTitle)
			}
			if !got[0].Due.Equal(day(-9).Add(24*time.Hour)) || got[0].Reps != 1 {
				t.Errorf("electrical-loto due %v reps %d, want %v and 1", got[0].Due, got[0].Reps, day(-9).Add(24*time.Hour))
			}
			if !got[1].Due.Equal(day(0).Add(0)) || got[1].Due.After(storetest.FixedNow) {
				t.Errorf("hvac-gauges due %v, want %v", got[1].Due, *day(0))
			}
		})
		t.Run("RefresherSessionReschedules", func(t *testing.T) {
			before, _ := s.SyncRefreshers(ctx, learnerA)
			insertSession(t, s, "s3", learnerA, "electrical-loto", "completed", day(-0.5), fptr(95), `{"completionStatus":"passed"}`)
			got, err := s.SyncRefreshers(ctx, learnerA)
			if err != nil {
				t.Fatal(err)
			}
			var loto store.Refresher
			for _, r := range got {
				if r.ModuleID == "electrical-loto" {
					loto = r
				}
			}
			if loto.Reps != 2 || !loto.LastReview.Equal(*day(-0.5)) || !loto.Due.After(before[0].Due) || !loto.Due.After(storetest.FixedNow) {
				t.Fatalf("after the refresher: %+v; before: %+v", loto, before[0])
			}
		})
		t.Run("MatchesReplayOfHistory", func(t *testing.T) {
			insertSession(t, s, "s4", learnerA, "hvac-gauges", "completed", day(-0.2), fptr(20), `{"completionStatus":"failed"}`)
			got, err := s.SyncRefreshers(ctx, learnerA)
			if err != nil {
				t.Fatal(err)
			}
			again, err := s.SyncRefreshers(ctx, learnerA)
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("second sync = %+v, %v; want unchanged %+v", again, err, got)
			}
			sessions, err := s.CompletedSessions(ctx, learnerA)
			if err != nil {
				t.Fatal(err)
			}
			want, err := learning.BuildRefreshers(learning.CompletionsFromSessions(sessions))
			if err != nil {
				t.Fatal(err)
			}
			var cards []learning.RefresherCard
			for _, r := range got {
				cards = append(cards, r.RefresherCard)
			}
			if !reflect.DeepEqual(cards, want) {
				t.Fatalf("stored cards = %+v\nreplay = %+v", cards, want)
			}
		})
		t.Run("OtherLearnerHasNone", func(t *testing.T) {
			got, err := s.SyncRefreshers(ctx, learnerB)
			if err != nil || len(got) != 0 {
				t.Fatalf("learner B refreshers = %+v, %v", got, err)
			}
		})
	})
}

func TestSyncRefreshersConcurrently(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		MustOpenLearningStore(t, s)
		ctx := context.Background()
		modules := []string{"electrical-basics", "electrical-loto", "hvac-gauges"}
		for i := range 30 {
			ended := storetest.FixedNow.Add(time.Duration(i-30) * 12 * time.Hour)
			insertSession(t, s, fmt.Sprintf("s%02d", i), learnerA, modules[i%3], "completed", &ended, fptr(float64(40+i*2)), `{}`)
		}
		errs := make(chan error, 8)
		for range cap(errs) {
			go func() {
				_, err := s.SyncRefreshers(ctx, learnerA)
				errs <- err
			}()
		}
		for range cap(errs) {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.SyncRefreshers(ctx, learnerA)
		if err != nil {
			t.Fatal(err)
		}
		sessions, err := s.CompletedSessions(ctx, learnerA)
		if err != nil {
			t.Fatal(err)
		}
		want, err := learning.BuildRefreshers(learning.CompletionsFromSessions(sessions))
		if err != nil {
			t.Fatal(err)
		}
		var cards []learning.RefresherCard
		for _, r := range got {
			cards = append(cards, r.RefresherCard)
		}
		if !reflect.DeepEqual(cards, want) {
			t.Fatalf("after concurrent syncs: %+v\nreplay: %+v", cards, want)
		}
	})
}
