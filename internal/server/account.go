package server

// Accounts. Shapes (JSON):
//
//	Me = {id, displayName, guest, email|null, role: guest|learner|instructor|admin,
//	      organisation: {id, name}|null}
//	GET   /api/me                                  → Me (anyone; a new guest when the request has no identity)
//	POST  /api/account/sign-up  {email, password, displayName, inviteToken?} → 201 Me, signed in;
//	      the guest's records move into the account; a taken email → 409
//	POST  /api/account/sign-in  {email, password}  → Me; 401 "email or password is incorrect" for
//	      an unknown email and a wrong password alike; 429 when throttled (per address, per account)
//	POST  /api/account/sign-out                    → 204, back to a fresh guest
//	PATCH /api/account {displayName}               → Me
//	POST  /api/account/password {currentPassword, newPassword} → 204; every other session ends
//	POST  /api/account/sign-out-everywhere         → 204, this session too
//	GET   /api/account/password-reset/{token}      → {email}; 404 for an invalid or used link
//	POST  /api/account/password-reset {token, password} → Me, signed in; the link is used up
//	GET   /api/invites/{token}                     → {organisation {id, name}, role, cohort|null, expiresAt}
//	POST  /api/invites/{token}/accept              → Me (an account outside any organisation)

import (
	"net/http"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/store"
)

type meResponse struct {
	ID           string        `json:"id"`
	DisplayName  string        `json:"displayName"`
	Guest        bool          `json:"guest"`
	Email        *string       `json:"email"`
	Role         identity.Role `json:"role"`
	Organisation *store.Ref    `json:"organisation"`
}

func meOf(c identity.Caller) meResponse {
	m := meResponse{ID: c.ID, DisplayName: c.DisplayName, Guest: c.Role == identity.Guest, Role: c.Role}
	if c.Email != "" {
		m.Email = &c.Email
	}
	if c.OrgID != "" {
		m.Organisation = &store.Ref{ID: c.OrgID, Name: c.OrgName}
	}
	return m
}

func userMe(u store.User) meResponse { return meOf(u.Caller()) }

// handleMe answers from the caller identify loaded: a signed-in caller's
// account, organisation name included, was read for this request already.
func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, meOf(caller(r)))
}

type signUpRequest struct {
	Email       string `json:"email"`
	Password    string `json:"password"`
	DisplayName string `json:"displayName"`
	InviteToken string `json:"inviteToken"`
}

// newAccount checks a sign-up's fields and hashes its password.
func newAccount(email, displayName, password string) (store.NewAccount, error) {
	email, err := identity.NormalizeEmail("email", email)
	if err != nil {
		return store.NewAccount{}, err
	}
	name, err := identity.CheckName("displayName", displayName, identity.MaxDisplayName)
	if err != nil {
		return store.NewAccount{}, err
	}
	if err := identity.CheckPassword("password", password); err != nil {
		return store.NewAccount{}, err
	}
	return store.NewAccount{Email: email, DisplayName: name, PasswordHash: identity.HashPassword(password)}, nil
}

func (s *Server) handleSignUp(w http.ResponseWriter, r *http.Request) {
	var in signUpRequest
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := newAccount(in.Email, in.DisplayName, in.Password)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c := caller(r)
	guestID := ""
	if c.Role == identity.Guest && c.Presented {
		guestID = c.ID
	}
	inviteHash := ""
	if in.InviteToken != "" {
		inviteHash = identity.HashSecret(in.InviteToken)
	}
	u, err := s.store.CreateAccount(r.Context(), a, guestID, inviteHash)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.knownGuests.forget(guestID)
	if err := s.signIn(w, r, u); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, userMe(u))
}

type signInRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

var errBadCredentials = apperr.Errorf(apperr.EUNAUTHORIZED, "email or password is incorrect")

