package server

// The built-in Learning Record Store at /xapi/ (xAPI 1.0.3 and 2.0.0).
// Tools write and read with an organisation's credential (HTTP Basic, see
// the admin API); a signed-in person, or a guest with their token, reads
// their own statements with their cookie (staff: their organisation's).
// Every statement belongs to one organisation and no other sees it.

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/store"
	"journeyman/internal/xapi"
)

// MaxXAPIBodyBytes bounds an xAPI request: a batch of statements with
// their attachments.
const MaxXAPIBodyBytes = 16 << 20

// xapiRoute is one entry of the LRS's route table.
type xapiRoute struct {
	pattern string
	// write needs a credential's write scope; the others its read scope.
	write bool
	// person lets a caller identified by their cookie in (to read their
	// own statements); without it, only credentials.
	person  bool
	handler http.HandlerFunc
}

func (s *Server) xapiRoutes() []xapiRoute {
	return append([]xapiRoute{
		{"PUT /xapi/statements", true, false, s.handlePutStatement},
		{"POST /xapi/statements", true, false, s.handlePostStatements},
		{"GET /xapi/statements", false, true, s.handleGetStatements},
	}, s.xapiDocumentRoutes()...)
}

// xapiPrincipal is who calls the LRS and what they may do.
type xapiPrincipal struct {
	OrgID        string
	CredentialID string // "" for a person with their cookie
	// LearnerID keeps a person who is not staff to their own statements.
	LearnerID   string
	Read, Write bool
	Authority   json.RawMessage // the authority of what they write
	Version     xapi.Version
	// Cmi5 is the session of a cmi5 AU's credential (nil for any other).
	Cmi5 *store.Cmi5Credential
}

type xapiKey struct{}

// xapiCaller returns the principal authorizeXAPI found.
func xapiCaller(r *http.Request) xapiPrincipal {
	p, _ := r.Context().Value(xapiKey{}).(xapiPrincipal)
	return p
}

// xapiHandler serves /xapi/: About to anyone, every other resource to a
// caller with the X-Experience-API-Version header and the right scope.
func (s *Server) xapiHandler() http.Handler {
	answer := newAPIMux("/xapi/")
	answer.HandleFunc("GET /xapi/about", s.handleXAPIAbout)
	for _, rt := range s.xapiRoutes() {
		answer.HandleFunc(rt.pattern, s.authorizeXAPI(rt))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" {
			xapiCORS(w.Header(), origin)
			if r.Method == http.MethodOptions {
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxXAPIBodyBytes)
		// 1.0.3's alternate request syntax may carry the version header in
		// its form, so the request is rewritten before anything reads it.
		alt, altErr := alternateRequest(r)
		if altErr == nil {
			r = alt
		}
		// Every answer names a version, an error's too: the request's when
		// it named one we speak.
		v, err := xapi.ParseVersion(r.Header.Get("X-Experience-API-Version"))
		if err != nil {
			v = xapi.V200
		}
		w.Header().Set("X-Experience-API-Version", string(v))
		switch {
		case altErr != nil:
			s.writeError(w, r, altErr)
		case err == nil && v == xapi.V200 && usedAlternateSyntax(r):
			s.writeError(w, r, errAlternateIn2)
		default:
			answer.ServeHTTP(w, r)
		}
	})
}

// xapiCORS lets xAPI content served from other origins (a course on a
// content server) call the LRS with a credential. Credentialed CORS stays
// off, so a browser never sends the site's cookies along cross-origin.
func xapiCORS(h http.Header, origin string) {
	h.Set("Access-Control-Allow-Origin", origin)
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Allow-Methods", "GET, HEAD, PUT, POST, DELETE")
	h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-Experience-API-Version, If-Match, If-None-Match")
	h.Set("Access-Control-Expose-Headers", "ETag, Last-Modified, X-Experience-API-Version, X-Experience-API-Consistent-Through")
	h.Set("Access-Control-Max-Age", "600")
}

// authorizeXAPI checks the version header and the caller before rt runs.
func (s *Server) authorizeXAPI(rt xapiRoute) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := xapi.ParseVersion(r.Header.Get("X-Experience-API-Version"))
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		p, err := s.xapiPrincipalOf(w, r, rt)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		p.Version = v
		rt.handler(w, r.WithContext(context.WithValue(r.Context(), xapiKey{}, p)))
	}
}

