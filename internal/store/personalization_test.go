package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"journeyman/internal/learning"
	"journeyman/internal/personalization"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

func TestPersonalization(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		MustOpenLearningStore(t, s)
		ctx := context.Background()
		t.Run("DefaultsBeforeSave", func(t *testing.T) {
			got, err := s.GetPersonalization(ctx, learnerA)
			if err != nil {
				t.Fatal(err)
			}
			want := store.SavedProfile{Profile: personalization.DefaultProfile()}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %+v, want %+v", got, want)
			}
		})
		profile := personalization.Profile{
			ExperienceLevel: "advanced", PrimaryTrade: "welding", LearningStyle: "visual", XRComfortLevel: 9,
			PreferredSessionLength: 60, MotionSensitivity: "high", DifficultyProgression: "aggressive",
			SafetyEmphasis: 10, FeedbackFrequency: "frequent",
			VisualAssistance: []string{"high-contrast", "large-ui"}, AudioAssistance: []string{"visual-captions"},
			MotorAssistance: nil, ColorScheme: "high-contrast", FontSize: "large", UIComplexity: "simple",
		}
		t.Run("SaveThenGet", func(t *testing.T) {
			saved, err := s.SavePersonalization(ctx, learnerA, profile)
			if err != nil {
				t.Fatal(err)
			}
			want := profile
			want.MotorAssistance = []string{}
			if !saved.Saved || saved.UpdatedAt == nil || !saved.UpdatedAt.Equal(storetest.FixedNow) || !reflect.DeepEqual(saved.Profile, want) {
				t.Fatalf("saved = %+v, want %+v", saved, want)
			}
			got, err := s.GetPersonalization(ctx, learnerA)
			if err != nil || !reflect.DeepEqual(got, saved) {
				t.Fatalf("get = %+v, %v; want %+v", got, err, saved)
			}
		})
		t.Run("SaveAgainReplaces", func(t *testing.T) {
			next := personalization.DefaultProfile()
			next.FontSize = "small"
			saved, err := s.SavePersonalization(ctx, learnerA, next)
			if err != nil || !reflect.DeepEqual(saved.Profile, next) {
				t.Fatalf("saved = %+v, %v; want %+v", saved.Profile, err, next)
			}
		})
		t.Run("OtherLearnerUnaffected", func(t *testing.T) {
			got, err := s.GetPersonalization(ctx, learnerB)
			if err != nil || got.Saved || got.ColorScheme != "default" {
				t.Fatalf("learner B = %+v, %v; want defaults", got, err)
			}
		})
	})
}

// TestLearningDataSurvivesReopen closes a SQLite store and opens the same file
// again, as a restart does.
func TestLearningDataSurvivesReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journeyman.db")
	s, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	MustOpenLearningStore(t, s)
	prefs := learning.DefaultPreferences()
	prefs.SessionDuration = 90
	profile := personalization.DefaultProfile()
	profile.ColorScheme = "dark"
	ended := storetest.FixedNow.Add(-time.Hour)
	insertSession(t, s, "s1", learnerA, "electrical-loto", "completed", &ended, fptr(90), `{}`)
	_, err1 := s.SaveLearningPreferences(ctx, learnerA, prefs)
	_, err2 := s.SavePersonalization(ctx, learnerA, profile)
	_, err3 := s.AddSkillAssessment(ctx, learnerA, learning.DefaultAssessment(), nil)
	cards, err4 := s.SyncRefreshers(ctx, learnerA)
	if err := errors.Join(err1, err2, err3, err4, s.Close()); err != nil {
		t.Fatal(err)
	}

	s, err = store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	gotPrefs, err1 := s.GetLearningPreferences(ctx, learnerA)
	gotProfile, err2 := s.GetPersonalization(ctx, learnerA)
	gotAssessments, err3 := s.ListSkillAssessments(ctx, learnerA)
	gotCards, err4 := s.SyncRefreshers(ctx, learnerA)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		t.Fatal(err)
	}
	if gotPrefs.SessionDuration != 90 || gotProfile.ColorScheme != "dark" || len(gotAssessments) != 1 || !reflect.DeepEqual(gotCards, cards) {
		t.Fatalf("after reopening: %+v, %+v, %d assessments, cards %+v (want %+v)", gotPrefs, gotProfile, len(gotAssessments), gotCards, cards)
	}
}
