package training

import (
	"reflect"
	"testing"
)

func TestEvaluate(t *testing.T) {
	// electrical-lockout-tagout: checks arc-flash-ppe 2, lock-applied 3,
	// tester-proven 1, absence-of-voltage 3, try-start 1 (total 10).
	s, _ := SceneByID("electrical-lockout-tagout")
	all := []string{"don-ppe", "open-disconnect", "apply-lock", "prove-tester", "test-dead", "try-start"}
	for _, tc := range []struct {
		name         string
		steps        []string
		wantScore    float64
		wantOutcome  string
		wantSkipped  []string
		wantComplete int
	}{
		{"AllInOrder", all, 100, OutcomePassed, nil, 6},
		{"SkippedPPE", []string{"skip:don-ppe", "open-disconnect", "apply-lock", "prove-tester", "test-dead", "try-start"}, 80, OutcomeFailed, []string{"arc-flash-ppe"}, 5},
		{"SkippedThenDone", []string{"skip:don-ppe", "don-ppe", "open-disconnect", "apply-lock", "prove-tester", "test-dead", "try-start"}, 80, OutcomePassed, []string{"arc-flash-ppe"}, 6},
		{"PPEAfterDisconnect", []string{"open-disconnect", "don-ppe", "apply-lock", "prove-tester", "test-dead", "try-start"}, 80, OutcomePassed, []string{"arc-flash-ppe"}, 6},
		{"TesterNotProven", []string{"don-ppe", "open-disconnect", "apply-lock", "skip:prove-tester", "test-dead", "try-start"}, 90, OutcomeFailed, []string{"tester-proven"}, 5},
		{"Nothing", nil, 0, OutcomeFailed, []string{"arc-flash-ppe", "lock-applied", "tester-proven", "absence-of-voltage", "try-start"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := Evaluate(s, perform(s, tc.steps...))
			if ev.SafetyScore != tc.wantScore || ev.Outcome != tc.wantOutcome || len(ev.CompletedSteps) != tc.wantComplete {
				t.Errorf("score %g outcome %s completed %d; want %g %s %d", ev.SafetyScore, ev.Outcome, len(ev.CompletedSteps), tc.wantScore, tc.wantOutcome, tc.wantComplete)
			}
			var skipped []string
			for _, c := range ev.SafetyChecks {
				if c.Status == CheckSkipped {
					skipped = append(skipped, c.ID)
				}
			}
			if !reflect.DeepEqual(skipped, tc.wantSkipped) {
				t.Errorf("skipped checks %v; want %v", skipped, tc.wantSkipped)
			}
		})
	}

	t.Run("WrongObjectDoesNotCount", func(t *testing.T) {
		in := perform(s, all...)
		in[0].ObjectID = "padlock"
		ev := Evaluate(s, in)
		if ev.SafetyScore != 80 || len(ev.CompletedSteps) != 5 {
			t.Errorf("score %g, completed %v", ev.SafetyScore, ev.CompletedSteps)
		}
	})
	t.Run("NoChecksScores100", func(t *testing.T) {
		bare := Scene{Steps: []Step{{ID: "a", Target: "o", Action: ActionClick}}, PassCriteria: PassCriteria{RequiredSteps: []string{"a"}}}
		if ev := Evaluate(bare, nil); ev.SafetyScore != 100 || ev.Outcome != OutcomeFailed {
			t.Errorf("got %+v", ev)
		}
	})
}
