package store_test

import (
	"context"
	"slices"
	"testing"

	"journeyman/internal/learning"
	"journeyman/internal/records"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

func TestSkillAssessmentRecords(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
			t.Fatal(err)
		}
		org := mustOrg(t, s, "Org A", "a")
		const base = "https://training.example.org"
		learner := org.Learner.ID
		rec := &store.Recorder{Learner: records.Learner{Base: base, ID: learner, Name: "a Learner", OrgID: org.ID, OrgName: "Org A"}}
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
			if r.Object.ID != records.SkillAssessmentIRI(base, "electrical") || r.Actor.Account.Name != learner {
				t.Errorf("statement %+v", r)
			}
			if r.Result.Score == nil || r.Result.Score.Scaled != 0.7 || r.Result.Score.Raw != 70 {
				t.Errorf("score %+v", r.Result.Score)
			}
			// A self-assessment has no pass mark.
			if r.Result.Success != nil {
				t.Errorf("success %v on a self-assessment", *r.Result.Success)
			}
			if lvl := string(r.Result.Extensions[base+"/xapi/extensions/skill-level"]); lvl != `"intermediate"` {
				t.Errorf("level %s", lvl)
			}
			if g := r.Context.ContextActivities.Grouping; len(g) < 2 || g[0].ID != base+"/xapi/activities/trades/electrical" || g[1].ID != base+"/xapi/activities/organisations/"+org.ID {
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
