package server

// xAPI credentials: the keys an organisation's admins give xAPI clients
// (course players, an LMS) to reach the Learning Record Store at /xapi/.
// Every call works on the caller's own organisation; another
// organisation's credential answers 404, as if it did not exist.

import (
	"net/http"

	"journeyman/internal/store"
)

type xapiCredentialsResponse struct {
	// Endpoint is the LRS's address as the admin reached this server,
	// the value an xAPI client is configured with.
	Endpoint    string                 `json:"endpoint"`
	Credentials []store.XAPICredential `json:"credentials"`
}

func (s *Server) handleListXAPICredentials(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.ListXAPICredentials(r.Context(), caller(r).OrgID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, xapiCredentialsResponse{Endpoint: s.linkURL(r, "/xapi/"), Credentials: list})
}

type createXAPICredentialRequest struct {
	Name     string `json:"name"`
	CanRead  bool   `json:"canRead"`
	CanWrite bool   `json:"canWrite"`
}

type createdXAPICredential struct {
	Credential store.XAPICredential `json:"credential"`
	// Secret is answered this once: only its hash is stored.
	Secret string `json:"secret"`
}

func (s *Server) handleCreateXAPICredential(w http.ResponseWriter, r *http.Request) {
	var in createXAPICredentialRequest
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	c := caller(r)
	cred, secret, err := s.store.CreateXAPICredential(r.Context(), c.OrgID, c.ID, in.Name, in.CanRead, in.CanWrite)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, createdXAPICredential{Credential: cred, Secret: secret})
}

func (s *Server) handleRevokeXAPICredential(w http.ResponseWriter, r *http.Request) {
	if err := s.store.RevokeXAPICredential(r.Context(), caller(r).OrgID, r.PathValue("id")); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
