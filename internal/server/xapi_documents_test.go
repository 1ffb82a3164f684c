package server

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"journeyman/internal/identity"
	"journeyman/internal/store"
)

const (
	docAgentJSON = `{"objectType":"Agent","account":{"homePage":"http://www.example.com/agentId/1","name":"Rick James"}}`
	docActivity  = "http://www.example.com/activityId/hashset"
	docReg       = "2b8e1f0a-6a3c-4c1e-9d2f-0e1f2a3b4c5d"
)

// docTarget is the URL of a Document Resource with these parameters.
func docTarget(path string, params map[string]string) string {
	q := url.Values{}
	for k, v := range params {
		q.Set(k, v)
	}
	return path + "?" + q.Encode()
}

// docResources are the three Document Resources with the parameters of
// one document of each.
func docResources() []struct {
	name, path, idParam string
	params              map[string]string
} {
	return []struct {
		name, path, idParam string
		params              map[string]string
	}{
		{"State", "/xapi/activities/state", "stateId", map[string]string{"activityId": docActivity, "agent": docAgentJSON, "stateId": "s1"}},
		{"ActivityProfile", "/xapi/activities/profile", "profileId", map[string]string{"activityId": docActivity, "profileId": "p1"}},
		{"AgentProfile", "/xapi/agents/profile", "profileId", map[string]string{"agent": docAgentJSON, "profileId": "p1"}},
	}
}

// withParams returns a copy of params changed by kv pairs; a value "-" removes
// the parameter.
func withParams(params map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range params {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "-" {
			delete(out, kv[i])
		} else {
			out[kv[i]] = kv[i+1]
		}
	}
	return out
}

// docRequest is a request to a Document Resource under version v with
// these headers (pairs of name and value).
func docRequest(method, target, body, v string, cred [2]string, headers ...string) *http.Request {
	req := xapiRequest(method, target, body, cred)
	req.Header.Set("X-Experience-API-Version", v)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return req
}

