package xapi

import (
	"encoding/json"
	"strings"
)

// What the resources' parameters need of the statement rules.

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
