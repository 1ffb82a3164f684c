package server

// cmi5: an organisation's staff import course packages, its members
// launch their AUs (section 8 of the cmi5 specification), and the AU talks
// to the built-in LRS with a credential of its session, fetched once.
//
// The AU's files and the fetch URL live outside /api, under /cmi5/: the AU
// runs sandboxed (an opaque origin, so it never acts with the learner's
// cookies) or on another site, and calls them cross-origin.

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"

	"journeyman/internal/apperr"
	"journeyman/internal/cmi5"
	"journeyman/internal/store"
	"journeyman/internal/xapi"
)

type cmi5CoursesResponse struct {
	Courses []store.Cmi5Course `json:"courses"`
}

func (s *Server) handleListCmi5Courses(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.ListCmi5Courses(r.Context(), caller(r).OrgID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, cmi5CoursesResponse{Courses: list})
}

// handleImportCmi5Course takes a bare cmi5.xml (application/xml) or a
// zipped package (application/zip).
func (s *Server) handleImportCmi5Course(w http.ResponseWriter, r *http.Request) {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var zipped bool
	switch mt {
	case "application/xml", "text/xml":
	case "application/zip", "application/x-zip-compressed":
		zipped = true
	default:
		s.writeError(w, r, apperr.Invalid("Content-Type is %q: send a cmi5.xml as application/xml or a zipped package as application/zip", mt))
		return
	}
	limit := int64(cmi5.MaxStructureBytes)
	if zipped {
		limit = cmi5.MaxPackageBytes
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		s.writeError(w, r, bodyError(err))
		return
	}
	var course cmi5.Course
	var files map[string][]byte
	if zipped {
		p, err := cmi5.ParseZip(body)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		course, files = p.Course, p.Files
	} else if course, err = cmi5.ParseBare(body); err != nil {
		s.writeError(w, r, err)
		return
	}
	c := caller(r)
	created, err := s.store.CreateCmi5Course(r.Context(), c.OrgID, c.ID, course, files)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, created)
}

func (s *Server) handleDeleteCmi5Course(w http.ResponseWriter, r *http.Request) {
	if err := s.store.DeleteCmi5Course(r.Context(), caller(r).OrgID, r.PathValue("id")); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// cmi5LaunchResponse is a launch: the page opens URL, in a new window
// when LaunchMethod is AnyWindow, in place for OwnWindow.
type cmi5LaunchResponse struct {
	URL          string `json:"url"`
	LaunchMethod string `json:"launchMethod"`
	Registration string `json:"registration"`
	SessionID    string `json:"sessionId"`
}

// cmi5Actor is the learner as the AU sees them: the same agent as
// Journeyman's own statements name.
func (s *Server) cmi5Actor(id, name string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"objectType": "Agent", "name": name, "account": map[string]string{"homePage": s.publicURL, "name": id}})
	return b
}

func (s *Server) handleLaunchCmi5(w http.ResponseWriter, r *http.Request) {
	c := caller(r)
	actor := s.cmi5Actor(c.ID, c.DisplayName)
	l, err := s.store.LaunchCmi5(r.Context(), store.Cmi5Launch{OrgID: c.OrgID, LearnerID: c.ID, Actor: actor,
		AUID: r.PathValue("id"), Base: s.publicURL, ReturnURL: s.publicURL + "/cmi5"})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, cmi5LaunchResponse{URL: cmi5LaunchURL(l.LaunchURL, url.Values{
		"endpoint":     {s.publicURL + "/xapi/"},
		"fetch":        {s.publicURL + "/cmi5/fetch/" + l.FetchToken},
		"actor":        {string(actor)},
		"registration": {l.Registration},
		"activityId":   {l.ActivityID},
	}), LaunchMethod: l.LaunchMethod, Registration: l.Registration, SessionID: l.SessionID})
}