func quotedSHA1(b string) string {
	sum := sha1.Sum([]byte(b))
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

func TestXAPIDocumentResources(t *testing.T) {
	s := MustOpenServer(t)
	cred := xapiCredential(t, s, "Org A", true, true)
	other := xapiCredential(t, s, "Org B", true, true)
	for _, v := range []string{"1.0.3", "2.0.0"} {
		for _, res := range docResources() {
			t.Run(v+"/"+res.name, func(t *testing.T) {
				params := withParams(res.params, res.idParam, "doc-"+v)
				target := docTarget(res.path, params)
				req := func(method, body string, headers ...string) response {
					t.Helper()
					return do(t, s, docRequest(method, target, body, v, cred, headers...))
				}
				want := func(r response, status int) response {
					t.Helper()
					if r.status != status {
						t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
					}
					return r
				}

				want(req("PUT", `{"x":"foo","y":"bar"}`, "If-None-Match", "*"), http.StatusNoContent)
				got := want(req("GET", ""), http.StatusOK)
				if got.body != `{"x":"foo","y":"bar"}` || got.header.Get("Content-Type") != "application/json" {
					t.Fatalf("GET = %s %q", got.header.Get("Content-Type"), got.body)
				}
				if got.header.Get("ETag") != quotedSHA1(got.body) || got.header.Get("Last-Modified") == "" {
					t.Fatalf("ETag %q, Last-Modified %q", got.header.Get("ETag"), got.header.Get("Last-Modified"))
				}
				head := want(req("HEAD", ""), http.StatusOK)
				if head.body != "" || head.header.Get("ETag") != got.header.Get("ETag") {
					t.Fatalf("HEAD = %q with ETag %q", head.body, head.header.Get("ETag"))
				}

				want(req("POST", `{"x":"bash","z":"faz"}`, "If-Match", got.header.Get("ETag")), http.StatusNoContent)
				if got := want(req("GET", ""), http.StatusOK); got.body != `{"x":"bash","y":"bar","z":"faz"}` {
					t.Fatalf("merged = %s", got.body)
				}

				list := docTarget(res.path, withParams(params, res.idParam, "-"))
				ids := want(do(t, s, docRequest("GET", list, "", v, cred)), http.StatusOK)
				var names []string
				if err := json.Unmarshal([]byte(ids.body), &names); err != nil || !reflect.DeepEqual(names, []string{"doc-" + v}) {
					t.Fatalf("ids = %s", ids.body)
				}
				if ids.header.Get("Last-Modified") != got.header.Get("Last-Modified") {
					t.Fatalf("the list's Last-Modified %q is not its latest document's %q", ids.header.Get("Last-Modified"), got.header.Get("Last-Modified"))
				}
				future := docTarget(res.path, withParams(params, res.idParam, "-", "since", "2100-01-01T00:00:00Z"))
				if ids := want(do(t, s, docRequest("GET", future, "", v, cred)), http.StatusOK); strings.TrimSpace(ids.body) != "[]" {
					t.Fatalf("ids since 2100 = %s", ids.body)
				}
				// An organisation sees only its own documents.
				want(do(t, s, docRequest("GET", target, "", v, other)), http.StatusNotFound)

				want(req("DELETE", ""), http.StatusNoContent)
				message(t, want(req("GET", ""), http.StatusNotFound).body)
			})
		}
	}
}

func TestXAPIDocumentErrors(t *testing.T) {
	s := MustOpenServer(t)
	cred := xapiCredential(t, s, "Org A", true, true)
	readOnly := xapiCredential(t, s, "Org A", true, false)
	writeOnly := xapiCredential(t, s, "Org A", false, true)
	state := docResources()[0]

	type tc struct {
		name     string
		method   string
		path     string
		params   map[string]string
		body     string
		headers  []string
		cred     [2]string
		status   int
		mentions string
	}
	var tests []tc
	// Each Document Resource's parameters, for every method.
	for _, res := range docResources() {
		for _, method := range []string{"GET", "PUT", "POST", "DELETE"} {
			body, headers := "", []string(nil)
			if method == "PUT" || method == "POST" {
				body, headers = `{"a":1}`, []string{"If-None-Match", "*"}
			}
			add := func(name string, params map[string]string, mentions string) {
				tests = append(tests, tc{res.name + "/" + method + "/" + name, method, res.path, params, body, headers, cred, 400, mentions})
			}
			if _, ok := res.params["activityId"]; ok {
				add("ErrNoActivityId", withParams(res.params, "activityId", "-"), "activityId")
				for _, bad := range []string{"1", "true", `{"key":"value"}`, "undefined", "no scheme"} {
					add("ErrActivityId="+bad, withParams(res.params, "activityId", bad), "activityId")
				}
			}
			if _, ok := res.params["agent"]; ok {
				add("ErrNoAgent", withParams(res.params, "agent", "-"), "agent")
				for _, bad := range []string{"1", "true", "not JSON", `{"not_actor":"yup"}`, `{"objectType":"Agent","mbox":"bob@x"}`,
					`{"objectType":"Agent","account":{"homePage":"http://example.com","name":"a\u0000b"}}`} {
					add("ErrAgent="+bad, withParams(res.params, "agent", bad), "agent")
				}
			}
			add("ErrUnknownParam", withParams(res.params, "unknown", "x"), "unknown")
			add("ErrParamCase", withParams(res.params, strings.ToLower(res.idParam), "x"), strings.ToLower(res.idParam))
			add("ErrNotUTF8", withParams(res.params, res.idParam, "bad \xff"), res.idParam)
			if method != "GET" {
				add("ErrSinceOnWrite", withParams(res.params, "since", "2020-01-01T00:00:00Z"), "since")
			}
			if method == "PUT" || method == "POST" || (method == "DELETE" && res.name != "State") {
				add("ErrNoId", withParams(res.params, res.idParam, "-"), res.idParam)
			}
			for _, bad := range []string{"1", "true", "null", `{"key":"value"}`, "[1]"} {
				add("ErrIdType="+bad, withParams(res.params, res.idParam, bad), res.idParam)
			}
			if method == "PUT" || method == "POST" {
				tests = append(tests, tc{res.name + "/" + method + "/ErrNoDocument", method, res.path, res.params, "", headers, cred, 400, "no document"})
			}
		}
	}
	for _, method := range []string{"GET", "PUT", "POST", "DELETE"} {
		body, headers := "", []string(nil)
		if method == "PUT" || method == "POST" {
			body = `{"a":1}`
		}
		for _, bad := range []string{"1", "true", "not UUID", docReg + "x"} {
			tests = append(tests, tc{"State/" + method + "/ErrRegistration=" + bad, method, state.path, withParams(state.params, "registration", bad), body, headers, cred, 400, "registration"})
		}
	}
	for _, res := range docResources() {
		for _, bad := range []string{"not a timestamp", "1", "2020-01-01T00:00:00"} {
			tests = append(tests, tc{res.name + "/GET/ErrSince=" + bad, "GET", res.path, withParams(res.params, res.idParam, "-", "since", bad), "", nil, cred, 400, "since"})
		}
		tests = append(tests,
			tc{res.name + "/ErrMissing", "GET", res.path, withParams(res.params, res.idParam, "missing"), "", nil, cred, 404, "missing"},
			tc{res.name + "/ErrContentType", "PUT", res.path, res.params, "x", []string{"Content-Type", "text/plain; x=" + strings.Repeat("y", 256)}, cred, 400, "Content-Type"},
			tc{res.name + "/ErrTooLarge", "PUT", res.path, res.params, strings.Repeat("x", store.MaxXAPIDocument+1), []string{"If-None-Match", "*", "Content-Type", "text/plain"}, cred, 413, "larger"},
			tc{res.name + "/ErrReadOnlyWrites", "PUT", res.path, res.params, `{"a":1}`, []string{"If-None-Match", "*"}, readOnly, 403, "write"},
			tc{res.name + "/ErrReadOnlyDeletes", "DELETE", res.path, res.params, "", nil, readOnly, 403, "write"},
			tc{res.name + "/ErrWriteOnlyReads", "GET", res.path, res.params, "", nil, writeOnly, 403, "read"},
		)
	}

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, docRequest(tt.method, docTarget(tt.path, tt.params), tt.body, "1.0.3", tt.cred, tt.headers...))
			if res.status != tt.status {
				t.Fatalf("status %d, want %d: %s", res.status, tt.status, res.body)
			}
			if msg := message(t, res.body); !strings.Contains(msg, tt.mentions) {
				t.Fatalf("message %q does not mention %q", msg, tt.mentions)
			}
		})
	}
}

