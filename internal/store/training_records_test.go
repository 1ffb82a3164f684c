package store_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"journeyman/internal/learning"
	"journeyman/internal/records"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
	"journeyman/internal/voice"
)

func TestSkillAssessmentRecords(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
			t.Fatal(err)
		}
		org := mustOrg(t, s, "Org A", "a")
		learner := org.Learner.ID
		rec := learnerRecorder(org)
		a := learning.DefaultAssessment()
		a.OverallScore = 70
		a.AssessmentType = "progress"
		t.Run("OneCompletedWithTheScore", func(t *testing.T) {
			if _, err := s.AddSkillAssessment(ctx, learner, a, rec); err != nil {
				t.Fatal(err)
			}
			got := readRecords(t, s, store.XAPIQuery{OrgID: org.ID, LearnerID: learner})
			if v := verbsOf(got); !slices.Equal(v, []string{records.VerbCompleted}) {
				t.Fatalf("verbs %v", v)
			}
			r := got[0]
			if r.Object.ID != records.SkillAssessmentIRI(recordsBase, "electrical") || r.Actor.Account.Name != learner {
				t.Errorf("statement %+v", r)
			}
			if r.Result.Score == nil || r.Result.Score.Scaled != 0.7 || r.Result.Score.Raw != 70 {
				t.Errorf("score %+v", r.Result.Score)
			}
			// A self-assessment has no pass mark.
			if r.Result.Success != nil {
				t.Errorf("success %v on a self-assessment", *r.Result.Success)
			}
			if lvl := string(r.Result.Extensions[recordsBase+"/xapi/extensions/skill-level"]); lvl != `"intermediate"` {
				t.Errorf("level %s", lvl)
			}
			if g := r.Context.ContextActivities.Grouping; len(g) < 2 || g[0].ID != recordsBase+"/xapi/activities/trades/electrical" || g[1].ID != recordsBase+"/xapi/activities/organisations/"+org.ID {
				t.Errorf("grouping %+v", g)
			}
		})
		t.Run("NoRecorderNoStatements", func(t *testing.T) {
			if _, err := s.AddSkillAssessment(ctx, learner, a, nil); err != nil {
				t.Fatal(err)
			}
			if n := len(readRecords(t, s, store.XAPIQuery{OrgID: org.ID, LearnerID: learner})); n != 1 {
				t.Errorf("%d statements, want the first assessment's 1", n)
			}
		})
	})
}