func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) {
	var in signInRequest
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	if in.Email == "" || in.Password == "" {
		s.writeError(w, r, apperr.Invalid("email and password are required"))
		return
	}
	// The account's budget is keyed by what was typed, so that unknown
	// emails are throttled exactly like known ones.
	account := identity.HashSecret(identity.FoldEmail(in.Email))
	if err := allow(s.limits.signInAddr, w, r, s.clientAddr(r).String(), "sign-in attempts from your address"); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := allow(s.limits.signInAccount, w, r, account, "sign-in attempts for this account"); err != nil {
		s.writeError(w, r, err)
		return
	}
	u, err := s.store.GetUserByEmail(r.Context(), identity.FoldEmail(in.Email))
	if err != nil && apperr.Code(err) != apperr.ENOTFOUND {
		s.writeError(w, r, err)
		return
	}
	// An unknown email costs a hash too, so timing does not tell it apart.
	if ok := identity.VerifyPassword(u.PasswordHash, in.Password); !ok || err != nil {
		s.writeError(w, r, errBadCredentials)
		return
	}
	if c := caller(r); c.Role == identity.Guest && c.Presented {
		if err := s.store.MoveGuestData(r.Context(), c.ID, u.ID); err != nil {
			s.writeError(w, r, err)
			return
		}
		s.knownGuests.forget(c.ID)
	}
	if err := s.signIn(w, r, u); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, userMe(u))
}

func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) {
	if err := s.signOut(w, r); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.revalidateRealtime(caller(r).ID)
	w.WriteHeader(http.StatusNoContent)
}

type updateAccountRequest struct {
	DisplayName string `json:"displayName"`
}

func (s *Server) handleUpdateAccount(w http.ResponseWriter, r *http.Request) {
	var in updateAccountRequest
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	name, err := identity.CheckName("displayName", in.DisplayName, identity.MaxDisplayName)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	u, err := s.store.SetDisplayName(r.Context(), caller(r).ID, name)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, userMe(u))
}

type changePasswordRequest struct {
	CurrentPassword string `json:"currentPassword"`
	NewPassword     string `json:"newPassword"`
}

func (s *Server) handleChangePassword(w http.ResponseWriter, r *http.Request) {
	var in changePasswordRequest
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := identity.CheckPassword("newPassword", in.NewPassword); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := allow(s.limits.signInAccount, w, r, "change:"+caller(r).ID, "password attempts"); err != nil {
		s.writeError(w, r, err)
		return
	}
	u, err := s.store.GetUser(r.Context(), caller(r).ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !identity.VerifyPassword(u.PasswordHash, in.CurrentPassword) {
		s.writeError(w, r, apperr.Invalid("currentPassword is incorrect"))
		return
	}
	if u, err = s.store.SetPassword(r.Context(), u.ID, identity.HashPassword(in.NewPassword)); err != nil {
		s.writeError(w, r, err)
		return
	}
	// The epoch moved on, ending every session; this one continues anew.
	if err := s.signIn(w, r, u); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.revalidateRealtime(u.ID)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleSignOutEverywhere(w http.ResponseWriter, r *http.Request) {
	if err := s.store.SignOutEverywhere(r.Context(), caller(r).ID); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.signOut(w, r); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.revalidateRealtime(caller(r).ID)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleGetPasswordLink(w http.ResponseWriter, r *http.Request) {
	u, err := s.store.PasswordLinkUser(r.Context(), r.PathValue("token"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"email": u.Email})
}

type usePasswordLinkRequest struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

func (s *Server) handleUsePasswordLink(w http.ResponseWriter, r *http.Request) {
	var in usePasswordLinkRequest
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := identity.CheckPassword("password", in.Password); err != nil {
		s.writeError(w, r, err)
		return
	}
	u, err := s.store.UsePasswordLink(r.Context(), in.Token, identity.HashPassword(in.Password))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.signIn(w, r, u); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.revalidateRealtime(u.ID) // a reset password ends the other sessions
	writeJSON(w, http.StatusOK, userMe(u))
}

type inviteView struct {
	Organisation store.Ref     `json:"organisation"`
	Role         identity.Role `json:"role"`
	Cohort       *store.Ref    `json:"cohort"`
	ExpiresAt    string        `json:"expiresAt"`
}

func (s *Server) handleGetInvite(w http.ResponseWriter, r *http.Request) {
	inv, org, err := s.store.InviteByToken(r.Context(), r.PathValue("token"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, inviteView{Organisation: store.Ref{ID: org.ID, Name: org.Name}, Role: inv.Role, Cohort: inv.Cohort,
		ExpiresAt: inv.ExpiresAt.Format("2006-01-02T15:04:05Z07:00")})
}

func (s *Server) handleAcceptInvite(w http.ResponseWriter, r *http.Request) {
	u, err := s.store.AcceptInvite(r.Context(), caller(r).ID, r.PathValue("token"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, userMe(u))
}