// xapiPrincipalOf finds the caller: a credential by HTTP Basic, else a
// person by their cookie where rt allows one.
func (s *Server) xapiPrincipalOf(w http.ResponseWriter, r *http.Request, rt xapiRoute) (xapiPrincipal, error) {
	if key, secret, ok := r.BasicAuth(); ok {
		if strings.HasPrefix(key, store.Cmi5KeyPrefix) {
			p, err := s.cmi5Principal(r, rt, key, secret)
			if apperr.Code(err) == apperr.EUNAUTHORIZED {
				w.Header().Set("WWW-Authenticate", `Basic realm="Journeyman xAPI"`)
			}
			return p, err
		}
		cred, err := s.store.CheckXAPICredential(r.Context(), key, secret)
		if err != nil {
			w.Header().Set("WWW-Authenticate", `Basic realm="Journeyman xAPI"`)
			return xapiPrincipal{}, err
		}
		p := xapiPrincipal{OrgID: cred.OrgID, CredentialID: cred.ID, Read: cred.CanRead, Write: cred.CanWrite,
			Authority: s.credentialAuthority(r, cred.Name, cred.Key)}
		switch {
		case rt.write && !p.Write:
			return p, apperr.Forbidden("this xAPI credential may not write")
		case !rt.write && !p.Read:
			return p, apperr.Forbidden("this xAPI credential may not read")
		}
		return p, nil
	}
	c, err := s.presentedCaller(w, r)
	if err != nil {
		return xapiPrincipal{}, err
	}
	if !c.Presented {
		w.Header().Set("WWW-Authenticate", `Basic realm="Journeyman xAPI"`)
		return xapiPrincipal{}, apperr.Errorf(apperr.EUNAUTHORIZED, "the LRS needs an xAPI credential (HTTP Basic key and secret; an organisation's admin creates them)")
	}
	if !rt.person {
		return xapiPrincipal{}, apperr.Forbidden("this resource needs an xAPI credential (HTTP Basic); your sign-in only reads your own statements")
	}
	p := xapiPrincipal{OrgID: c.OrgID, Read: true, LearnerID: c.ID}
	if c.Meets(identity.Staff) {
		p.LearnerID = ""
	}
	return p, nil
}

// presentedCaller is the caller of a request's cookies, without issuing a
// guest token to one who has none (Presented false then).
func (s *Server) presentedCaller(w http.ResponseWriter, r *http.Request) (identity.Caller, error) {
	if ck, err := r.Cookie(SessionCookie); err == nil {
		sctx, err := s.sessions.Load(r.Context(), ck.Value)
		if err != nil {
			return identity.Caller{}, err
		}
		if u, ok, err := s.sessionUser(sctx); err != nil || ok {
			return u.Caller(), err
		}
	}
	c, _ := s.presentedGuest(r)
	return c, nil
}

// credentialAuthority is the authority the LRS sets on what a credential
// writes: an account on this deployment named by the credential's key.
func (s *Server) credentialAuthority(r *http.Request, name, key string) json.RawMessage {
	a, _ := json.Marshal(map[string]any{
		"objectType": "Agent",
		"name":       name,
		"account":    map[string]string{"homePage": s.linkURL(r, "/xapi/"), "name": key},
	})
	return a
}

// handleXAPIAbout answers the About Resource, which needs no credential.
func (s *Server) handleXAPIAbout(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"version":    []string{string(xapi.V103), string(xapi.V200)},
		"extensions": map[string]any{},
	})
}

// xapiParams reads a request's query parameters, refusing any the
// resource does not know: the specification asks for a 400.
func xapiParams(r *http.Request, known ...string) (map[string]string, error) {
	q := r.URL.Query()
	out := make(map[string]string, len(q))
	for name, vals := range q {
		ok := false
		for _, k := range known {
			ok = ok || k == name
		}
		if !ok {
			return nil, apperr.Invalid("unknown parameter %q; this resource takes %s", name, strings.Join(known, ", "))
		}
		if len(vals) > 1 {
			return nil, apperr.Invalid("parameter %q is given %d times", name, len(vals))
		}
		// PostgreSQL keeps no NUL and no invalid UTF-8 in text.
		if !utf8.ValidString(vals[0]) || strings.ContainsRune(vals[0], 0) {
			return nil, apperr.Invalid("parameter %q is not UTF-8 text", name)
		}
		out[name] = vals[0]
	}
	return out, nil
}
