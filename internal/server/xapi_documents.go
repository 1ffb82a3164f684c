package server

// The LRS's Document Resources (State, Activity Profile, Agent Profile)
// and the Activities and Agents Resources.

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
	"journeyman/internal/xapi"
)

// xapiDocumentRoutes are the LRS routes of this file, for xapiRoutes.
func (s *Server) xapiDocumentRoutes() []xapiRoute {
	var out []xapiRoute
	for _, res := range []struct {
		path string
		h    http.HandlerFunc
	}{
		{"/xapi/activities/state", s.handleXAPIState},
		{"/xapi/activities/profile", s.handleXAPIActivityProfile},
		{"/xapi/agents/profile", s.handleXAPIAgentProfile},
	} {
		out = append(out,
			xapiRoute{"GET " + res.path, false, false, res.h},
			xapiRoute{"PUT " + res.path, true, false, res.h},
			xapiRoute{"POST " + res.path, true, false, res.h},
			xapiRoute{"DELETE " + res.path, true, false, res.h})
	}
	return append(out,
		xapiRoute{"GET /xapi/activities", false, false, s.handleXAPIActivities},
		xapiRoute{"GET /xapi/agents", false, false, s.handleXAPIAgents})
}

// docResource is what tells the three Document Resources apart.
type docResource struct {
	kind     store.XAPIDocKind
	idParam  string // stateId or profileId
	activity bool   // keyed by activityId
	agent    bool   // keyed by agent
	// registration: the State Resource's optional registration, and its
	// DELETE of every document of a context.
	registration bool
}

var (
	stateResource           = docResource{kind: store.XAPIState, idParam: "stateId", activity: true, agent: true, registration: true}
	activityProfileResource = docResource{kind: store.XAPIActivityProfile, idParam: "profileId", activity: true}
	agentProfileResource    = docResource{kind: store.XAPIAgentProfile, idParam: "profileId", agent: true}
)

func (s *Server) handleXAPIState(w http.ResponseWriter, r *http.Request) {
	s.handleXAPIDocument(w, r, stateResource)
}

func (s *Server) handleXAPIActivityProfile(w http.ResponseWriter, r *http.Request) {
	s.handleXAPIDocument(w, r, activityProfileResource)
}

func (s *Server) handleXAPIAgentProfile(w http.ResponseWriter, r *http.Request) {
	s.handleXAPIDocument(w, r, agentProfileResource)
}

// params lists the query parameters res takes for method.
func (res docResource) params(method string) []string {
	var ps []string
	if res.activity {
		ps = append(ps, "activityId")
	}
	if res.agent {
		ps = append(ps, "agent")
	}
	if res.registration {
		ps = append(ps, "registration")
	}
	ps = append(ps, res.idParam)
	if method == http.MethodGet || method == http.MethodHead {
		ps = append(ps, "since")
	}
	return ps
}

// xapiParam checks that a parameter is text the store can keep (UTF-8,
// without NUL, which PostgreSQL refuses) and, when required, present.
func xapiParam(params map[string]string, name string, required bool) (string, error) {
	v, ok := params[name]
	switch {
	case !ok && required:
		return "", apperr.Invalid("the %s parameter is required", name)
	case ok && v == "":
		return "", apperr.Invalid("the %s parameter is empty", name)
	case !utf8.ValidString(v) || strings.ContainsRune(v, 0):
		return "", apperr.Invalid("the %s parameter is not UTF-8 text", name)
	}
	return v, nil
}

// activityIDParam reads an activityId parameter, which must be an IRI.
func activityIDParam(params map[string]string) (string, error) {
	id, err := xapiParam(params, "activityId", true)
	if err == nil && !xapi.IsIRI(id) {
		err = apperr.Invalid("activityId: %q is not an IRI (an activity id has a scheme, like http://example.com/activities/1)", id)
	}
	return id, err
}

