package records

import (
	"encoding/json"
	"math"
	"time"

	"journeyman/internal/training"
)

// Module is the training module a session trains, with its trade.
type Module struct {
	ID, Title, Description string
	TradeID, TradeName     string
}

// SessionStatements are the statements that record a change of a session:
// before is the session as stored before it (zero for a new session),
// after as written, and added the interactions the change appended. The
// answer is a JSON array, nil when the change records nothing.
func (l Learner) SessionStatements(m Module, before, after training.Session, added []training.Interaction) []byte {
	s := sessionRecord{l: l, m: m, x: after}
	var out []any
	if before.ID == "" {
		at := after.StartedAt
		out = append(out, s.statement(VerbLaunched, s.module(), at, nil, nil), s.statement(VerbInitialized, s.module(), at, nil, nil))
	}
	if len(added) > 0 {
		scene := training.SceneForModule(m.ID, m.TradeID)
		for _, in := range added {
			out = append(out, s.interacted(scene, in))
		}
	}
	ended := after.CompletionStatus == training.StatusCompleted && before.CompletionStatus != training.StatusCompleted
	if ended {
		out = append(out, s.ended()...)
	}
	if len(out) == 0 {
		return nil
	}
	b, _ := json.Marshal(out) // maps and strings only
	return b
}

type sessionRecord struct {
	l Learner
	m Module
	x training.Session
}

func (s sessionRecord) module() object {
	return activity(ModuleIRI(s.l.Base, s.m.ID), TypeModule, s.m.Title, s.m.Description)
}

// context names the attempt (the session as registration), the module as
// parent of what is not the module, the trade, organisation and cohorts.
func (s sessionRecord) context(parent bool) object {
	acts := object{}
	if parent {
		acts["parent"] = []any{s.module()}
	}
	grouping := []any{}
	if s.m.TradeID != "" {
		grouping = append(grouping, activity(tradeIRI(s.l.Base, s.m.TradeID), TypeCourse, s.m.TradeName, ""))
	}
	grouping = append(grouping, s.l.grouping()...)
	if len(grouping) > 0 {
		acts["grouping"] = grouping
	}
	ctx := object{
		"registration": s.x.ID,
		"platform":     "Journeyman XR",
		"language":     "en-US",
		"extensions":   object{s.l.Base + extSessionType: s.x.SessionType},
	}
	if len(acts) > 0 {
		ctx["contextActivities"] = acts
	}
	return ctx
}

func (s sessionRecord) statement(verbID string, obj object, at time.Time, result object, ctx object) object {
	if ctx == nil {
		ctx = s.context(false)
	}
	st := object{"actor": s.l.agent(), "verb": verb(verbID), "object": obj, "context": ctx, "timestamp": timestamp(at)}
	if result != nil {
		st["result"] = result
	}
	return st
}

// interacted records one step: which scene step it was (by its stepId, else
// the step acting on its target), whether it was done or skipped, and the
// safety check the step performs.
func (s sessionRecord) interacted(scene training.Scene, in training.Interaction) object {
	step, found := stepOf(scene, in)
	stepID, name := in.StepID, in.Kind()
	if found {
		stepID, name = step.ID, step.Instruction
	}
	if stepID == "" {
		stepID = "action-" + in.Kind()
	}
	if name == "" {
		name = stepID
	}
	done := in.Kind() != training.ActionSkip
	ext := object{s.l.Base + extAction: in.Kind()}
	if found && step.SafetyCheck != "" {
		status := training.CheckPassed
		if !done {
			status = training.CheckSkipped
		}
		ext[s.l.Base+extSafetyCheck] = object{"id": step.SafetyCheck, "status": status}
	}
	result := object{"success": done, "completion": done, "extensions": ext}
	if w, ok := training.WeldOf(in); ok {
		// The quality the server works out from the weld's metrics; the
		// page's own figure is the client's claim and is left out.
		q := w.QualityScore()
		result["score"] = object{"scaled": math.Round(q*10) / 1000, "raw": q, "min": 0, "max": 100}
		ext[s.l.Base+extWeld] = object{"technique": w.Technique, "material": w.Material, "position": w.Position}
	}
	if in.HasSessionTime() {
		result["duration"] = duration(time.Duration(in.SessionTime) * time.Millisecond)
	}
	obj := activity(StepIRI(s.l.Base, s.m.ID, stepID), TypeInteraction, name, "")
	return s.statement(VerbInteracted, obj, in.Timestamp, result, s.context(true))
}

// stepOf finds the scene step an interaction carries out.
func stepOf(scene training.Scene, in training.Interaction) (training.Step, bool) {
	for _, st := range scene.Steps {
		if in.StepID != "" && st.ID == in.StepID {
			return st, true
		}
	}
	target := in.ObjectID
	if target == "" {
		var t string
		if raw, ok := in.Extra["target"]; ok && json.Unmarshal(raw, &t) == nil {
			target = t
		}
	}
	for _, st := range scene.Steps {
		if in.StepID == "" && target != "" && st.Target == target {
			return st, true
		}
	}
	return training.Step{}, false
}

// ended records the end of the attempt: completed, then the server's
// judgement (passed or failed with the safety score), then terminated.
func (s sessionRecord) ended() []any {
	at := s.x.UpdatedAt
	if s.x.EndedAt != nil {
		at = *s.x.EndedAt
	}
	took := duration(time.Duration(s.x.Duration) * time.Second)
	outcome := VerbFailed
	if s.x.InteractionData.CompletionStatus == training.OutcomePassed {
		outcome = VerbPassed
	}
	judged := object{"success": outcome == VerbPassed, "completion": true, "duration": took,
		"extensions": object{s.l.Base + extVerified: s.x.Verified}}
	if s.x.SafetyScore != nil {
		score := *s.x.SafetyScore
		judged["score"] = object{"scaled": score / 100, "raw": score, "min": 0, "max": 100}
	}
	return []any{
		s.statement(VerbCompleted, s.module(), at, object{"completion": true, "duration": took}, nil),
		s.statement(outcome, s.module(), at, judged, nil),
		s.statement(VerbTerminated, s.module(), at, object{"duration": took}, nil),
	}
}
