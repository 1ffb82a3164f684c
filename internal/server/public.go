package server

import (
	"net/http"

	"journeyman/internal/outreach"
)

// handleDashboardStats answers GET /api/analytics/dashboard-stats: the
// platform-wide figures of the landing page's dashboard tiles.
func (s *Server) handleDashboardStats(w http.ResponseWriter, r *http.Request) {
	stats, err := s.store.DashboardStats(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, stats)
}

// handleCreateDemoRequest answers POST /api/demo-requests: a visitor asks to
// be shown the platform. 201 with the stored request; 400 naming every bad
// field; 429 past the learner's limit.
func (s *Server) handleCreateDemoRequest(w http.ResponseWriter, r *http.Request) {
	var in outreach.DemoRequestInput
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	in = in.Normalize()
	if err := in.Validate(); err != nil {
		s.writeError(w, r, err)
		return
	}
	created, err := s.store.CreateDemoRequest(r.Context(), caller(r).ID, in)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, created)
}

// handleListDemoRequests answers GET /api/demo-requests: the caller's own
// requests, newest first, so the form can say one was already sent.
func (s *Server) handleListDemoRequests(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.ListDemoRequests(r.Context(), caller(r).ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}
