package server

// Forwarding to an organisation's external LRS (its admins only; always
// the caller's own organisation):
//
//	GET    /api/organisation/xapi/forwarding         → 200 store.XAPIForwardingStatus
//	PUT    /api/organisation/xapi/forwarding         {endpoint, key, secret, version} → 200 the status
//	       (secret may be left out while endpoint and key stay the same: the stored one is kept)
//	DELETE /api/organisation/xapi/forwarding         → 204 (the cursor is forgotten)
//	POST   /api/organisation/xapi/forwarding/pause   → 200 the status
//	POST   /api/organisation/xapi/forwarding/resume  → 200 the status (tries at once)
//
// The secret is never answered back; the forwarder (internal/xapiforward)
// does the sending.

import (
	"net/http"

	"journeyman/internal/store"
	"journeyman/internal/xapi"
)

type xapiForwardingRequest struct {
	Endpoint string `json:"endpoint"`
	Key      string `json:"key"`
	Secret   string `json:"secret"`
	Version  string `json:"version"`
}

func (s *Server) handleGetXAPIForwarding(w http.ResponseWriter, r *http.Request) {
	st, err := s.store.GetXAPIForwarding(r.Context(), caller(r).OrgID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) handleSetXAPIForwarding(w http.ResponseWriter, r *http.Request) {
	var in xapiForwardingRequest
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	st, err := s.store.SetXAPIForwarding(r.Context(), caller(r).OrgID, store.XAPIForwardingConfig{
		Endpoint: in.Endpoint, Key: in.Key, Secret: in.Secret, Version: xapi.Version(in.Version)})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) handleDeleteXAPIForwarding(w http.ResponseWriter, r *http.Request) {
	if err := s.store.DeleteXAPIForwarding(r.Context(), caller(r).OrgID); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handlePauseXAPIForwarding(w http.ResponseWriter, r *http.Request) {
	s.pauseXAPIForwarding(w, r, true)
}

func (s *Server) handleResumeXAPIForwarding(w http.ResponseWriter, r *http.Request) {
	s.pauseXAPIForwarding(w, r, false)
}

func (s *Server) pauseXAPIForwarding(w http.ResponseWriter, r *http.Request, paused bool) {
	st, err := s.store.PauseXAPIForwarding(r.Context(), caller(r).OrgID, paused)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}