// cmi5LaunchURL adds the launch parameters to an AU's URL, after any
// query of its own and before its fragment.
func cmi5LaunchURL(au string, params url.Values) string {
	frag := ""
	if i := strings.IndexByte(au, '#'); i >= 0 {
		au, frag = au[:i], au[i:]
	}
	sep := "?"
	if strings.Contains(au, "?") {
		sep = "&"
	}
	return au + sep + params.Encode() + frag
}

// cmi5Handler serves /cmi5/: the fetch URL and the packages' files.
func (s *Server) cmi5Handler() http.Handler {
	answer := newAPIMux("/cmi5/")
	answer.HandleFunc("POST /cmi5/fetch/{token}", s.handleCmi5Fetch)
	answer.HandleFunc("OPTIONS /cmi5/fetch/{token}", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	answer.HandleFunc("GET /cmi5/content/{course}/{path...}", s.handleCmi5Content)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && strings.HasPrefix(r.URL.Path, "/cmi5/fetch/") {
			// Without credentials: the token is the authority.
			w.Header().Set("Access-Control-Allow-Origin", origin)
			w.Header().Add("Vary", "Origin")
			w.Header().Set("Access-Control-Allow-Methods", "POST")
			w.Header().Set("Access-Control-Allow-Headers", "Content-Type")
		}
		answer.ServeHTTP(w, r)
	})
}

// handleCmi5Fetch answers the auth-token of a launch's session, once
// (section 8.2): every answer is 200 JSON, errors with an error-code.
func (s *Server) handleCmi5Fetch(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	key, secret, err := s.store.FetchCmi5(r.Context(), r.PathValue("token"))
	if err != nil {
		var fe *store.Cmi5FetchError
		if !errors.As(err, &fe) {
			s.log.ErrorContext(r.Context(), "cmi5 fetch", "request_id", requestID(r), "err", err)
			fe = &store.Cmi5FetchError{Code: "3", Text: "the LMS could not answer; launch the AU again"}
		}
		writeJSON(w, http.StatusOK, map[string]string{"error-code": fe.Code, "error-text": fe.Text})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"auth-token": base64.StdEncoding.EncodeToString([]byte(key + ":" + secret))})
}

// cmi5ContentPolicy runs a package's pages sandboxed: scripts run, but in
// an opaque origin, so that a course cannot act as the learner on this
// site with their cookies; it reaches the LRS over CORS like content
// hosted elsewhere.
const cmi5ContentPolicy = "sandbox allow-scripts allow-forms allow-popups allow-modals allow-downloads allow-popups-to-escape-sandbox"

func (s *Server) handleCmi5Content(w http.ResponseWriter, r *http.Request) {
	p := cmi5.CleanContentPath(r.PathValue("path"))
	if p == "" {
		s.writeError(w, r, apperr.NotFound("no such file"))
		return
	}
	body, err := s.store.Cmi5File(r.Context(), r.PathValue("course"), p)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ct := mime.TypeByExtension(path.Ext(p))
	if ct == "" {
		ct = http.DetectContentType(body)
	}
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("Content-Security-Policy", cmi5ContentPolicy)
	h.Set("Cache-Control", "no-cache")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body) // a client gone mid-answer is no error of ours
	}
}

