package xapi

import (
	"encoding/json"
	"strings"
	"time"
)

// What the resources' parameters need of the statement rules.

// IsUUID reports whether s is a UUID (any case), as statement ids and
// registrations are.
func IsUUID(s string) bool { return isUUID(s) }

// IsIRI reports whether s is an absolute IRI, as verb and activity ids are.
func IsIRI(s string) bool { return isIRI(s) }

// ParseTimestamp reads an ISO 8601 timestamp as the specification allows
// them (since and until).
func ParseTimestamp(s string) (time.Time, error) { return parseTimestamp(s) }

// WithID gives a statement sent without an id the id its request names
// (PUT's statementId).
func (in Incoming) WithID(id string) Incoming {
	in.id = strings.ToLower(id)
	return in
}

// AttachmentHashes lists the sha2 of a stored statement's attachments.
func AttachmentHashes(body json.RawMessage) []string {
	var st struct {
		Attachments []struct {
			SHA2 string `json:"sha2"`
		} `json:"attachments"`
	}
	if json.Unmarshal(body, &st) != nil {
		return nil
	}
	out := make([]string, 0, len(st.Attachments))
	for _, a := range st.Attachments {
		out = append(out, a.SHA2)
	}
	return out
}
