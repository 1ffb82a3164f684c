package server

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
	"journeyman/internal/xapi"
)

// The Statement Resource.

func (s *Server) handlePutStatement(w http.ResponseWriter, r *http.Request) {
	p := xapiCaller(r)
	params, err := xapiParams(r, "statementId")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	id := params["statementId"]
	if id == "" {
		s.writeError(w, r, apperr.Invalid("PUT needs the statementId parameter (POST stores a statement without one)"))
		return
	}
	if !xapi.IsUUID(id) {
		s.writeError(w, r, apperr.Invalid("statementId %q is not a UUID", id))
		return
	}
	ins, parts, batch, err := readStatements(r, p.Version)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if batch {
		s.writeError(w, r, apperr.Invalid("PUT stores one statement; send a batch with POST"))
		return
	}
	switch got := ins[0].ID(); {
	case got == "":
		ins[0] = ins[0].WithID(id)
	case !strings.EqualFold(got, id):
		s.writeError(w, r, apperr.Invalid("the statement's id %s is not the statementId parameter %s", got, id))
		return
	}
	if _, err := s.storeStatements(r, p, ins, parts); err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handlePostStatements(w http.ResponseWriter, r *http.Request) {
	p := xapiCaller(r)
	if _, err := xapiParams(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	ins, parts, _, err := readStatements(r, p.Version)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ids, err := s.storeStatements(r, p, ins, parts)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, ids)
}

func (s *Server) xapiWrite(p xapiPrincipal, ins []xapi.Incoming, parts map[string]xapi.Part) store.XAPIWrite {
	return store.XAPIWrite{OrgID: p.OrgID, Authority: p.Authority, Version: p.Version, Statements: ins, Parts: parts}
}

// readStatements reads a statement or a batch (an array), as JSON or
// multipart/mixed with attachments, valid under version v.
func readStatements(r *http.Request, v xapi.Version) (ins []xapi.Incoming, parts map[string]xapi.Part, batch bool, err error) {
	ct := r.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	var body []byte
	if mt == "multipart/mixed" {
		body, parts, err = xapi.ReadMultipart(ct, r.Body)
	} else {
		body, err = io.ReadAll(r.Body)
	}
	if err != nil {
		return nil, nil, false, bodyError(err)
	}
	if ins, err = xapi.Decode(body, v); err != nil {
		return nil, nil, false, err
	}
	if err := xapi.CheckParts(ins, parts); err != nil {
		return nil, nil, false, err
	}
	return ins, parts, strings.HasPrefix(strings.TrimSpace(string(body)), "["), nil
}

// bodyError explains a request body that could not be read.
func bodyError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return apperr.Errorf(apperr.ETOOLARGE, "the request body is larger than %d bytes", tooLarge.Limit)
	}
	if apperr.Code(err) != apperr.EINTERNAL {
		return err
	}
	return apperr.Invalid("the request body could not be read: %v", err)
}

// statementQueryParams are the Statement Resource's GET parameters.
var statementQueryParams = []string{"statementId", "voidedStatementId", "agent", "verb", "activity", "registration",
	"related_activities", "related_agents", "since", "until", "limit", "format", "attachments", "ascending", "more"}

