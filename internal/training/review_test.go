package training

import (
	"reflect"
	"testing"
)

func TestReviewSteps(t *testing.T) {
	scene, _ := SceneByID("electrical-lockout-tagout")
	ms := func(v int64) *int64 { return &v }
	type times struct {
		status             string
		start, end, length *int64
	}
	for _, tc := range []struct {
		name         string
		interactions []Interaction
		want         []times // per scene step, in the scene's order
		events       int
	}{
		{"Nothing", nil, []times{{StepMissed, nil, nil, nil}, {StepMissed, nil, nil, nil}, {StepMissed, nil, nil, nil}, {StepMissed, nil, nil, nil},
			{StepMissed, nil, nil, nil}, {StepMissed, nil, nil, nil}, {StepMissed, nil, nil, nil}, {StepMissed, nil, nil, nil}}, 0},
		{"AllInOrder", perform(scene, "don-ppe", "stop-conveyor", "open-disconnect", "apply-lock", "prove-tester", "test-dead", "reprove-tester", "try-start"), []times{
			{StepCompleted, ms(0), ms(1000), ms(1000)},
			{StepCompleted, ms(1000), ms(2000), ms(1000)},
			{StepCompleted, ms(2000), ms(3000), ms(1000)},
			{StepCompleted, ms(3000), ms(4000), ms(1000)},
			{StepCompleted, ms(4000), ms(5000), ms(1000)},
			{StepCompleted, ms(5000), ms(6000), ms(1000)},
			{StepCompleted, ms(6000), ms(7000), ms(1000)},
			{StepCompleted, ms(7000), ms(8000), ms(1000)},
		}, 8},
		{"SkipLooksAndLateCompletion", func() []Interaction {
			ins := perform(scene, "don-ppe", "open-disconnect", "skip:apply-lock", "prove-tester")
			// A look names no step; the wrong object does not complete one;
			// a second skip of a skipped step does not move the clock.
			look := Interaction{Action: "inspect", ObjectID: "bench", SessionTime: 4200}
			wrong := Interaction{Action: "click", ObjectID: "motor", StepID: "test-dead", SessionTime: 4500}
			again := Interaction{Action: ActionSkip, StepID: "apply-lock", SessionTime: 4700}
			late := Interaction{Action: ActionGrab, ObjectID: "", StepID: "apply-lock", SessionTime: 6000}
			for _, st := range scene.Steps {
				if st.ID == "apply-lock" {
					late.Action, late.ObjectID = st.Action, st.Target
				}
			}
			return append(ins, look, wrong, again, late)
		}(), []times{
			{StepCompleted, ms(0), ms(1000), ms(1000)},
			{StepMissed, nil, nil, nil},
			{StepCompleted, ms(1000), ms(2000), ms(1000)},
			// Skipped at 3 s, then done at 6 s: completed, timed from the last move on.
			{StepCompleted, ms(4000), ms(6000), ms(2000)},
			{StepCompleted, ms(3000), ms(4000), ms(1000)},
			{StepMissed, nil, nil, nil},
			{StepMissed, nil, nil, nil},
			{StepMissed, nil, nil, nil},
		}, 8},
		{"ClockBackwardsNeverNegative", func() []Interaction {
			ins := perform(scene, "don-ppe", "open-disconnect")
			ins[1].SessionTime = 500
			return ins
		}(), []times{
			{StepCompleted, ms(0), ms(1000), ms(1000)},
			{StepMissed, nil, nil, nil},
			{StepCompleted, ms(1000), ms(500), ms(0)},
			{StepMissed, nil, nil, nil}, {StepMissed, nil, nil, nil}, {StepMissed, nil, nil, nil}, {StepMissed, nil, nil, nil}, {StepMissed, nil, nil, nil},
		}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steps, events := ReviewSteps(scene, tc.interactions)
			if len(steps) != len(scene.Steps) || len(events) != tc.events {
				t.Fatalf("got %d steps and %d events, want %d and %d", len(steps), len(events), len(scene.Steps), tc.events)
			}
			for k, st := range steps {
				got := times{st.Status, st.StartMs, st.EndMs, st.DurationMs}
				if !reflect.DeepEqual(got, tc.want[k]) {
					t.Errorf("step %d (%s) = %s %v %v %v, want %s %v %v %v", k, st.ID, got.status, deref(got.start), deref(got.end), deref(got.length),
						tc.want[k].status, deref(tc.want[k].start), deref(tc.want[k].end), deref(tc.want[k].length))
				}
				if st.ID != scene.Steps[k].ID || st.Instruction != scene.Steps[k].Instruction || st.SafetyCheck != scene.Steps[k].SafetyCheck {
					t.Errorf("step %d names %q, want the scene's %q", k, st.ID, scene.Steps[k].ID)
				}
			}
			for i, ev := range events {
				in := tc.interactions[i]
				if ev.Seq != i || ev.SessionTime != in.SessionTime || ev.Kind != in.Kind() || ev.StepID != in.StepID || ev.ObjectID != in.ObjectID {
					t.Errorf("event %d = %+v, want the interaction %+v", i, ev, in)
				}
			}
			// Review and Evaluate agree on which steps were completed.
			var completed []string
			for _, st := range steps {
				if st.Status == StepCompleted {
					completed = append(completed, st.ID)
				}
			}
			if ev := Evaluate(scene, tc.interactions); !reflect.DeepEqual(completed, nilIfEmpty(ev.CompletedSteps)) {
				t.Errorf("completed %v, Evaluate says %v", completed, ev.CompletedSteps)
			}
		})
	}
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}
