package training

// Step statuses of a review.
const (
	StepCompleted = "completed"
	StepSkipped   = "skipped"
	StepMissed    = "missed" // neither completed nor skipped
)

// StepReview is how one step of the scene went in a recorded session. Times
// are the session's own clock (sessionTime, milliseconds since its start).
// A step begins when the learner moved on from the one before it (its
// completion or skip) or at the start, as Verify paces it; it ends with its
// completion or, failing that, its first skip. A missed step has no times.
type StepReview struct {
	ID          string `json:"id"`
	Instruction string `json:"instruction"`
	SafetyCheck string `json:"safetyCheckId,omitempty"`
	Status      string `json:"status"`
	StartMs     *int64 `json:"startMs"`
	EndMs       *int64 `json:"endMs"`
	DurationMs  *int64 `json:"durationMs"`
}

// ReviewEvent is one recorded interaction as a replay shows it.
type ReviewEvent struct {
	Seq         int    `json:"seq"`
	SessionTime int64  `json:"sessionTime"`
	Kind        string `json:"kind"`
	StepID      string `json:"stepId"`
	ObjectID    string `json:"objectId"`
}

// ReviewSteps replays a session's interactions against its scene: each
// step's status and times, in the scene's order, and every interaction as an
// event. The statuses agree with Evaluate: a step skipped and then done is
// completed.
func ReviewSteps(scene Scene, interactions []Interaction) ([]StepReview, []ReviewEvent) {
	index := map[string]int{}
	for k, st := range scene.Steps {
		index[st.ID] = k
	}
	type span struct{ start, end int64 }
	done := map[string]span{}
	skipped := map[string]span{}
	var since int64 // when the current step began: the last completion or skip
	events := make([]ReviewEvent, 0, len(interactions))
	for i, in := range interactions {
		kind := in.Kind()
		events = append(events, ReviewEvent{Seq: i, SessionTime: in.SessionTime, Kind: kind, StepID: in.StepID, ObjectID: in.ObjectID})
		k, ok := index[in.StepID]
		if !ok {
			continue
		}
		st := scene.Steps[k]
		_, isDone := done[st.ID]
		_, isSkipped := skipped[st.ID]
		switch {
		case isDone:
			continue
		case kind == st.Action && in.ObjectID == st.Target:
			done[st.ID] = span{since, in.SessionTime}
		case kind == ActionSkip && !isSkipped:
			skipped[st.ID] = span{since, in.SessionTime}
		default:
			continue
		}
		since = in.SessionTime
	}

	steps := make([]StepReview, len(scene.Steps))
	for k, st := range scene.Steps {
		r := StepReview{ID: st.ID, Instruction: st.Instruction, SafetyCheck: st.SafetyCheck, Status: StepMissed}
		sp, ok := done[st.ID]
		if ok {
			r.Status = StepCompleted
		} else if sp, ok = skipped[st.ID]; ok {
			r.Status = StepSkipped
		}
		if ok {
			took := max(sp.end-sp.start, 0)
			r.StartMs, r.EndMs, r.DurationMs = &sp.start, &sp.end, &took
		}
		steps[k] = r
	}
	return steps, events
}
