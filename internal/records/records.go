// Package records turns what Journeyman records of a learner's training
// into xAPI statements, cmi5-style: launched and initialized when a
// session starts, one interacted per recorded step with its safety check,
// then completed, passed or failed with the score, and terminated. The
// registration is the session (one attempt), the module is the activity,
// and the trade, the organisation and the learner's cohorts are its
// context. It builds statement JSON; the LRS's own rules validate it.
package records

import (
	"encoding/json"
	"fmt"
	"net/url"
	"time"
)

// Learner is who the statements are about. Base is the deployment's
// public URL: the home of its accounts and of its activity ids, which
// must not change once statements name them.
type Learner struct {
	Base    string
	ID      string
	Name    string
	OrgID   string // "" outside any organisation
	OrgName string
	Cohorts []Cohort
}

// Cohort is a group of learners the statements name as context.
type Cohort struct{ ID, Name string }

// The verbs Journeyman's statements use (ADL's, as cmi5 does).
const (
	VerbLaunched    = "http://adlnet.gov/expapi/verbs/launched"
	VerbInitialized = "http://adlnet.gov/expapi/verbs/initialized"
	VerbInteracted  = "http://adlnet.gov/expapi/verbs/interacted"
	VerbCompleted   = "http://adlnet.gov/expapi/verbs/completed"
	VerbPassed      = "http://adlnet.gov/expapi/verbs/passed" //nolint:gosec // G101: a verb's IRI, no credential
	VerbFailed      = "http://adlnet.gov/expapi/verbs/failed"
	VerbTerminated  = "http://adlnet.gov/expapi/verbs/terminated"
	VerbScored      = "http://adlnet.gov/expapi/verbs/scored"
	VerbAttempted   = "http://adlnet.gov/expapi/verbs/attempted"
)

var verbNames = map[string]string{
	VerbLaunched: "launched", VerbInitialized: "initialized", VerbInteracted: "interacted",
	VerbCompleted: "completed", VerbPassed: "passed", VerbFailed: "failed", VerbTerminated: "terminated",
	VerbScored: "scored", VerbAttempted: "attempted",
}

// Activity types, from ADL's vocabulary.
const (
	TypeModule      = "http://adlnet.gov/expapi/activities/module"
	TypeInteraction = "http://adlnet.gov/expapi/activities/interaction"
	TypeCourse      = "http://adlnet.gov/expapi/activities/course"
	TypeAssessment  = "http://adlnet.gov/expapi/activities/assessment"
	TypeGroup       = "http://activitystrea.ms/schema/1.0/group"
	TypeSimulation  = "http://adlnet.gov/expapi/activities/simulation"
)

// Extension IRIs under the deployment's base.
const (
	extSessionType = "/xapi/extensions/session-type"
	extSafetyCheck = "/xapi/extensions/safety-check"
	extVerified    = "/xapi/extensions/verified"
	extAction      = "/xapi/extensions/action"
	extWeld        = "/xapi/extensions/weld"
)

// Activity ids, under the deployment's base.

// ModuleIRI is a training module's activity id.
func ModuleIRI(base, moduleID string) string {
	return base + "/xapi/activities/modules/" + url.PathEscape(moduleID)
}

// StepIRI is the activity id of one step of a module's scene.
func StepIRI(base, moduleID, stepID string) string {
	return ModuleIRI(base, moduleID) + "/steps/" + url.PathEscape(stepID)
}

func tradeIRI(base, tradeID string) string {
	return base + "/xapi/activities/trades/" + url.PathEscape(tradeID)
}

func orgIRI(base, orgID string) string {
	return base + "/xapi/activities/organisations/" + url.PathEscape(orgID)
}

func cohortIRI(base, cohortID string) string {
	return base + "/xapi/activities/cohorts/" + url.PathEscape(cohortID)
}

// object is a JSON object under construction.
type object = map[string]any

func langMap(s string) object { return object{"en-US": s} }

// agent is the learner as an xAPI agent: an account on this deployment.
func (l Learner) agent() object {
	return object{"objectType": "Agent", "name": l.Name, "account": object{"homePage": l.Base, "name": l.ID}}
}

// Authority is what Journeyman writes its own statements as.
func Authority(base string) json.RawMessage {
	b, _ := json.Marshal(object{"objectType": "Agent", "name": "Journeyman XR", "account": object{"homePage": base, "name": "journeyman"}})
	return b
}

func verb(id string) object { return object{"id": id, "display": langMap(verbNames[id])} }

func activity(id, typ, name, description string) object {
	def := object{"type": typ, "name": langMap(name)}
	if description != "" {
		def["description"] = langMap(description)
	}
	return object{"objectType": "Activity", "id": id, "definition": def}
}

// grouping is the learner's organisation and cohorts, as context.
func (l Learner) grouping() []any {
	var out []any
	if l.OrgID != "" {
		out = append(out, activity(orgIRI(l.Base, l.OrgID), TypeGroup, l.OrgName, "organisation"))
	}
	for _, c := range l.Cohorts {
		out = append(out, activity(cohortIRI(l.Base, c.ID), TypeGroup, c.Name, "cohort"))
	}
	return out
}

func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// duration is an ISO 8601 duration of whole and fractional seconds.
func duration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return fmt.Sprintf("PT%gS", float64(d.Milliseconds())/1000)
}