// docKey reads the parameters naming res's document, or its set when the
// id parameter is absent.
func (res docResource) docKey(params map[string]string, v xapi.Version) (store.XAPIDocKey, error) {
	key := store.XAPIDocKey{Kind: res.kind}
	var err error
	if res.activity {
		if key.ActivityID, err = activityIDParam(params); err != nil {
			return key, err
		}
	}
	if res.agent {
		agent, err := xapiParam(params, "agent", true)
		if err != nil {
			return key, err
		}
		if key.AgentKey, err = xapi.ParseAgentParam(agent, v); err != nil {
			return key, err
		}
		if strings.ContainsRune(key.AgentKey, 0) || !utf8.ValidString(key.AgentKey) {
			// A \u0000 in the agent's JSON: PostgreSQL keeps no NUL in text.
			return key, apperr.Invalid("agent: its identifier holds a NUL character")
		}
	}
	if res.registration {
		if key.Registration, err = xapiParam(params, "registration", false); err != nil {
			return key, err
		}
		if key.Registration != "" && !xapi.IsUUID(key.Registration) {
			return key, apperr.Invalid("registration: %q is not a UUID", key.Registration)
		}
		key.Registration = strings.ToLower(key.Registration)
	}
	if key.ID, err = xapiParam(params, res.idParam, false); err != nil {
		return key, err
	}
	return key, checkDocID(res.idParam, key.ID)
}

// checkDocID refuses a stateId or profileId that reads as a JSON number,
// boolean, null, object or array. The ids are Strings; the conformance
// suite (XAPI-00305, and its Parameters set) sends 1, true and
// {"key":"value"} as ids of the wrong type and expects a 400, as ADL's
// reference LRS, which reads parameters as JSON, answers.
func checkDocID(name, id string) error {
	var v any
	if err := json.Unmarshal([]byte(id), &v); err == nil {
		if _, isString := v.(string); !isString {
			return apperr.Invalid("%s: %s reads as a JSON %s; an id is text such as \"bookmark\" or a UUID", name, id, jsonTypeName(v))
		}
	}
	return nil
}

func jsonTypeName(v any) string {
	switch v.(type) {
	case float64:
		return "number"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	default:
		return "null"
	}
}