func TestVoiceRunRecords(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		org := mustOrg(t, s, "Org A", "a")
		learner := org.Learner.ID
		rec := learnerRecorder(org)
		m, _ := voice.ByID("electrical-lockout-tagout")
		t0 := storetest.FixedNow.Add(-time.Hour)
		run := func(phrases ...string) voice.NewRun {
			r := voice.NewRun{ModuleID: m.ID, StartedAt: t0, EndedAt: t0.Add(10 * time.Minute)}
			for i, p := range phrases {
				r.Commands = append(r.Commands, voice.HeardCommand{Command: p, At: t0.Add(time.Duration(i) * time.Second)})
			}
			return r
		}
		const first, second, guests = "7011ce00-0000-4000-8000-000000000001", "7011ce00-0000-4000-8000-000000000002", "7011ce00-0000-4000-8000-000000000003"
		t.Run("CompletedWithTheReplayedScore", func(t *testing.T) {
			got, err := s.AddVoiceRun(ctx, learner, first, run("start lockout", "next step", "lockout complete"), m, rec)
			if err != nil {
				t.Fatal(err)
			}
			if got.StepsWalked != 2 || !got.Completed || got.Passed || got.Score != 25 || got.ModuleName != m.Name {
				t.Errorf("run %+v", got)
			}
			st := readRecords(t, s, store.XAPIQuery{OrgID: org.ID, Registration: first})
			if v := verbsOf(st); !slices.Equal(v, []string{records.VerbCompleted}) {
				t.Fatalf("verbs %v", v)
			}
			r := st[0]
			if r.Object.ID != records.VoiceModuleIRI(recordsBase, m.ID) || r.Result.Success == nil || *r.Result.Success ||
				r.Result.Score == nil || r.Result.Score.Scaled != 0.25 || r.Result.Duration != "PT600S" {
				t.Errorf("statement %+v", r)
			}
		})
		t.Run("LeftBeforeCompleteIsTerminated", func(t *testing.T) {
			if _, err := s.AddVoiceRun(ctx, learner, second, run("start lockout", "emergency stop"), m, rec); err != nil {
				t.Fatal(err)
			}
			st := readRecords(t, s, store.XAPIQuery{OrgID: org.ID, Registration: second})
			if v := verbsOf(st); !slices.Equal(v, []string{records.VerbTerminated}) {
				t.Fatalf("verbs %v", v)
			}
			if stops := string(st[0].Result.Extensions[recordsBase+"/xapi/extensions/emergency-stops"]); stops != "1" {
				t.Errorf("emergency stops %s", stops)
			}
		})
		t.Run("NoRecorderNoStatements", func(t *testing.T) {
			if _, err := s.AddVoiceRun(ctx, org.Instructor.ID, guests, run("start lockout"), m, nil); err != nil {
				t.Fatal(err)
			}
			if n := len(readRecords(t, s, store.XAPIQuery{OrgID: org.ID, Registration: guests})); n != 0 {
				t.Errorf("%d statements", n)
			}
		})
		t.Run("ListedNewestFirstToTheirLearnerOnly", func(t *testing.T) {
			list, err := s.ListVoiceRuns(ctx, learner)
			if err != nil {
				t.Fatal(err)
			}
			if len(list) != 2 || list[0].ID != second || list[1].ID != first || list[1].Score != 25 || !list[1].StartedAt.Equal(t0) {
				t.Errorf("list %+v", list)
			}
		})
	})
}

// TestWeldRecords: the AR welding simulator stores a weld as an interaction
// of an AR session; its statement carries the quality the server works out
// from the metrics, not the page's figure.
func TestWeldRecords(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
			t.Fatal(err)
		}
		org := mustOrg(t, s, "Org A", "a")
		learner := org.Learner.ID
		rec := learnerRecorder(org)
		const id = "3e1d0000-0000-4000-8000-000000000001"
		t0 := storetest.FixedNow.Add(-time.Hour)
		x := training.Start(id, learner, training.NewSession{ModuleID: "electrical-loto", SessionType: training.SessionAR, DeviceType: "test", StartedAt: t0}, t0)
		if _, err := s.CreateSession(ctx, x, rec); err != nil {
			t.Fatal(err)
		}
		var weld training.Interaction
		if err := json.Unmarshal([]byte(`{"action":"weld","technique":"GMAW","material":"carbon steel","position":"1G","qualityScore":99,"sessionTime":60000,
			"metrics":{"temperature":175,"travelSpeed":9,"penetration":3,"beadWidth":7,"voltage":22,"amperage":150,"gasPressure":22,"accuracy":92}}`), &weld); err != nil {
			t.Fatal(err)
		}
		upd := training.SessionPatch{SessionUpdate: training.SessionUpdate{InteractionData: &training.InteractionData{Interactions: []training.Interaction{weld}}}}
		if _, err := s.AppendSession(ctx, id, rec, func(x *training.Session) error { return x.Apply(learner, upd, training.Scene{}, s.Now()) }); err != nil {
			t.Fatal(err)
		}
		got := readRecords(t, s, store.XAPIQuery{OrgID: org.ID, Registration: id, Verb: records.VerbInteracted})
		if len(got) != 1 {
			t.Fatalf("%d interacted statements", len(got))
		}
		r := got[0]
		if r.Result.Score == nil || r.Result.Score.Raw != 70.7 || r.Result.Score.Scaled != 0.707 {
			t.Errorf("score %+v, want the server's 70.7", r.Result.Score)
		}
		if w := string(r.Result.Extensions[recordsBase+"/xapi/extensions/weld"]); w != `{"material":"carbon steel","position":"1G","technique":"GMAW"}` {
			t.Errorf("weld extension %s", w)
		}
	})
}
