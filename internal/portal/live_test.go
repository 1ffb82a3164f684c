package portal

import (
	"testing"
	"time"

	"journeyman/internal/training"
)

func TestLive(t *testing.T) {
	scene := training.SceneForModule("electrical-lockout-tagout", "electrical")
	do := func(k int, action string) training.Interaction {
		st := scene.Steps[k]
		if action == "" {
			action = st.Action
		}
		return training.Interaction{Action: action, ObjectID: st.Target, StepID: st.ID, SessionTime: int64(k+1) * 5000}
	}
	all := func() []training.Interaction {
		var out []training.Interaction
		for k := range scene.Steps {
			out = append(out, do(k, ""))
		}
		return out
	}
	wrongTarget := do(0, "")
	wrongTarget.ObjectID = "elsewhere"
	checkOf := func(k int) string { return scene.Steps[k].SafetyCheck }

	tests := []struct {
		name         string
		interactions []training.Interaction
		ended        bool
		step         int // the current step's index; -1 for none
		done         int
		checks       map[string]string // expected statuses of some checks
		status       string
	}{
		{"nothing yet", nil, false, 0, 0, map[string]string{checkOf(0): CheckPending}, LiveRunning},
		{"first step done", []training.Interaction{do(0, "")}, false, 1, 1, map[string]string{checkOf(0): training.CheckPassed}, LiveRunning},
		{"the wrong object does not count", []training.Interaction{wrongTarget}, false, 0, 0, map[string]string{checkOf(0): CheckPending}, LiveRunning},
		{"a skip moves on and skips the check", []training.Interaction{do(0, ""), do(1, training.ActionSkip)}, false, 2, 2,
			map[string]string{checkOf(0): training.CheckPassed, checkOf(1): training.CheckSkipped}, LiveRunning},
		{"skipped, then done, is passed", []training.Interaction{do(0, training.ActionSkip), do(0, "")}, false, 1, 1,
			map[string]string{checkOf(0): training.CheckPassed}, LiveRunning},
		{"every step done", all(), true, -1, len(scene.Steps), map[string]string{checkOf(0): training.CheckPassed}, LiveEnded},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := LiveRecord{SessionID: "s1", UserID: "u1", LearnerName: "Lea", ModuleID: "electrical-lockout-tagout", TradeID: "electrical",
				StartedAt: time.Unix(0, 0), UpdatedAt: time.Unix(60, 0), Ended: tc.ended, Interactions: tc.interactions}
			l := r.Live()
			if tc.step < 0 && l.Step != nil || tc.step >= 0 && (l.Step == nil || l.Step.Index != tc.step || l.Step.ID != scene.Steps[tc.step].ID || l.Step.Total != len(scene.Steps)) {
				t.Errorf("step = %+v, want index %d", l.Step, tc.step)
			}
			if l.StepsDone != tc.done || l.StepsTotal != len(scene.Steps) || l.Interactions != len(tc.interactions) || l.Status != tc.status {
				t.Errorf("done %d of %d, %d interactions, %s; want %d, %d, %s", l.StepsDone, l.StepsTotal, l.Interactions, l.Status, tc.done, len(tc.interactions), tc.status)
			}
			if len(l.SafetyChecks) != len(scene.SafetyChecks) {
				t.Fatalf("%d checks, want the scene's %d", len(l.SafetyChecks), len(scene.SafetyChecks))
			}
			for _, c := range l.SafetyChecks {
				if want, ok := tc.checks[c.ID]; ok && c.Status != want {
					t.Errorf("check %s = %s, want %s", c.ID, c.Status, want)
				}
				if c.Description == "" {
					t.Errorf("check %s has no description", c.ID)
				}
			}
		})
	}
}
