// Package xapi is the Experience API (xAPI) as a Learning Record Store sees
// it: the statement and document rules of versions 1.0.3 and 2.0.0
// (IEEE 9274.1.1-2023), statement comparison, formats and signatures. It
// knows no HTTP and no SQL: the server and the store speak it.
package xapi

import (
	"encoding/json"
	"time"
)

// Version is an xAPI version as the X-Experience-API-Version header names it.
type Version string

// The versions this LRS speaks.
const (
	V103 Version = "1.0.3"
	V200 Version = "2.0.0"
)

// Ref is an agent or activity a statement names. Direct marks the actor or
// object (what the agent and activity filters match); the others (context,
// authority, sub-statement) count only with related_agents / related_activities.
type Ref struct {
	Key    string // an activity id, or an agent's AgentKey
	Direct bool
}

// Attachment is one entry of a statement's attachments.
type Attachment struct {
	UsageType   string
	ContentType string
	Length      int64
	SHA2        string
	FileURL     string
}

// Statement is a valid statement completed by the LRS, with what the store
// indexes read off it.
type Statement struct {
	ID           string
	Stored       time.Time
	VerbID       string
	Registration string // "" without one
	// Voids is the id of the statement a voiding statement voids ("" else).
	Voids string
	// TargetID is the statement a StatementRef object points at, voiding
	// or not ("" when the object is no StatementRef).
	TargetID   string
	Agents     []Ref
	Activities []Ref
	// ActivityDefs holds the definitions the statement gives, by activity id,
	// for the Activities Resource.
	ActivityDefs map[string]json.RawMessage
	Attachments  []Attachment
	// Body is the statement as stored and returned in the "exact" format.
	Body json.RawMessage
}

// VoidedVerb is the verb of a voiding statement.
const VoidedVerb = "http://adlnet.gov/expapi/verbs/voided"