// The concurrency rules of Communication 3.1, alike in 1.0.3 and 2.0.0:
// ETags on every write; a profile PUT over an existing document must carry
// If-Match or If-None-Match; the State Resource lets writes go without.
func TestXAPIDocumentConcurrency(t *testing.T) {
	s := MustOpenServer(t)
	cred := xapiCredential(t, s, "Org A", true, true)
	const stored = `{"v":1}`
	etag := quotedSHA1(stored)
	tests := []struct {
		name     string
		method   string
		headers  []string
		profile  int // status for the two profile resources
		state    int // status for the State Resource
		mentions string
	}{
		{"PutNoHeader", "PUT", nil, 409, 204, "If-Match"},
		{"PostNoHeader", "POST", nil, 204, 204, ""},
		{"DeleteNoHeader", "DELETE", nil, 204, 204, ""},
		{"PutIfMatch", "PUT", []string{"If-Match", etag}, 204, 204, ""},
		{"PostIfMatch", "POST", []string{"If-Match", etag}, 204, 204, ""},
		{"DeleteIfMatch", "DELETE", []string{"If-Match", etag}, 204, 204, ""},
		{"PutIfMatchStale", "PUT", []string{"If-Match", `"1111111111111111111111111111111111111111"`}, 412, 412, "If-Match"},
		{"PutIfMatchUnquoted", "PUT", []string{"If-Match", "1234"}, 412, 412, "If-Match"},
		{"PostIfMatchStale", "POST", []string{"If-Match", "1234"}, 412, 412, "If-Match"},
		{"DeleteIfMatchStale", "DELETE", []string{"If-Match", "1234"}, 412, 412, "If-Match"},
		{"PutIfNoneMatchStar", "PUT", []string{"If-None-Match", "*"}, 412, 412, "If-None-Match"},
		{"PostIfNoneMatchStar", "POST", []string{"If-None-Match", "*"}, 412, 412, "If-None-Match"},
	}
	for _, v := range []string{"1.0.3", "2.0.0"} {
		for _, res := range docResources() {
			for _, tt := range tests {
				t.Run(v+"/"+res.name+"/"+tt.name, func(t *testing.T) {
					target := docTarget(res.path, withParams(res.params, res.idParam, v+tt.name))
					// A bare PUT creates a document of any resource.
					if r := do(t, s, docRequest("PUT", target, stored, v, cred)); r.status != 204 {
						t.Fatalf("create: %d %s", r.status, r.body)
					}
					body := ""
					if tt.method != "DELETE" {
						body = `{"v":2}`
					}
					want := tt.profile
					if res.name == "State" {
						want = tt.state
					}
					r := do(t, s, docRequest(tt.method, target, body, v, cred, tt.headers...))
					if r.status != want {
						t.Fatalf("status %d, want %d: %s", r.status, want, r.body)
					}
					if want >= 400 {
						if msg := message(t, r.body); !strings.Contains(msg, tt.mentions) {
							t.Fatalf("message %q does not mention %s", msg, tt.mentions)
						}
						if got := do(t, s, docRequest("GET", target, "", v, cred)); got.body != stored {
							t.Fatalf("a failed %s changed the document to %q", tt.method, got.body)
						}
					}
				})
			}
		}
	}
}

