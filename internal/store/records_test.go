package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"journeyman/internal/records"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// recorded is what the tests read back of a recorded statement.
type recorded struct {
	Actor struct {
		Account struct{ HomePage, Name string }
	}
	Verb   struct{ ID string }
	Object struct {
		ID string
	}
	Result struct {
		Success    *bool
		Duration   string
		Score      *struct{ Scaled, Raw float64 }
		Extensions map[string]json.RawMessage
	}
	Context struct {
		Registration      string
		ContextActivities struct {
			Parent, Grouping []struct{ ID string }
		}
	}
	Authority struct {
		Account struct{ Name string }
	}
}

func readRecords(t *testing.T, s *store.Store, q store.XAPIQuery) []recorded {
	t.Helper()
	q.Ascending = true
	page, err := s.QueryXAPIStatements(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]recorded, len(page.Statements))
	for i, b := range page.Statements {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func verbsOf(rs []recorded) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Verb.ID
	}
	return out
}

// recordsBase is the public URL the records tests' activity ids live under.
const recordsBase = "https://training.example.org"

// learnerRecorder records as org's learner.
func learnerRecorder(org testOrg) *store.Recorder {
	return &store.Recorder{Learner: records.Learner{Base: recordsBase, ID: org.Learner.ID, Name: "a Learner", OrgID: org.ID, OrgName: "Org A"}}
}

