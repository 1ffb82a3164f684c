package server

import (
	"net/http"

	"journeyman/internal/store"
)

// handleListAlerts answers GET /api/safety-alerts?limit=N: the most recent
// safety alerts of the caller's channel (their organisation, or the demo
// channel of everyone outside one), newest first ([realtime.SafetyAlert]).
func (s *Server) handleListAlerts(w http.ResponseWriter, r *http.Request) {
	limit, err := queryInt(r, "limit", store.DefaultAlertPage, 1, store.MaxAlertPage)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	alerts, err := s.store.ListSafetyAlerts(r.Context(), caller(r).OrgID, limit)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, alerts)
}
