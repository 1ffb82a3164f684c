package server

// Organisations, members, invites, roster import and cohorts. Every call
// works on the caller's own organisation; an id from another organisation
// answers 404, as if it did not exist. Shapes: store.Member, store.Invite
// (+ url when created), store.Cohort (+ members on GET /api/cohorts/{id}),
// and the roster report below.

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/roster"
	"journeyman/internal/store"
)

// Invite limits.
const (
	MaxInviteDays = 30
	MaxInviteUses = 1000
)

func (s *Server) handleGetOrganisation(w http.ResponseWriter, r *http.Request) {
	o, err := s.store.GetOrganisation(r.Context(), caller(r).OrgID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, o)
}

func (s *Server) handleListMembers(w http.ResponseWriter, r *http.Request) {
	limit, offset, err := queryPage(r, store.DefaultMemberPage, store.MaxMemberPage)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	q := r.URL.Query().Get("q")
	if len(q) > identity.MaxEmail {
		s.writeError(w, r, apperr.Invalid("q must be at most %d characters", identity.MaxEmail))
		return
	}
	list, total, err := s.store.ListMembers(r.Context(), caller(r).OrgID, q, limit, offset)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	writeJSON(w, http.StatusOK, list)
}

type setRoleRequest struct {
	Role string `json:"role"`
}

func (s *Server) handleSetMemberRole(w http.ResponseWriter, r *http.Request) {
	var in setRoleRequest
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	role, err := identity.ParseMemberRole("role", in.Role)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	m, err := s.store.SetMemberRole(r.Context(), caller(r).OrgID, r.PathValue("userId"), role)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.revalidateRealtime(r.PathValue("userId"))
	writeJSON(w, http.StatusOK, m)
}

func (s *Server) handleRemoveMember(w http.ResponseWriter, r *http.Request) {
	if err := s.store.RemoveMember(r.Context(), caller(r).OrgID, r.PathValue("userId")); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.revalidateRealtime(r.PathValue("userId"))
	w.WriteHeader(http.StatusNoContent)
}

