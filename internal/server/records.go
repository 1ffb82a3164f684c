package server

import (
	"journeyman/internal/identity"
	"journeyman/internal/records"
	"journeyman/internal/store"
)

// recorder is how a learner's session changes become xAPI statements in
// the built-in LRS, in their organisation's records (records.Learner).
// Only accounts keep a learning record: a guest is nobody anyone reports
// on, and their sessions move into the account they sign up with.
func (s *Server) recorder(c identity.Caller) *store.Recorder {
	if !c.Signed() {
		return nil
	}
	return &store.Recorder{Learner: records.Learner{Base: s.publicURL, ID: c.ID, Name: c.DisplayName, OrgID: c.OrgID, OrgName: c.OrgName}}
}
