package cmi5

import (
	"encoding/json"
	"fmt"
	"time"
)

// The cmi5 vocabulary an LMS writes with (sections 9.3, 9.6).
const (
	VerbLaunched    = "http://adlnet.gov/expapi/verbs/launched"
	VerbInitialized = "http://adlnet.gov/expapi/verbs/initialized"
	VerbCompleted   = "http://adlnet.gov/expapi/verbs/completed"
	VerbPassed      = "http://adlnet.gov/expapi/verbs/passed" //nolint:gosec // G101: a verb's IRI
	VerbFailed      = "http://adlnet.gov/expapi/verbs/failed"
	VerbTerminated  = "http://adlnet.gov/expapi/verbs/terminated"
	VerbAbandoned   = "https://w3id.org/xapi/adl/verbs/abandoned"
	VerbSatisfied   = "https://w3id.org/xapi/adl/verbs/satisfied"
	VerbWaived      = "https://w3id.org/xapi/adl/verbs/waived"

	CategoryCmi5   = "https://w3id.org/xapi/cmi5/context/categories/cmi5"
	CategoryMoveOn = "https://w3id.org/xapi/cmi5/context/categories/moveon"

	ExtSessionID        = "https://w3id.org/xapi/cmi5/context/extensions/sessionid"
	ExtMasteryScore     = "https://w3id.org/xapi/cmi5/context/extensions/masteryscore"
	ExtLaunchMode       = "https://w3id.org/xapi/cmi5/context/extensions/launchmode"
	ExtLaunchURL        = "https://w3id.org/xapi/cmi5/context/extensions/launchurl"
	ExtMoveOn           = "https://w3id.org/xapi/cmi5/context/extensions/moveon"
	ExtLaunchParameters = "https://w3id.org/xapi/cmi5/context/extensions/launchparameters"

	// LaunchDataStateID is the State document the LMS writes before a launch.
	LaunchDataStateID = "LMS.LaunchData"
	// LaunchModeNormal is the only launch mode this LMS uses: every launch
	// records.
	LaunchModeNormal = "Normal"
)

var verbNames = map[string]string{VerbLaunched: "launched", VerbAbandoned: "abandoned", VerbSatisfied: "satisfied"}

// Met reports whether an AU's moveOn criterion is met by what the learner
// did in the registration.
func Met(moveOn string, completed, passed bool) bool {
	switch moveOn {
	case MoveOnCompleted:
		return completed
	case MoveOnPassed:
		return passed
	case MoveOnCompletedAndPassed:
		return completed && passed
	case MoveOnCompletedOrPassed:
		return completed || passed
	}
	return true // NotApplicable
}

// Satisfied returns the blocks, in document order, whose AUs (at any
// depth) are all in done (AU publisher ids), and whether every AU of the
// course is.
func (c Course) Satisfied(done map[string]bool) (blocks []string, course bool) {
	pending := map[string]bool{}
	course = true
	for _, au := range c.AUs {
		if !done[au.ID] {
			course = false
			for _, b := range au.Blocks {
				pending[b] = true
			}
		}
	}
	for _, b := range c.Blocks {
		if !pending[b.ID] {
			blocks = append(blocks, b.ID)
		}
	}
	return blocks, course
}

// Session is one launch of an AU: what the LMS's statements and the
// launch data say about it.
type Session struct {
	ID           string
	Registration string
	Actor        json.RawMessage // the learner's agent
	ActivityID   string          // the AU's activity id, made by the LMS
	AU           AU
	LaunchURL    string // the AU's URL without the launch parameters
	ReturnURL    string
}

// ContextTemplate is the context every cmi5 defined statement of the
// session carries: its publisher id grouping and session id.
func (s Session) ContextTemplate() map[string]any {
	return map[string]any{
		"contextActivities": map[string]any{"grouping": []any{map[string]any{"id": s.AU.ID}}},
		"extensions":        map[string]any{ExtSessionID: s.ID},
	}
}

