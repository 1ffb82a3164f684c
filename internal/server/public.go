package server

import (
	"net/http"

	"journeyman/internal/apperr"
	"journeyman/internal/outreach"
	"journeyman/internal/portal"
)

// handleDashboardStats answers GET /api/analytics/dashboard-stats: the
// figures of the landing page's dashboard tiles.
func (s *Server) handleDashboardStats(w http.ResponseWriter, r *http.Request) {
	// A member of an organisation sees its figures; everyone else, the
	// platform's.
	stats, err := s.store.DashboardStats(r.Context(), caller(r).OrgID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, stats)
}

func (s *Server) handleBenchmarks(w http.ResponseWriter, r *http.Request) {
	period := r.URL.Query().Get("period")
	days, ok := portal.Periods[period]
	if !ok {
		s.writeError(w, r, apperr.Invalid("period must be 7d, 28d, 90d or 1y, not %q", period))
		return
	}
	b, err := s.store.OrganisationBenchmarks(r.Context(), caller(r).OrgID, days)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, b)
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