// cmi5Principal is the LRS caller of a cmi5 session's credential: it
// reads and writes as the session's learner, in their registration only.
func (s *Server) cmi5Principal(r *http.Request, rt xapiRoute, key, secret string) (xapiPrincipal, error) {
	cred, err := s.store.CheckCmi5Credential(r.Context(), s.publicURL, key, secret)
	if err != nil {
		return xapiPrincipal{}, err
	}
	p := xapiPrincipal{OrgID: cred.OrgID, CredentialID: key, LearnerID: cred.LearnerID, Read: true, Write: true,
		Authority: s.credentialAuthority(r, "cmi5 session", key), Cmi5: &cred}
	q := r.URL.Query()
	switch res := strings.TrimPrefix(rt.pattern[strings.IndexByte(rt.pattern, ' ')+1:], "/xapi/"); res {
	case "statements":
		return p, nil // each statement's registration is checked as it is stored
	case "activities/state":
		if reg := q.Get("registration"); !strings.EqualFold(reg, cred.Registration) {
			return p, apperr.Forbidden("a cmi5 session's credential reaches the state of its registration %s only", cred.Registration)
		}
		if rt.write && q.Get("stateId") == cmi5.LaunchDataStateID {
			return p, apperr.Forbidden("the AU must not change %s (cmi5 section 10)", cmi5.LaunchDataStateID)
		}
		return p, nil
	case "activities/profile":
		// Section 12: the AU may keep profiles of its own activity.
		if rt.write && q.Get("activityId") != cred.ActivityID {
			return p, apperr.Forbidden("a cmi5 session's credential writes the activity profiles of its AU %s only", cred.ActivityID)
		}
		return p, nil
	default:
		// Agent profiles among them: section 11 lets the LMS refuse an AU's
		// change of the learner's preferences with a 403.
		if rt.write {
			return p, apperr.Forbidden("a cmi5 session's credential writes statements, state and its AU's activity profiles only")
		}
		return p, nil
	}
}

// cmi5Statement is what the LMS reads of a statement its AU stores.
type cmi5Statement struct {
	Actor  json.RawMessage     `json:"actor"`
	Verb   struct{ ID string } `json:"verb"`
	Object struct {
		ID string `json:"id"`
	} `json:"object"`
	Context struct {
		Registration string `json:"registration"`
	} `json:"context"`
}

// lmsVerbs are the cmi5 verbs only the LMS uses: an AU that sent them
// could claim a course it never finished.
var lmsVerbs = map[string]bool{cmi5.VerbLaunched: true, cmi5.VerbAbandoned: true, cmi5.VerbSatisfied: true, cmi5.VerbWaived: true}

// storeStatements stores a batch for p. A cmi5 session's statements
// must be in its registration, and those about its AU move the learner's
// progress on (completed, passed, terminated).
func (s *Server) storeStatements(r *http.Request, p xapiPrincipal, ins []xapi.Incoming, parts map[string]xapi.Part) ([]string, error) {
	write := s.xapiWrite(p, ins, parts)
	var verbs []string
	if p.Cmi5 != nil {
		write.LearnerID = p.Cmi5.LearnerID
		for i, in := range ins {
			var st cmi5Statement
			if err := json.Unmarshal(in.JSON(), &st); err != nil {
				return nil, err
			}
			if key, err := xapi.AgentKey(st.Actor); err != nil || key != p.Cmi5.AgentKey {
				return nil, apperr.Forbidden("statements[%d].actor: a cmi5 session writes statements about its learner only", i)
			}
			if st.Verb.ID == xapi.VoidedVerb {
				return nil, apperr.Forbidden("statements[%d].verb: a cmi5 session's credential cannot void statements (cmi5 section 6.3)", i)
			}
			if lmsVerbs[st.Verb.ID] {
				return nil, apperr.Forbidden("statements[%d].verb: %s is the LMS's to state (cmi5 section 9.3), not the AU's", i, st.Verb.ID)
			}
			if !strings.EqualFold(st.Context.Registration, p.Cmi5.Registration) {
				return nil, apperr.Forbidden("statements[%d].context.registration: a cmi5 session writes in its registration %s only", i, p.Cmi5.Registration)
			}
			if st.Object.ID == p.Cmi5.ActivityID {
				verbs = append(verbs, st.Verb.ID)
			}
		}
	}
	ids, err := s.store.StoreXAPIStatements(r.Context(), write)
	if err != nil || p.Cmi5 == nil {
		return ids, err
	}
	return ids, s.store.RecordCmi5(r.Context(), s.publicURL, *p.Cmi5, verbs)
}