func TestXAPIDocumentMergeErrors(t *testing.T) {
	s := MustOpenServer(t)
	cred := xapiCredential(t, s, "Org A", true, true)
	for _, res := range docResources() {
		for _, tt := range []struct {
			name                   string
			storedType, stored     string
			postedType, posted     string
			status                 int
			wantType, wantDocument string
		}{
			{"NotJSONOverJSON", "application/json", `{"a":1}`, "application/octet-stream", "abcdefg", 400, "application/json", `{"a":1}`},
			{"FormOverJSON", "application/json", `{"a":1}`, "application/x-www-form-urlencoded", "abc", 400, "application/json", `{"a":1}`},
			{"JSONOverNotJSON", "application/octet-stream", "/ asdf / undefined", "application/json", `{"a":1}`, 400, "application/octet-stream", "/ asdf / undefined"},
			{"BadJSON", "application/json", `{"a":1}`, "application/json", `{"a":1}{`, 400, "application/json", `{"a":1}`},
			{"NewNotJSON", "", "", "application/x-www-form-urlencoded", "true", 204, "application/x-www-form-urlencoded", "true"},
		} {
			t.Run(res.name+"/"+tt.name, func(t *testing.T) {
				target := docTarget(res.path, withParams(res.params, res.idParam, "merge-"+tt.name))
				if tt.stored != "" {
					if r := do(t, s, docRequest("PUT", target, tt.stored, "1.0.3", cred, "If-None-Match", "*", "Content-Type", tt.storedType)); r.status != 204 {
						t.Fatalf("create: %d %s", r.status, r.body)
					}
				}
				r := do(t, s, docRequest("POST", target, tt.posted, "1.0.3", cred, "Content-Type", tt.postedType))
				if r.status != tt.status {
					t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
				}
				got := do(t, s, docRequest("GET", target, "", "1.0.3", cred))
				if got.header.Get("Content-Type") != tt.wantType || got.body != tt.wantDocument {
					t.Fatalf("document = %s %q, want %s %q", got.header.Get("Content-Type"), got.body, tt.wantType, tt.wantDocument)
				}
			})
		}
	}
}

