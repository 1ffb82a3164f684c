package portal

import (
	"time"

	"journeyman/internal/training"
)

// The live view's window and size: a session is running while it has not
// ended and was updated in the last LiveWindow (a learner who closed the
// tab leaves a session that never ends).
const (
	LiveWindow   = 30 * time.Minute
	MaxLive      = 100
	CheckPending = "pending" // a safety check whose step the learner has not reached
)

// Statuses of a live session.
const (
	LiveRunning = "running"
	LiveEnded   = "ended"
)

// LiveRecord is what the store reads of a session for the live view.
type LiveRecord struct {
	SessionID, UserID, LearnerName, OrgID string
	ModuleID, ModuleTitle, TradeID        string
	SessionType                           string
	StartedAt, UpdatedAt                  time.Time
	Ended                                 bool
	Outcome                               string
	Interactions                          []training.Interaction
}

// LiveSession is a running session as GET /api/portal/live and the
// live_session message show it: who, which module, which step, and the
// safety checks so far, all judged by the server from the recorded steps.
type LiveSession struct {
	SessionID    string      `json:"sessionId"`
	UserID       string      `json:"userId"`
	LearnerName  string      `json:"learnerName"`
	ModuleID     string      `json:"moduleId"`
	ModuleTitle  string      `json:"moduleTitle"`
	SessionType  string      `json:"sessionType"`
	StartedAt    time.Time   `json:"startedAt"`
	UpdatedAt    time.Time   `json:"updatedAt"`
	Status       string      `json:"status"`  // LiveRunning or LiveEnded
	Outcome      string      `json:"outcome"` // "" while running, then passed or failed
	Step         *LiveStep   `json:"step"`    // the current step; nil when every step is done
	StepsDone    int         `json:"stepsDone"`
	StepsTotal   int         `json:"stepsTotal"`
	SafetyChecks []LiveCheck `json:"safetyChecks"`
	Interactions int         `json:"interactions"`
}

// LiveStep is the step a learner is on: the first of the scene's steps
// neither completed nor skipped.
type LiveStep struct {
	Index       int    `json:"index"` // 0-based
	Total       int    `json:"total"`
	ID          string `json:"id"`
	Instruction string `json:"instruction"`
}

// LiveCheck is one of the scene's safety checks: passed or skipped by the
// step that performs it, or pending.
type LiveCheck struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Status      string `json:"status"`
}

// Live replays r's interactions against its module's scene.
func (r LiveRecord) Live() LiveSession {
	scene := training.SceneForModule(r.ModuleID, r.TradeID)
	steps, _ := training.ReviewSteps(scene, r.Interactions)
	out := LiveSession{
		SessionID: r.SessionID, UserID: r.UserID, LearnerName: r.LearnerName,
		ModuleID: r.ModuleID, ModuleTitle: r.ModuleTitle, SessionType: r.SessionType,
		StartedAt: r.StartedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), Status: LiveRunning, Outcome: r.Outcome,
		StepsTotal: len(steps), SafetyChecks: make([]LiveCheck, 0, len(scene.SafetyChecks)), Interactions: len(r.Interactions),
	}
	if r.Ended {
		out.Status = LiveEnded
	}
	checkStatus := map[string]string{}
	for i, st := range steps {
		status := CheckPending
		switch st.Status {
		case training.StepCompleted:
			status = training.CheckPassed
		case training.StepSkipped:
			status = training.CheckSkipped
		}
		if status != CheckPending {
			out.StepsDone++
		} else if out.Step == nil {
			out.Step = &LiveStep{Index: i, Total: len(steps), ID: st.ID, Instruction: st.Instruction}
		}
		if st.SafetyCheck != "" {
			checkStatus[st.SafetyCheck] = status
		}
	}
	for _, c := range scene.SafetyChecks {
		status := checkStatus[c.ID]
		if status == "" {
			status = CheckPending
		}
		out.SafetyChecks = append(out.SafetyChecks, LiveCheck{ID: c.ID, Description: c.Description, Status: status})
	}
	return out
}
