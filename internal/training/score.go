package training

import "math"

// Evaluation is what a finished session achieved in its scene.
type Evaluation struct {
	CompletedSteps []string            `json:"completedSteps"`
	SafetyChecks   []SafetyCheckResult `json:"safetyChecks"`
	SafetyScore    float64             `json:"safetyScore"` // percent, one decimal
	Outcome        string              `json:"outcome"`     // OutcomePassed or OutcomeFailed
}

// Evaluate scores recorded interactions against a scene.
//
// A step is completed by the first interaction that names the step and acts
// on its target with its action (Interaction.Kind). A safety check passes when its step was
// completed, not skipped first, and before any later step of the scene was
// completed: checking the harness after climbing does not count. Every
// other check is skipped.
//
// The safety score is the weighted share of passed checks:
//
//	score = 100 × Σ weight(passed) / Σ weight(all checks)
//
// rounded to one decimal; a scene without checks scores 100. The session
// passes when every required step is completed and the score reaches the
// scene's minimum.
func Evaluate(scene Scene, interactions []Interaction) Evaluation {
	done := map[string]int{}    // step id → index of the completing interaction
	skipped := map[string]int{} // step id → index of the first skip
	steps := map[string]Step{}
	for _, st := range scene.Steps {
		steps[st.ID] = st
	}
	for i, in := range interactions {
		st, ok := steps[in.StepID]
		if !ok {
			continue
		}
		if _, seen := done[st.ID]; seen {
			continue
		}
		switch kind := in.Kind(); {
		case kind == ActionSkip:
			if _, seen := skipped[st.ID]; !seen {
				skipped[st.ID] = i
			}
		case kind == st.Action && in.ObjectID == st.Target:
			done[st.ID] = i
		}
	}

	ev := Evaluation{CompletedSteps: []string{}, SafetyChecks: []SafetyCheckResult{}}
	passed := map[string]bool{}
	for k, st := range scene.Steps {
		at, ok := done[st.ID]
		if ok {
			ev.CompletedSteps = append(ev.CompletedSteps, st.ID)
		}
		if st.SafetyCheck == "" || !ok {
			continue
		}
		if s, wasSkipped := skipped[st.ID]; wasSkipped && s < at {
			continue
		}
		inOrder := true
		for _, later := range scene.Steps[k+1:] {
			if j, laterDone := done[later.ID]; laterDone && j < at {
				inOrder = false
				break
			}
		}
		passed[st.SafetyCheck] = inOrder
	}

	var total, got int
	for _, c := range scene.SafetyChecks {
		total += c.Weight
		status := CheckSkipped
		if passed[c.ID] {
			status = CheckPassed
			got += c.Weight
		}
		ev.SafetyChecks = append(ev.SafetyChecks, SafetyCheckResult{ID: c.ID, Status: status})
	}
	ev.SafetyScore = 100
	if total > 0 {
		ev.SafetyScore = math.Round(1000*float64(got)/float64(total)) / 10
	}

	ev.Outcome = OutcomePassed
	for _, id := range scene.PassCriteria.RequiredSteps {
		if _, ok := done[id]; !ok {
			ev.Outcome = OutcomeFailed
		}
	}
	if ev.SafetyScore < scene.PassCriteria.MinSafetyScore {
		ev.Outcome = OutcomeFailed
	}
	return ev
}