func TestSessionRecords(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
			t.Fatal(err)
		}
		org := mustOrg(t, s, "Org A", "a")
		cohort, err := s.CreateCohort(ctx, org.ID, "Spring apprentices", org.Instructor.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AddCohortMember(ctx, org.ID, cohort.ID, org.Learner.ID); err != nil {
			t.Fatal(err)
		}
		rec := learnerRecorder(org)
		learner := org.Learner.ID
		const id = "5e55e55e-0000-4000-8000-000000000001"
		t0 := storetest.FixedNow.Add(-time.Hour)
		x := training.Start(id, learner, training.NewSession{ModuleID: "electrical-loto", SessionType: training.SessionVR, DeviceType: "test", StartedAt: t0}, t0)
		if _, err := s.CreateSession(ctx, x, rec); err != nil {
			t.Fatal(err)
		}
		mine := store.XAPIQuery{OrgID: org.ID, Registration: id}
		const (
			launched    = records.VerbLaunched
			initialized = records.VerbInitialized
			interacted  = records.VerbInteracted
		)
		t.Run("Started", func(t *testing.T) {
			got := readRecords(t, s, mine)
			if v := verbsOf(got); !slices.Equal(v, []string{launched, initialized}) {
				t.Fatalf("verbs %v", v)
			}
			r := got[0]
			if r.Actor.Account.HomePage != recordsBase || r.Actor.Account.Name != learner || r.Object.ID != records.ModuleIRI(recordsBase, "electrical-loto") ||
				r.Context.Registration != id || r.Authority.Account.Name != "journeyman" {
				t.Errorf("statement %+v", r)
			}
			var grouping []string
			for _, g := range r.Context.ContextActivities.Grouping {
				grouping = append(grouping, g.ID)
			}
			want := []string{recordsBase + "/xapi/activities/trades/electrical", recordsBase + "/xapi/activities/organisations/" + org.ID, recordsBase + "/xapi/activities/cohorts/" + cohort.ID}
			if !slices.Equal(grouping, want) {
				t.Errorf("grouping %v, want %v", grouping, want)
			}
		})

		scene := training.SceneForModule("electrical-loto", "electrical")
		steps := scene.Steps
		t.Run("OneInteractedPerStep", func(t *testing.T) {
			upd := training.SessionPatch{SessionUpdate: training.SessionUpdate{InteractionData: &training.InteractionData{Interactions: []training.Interaction{
				{StepID: steps[0].ID, Action: steps[0].Action, ObjectID: steps[0].Target, SessionTime: 4000},
				{Action: training.ActionSkip, StepID: steps[1].ID, SessionTime: 6000},
			}}}}
			if _, err := s.AppendSession(ctx, id, rec, func(x *training.Session) error { return x.Apply(learner, upd, training.Scene{}, s.Now()) }); err != nil {
				t.Fatal(err)
			}
			// An update with no interactions records nothing.
			none := training.SessionPatch{SessionUpdate: training.SessionUpdate{Position: &training.Vec3{X: 1}}}
			if _, err := s.AppendSession(ctx, id, rec, func(x *training.Session) error { return x.Apply(learner, none, training.Scene{}, s.Now()) }); err != nil {
				t.Fatal(err)
			}
			got := readRecords(t, s, mine)
			if v := verbsOf(got); !slices.Equal(v, []string{launched, initialized, interacted, interacted}) {
				t.Fatalf("verbs %v", v)
			}
			done, skipped := got[2], got[3]
			if done.Object.ID != records.StepIRI(recordsBase, "electrical-loto", steps[0].ID) || !*done.Result.Success || done.Result.Duration != "PT4S" ||
				len(done.Context.ContextActivities.Parent) != 1 || done.Context.ContextActivities.Parent[0].ID != records.ModuleIRI(recordsBase, "electrical-loto") {
				t.Errorf("done step %+v", done)
			}
			if check := string(done.Result.Extensions[recordsBase+"/xapi/extensions/safety-check"]); steps[0].SafetyCheck != "" && check != `{"id":"`+steps[0].SafetyCheck+`","status":"passed"}` {
				t.Errorf("safety check %s", check)
			}
			if *skipped.Result.Success {
				t.Errorf("a skipped step recorded as a success")
			}
		})
		t.Run("Ended", func(t *testing.T) {
			end := t0.Add(10 * time.Minute)
			status := training.StatusCompleted
			ended, err := s.UpdateSession(ctx, id, rec, func(x *training.Session) error {
				return x.Apply(learner, training.SessionPatch{EndedAt: &end, CompletionStatus: &status}, scene, s.Now())
			})
			if err != nil {
				t.Fatal(err)
			}
			got := readRecords(t, s, mine)
			outcome := records.VerbFailed
			if ended.InteractionData.CompletionStatus == training.OutcomePassed {
				outcome = records.VerbPassed
			}
			want := []string{launched, initialized, interacted, interacted, records.VerbCompleted, outcome, records.VerbTerminated}
			if v := verbsOf(got); !slices.Equal(v, want) {
				t.Fatalf("verbs %v, want %v", v, want)
			}
			judged := got[5]
			if judged.Result.Score == nil || judged.Result.Score.Raw != *ended.SafetyScore || judged.Result.Score.Scaled != *ended.SafetyScore/100 ||
				judged.Result.Duration != "PT600S" || string(judged.Result.Extensions[recordsBase+"/xapi/extensions/verified"]) != fmt.Sprint(ended.Verified) {
				t.Errorf("judgement %+v", judged.Result)
			}
		})
		t.Run("ReadableByTheLearnerOnly", func(t *testing.T) {
			if n := len(readRecords(t, s, store.XAPIQuery{OrgID: org.ID, LearnerID: learner})); n != 7 {
				t.Errorf("the learner reads %d statements, want 7", n)
			}
			if n := len(readRecords(t, s, store.XAPIQuery{OrgID: org.ID, LearnerID: org.Instructor.ID})); n != 0 {
				t.Errorf("another learner's own statements include %d of hers", n)
			}
			if n := len(readRecords(t, s, store.XAPIQuery{OrgID: "", Registration: id})); n != 0 {
				t.Errorf("%d statements outside her organisation", n)
			}
		})
		t.Run("NoRecorderNoStatements", func(t *testing.T) {
			const other = "5e55e55e-0000-4000-8000-000000000002"
			y := training.Start(other, learner, training.NewSession{ModuleID: "electrical-loto", SessionType: training.SessionVR, DeviceType: "test", StartedAt: t0}, t0)
			if _, err := s.CreateSession(ctx, y, nil); err != nil {
				t.Fatal(err)
			}
			if n := len(readRecords(t, s, store.XAPIQuery{OrgID: org.ID, Registration: other})); n != 0 {
				t.Errorf("%d statements", n)
			}
		})
	})
}