func (s *Server) handleGetStatements(w http.ResponseWriter, r *http.Request) {
	p := xapiCaller(r)
	params, err := xapiParams(r, statementQueryParams...)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if more, ok := params["more"]; ok {
		if len(params) > 1 {
			s.writeError(w, r, apperr.Invalid("more is given alone: it carries the query it continues"))
			return
		}
		if params, err = readMore(more); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	format := params["format"]
	switch format {
	case "":
		format = "exact"
	case "exact", "ids", "canonical":
	default:
		s.writeError(w, r, apperr.Invalid("format %q is none of exact, ids and canonical", format))
		return
	}
	attachments, err := boolParam(params, "attachments")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	langs := acceptLanguages(r)
	through, err := s.store.XAPIConsistentThrough(r.Context(), p.OrgID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("X-Experience-API-Consistent-Through", xapiTime(through))

	id, voided := params["statementId"], false
	if vid, ok := params["voidedStatementId"]; ok {
		if _, both := params["statementId"]; both {
			s.writeError(w, r, apperr.Invalid("statementId and voidedStatementId cannot be given together"))
			return
		}
		id, voided = vid, true
	}
	if _, single := params["statementId"]; single || voided {
		for name := range params {
			if name != "statementId" && name != "voidedStatementId" && name != "format" && name != "attachments" {
				s.writeError(w, r, apperr.Invalid("parameter %s cannot be given with statementId or voidedStatementId", name))
				return
			}
		}
		if !xapi.IsUUID(id) {
			s.writeError(w, r, apperr.Invalid("%q is not a statement id (a UUID)", id))
			return
		}
		body, err := s.store.GetXAPIStatement(r.Context(), p.OrgID, p.LearnerID, strings.ToLower(id), voided)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		out, err := xapi.Format(body, format, langs)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if stored, ok := storedOf(body); ok {
			w.Header().Set("Last-Modified", stored.UTC().Format(http.TimeFormat))
		}
		s.writeStatements(w, r, p, out, []json.RawMessage{body}, attachments)
		return
	}

	q, err := statementQuery(p, params)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	page, err := s.store.QueryXAPIStatements(r.Context(), q)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	list := make([]json.RawMessage, len(page.Statements))
	for i, body := range page.Statements {
		if list[i], err = xapi.Format(body, format, langs); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	more := ""
	if page.Next > 0 {
		more = "/xapi/statements?more=" + writeMore(params, page.Next)
	}
	s.writeStatements(w, r, p, statementResult(list, more), page.Statements, attachments)
}

// writeStatements answers a GET: JSON, or with attachments=true
// multipart/mixed with the contents of the statements' attachments.
func (s *Server) writeStatements(w http.ResponseWriter, r *http.Request, p xapiPrincipal, out []byte, stored []json.RawMessage, attachments bool) {
	if !attachments {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(out)
		return
	}
	var hashes []string
	for _, body := range stored {
		hashes = append(hashes, xapi.AttachmentHashes(body)...)
	}
	parts, err := s.store.XAPIAttachments(r.Context(), p.OrgID, hashes)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var buf strings.Builder
	ct, err := xapi.WriteMultipart(&buf, out, parts)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-store")
	_, _ = io.WriteString(w, buf.String())
}

// statementResult is the StatementResult object of a page. The statements
// are compact JSON already (stored so, or formatted): they are joined as
// they are, where encoding/json would scan every one of them again.
func statementResult(list []json.RawMessage, more string) []byte {
	size := len(`{"statements":[],"more":""}`) + len(more) + len(list)
	for _, st := range list {
		size += len(st)
	}
	out := make([]byte, 0, size)
	out = append(out, `{"statements":[`...)
	for i, st := range list {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, st...)
	}
	out = append(out, `],"more":`...)
	out = strconv.AppendQuote(out, more)
	return append(out, '}')
}

// statementQuery turns the GET parameters into a store query.
func statementQuery(p xapiPrincipal, params map[string]string) (store.XAPIQuery, error) {
	q := store.XAPIQuery{OrgID: p.OrgID, LearnerID: p.LearnerID,
		Verb: params["verb"], Activity: params["activity"], Registration: params["registration"]}
	var err error
	if a, ok := params["agent"]; ok {
		if q.Agent, err = xapi.ParseAgentParam(a, p.Version); err != nil {
			return q, err
		}
	}
	if q.Verb != "" && !xapi.IsIRI(q.Verb) {
		return q, apperr.Invalid("verb %q is not an IRI", q.Verb)
	}
	if q.Activity != "" && !xapi.IsIRI(q.Activity) {
		return q, apperr.Invalid("activity %q is not an IRI", q.Activity)
	}
	if q.Registration != "" {
		if !xapi.IsUUID(q.Registration) {
			return q, apperr.Invalid("registration %q is not a UUID", q.Registration)
		}
		q.Registration = strings.ToLower(q.Registration)
	}
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"related_agents", &q.RelatedAgents}, {"related_activities", &q.RelatedActivities}, {"ascending", &q.Ascending}} {
		if *b.dst, err = boolParam(params, b.name); err != nil {
			return q, err
		}
	}
	for _, t := range []struct {
		name string
		dst  *time.Time
	}{{"since", &q.Since}, {"until", &q.Until}} {
		if v, ok := params[t.name]; ok {
			if *t.dst, err = xapi.ParseTimestamp(v); err != nil {
				return q, apperr.Invalid("%s: %q is not an ISO 8601 timestamp", t.name, v)
			}
		}
	}
	if v, ok := params["limit"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return q, apperr.Invalid("limit %q is not a whole number of 0 or more", v)
		}
		q.Limit = n
	}
	if v, ok := params["after"]; ok {
		if q.After, err = strconv.ParseInt(v, 10, 64); err != nil {
			return q, apperr.Invalid("the more link is damaged")
		}
	}
	return q, nil
}

// The more link carries the query it continues and where the last page
// ended, so a client needs nothing else; the caller's scope is applied
// again on every page.
func writeMore(params map[string]string, after int64) string {
	v := url.Values{}
	for k, val := range params {
		if k != "after" {
			v.Set(k, val)
		}
	}
	v.Set("after", strconv.FormatInt(after, 10))
	return base64.RawURLEncoding.EncodeToString([]byte(v.Encode()))
}

func readMore(token string) (map[string]string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return nil, apperr.Invalid("the more link is damaged")
	}
	v, err := url.ParseQuery(string(raw))
	if err != nil || !v.Has("after") {
		return nil, apperr.Invalid("the more link is damaged")
	}
	params := map[string]string{}
	for k := range v {
		params[k] = v.Get(k)
	}
	return params, nil
}

func boolParam(params map[string]string, name string) (bool, error) {
	switch v, ok := params[name]; {
	case !ok || v == "false":
		return false, nil
	case v == "true":
		return true, nil
	default:
		return false, apperr.Invalid("%s is true or false, not %q", name, v)
	}
}

// acceptLanguages lists the request's Accept-Language tags, best first.
func acceptLanguages(r *http.Request) []string {
	type tag struct {
		name string
		q    float64
	}
	var tags []tag
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if name == "" {
			continue
		}
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		tags = append(tags, tag{name, q})
	}
	// A stable insertion sort: the list is short, and equal weights keep
	// the client's order.
	for i := 1; i < len(tags); i++ {
		for j := i; j > 0 && tags[j].q > tags[j-1].q; j-- {
			tags[j], tags[j-1] = tags[j-1], tags[j]
		}
	}
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = t.name
	}
	return out
}

// storedOf reads a stored statement's stored time.
func storedOf(body json.RawMessage) (time.Time, bool) {
	var st struct {
		Stored time.Time `json:"stored"`
	}
	if json.Unmarshal(body, &st) != nil || st.Stored.IsZero() {
		return time.Time{}, false
	}
	return st.Stored, true
}

// xapiTime writes a time as the LRS does: RFC 3339, UTC, milliseconds.
func xapiTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }
