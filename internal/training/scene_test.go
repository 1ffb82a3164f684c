package training

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"journeyman/internal/catalog"
)

// The catalog's trades; every one of them must have a scene of its own task.
var tradeIDs = []string{"electrical", "lineworker", "plumbing", "hvac", "welding", "construction", "carpentry", "automotive", "solar-wind", "elevator", "heavy-equipment", "manufacturing"}

func TestScenesAreConsistent(t *testing.T) {
	ids := map[string]bool{}
	for _, s := range Scenes() {
		t.Run(s.ID, func(t *testing.T) {
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			if ids[s.ID] {
				t.Fatalf("scene id %s repeated", s.ID)
			}
			ids[s.ID] = true
			if len(s.SafetyChecks) == 0 {
				t.Error("scene has no safety checks")
			}
			// Doing every step in order must pass with a full score.
			ev := Evaluate(s, perform(s, stepIDs(s.Steps)...))
			if ev.Outcome != OutcomePassed || ev.SafetyScore != 100 {
				t.Errorf("all steps in order: outcome %s, score %g; want passed, 100", ev.Outcome, ev.SafetyScore)
			}
			b, err := json.Marshal(s)
			if err != nil || !strings.Contains(string(b), `"passCriteria"`) {
				t.Errorf("scene does not encode: %v", err)
			}
		})
	}
}

func TestSceneValidateRejects(t *testing.T) {
	base, _ := SceneByID("electrical-lockout-tagout")
	for _, tc := range []struct {
		name   string
		change func(*Scene)
	}{
		{"UnknownTarget", func(s *Scene) { s.Steps[0].Target = "nowhere" }},
		{"UnknownCheck", func(s *Scene) { s.Steps[0].SafetyCheck = "no-such-check" }},
		{"UnperformedCheck", func(s *Scene) { s.Steps[0].SafetyCheck = "" }},
		{"BadShape", func(s *Scene) { s.Objects[0].Shape = "teapot" }},
		{"BadColor", func(s *Scene) { s.Objects[0].Color = "red" }},
		{"ZeroSize", func(s *Scene) { s.Objects[0].Size = [3]float64{} }},
		{"BadAction", func(s *Scene) { s.Steps[0].Action = "lick" }},
		{"UnknownRequiredStep", func(s *Scene) { s.PassCriteria.RequiredSteps = []string{"fly"} }},
		{"RepeatedObject", func(s *Scene) { s.Objects[1].ID = s.Objects[0].ID }},
		{"NoMinDuration", func(s *Scene) { s.Steps[0].MinDurationMs = 0 }},
		{"MinDurationTooLong", func(s *Scene) { s.Steps[0].MinDurationMs = MaxStepDurationMs + 1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := cloneScene(base)
			tc.change(&s)
			if err := s.Validate(); err == nil {
				t.Fatal("Validate accepted a broken scene")
			}
		})
	}
}

func cloneScene(s Scene) Scene {
	b, _ := json.Marshal(s)
	var c Scene
	_ = json.Unmarshal(b, &c)
	return c
}

func TestSceneForModule(t *testing.T) {
	seen := map[string]string{}
	for _, trade := range tradeIDs {
		t.Run(trade, func(t *testing.T) {
			s := SceneForModule(trade+"-some-module", trade)
			if s.ID == DefaultSceneID {
				t.Fatalf("trade %s has no scene of its own", trade)
			}
			if other, ok := seen[s.ID]; ok {
				t.Fatalf("trades %s and %s share scene %s", other, trade, s.ID)
			}
			seen[s.ID] = trade
		})
	}
	for _, tc := range []struct{ name, module, trade, want string }{
		{"ByModuleID", "hvac-refrigerant-gauges", "", "hvac-refrigerant-gauges"},
		{"TradeInModuleID", "sample-welding-module", "", "welding-joint-preparation"},
		{"Default", "default", "", DefaultSceneID},
		{"UnknownTrade", "x", "astronaut", DefaultSceneID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := SceneForModule(tc.module, tc.trade).ID; got != tc.want {
				t.Errorf("SceneForModule(%q, %q) = %s; want %s", tc.module, tc.trade, got, tc.want)
			}
		})
	}
}

// Every catalog module trains in a scene of its own: passing another
// module's scene would credit a task the learner never did.
func TestEveryModuleHasItsOwnScene(t *testing.T) {
	for _, m := range catalog.Modules() {
		t.Run(m.ID, func(t *testing.T) {
			s := ContentFor(m).Scene
			if s.ID != m.ID {
				t.Fatalf("module %s trains in scene %s", m.ID, s.ID)
			}
			if !slices.Contains(s.TradeIDs, m.TradeID) {
				t.Errorf("scene %s is of trades %v, not of its module's trade %s", s.ID, s.TradeIDs, m.TradeID)
			}
		})
	}
}

func TestRecordedScene(t *testing.T) {
	// Before it had a scene of its own, Multimeter Fundamentals trained in
	// the electrical trade's lockout/tagout scene.
	own := mustScene(t, "electrical-meter-basics")
	trade := mustScene(t, "electrical-lockout-tagout")
	did := func(s Scene) []Interaction { return perform(s, s.Steps[0].ID, s.Steps[1].ID) }
	for _, tc := range []struct {
		name         string
		module       string
		trade        string
		interactions []Interaction
		want         string
	}{
		{"ItsOwnSteps", own.ID, "electrical", did(own), own.ID},
		{"TradeStepsRecordedBefore", own.ID, "electrical", did(trade), trade.ID},
		{"NoSteps", own.ID, "electrical", []Interaction{{Action: "grab", ObjectID: "x"}}, own.ID},
		{"NoInteractions", own.ID, "electrical", nil, own.ID},
		{"ModuleWithoutOwnScene", "electrical-new-module", "electrical", did(trade), trade.ID},
		{"OtherTradesSteps", own.ID, "electrical", did(mustScene(t, "plumbing-leak-isolation")), own.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RecordedScene(tc.module, tc.trade, tc.interactions).ID; got != tc.want {
				t.Errorf("RecordedScene = %s; want %s", got, tc.want)
			}
		})
	}
}

func mustScene(t *testing.T, id string) Scene {
	t.Helper()
	s, ok := SceneByID(id)
	if !ok {
		t.Fatalf("no scene %s", id)
	}
	return s
}

func TestContentFor(t *testing.T) {
	c := ContentFor(catalog.Module{ID: "plumbing-leaks", TradeID: "plumbing", Title: "Leak Isolation"})
	if c.ModuleTitle != "Leak Isolation" || c.Scene.ID != "plumbing-leak-isolation" || c.SceneURL != "/api/xr-scenes/plumbing-leak-isolation" {
		t.Errorf("ContentFor = %+v", c)
	}
}

// perform returns the interactions of a learner doing the given steps of s
// in the given order; "skip:<id>" skips a step.
func perform(s Scene, steps ...string) []Interaction {
	var out []Interaction
	for i, id := range steps {
		in := Interaction{SessionTime: int64(1000 * (i + 1))}
		if skip, ok := strings.CutPrefix(id, "skip:"); ok {
			in.Action, in.StepID = ActionSkip, skip
		} else {
			for _, st := range s.Steps {
				if st.ID == id {
					in.Action, in.ObjectID, in.StepID = st.Action, st.Target, st.ID
				}
			}
		}
		out = append(out, in)
	}
	return out
}

// The orders a procedure's safety rests on, as a subject-matter review
// checked them: each pair's first step comes before its second.
func TestSafetyCriticalOrder(t *testing.T) {
	for _, tc := range []struct{ scene, before, after, why string }{
		{"electrical-lockout-tagout", "stop-conveyor", "open-disconnect", "the load is stopped at its controls before the disconnect opens (NFPA 70E 120.5(2))"},
		{"electrical-lockout-tagout", "prove-tester", "test-dead", "the tester is proven before the test (NFPA 70E 120.5(7))"},
		{"electrical-lockout-tagout", "test-dead", "reprove-tester", "and proven again after it"},
		{"lineworker-temporary-grounds", "test-phase-a", "ground-end", "every phase is tested before grounds go on (OSHA 1910.269(n)(5))"},
		{"lineworker-temporary-grounds", "test-phase-b", "ground-end", "every phase is tested before grounds go on"},
		{"lineworker-temporary-grounds", "test-phase-c", "ground-end", "every phase is tested before grounds go on"},
		{"elevator-pit-entry", "set-pit-stop", "test-stop", "the stop switch is set before it is tested"},
		{"elevator-pit-entry", "test-stop", "block-door", "the stop switch is tested before the door is blocked open: with it closed, only the switch can be holding the car"},
	} {
		t.Run(tc.scene+"/"+tc.before, func(t *testing.T) {
			scene, ok := SceneByID(tc.scene)
			if !ok {
				t.Fatalf("no scene %s", tc.scene)
			}
			at := map[string]int{}
			for i, st := range scene.Steps {
				at[st.ID] = i + 1
			}
			if b, a := at[tc.before], at[tc.after]; b == 0 || a == 0 || b >= a {
				t.Errorf("%s is step %d and %s step %d: %s", tc.before, b, tc.after, a, tc.why)
			}
		})
	}
}
