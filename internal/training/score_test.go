package training

import (
	"reflect"
	"testing"
)

func TestEvaluate(t *testing.T) {
	// electrical-lockout-tagout: checks arc-flash-ppe 2, normal-shutdown 2,
	// lock-applied 3, tester-proven 1, absence-of-voltage 3, tester-reproven 1,
	// try-start 1 (total 13).
	s, _ := SceneByID("electrical-lockout-tagout")
	all := []string{"don-ppe", "stop-conveyor", "open-disconnect", "apply-lock", "prove-tester", "test-dead", "reprove-tester", "try-start"}
	rest := all[1:]
	for _, tc := range []struct {
		name         string
		steps        []string
		wantScore    float64
		wantOutcome  string
		wantSkipped  []string
		wantComplete int
	}{
		{"AllInOrder", all, 100, OutcomePassed, nil, 8},
		{"SkippedPPE", append([]string{"skip:don-ppe"}, rest...), 84.6, OutcomeFailed, []string{"arc-flash-ppe"}, 7},
		{"SkippedThenDone", append([]string{"skip:don-ppe"}, all...), 84.6, OutcomePassed, []string{"arc-flash-ppe"}, 8},
		{"PPEAfterDisconnect", []string{"stop-conveyor", "open-disconnect", "don-ppe", "apply-lock", "prove-tester", "test-dead", "reprove-tester", "try-start"}, 84.6, OutcomePassed, []string{"arc-flash-ppe"}, 8},
		{"TesterNotProven", []string{"don-ppe", "stop-conveyor", "open-disconnect", "apply-lock", "skip:prove-tester", "test-dead", "reprove-tester", "try-start"}, 92.3, OutcomeFailed, []string{"tester-proven"}, 7},
		{"DisconnectOpenedUnderLoad", []string{"don-ppe", "open-disconnect", "stop-conveyor", "apply-lock", "prove-tester", "test-dead", "reprove-tester", "try-start"}, 84.6, OutcomePassed, []string{"normal-shutdown"}, 8},
		{"Nothing", nil, 0, OutcomeFailed, []string{"arc-flash-ppe", "normal-shutdown", "lock-applied", "tester-proven", "absence-of-voltage", "tester-reproven", "try-start"}, 0},
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
		if ev.SafetyScore != 84.6 || len(ev.CompletedSteps) != 7 {
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
