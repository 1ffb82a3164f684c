package records

import (
	"encoding/json"
	"net/url"
	"time"
)

// Assessment is a learner's self-assessment of their skill in a trade, as
// stored: the overall score (percent) and the level it places them at.
type Assessment struct {
	ID             int64
	TradeID        string
	TradeName      string // the trade's name, or its id if the catalog lacks it
	AssessmentType string // initial, progress or certification
	OverallScore   int
	Level          string
	At             time.Time
}

// SkillAssessmentIRI is the activity id of the self-assessment of a trade:
// one activity per trade, so a learner's successive assessments line up.
func SkillAssessmentIRI(base, tradeID string) string {
	return base + "/xapi/activities/skill-assessments/" + url.PathEscape(tradeID)
}

// Extension IRIs of an assessment statement.
const (
	extSkillLevel     = "/xapi/extensions/skill-level"
	extAssessmentType = "/xapi/extensions/assessment-type"
)

// AssessmentStatements records a self-assessment as one statement:
// completed, with the score. A self-assessment has no pass mark, so it is
// neither passed nor failed: success is left out rather than invented.
func (l Learner) AssessmentStatements(a Assessment) []byte {
	name := a.TradeName
	if name == "" {
		name = a.TradeID
	}
	obj := activity(SkillAssessmentIRI(l.Base, a.TradeID), TypeAssessment, name+" skill self-assessment", "")
	grouping := append([]any{activity(tradeIRI(l.Base, a.TradeID), TypeCourse, name, "")}, l.grouping()...)
	result := object{
		"completion": true,
		"score":      object{"scaled": float64(a.OverallScore) / 100, "raw": a.OverallScore, "min": 0, "max": 100},
		"extensions": object{l.Base + extSkillLevel: a.Level},
	}
	ctx := object{
		"platform":          "Journeyman XR",
		"language":          "en-US",
		"contextActivities": object{"grouping": grouping},
		"extensions":        object{l.Base + extAssessmentType: a.AssessmentType},
	}
	st := object{"actor": l.agent(), "verb": verb(VerbCompleted), "object": obj, "result": result, "context": ctx, "timestamp": timestamp(a.At)}
	b, _ := json.Marshal([]any{st}) // maps and strings only
	return b
}
