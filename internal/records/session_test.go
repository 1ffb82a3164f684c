package records

import (
	"encoding/json"
	"testing"
	"time"

	"journeyman/internal/training"
)

func TestDuration(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, "PT0S"}, {1500 * time.Millisecond, "PT1.5S"}, {600 * time.Second, "PT600S"}, {-time.Second, "PT0S"},
	} {
		if got := duration(tt.d); got != tt.want {
			t.Errorf("duration(%v) = %s, want %s", tt.d, got, tt.want)
		}
	}
}

func TestSessionStatementsByChange(t *testing.T) {
	l := Learner{Base: "https://lms.example", ID: "u1", Name: "Ann"}
	m := Module{ID: "electrical-lockout-tagout", Title: "LOTO", TradeID: "electrical", TradeName: "Electrical"}
	scene := training.SceneForModule(m.ID, m.TradeID)
	start := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	running := training.Session{ID: "s1", ModuleID: m.ID, StartedAt: start, CompletionStatus: training.StatusInProgress}
	ended := running
	ended.CompletionStatus = training.StatusCompleted
	byTarget := training.Interaction{Action: scene.Steps[1].Action, ObjectID: scene.Steps[1].Target, Timestamp: start}
	tests := []struct {
		name          string
		before, after training.Session
		added         []training.Interaction
		verbs         []string
	}{
		{"Started", training.Session{}, running, nil, []string{VerbLaunched, VerbInitialized}},
		{"NothingNew", running, running, nil, nil},
		{"StepByItsTarget", running, running, []training.Interaction{byTarget}, []string{VerbInteracted}},
		{"Ended", running, ended, nil, []string{VerbCompleted, VerbFailed, VerbTerminated}},
		{"EndedAgainRecordsNothing", ended, ended, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := l.SessionStatements(m, tt.before, tt.after, tt.added)
			var got []struct {
				Verb   struct{ ID string }
				Object struct{ ID string }
			}
			if body != nil {
				if err := json.Unmarshal(body, &got); err != nil {
					t.Fatal(err)
				}
			}
			if len(got) != len(tt.verbs) {
				t.Fatalf("%d statements, want %v", len(got), tt.verbs)
			}
			for i, st := range got {
				if st.Verb.ID != tt.verbs[i] {
					t.Errorf("statement %d: %s, want %s", i, st.Verb.ID, tt.verbs[i])
				}
			}
			if tt.name == "StepByItsTarget" && got[0].Object.ID != StepIRI(l.Base, m.ID, scene.Steps[1].ID) {
				t.Errorf("step activity %s", got[0].Object.ID)
			}
		})
	}
}