type linkResponse struct {
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// handleMemberPasswordLink gives an admin a password reset link for a
// member. Without mail delivery the admin passes it on (see linkURL).
func (s *Server) handleMemberPasswordLink(w http.ResponseWriter, r *http.Request) {
	m, err := s.store.GetMember(r.Context(), caller(r).OrgID, r.PathValue("userId"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	token, expires, err := s.store.CreatePasswordLink(r.Context(), m.ID, store.ResetLinkTTL)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, linkResponse{URL: s.linkURL(r, "/reset-password/"+token), ExpiresAt: expires})
}

// linkURL is where a link that a real deployment would e-mail is made: it
// is answered to the admin who asked for it. An SMTP sender would be
// plugged in here, sending the link instead of answering it.
func (s *Server) linkURL(r *http.Request, path string) string {
	scheme := "http"
	if s.isHTTPS(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host + path
}

func (s *Server) handleListInvites(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.ListInvites(r.Context(), caller(r).OrgID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

type createInviteRequest struct {
	Role          string `json:"role"`
	CohortID      string `json:"cohortId"`
	ExpiresInDays int    `json:"expiresInDays"`
	MaxUses       int    `json:"maxUses"`
}

type createdInvite struct {
	store.Invite
	URL string `json:"url"`
}

func (s *Server) handleCreateInvite(w http.ResponseWriter, r *http.Request) {
	var in createInviteRequest
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	role, err := identity.ParseMemberRole("role", in.Role)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if in.ExpiresInDays < 1 || in.ExpiresInDays > MaxInviteDays {
		s.writeError(w, r, apperr.Invalid("expiresInDays must be from 1 to %d", MaxInviteDays))
		return
	}
	if in.MaxUses < 1 || in.MaxUses > MaxInviteUses {
		s.writeError(w, r, apperr.Invalid("maxUses must be from 1 to %d", MaxInviteUses))
		return
	}
	c := caller(r)
	inv, token, err := s.store.CreateInvite(r.Context(), c.OrgID, c.ID, store.NewInvite{
		Role: role, CohortID: in.CohortID, MaxUses: in.MaxUses, TTL: time.Duration(in.ExpiresInDays) * 24 * time.Hour})
	if apperr.Code(err) == apperr.ENOTFOUND {
		err = apperr.Invalid("cohortId %q is not a cohort of your organisation", in.CohortID)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, createdInvite{Invite: inv, URL: s.linkURL(r, "/invite/"+token)})
}

func (s *Server) handleRevokeInvite(w http.ResponseWriter, r *http.Request) {
	if err := s.store.RevokeInvite(r.Context(), caller(r).OrgID, r.PathValue("id")); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// rosterRow is a roster report's row.
type rosterRow struct {
	store.RosterResult
	SetupURL string `json:"setupUrl,omitempty"`
}

type rosterReport struct {
	DryRun  bool           `json:"dryRun"`
	Applied bool           `json:"applied"`
	Rows    []rosterRow    `json:"rows"`
	Counts  map[string]int `json:"counts"`
}

// handleImportRoster reads a CSV roster (email,name,role,cohort) and
// answers what it does with each row: with ?dryRun=true nothing is written;
// otherwise everything is, or nothing at all when any row is bad (422).
func (s *Server) handleImportRoster(w http.ResponseWriter, r *http.Request) {
	dryRun, err := strconv.ParseBool(r.URL.Query().Get("dryRun"))
	if err != nil {
		s.writeError(w, r, apperr.Invalid("dryRun must be true or false"))
		return
	}
	rows, err := roster.Parse(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err != nil {
		if e, ok := errors.AsType[*http.MaxBytesError](err); ok {
			err = apperr.Errorf(apperr.ETOOLARGE, "the roster is larger than %d bytes", e.Limit)
		}
		s.writeError(w, r, err)
		return
	}
	c := caller(r)
	results, applied, err := s.store.ImportRoster(r.Context(), c.OrgID, c.ID, rows, dryRun)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rep := rosterReport{DryRun: dryRun, Applied: applied, Rows: make([]rosterRow, len(results)),
		Counts: map[string]int{store.RosterCreate: 0, store.RosterUpdate: 0, store.RosterUnchanged: 0, store.RosterError: 0}}
	for i, res := range results {
		rep.Rows[i] = rosterRow{RosterResult: res}
		if res.SetupToken != "" {
			rep.Rows[i].SetupURL = s.linkURL(r, "/reset-password/"+res.SetupToken)
		}
		rep.Counts[res.Outcome]++
		if applied && res.UserID != "" {
			s.revalidateRealtime(res.UserID) // a new role
		}
	}
	status := http.StatusOK
	if !dryRun && !applied {
		status = http.StatusUnprocessableEntity
	}
	writeJSON(w, status, rep)
}

// cohortScope lets an instructor touch the cohorts they teach, and an
// admin every cohort of their organisation.
func (s *Server) cohortScope(r *http.Request, c identity.Caller) error {
	instructor, err := s.store.CohortInstructor(r.Context(), c.OrgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	if c.Role != identity.Admin && instructor != c.ID {
		return apperr.Forbidden("cohort %s is taught by another instructor", r.PathValue("id"))
	}
	return nil
}

// userScope lets a caller read their own records, and the instructors and
// admins of an organisation read those of its members.
func (s *Server) userScope(r *http.Request, c identity.Caller) error {
	id := r.PathValue("userId")
	if id == c.ID {
		return nil
	}
	if c.Meets(identity.Staff) {
		if _, err := s.store.GetMember(r.Context(), c.OrgID, id); err == nil {
			return nil
		} else if apperr.Code(err) != apperr.ENOTFOUND {
			return err
		}
		// Staff do read others' records, so "only your own" would be wrong: say whose these are not.
		return apperr.Forbidden("user %s is not a member of your organisation", id)
	}
	return apperr.Forbidden("you can only read your own records (you are %s)", c.ID)
}

func (s *Server) handleListCohorts(w http.ResponseWriter, r *http.Request) {
	c := caller(r)
	mine := ""
	if c.Role != identity.Admin {
		mine = c.ID
	}
	list, err := s.store.ListCohorts(r.Context(), c.OrgID, mine)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

type cohortRequest struct {
	Name         string `json:"name"`
	InstructorID string `json:"instructorId"`
}

// cohortInput checks a cohort's fields; only admins give a cohort to
// someone other than themselves.
func cohortInput(r *http.Request, w http.ResponseWriter, nameRequired bool) (cohortRequest, error) {
	var in cohortRequest
	if err := readJSON(w, r, &in); err != nil {
		return in, err
	}
	if in.Name != "" || nameRequired {
		name, err := identity.CheckName("name", in.Name, identity.MaxOrgName)
		if err != nil {
			return in, err
		}
		in.Name = name
	}
	c := caller(r)
	if in.InstructorID != "" && in.InstructorID != c.ID && c.Role != identity.Admin {
		return in, apperr.Forbidden("only an admin gives a cohort to another instructor")
	}
	return in, nil
}

func (s *Server) handleCreateCohort(w http.ResponseWriter, r *http.Request) {
	in, err := cohortInput(r, w, true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c := caller(r)
	if in.InstructorID == "" {
		in.InstructorID = c.ID
	}
	co, err := s.store.CreateCohort(r.Context(), c.OrgID, in.Name, in.InstructorID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, co)
}

type cohortDetail struct {
	store.Cohort
	Members []store.CohortMember `json:"members"`
}

func (s *Server) handleGetCohort(w http.ResponseWriter, r *http.Request) {
	co, err := s.store.GetCohort(r.Context(), caller(r).OrgID, r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	members, err := s.store.CohortMembers(r.Context(), co.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, cohortDetail{Cohort: co, Members: members})
}

func (s *Server) handleUpdateCohort(w http.ResponseWriter, r *http.Request) {
	in, err := cohortInput(r, w, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	co, err := s.store.UpdateCohort(r.Context(), caller(r).OrgID, r.PathValue("id"), in.Name, in.InstructorID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, co)
}

type cohortMemberRequest struct {
	UserID string `json:"userId"`
}

func (s *Server) handleAddCohortMember(w http.ResponseWriter, r *http.Request) {
	var in cohortMemberRequest
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	if strings.TrimSpace(in.UserID) == "" {
		s.writeError(w, r, apperr.Invalid("userId is required: the id of a member of your organisation"))
		return
	}
	if err := s.store.AddCohortMember(r.Context(), caller(r).OrgID, r.PathValue("id"), in.UserID); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleRemoveCohortMember(w http.ResponseWriter, r *http.Request) {
	if err := s.store.RemoveCohortMember(r.Context(), caller(r).OrgID, r.PathValue("id"), r.PathValue("userId")); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
