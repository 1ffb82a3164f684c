package records

import (
	"encoding/json"
	"net/url"
	"time"
)

// VoiceRun is a finished voice training run as the server replayed it.
type VoiceRun struct {
	ID                   string // the registration: one attempt
	ModuleID, ModuleName string
	TradeID, TradeName   string
	StartedAt, EndedAt   time.Time
	TotalSteps           int
	StepsWalked          int
	Completed, Passed    bool
	EmergencyStops       int
}

// VoiceModuleIRI is a voice training module's activity id. Voice modules
// are their own catalogue (internal/voice), apart from the XR modules.
func VoiceModuleIRI(base, moduleID string) string {
	return base + "/xapi/activities/voice-modules/" + url.PathEscape(moduleID)
}

// Extension IRIs of voice run statements.
const (
	extStepsWalked    = "/xapi/extensions/steps-walked"
	extEmergencyStops = "/xapi/extensions/emergency-stops"
)

// VoiceStatements records a run as one statement: completed, with the
// share of steps walked as the score and success when every step was
// walked; or terminated, without completion, when the learner left the
// procedure before saying its complete command.
func (l Learner) VoiceStatements(r VoiceRun) []byte {
	obj := activity(VoiceModuleIRI(l.Base, r.ModuleID), TypeModule, r.ModuleName, "voice-guided procedure")
	result := object{
		"completion": r.Completed,
		"duration":   duration(r.EndedAt.Sub(r.StartedAt)),
		"extensions": object{l.Base + extStepsWalked: r.StepsWalked, l.Base + extEmergencyStops: r.EmergencyStops},
	}
	v := VerbTerminated
	if r.Completed {
		v = VerbCompleted
		result["success"] = r.Passed
		result["score"] = object{"scaled": float64(r.StepsWalked) / float64(r.TotalSteps), "raw": r.StepsWalked, "min": 0, "max": r.TotalSteps}
	}
	grouping := append([]any{activity(tradeIRI(l.Base, r.TradeID), TypeCourse, r.TradeName, "")}, l.grouping()...)
	ctx := object{
		"registration":      r.ID,
		"platform":          "Journeyman XR",
		"language":          "en-US",
		"contextActivities": object{"grouping": grouping},
		"extensions":        object{l.Base + extSessionType: "voice"},
	}
	st := object{"actor": l.agent(), "verb": verb(v), "object": obj, "result": result, "context": ctx, "timestamp": timestamp(r.EndedAt)}
	b, _ := json.Marshal([]any{st}) // maps and strings only
	return b
}