// handleXAPIDocument serves the methods of one Document Resource: GET of
// one document or of the ids, PUT (replace), POST (create or JSON merge)
// and DELETE (one, or every state of a context).
func (s *Server) handleXAPIDocument(w http.ResponseWriter, r *http.Request, res docResource) {
	p := xapiCaller(r)
	params, err := xapiParams(r, res.params(r.Method)...)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	key, err := res.docKey(params, p.Version)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if key.ID == "" && (r.Method == http.MethodPut || r.Method == http.MethodPost || r.Method == http.MethodDelete && !res.registration) {
		s.writeError(w, r, apperr.Invalid("the %s parameter is required to %s a document", res.idParam, r.Method))
		return
	}
	pre := store.XAPIPrecondition{
		IfMatch:     strings.Join(r.Header.Values("If-Match"), ","),
		IfNoneMatch: strings.Join(r.Header.Values("If-None-Match"), ","),
		// A PUT to a profile must say what it expects to replace; the
		// State Resource lets writes go without (Communication 3.1).
		Required: r.Method == http.MethodPut && res.kind != store.XAPIState,
	}
	ctx := r.Context()
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if key.ID == "" {
			s.listXAPIDocuments(w, r, p.OrgID, key, params)
			return
		}
		d, err := s.store.GetXAPIDocument(ctx, p.OrgID, key)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		h := w.Header()
		h.Set("Content-Type", d.ContentType)
		h.Set("Content-Length", strconv.Itoa(len(d.Content)))
		h.Set("ETag", d.ETag)
		h.Set("Last-Modified", d.Updated.Format(http.TimeFormat))
		h.Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			_, _ = w.Write(d.Content) // a failed write is a client gone
		}
	case http.MethodPut, http.MethodPost:
		contentType, content, err := readXAPIDocument(w, r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		write := s.store.PutXAPIDocument
		if r.Method == http.MethodPost {
			write = s.store.PostXAPIDocument
		}
		d, err := write(ctx, p.OrgID, key, contentType, content, pre)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		w.Header().Set("ETag", d.ETag)
		w.WriteHeader(http.StatusNoContent)
	case http.MethodDelete:
		if key.ID == "" {
			err = s.store.DeleteXAPIStates(ctx, p.OrgID, key.ActivityID, key.AgentKey, key.Registration)
		} else {
			err = s.store.DeleteXAPIDocument(ctx, p.OrgID, key, pre)
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

// listXAPIDocuments answers a GET without a document id: the ids, those
// updated after since when it is given.
func (s *Server) listXAPIDocuments(w http.ResponseWriter, r *http.Request, orgID string, key store.XAPIDocKey, params map[string]string) {
	var since time.Time
	if v, ok := params["since"]; ok {
		t, err := xapi.ParseTimestamp(v)
		if err != nil {
			s.writeError(w, r, apperr.Invalid("since: %q is not an ISO 8601 timestamp with a time zone", v))
			return
		}
		since = t
	}
	ids, latest, err := s.store.ListXAPIDocumentIDs(r.Context(), orgID, key, since)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if !latest.IsZero() {
		w.Header().Set("Last-Modified", latest.Format(http.TimeFormat))
	}
	writeJSON(w, http.StatusOK, ids)
}

// readXAPIDocument reads a PUT or POST's document and its content type
// (application/octet-stream when the request names none).
func readXAPIDocument(w http.ResponseWriter, r *http.Request) (string, []byte, error) {
	content, err := io.ReadAll(http.MaxBytesReader(w, r.Body, store.MaxXAPIDocument))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return "", nil, apperr.Errorf(apperr.ETOOLARGE, "the document is larger than the %d bytes this LRS keeps", store.MaxXAPIDocument)
	}
	if err != nil {
		return "", nil, jsonError(err)
	}
	if len(content) == 0 {
		// The suite's XAPI-00314 expects a POST without a document to fail.
		return "", nil, apperr.Invalid("the request has no document: send the document as the request body")
	}
	contentType := r.Header.Get("Content-Type")
	switch {
	case contentType == "":
		contentType = "application/octet-stream"
	case len(contentType) > 255 || !utf8.ValidString(contentType):
		return "", nil, apperr.Invalid("Content-Type is not a media type of at most 255 UTF-8 bytes")
	}
	return contentType, content, nil
}

// handleXAPIActivities answers the Activities Resource: the activity with
// the definition its statements gave, or only its id when none named it.
func (s *Server) handleXAPIActivities(w http.ResponseWriter, r *http.Request) {
	p := xapiCaller(r)
	params, err := xapiParams(r, "activityId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	id, err := activityIDParam(params)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	def, ok, err := s.store.XAPIActivity(r.Context(), p.OrgID, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	answer := struct {
		ObjectType string          `json:"objectType"`
		ID         string          `json:"id"`
		Definition json.RawMessage `json:"definition,omitempty"`
	}{ObjectType: "Activity", ID: id}
	if ok && string(def) != "{}" && string(def) != "null" {
		answer.Definition = def
	}
	writeJSON(w, http.StatusOK, answer)
}

// handleXAPIAgents answers the Agents Resource: a Person of the one agent
// asked for, as the LRS knows no other agents of the same person.
func (s *Server) handleXAPIAgents(w http.ResponseWriter, r *http.Request) {
	p := xapiCaller(r)
	params, err := xapiParams(r, "agent")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	agent, err := xapiParam(params, "agent", true)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if _, err := xapi.ParseAgentParam(agent, p.Version); err != nil {
		s.writeError(w, r, err)
		return
	}
	person, err := xapi.Person(json.RawMessage(agent))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, person)
}