// LaunchData is the LMS.LaunchData State document (section 10).
func (s Session) LaunchData() []byte {
	d := map[string]any{
		"contextTemplate": s.ContextTemplate(),
		"launchMode":      LaunchModeNormal,
		"moveOn":          s.AU.MoveOn,
	}
	if s.AU.LaunchParameters != "" {
		d["launchParameters"] = s.AU.LaunchParameters
	}
	if s.AU.MasteryScore != nil {
		d["masteryScore"] = *s.AU.MasteryScore
	}
	if s.ReturnURL != "" {
		d["returnURL"] = s.ReturnURL
	}
	if s.AU.EntitlementKey != "" {
		d["entitlementKey"] = map[string]any{"courseStructure": s.AU.EntitlementKey}
	}
	b, _ := json.Marshal(d)
	return b
}

// statement is a cmi5 defined statement of the LMS about object in the
// session: the cmi5 category, the publisher id grouping, the session id.
func (s Session) statement(id, verb string, object map[string]any, at time.Time, ext map[string]any) map[string]any {
	extensions := map[string]any{ExtSessionID: s.ID}
	for k, v := range ext {
		extensions[k] = v
	}
	return map[string]any{
		"id":        id,
		"actor":     s.Actor,
		"verb":      map[string]any{"id": verb, "display": map[string]string{"en-US": verbNames[verb]}},
		"object":    object,
		"timestamp": at.UTC().Format("2006-01-02T15:04:05.000Z"),
		"context": map[string]any{
			"registration": s.Registration,
			"contextActivities": map[string]any{
				"category": []any{map[string]any{"id": CategoryCmi5}},
				"grouping": []any{map[string]any{"id": s.AU.ID}},
			},
			"extensions": extensions,
		},
	}
}

func (s Session) auObject() map[string]any {
	def := map[string]any{"name": map[string]string(s.AU.Title)}
	if s.AU.ActivityType != "" {
		def["type"] = s.AU.ActivityType
	}
	return map[string]any{"objectType": "Activity", "id": s.ActivityID, "definition": def}
}

// Launched is the statement the LMS records before the launch (9.3.1).
func (s Session) Launched(id string, at time.Time) map[string]any {
	ext := map[string]any{ExtLaunchMode: LaunchModeNormal, ExtLaunchURL: s.LaunchURL, ExtMoveOn: s.AU.MoveOn}
	if s.AU.LaunchParameters != "" {
		ext[ExtLaunchParameters] = s.AU.LaunchParameters
	}
	if s.AU.MasteryScore != nil {
		ext[ExtMasteryScore] = *s.AU.MasteryScore
	}
	return s.statement(id, VerbLaunched, s.auObject(), at, ext)
}

// Abandoned is the statement the LMS records for a session that ended
// without terminated; lasted is from launched to its last statement.
func (s Session) Abandoned(id string, at time.Time, lasted time.Duration) map[string]any {
	st := s.statement(id, VerbAbandoned, s.auObject(), at, nil)
	st["result"] = map[string]any{"duration": Duration(lasted)}
	return st
}

// Satisfied is the statement the LMS records once the learner met the
// moveOn criteria of every AU of a block or of the course: objectID is the
// block's or course's id, typ its activity type.
func (s Session) Satisfied(id, objectID, typ string, title LangString, at time.Time) map[string]any {
	def := map[string]any{"type": typ}
	if len(title) > 0 {
		def["name"] = map[string]string(title)
	}
	return s.statement(id, VerbSatisfied, map[string]any{"objectType": "Activity", "id": objectID, "definition": def}, at, nil)
}

// Activity types of the satisfied statements' objects (section 9.4).
const (
	TypeCourse = "https://w3id.org/xapi/cmi5/activitytype/course"
	TypeBlock  = "https://w3id.org/xapi/cmi5/activitytype/block"
)

// Duration is d as an ISO 8601 duration in seconds.
func Duration(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return fmt.Sprintf("PT%gS", float64(d.Milliseconds())/1000)
}
