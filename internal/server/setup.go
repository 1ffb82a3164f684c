package server

import (
	"net/http"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/store"
)

// A deployment with no organisation is set up in the browser with a
// one-time link the server logs at start (cmd/journeyman): whoever can read
// the server's log creates the first organisation and its admin. Once an
// organisation exists no link sets anything up (a GET says so, a POST is a
// 409) and new admins come by invite or from the command line.
//
//	GET  /api/setup/{token} → {setUp: false, expiresAt}, or {setUp: true} once set up; 404 unknown or expired
//	POST /api/setup/{token} {organisationName, displayName, email, password} → 201 Me, signed in
//
// A signed-in account outside any organisation sends organisationName
// alone and becomes the admin itself.

type setupRequest struct {
	OrganisationName string `json:"organisationName"`
	DisplayName      string `json:"displayName"`
	Email            string `json:"email"`
	Password         string `json:"password"`
}

// setupLinkView is what a setup link can do: set the deployment up until
// expiresAt, or nothing any more because it is set up (the page says so;
// a GET that asks is no error).
type setupLinkView struct {
	SetUp     bool   `json:"setUp"`
	ExpiresAt string `json:"expiresAt,omitempty"`
}

func (s *Server) handleGetSetupLink(w http.ResponseWriter, r *http.Request) {
	expires, err := s.store.CheckSetupLink(r.Context(), r.PathValue("token"))
	switch {
	case apperr.Code(err) == apperr.ECONFLICT:
		writeJSON(w, http.StatusOK, setupLinkView{SetUp: true})
	case err != nil:
		s.writeError(w, r, err)
	default:
		writeJSON(w, http.StatusOK, setupLinkView{ExpiresAt: expires.Format(time.RFC3339)})
	}
}

func (s *Server) handleSetUp(w http.ResponseWriter, r *http.Request) {
	var in setupRequest
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	orgName, err := identity.CheckName("organisationName", in.OrganisationName, identity.MaxOrgName)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// A spent or unknown link is refused before the password is hashed.
	if _, err := s.store.CheckSetupLink(r.Context(), r.PathValue("token")); err != nil {
		s.writeError(w, r, err)
		return
	}
	c := caller(r)
	var (
		accountID, guestID string
		a                  store.NewAccount
	)
	if c.Signed() {
		accountID = c.ID
	} else {
		if a, err = newAccount(in.Email, in.DisplayName, in.Password); err != nil {
			s.writeError(w, r, err)
			return
		}
		if c.Role == identity.Guest && c.Presented {
			guestID = c.ID
		}
	}
	u, err := s.store.SetUp(r.Context(), r.PathValue("token"), orgName, accountID, a, guestID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if accountID != "" {
		s.revalidateRealtime(u.ID) // its connections reopen in the new organisation
	} else {
		s.knownGuests.forget(guestID)
		if err := s.signIn(w, r, u); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	writeJSON(w, http.StatusCreated, userMe(u))
}