func TestXAPIStateContext(t *testing.T) {
	s := MustOpenServer(t)
	cred := xapiCredential(t, s, "Org A", true, true)
	state := docResources()[0]
	put := func(id, reg string) {
		t.Helper()
		p := withParams(state.params, "stateId", id)
		if reg != "" {
			p["registration"] = reg
		}
		if r := do(t, s, docRequest("PUT", docTarget(state.path, p), `{}`, "2.0.0", cred)); r.status != 204 {
			t.Fatalf("put %s: %d %s", id, r.status, r.body)
		}
	}
	ids := func(reg string) []string {
		t.Helper()
		p := withParams(state.params, "stateId", "-")
		if reg != "" {
			p["registration"] = reg
		}
		r := do(t, s, docRequest("GET", docTarget(state.path, p), "", "2.0.0", cred))
		var out []string
		if err := json.Unmarshal([]byte(r.body), &out); err != nil {
			t.Fatalf("ids: %d %s", r.status, r.body)
		}
		return out
	}
	put("a", "")
	put("b", docReg)
	put("c", strings.ToUpper(docReg)) // registrations are UUIDs, whatever their case
	if got := ids(docReg); !reflect.DeepEqual(got, []string{"b", "c"}) {
		t.Fatalf("ids of the registration = %q", got)
	}
	if got := ids(""); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Fatalf("ids of every registration = %q", got)
	}
	del := func(reg string) {
		t.Helper()
		p := withParams(state.params, "stateId", "-")
		if reg != "" {
			p["registration"] = reg
		}
		if r := do(t, s, docRequest("DELETE", docTarget(state.path, p), "", "2.0.0", cred)); r.status != 204 {
			t.Fatalf("delete: %d %s", r.status, r.body)
		}
	}
	del(docReg)
	if got := ids(""); !reflect.DeepEqual(got, []string{"a"}) {
		t.Fatalf("after deleting the registration's states: %q", got)
	}
	del("")
	if got := ids(""); len(got) != 0 {
		t.Fatalf("after deleting every state: %q", got)
	}
}

func TestXAPIActivitiesResource(t *testing.T) {
	s := MustOpenServer(t)
	cred := xapiCredential(t, s, "Org A", true, true)
	stmt := `{"actor":{"objectType":"Agent","mbox":"mailto:ann@example.com"},"verb":{"id":"http://adlnet.gov/expapi/verbs/experienced"},
		"object":{"id":"http://example.com/activities/pump","definition":{"name":{"en-US":"Pump"}}}}`
	if r := do(t, s, xapiRequest("POST", "/xapi/statements", stmt, cred)); r.status != 200 {
		t.Fatalf("post statement: %d %s", r.status, r.body)
	}
	for _, tt := range []struct {
		name, query string
		status      int
		want        string
	}{
		{"Known", "activityId=" + url.QueryEscape("http://example.com/activities/pump"), 200,
			`{"objectType":"Activity","id":"http://example.com/activities/pump","definition":{"name":{"en-US":"Pump"}}}`},
		{"Unknown", "activityId=" + url.QueryEscape("http://example.com/activities/other"), 200,
			`{"objectType":"Activity","id":"http://example.com/activities/other"}`},
		{"ErrNoActivityId", "", 400, "activityId"},
		{"ErrNotIRI", "activityId=pump", 400, "activityId"},
		{"ErrUnknownParam", "activityId=" + url.QueryEscape("http://example.com/a") + "&agent=x", 400, "agent"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := do(t, s, xapiRequest("GET", "/xapi/activities?"+tt.query, "", cred))
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if tt.status == 200 {
				if strings.TrimSpace(r.body) != tt.want {
					t.Fatalf("activity = %s\nwant %s", r.body, tt.want)
				}
			} else if msg := message(t, r.body); !strings.Contains(msg, tt.want) {
				t.Fatalf("message %q does not mention %s", msg, tt.want)
			}
		})
	}
}

