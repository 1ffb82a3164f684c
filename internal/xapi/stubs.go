package xapi

import (
	"encoding/json"
	"io"
	"time"

	"journeyman/internal/apperr"
)

// Incoming is one statement as a client sent it, valid for the version it was
// decoded under.
type Incoming struct {
	root *node
}

// ID is the statement's id, "" when the client gave none.
func (in Incoming) ID() string { return "" }

// Decode reads a single statement or an array of them and applies every
// validation rule of version v.
func Decode(body []byte, v Version) ([]Incoming, error) { return nil, apperr.Invalid("not implemented") }

// Complete makes the statement the LRS stores.
func (in Incoming) Complete(stored time.Time, authority json.RawMessage, v Version) (Statement, error) {
	return Statement{}, apperr.Invalid("not implemented")
}

// Equivalent reports whether a and b are the same statement.
func Equivalent(a, b json.RawMessage) bool { return false }

// Format renders a stored statement body for GET.
func Format(body json.RawMessage, format string, acceptLanguage []string) (json.RawMessage, error) {
	return body, nil
}

// AgentKey gives one stable string for an Agent or identified Group's IFI.
func AgentKey(agent json.RawMessage) (string, error) { return "", apperr.Invalid("not implemented") }

// ParseAgentParam validates an agent parameter and returns its AgentKey.
func ParseAgentParam(s string, v Version) (string, error) { return "", apperr.Invalid("not implemented") }

// Person builds the Agents Resource answer.
func Person(agent json.RawMessage) (json.RawMessage, error) { return nil, apperr.Invalid("not implemented") }

// VerifySignature checks a signed statement.
func VerifySignature(statement json.RawMessage, jws []byte) error { return apperr.Invalid("not implemented") }

// CheckParts checks the attachments parts against the statements.
func CheckParts(stmts []Incoming, parts map[string]Part) error { return nil }

// ReadMultipart reads a multipart/mixed statement request.
func ReadMultipart(contentType string, body io.Reader) ([]byte, map[string]Part, error) {
	return nil, nil, apperr.Invalid("not implemented")
}

// WriteMultipart writes a GET answer with attachments.
func WriteMultipart(w io.Writer, statements []byte, parts map[string]Part) (string, error) {
	return "", nil
}

type node struct{}
