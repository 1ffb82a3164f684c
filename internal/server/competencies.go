package server

import (
	"net/http"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/portal"
	"journeyman/internal/store"
)

// competencyView is the body of GET /api/users/{userId}/competencies: the
// learner's programmes, each module's competencies with its evidence and
// current sign-off, the history of every sign-off and revocation, and the
// certificates issued.
type competencyView struct {
	Programmes   []programmeView           `json:"programmes"`
	Modules      []moduleCompetencies      `json:"modules"`
	History      []store.SignOffRecord     `json:"history"`
	Certificates []store.StoredCertificate `json:"certificates"`
}

type programmeView struct {
	ID          string                   `json:"id"`
	Name        string                   `json:"name"`
	Total       int                      `json:"total"`
	Held        int                      `json:"held"`
	Certificate *store.StoredCertificate `json:"certificate"` // the valid one, if issued
}

type moduleCompetencies struct {
	ModuleID     string           `json:"moduleId"`
	Title        string           `json:"title"`
	TradeID      string           `json:"tradeId"`
	Evidence     *store.Evidence  `json:"evidence"`
	Competencies []competencyHeld `json:"competencies"`
}

type competencyHeld struct {
	Index     int                  `json:"index"`
	Objective string               `json:"objective"`
	SignOff   *store.SignOffRecord `json:"signOff"` // the current one
}

func (s *Server) handleCompetencies(w http.ResponseWriter, r *http.Request) {
	ctx, learner := r.Context(), r.PathValue("userId")
	trades, err := s.store.ListTrades(ctx)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	modules, err := s.store.ListModules(ctx)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	evidence, err := s.store.ModuleEvidence(ctx, learner)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	history, err := s.store.SignOffs(ctx, learner)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	certs, err := s.store.LearnerCertificates(ctx, learner)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	type key struct {
		module string
		index  int
	}
	current := map[key]*store.SignOffRecord{}
	for i, h := range history {
		if h.RevokedAt == nil {
			current[key{h.ModuleID, h.Competency}] = &history[i]
		}
	}
	view := competencyView{Programmes: []programmeView{}, Modules: []moduleCompetencies{}, History: history, Certificates: certs}
	for _, m := range modules {
		mc := moduleCompetencies{ModuleID: m.ID, Title: m.Title, TradeID: m.TradeID, Competencies: []competencyHeld{}}
		if e, ok := evidence[m.ID]; ok {
			mc.Evidence = &e
		}
		for _, c := range portal.ModuleCompetencies(m) {
			mc.Competencies = append(mc.Competencies, competencyHeld{Index: c.Index, Objective: c.Objective, SignOff: current[key{m.ID, c.Index}]})
		}
		view.Modules = append(view.Modules, mc)
	}
	for _, p := range portal.Programmes(trades, modules) {
		pv := programmeView{ID: p.ID, Name: p.Name, Total: len(p.Competencies)}
		for _, c := range p.Competencies {
			if current[key{c.ModuleID, c.Index}] != nil {
				pv.Held++
			}
		}
		for i, c := range certs {
			if c.ProgrammeID == p.ID && c.RevokedAt == nil {
				pv.Certificate = &certs[i]
			}
		}
		view.Programmes = append(view.Programmes, pv)
	}
	writeJSON(w, http.StatusOK, view)
}

func (s *Server) handleSignOff(w http.ResponseWriter, r *http.Request) {
	s.changeSignOffs(w, r, false)
}

func (s *Server) handleRevokeSignOff(w http.ResponseWriter, r *http.Request) {
	s.changeSignOffs(w, r, true)
}

// signOffResult answers a sign-off (the certificate it issued, if any) or a
// revocation (the certificate it revoked, if any).
type signOffResult struct {
	Certificate *store.StoredCertificate `json:"certificate"`
}

func (s *Server) changeSignOffs(w http.ResponseWriter, r *http.Request, revoke bool) {
	var in portal.SignOff
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	if in.ModuleID == "" {
		s.writeError(w, r, apperr.Invalid("moduleId is required"))
		return
	}
	m, err := s.store.GetModule(r.Context(), in.ModuleID)
	if apperr.Code(err) == apperr.ENOTFOUND {
		err = apperr.Invalid("moduleId %q is not a training module in the catalog", in.ModuleID)
	}
	if err == nil {
		err = in.Validate(m, revoke)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c := caller(r)
	var cert *store.StoredCertificate
	if revoke {
		cert, err = s.store.RevokeCompetencies(r.Context(), c.OrgID, r.PathValue("userId"), c.ID, m, in)
	} else {
		cert, err = s.store.SignOffCompetencies(r.Context(), c.OrgID, r.PathValue("userId"), c.ID, m, in)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, signOffResult{Certificate: cert})
}

// certificateScope lets a certificate be read by its learner and by the
// staff of the organisation that issued it.
func (s *Server) certificateScope(r *http.Request, c identity.Caller) error {
	cert, err := s.store.GetCertificate(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	if cert.LearnerID == c.ID || (c.Meets(identity.Staff) && cert.OrgID == c.OrgID) {
		return nil
	}
	return apperr.NotFound("no certificate has this code or id")
}

func (s *Server) handleGetCertificate(w http.ResponseWriter, r *http.Request) {
	cert, err := s.store.GetCertificate(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, cert)
}

// verification is the public answer of GET /api/verify/{code}: whether the
// certificate holds, and the certificate as printed, nothing more.
type verification struct {
	Status      string             `json:"status"` // valid or revoked
	RevokedAt   *time.Time         `json:"revokedAt"`
	Certificate portal.Certificate `json:"certificate"`
}

func (s *Server) handleVerify(w http.ResponseWriter, r *http.Request) {
	code, ok := portal.NormalizeCode(r.PathValue("code"))
	if !ok {
		s.writeError(w, r, apperr.Invalid("%q is not a certificate code: a code reads JXR- and three groups of four letters and digits", r.PathValue("code")))
		return
	}
	cert, err := s.store.CertificateByCode(r.Context(), code)
	if apperr.Code(err) == apperr.ENOTFOUND {
		err = apperr.NotFound("no certificate has the code %s: check it against the printed certificate", code)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v := verification{Status: "valid", RevokedAt: cert.RevokedAt, Certificate: cert.Certificate}
	if cert.RevokedAt != nil {
		v.Status = "revoked"
	}
	writeJSON(w, http.StatusOK, v)
}