func TestXAPIAgentsResource(t *testing.T) {
	s := MustOpenServer(t)
	cred := xapiCredential(t, s, "Org A", true, true)
	mustAccount(t, s, "Ann", "Org A", identity.Learner)
	for _, tt := range []struct {
		name, agent string
		status      int
		want        string
	}{
		{"Mbox", `{"objectType":"Agent","name":"Ann","mbox":"mailto:ann@example.com"}`, 200,
			`{"objectType":"Person","name":["Ann"],"mbox":["mailto:ann@example.com"]}`},
		{"Account", docAgentJSON, 200,
			`{"objectType":"Person","account":[{"homePage":"http://www.example.com/agentId/1","name":"Rick James"}]}`},
		{"ErrNoAgent", "", 400, "agent"},
		{"ErrNotJSON", "not JSON", 400, "agent"},
		{"ErrNoIFI", `{"objectType":"Agent","name":"Ann"}`, 400, "agent"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			target := "/xapi/agents"
			if tt.agent != "" {
				target += "?agent=" + url.QueryEscape(tt.agent)
			}
			r := do(t, s, xapiRequest("GET", target, "", cred))
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if tt.status != 200 {
				if msg := message(t, r.body); !strings.Contains(msg, tt.want) {
					t.Fatalf("message %q does not mention %s", msg, tt.want)
				}
				return
			}
			var got, want any
			if json.Unmarshal([]byte(r.body), &got) != nil || json.Unmarshal([]byte(tt.want), &want) != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("person = %s\nwant %s", r.body, tt.want)
			}
		})
	}
	t.Run("ErrPersonCookie", func(t *testing.T) {
		// The Agents and Document Resources are for credentials only.
		r := do(t, s, as(t, s, xapiRequest("GET", "/xapi/agents?agent="+url.QueryEscape(docAgentJSON), "", [2]string{}), "Ann"))
		if r.status != 403 {
			t.Fatalf("status %d, want 403: %s", r.status, r.body)
		}
	})
}

// Ids are any text but what reads as a JSON non-string (see checkDocID).
func TestXAPIDocumentIDs(t *testing.T) {
	s := MustOpenServer(t)
	cred := xapiCredential(t, s, "Org A", true, true)
	state := docResources()[0]
	ids := []string{`"quoted"`, "01", "a b&c=d/é", "http://example.com/state?x=1", "2b8e1f0a-6a3c-4c1e-9d2f-0e1f2a3b4c5d"}
	for _, id := range ids {
		if r := do(t, s, docRequest("PUT", docTarget(state.path, withParams(state.params, "stateId", id)), "x", "1.0.3", cred)); r.status != 204 {
			t.Fatalf("put %q: %d %s", id, r.status, r.body)
		}
		got := do(t, s, docRequest("GET", docTarget(state.path, withParams(state.params, "stateId", id)), "", "1.0.3", cred))
		if got.status != 200 || got.body != "x" || got.header.Get("Content-Type") != "application/json" {
			t.Fatalf("get %q: %d %s %q", id, got.status, got.header.Get("Content-Type"), got.body)
		}
	}
	r := do(t, s, docRequest("GET", docTarget(state.path, withParams(state.params, "stateId", "-")), "", "1.0.3", cred))
	var listed []string
	if err := json.Unmarshal([]byte(r.body), &listed); err != nil || len(listed) != len(ids) {
		t.Fatalf("ids = %s", r.body)
	}
}
