package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"journeyman/internal/apperr"
)

// formRequest is a POST of form to target, with the form's Content-Type
// unless contentType says otherwise ("-" for none).
func formRequest(method, target string, form url.Values, contentType string) *http.Request {
	req := httptest.NewRequest(method, target, strings.NewReader(form.Encode()))
	switch contentType {
	case "":
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	case "-":
	default:
		req.Header.Set("Content-Type", contentType)
	}
	return req
}

func TestAlternateRequest(t *testing.T) {
	stmt := testStatement(xid1, "ann@example.com", xverb)
	tests := []struct {
		name        string
		req         *http.Request
		err         string // what the EINVALID message mentions; "" for success
		method      string
		query       string
		body        string
		headers     map[string]string // headers the rewritten request has
		contentType string
	}{
		{name: "Put", req: formRequest("POST", "/xapi/statements?method=PUT",
			url.Values{"statementId": {xid1}, "content": {stmt}, "X-Experience-API-Version": {"1.0.3"}, "Authorization": {"Basic a2V5OnNlY3JldA=="}}, ""),
			method: "PUT", query: "statementId=" + xid1, body: stmt, contentType: "application/json",
			headers: map[string]string{"X-Experience-API-Version": "1.0.3", "Authorization": "Basic a2V5OnNlY3JldA=="}},
		{name: "Get", req: formRequest("POST", "/xapi/statements?method=GET", url.Values{"limit": {"1"}}, ""),
			method: "GET", query: "limit=1"},
		{name: "GetNoBody", req: formRequest("POST", "/xapi/statements?method=GET", url.Values{}, "-"), method: "GET"},
		{name: "DocumentHeaders", req: formRequest("POST", "/xapi/activities/profile?method=PUT",
			url.Values{"activityId": {"http://example.com/a"}, "profileId": {"p"}, "content": {"hello"}, "Content-Type": {"text/plain"}, "If-None-Match": {"*"}, "Content-Length": {"99"}}, ""),
			method: "PUT", query: "activityId=http%3A%2F%2Fexample.com%2Fa&profileId=p", body: "hello", contentType: "text/plain",
			headers: map[string]string{"If-None-Match": "*", "Content-Length": ""}},
		{name: "HeaderWins", req: func() *http.Request {
			r := formRequest("POST", "/xapi/statements?method=PUT", url.Values{"statementId": {xid1}, "content": {stmt}, "X-Experience-API-Version": {"0.8"}}, "")
			r.Header.Set("X-Experience-API-Version", "1.0.3")
			return r
		}(), method: "PUT", query: "statementId=" + xid1, body: stmt, contentType: "application/json",
			headers: map[string]string{"X-Experience-API-Version": "1.0.3"}},
		{name: "ErrNotPost", req: formRequest("GET", "/xapi/statements?method=POST", url.Values{"content": {stmt}}, ""), err: "POST"},
		{name: "ErrOtherQuery", req: formRequest("POST", "/xapi/statements?method=PUT&statementId="+xid1, url.Values{"statementId": {xid1}, "content": {stmt}}, ""), err: "form fields"},
		{name: "ErrMethodTwice", req: formRequest("POST", "/xapi/statements?method=PUT&method=PUT", url.Values{"content": {stmt}}, ""), err: "form fields"},
		{name: "ErrUnknownMethod", req: formRequest("POST", "/xapi/statements?method=PATCH", url.Values{"content": {stmt}}, ""), err: "PATCH"},
		{name: "ErrNoContent", req: formRequest("POST", "/xapi/statements?method=PUT", url.Values{}, "-"), err: "content"},
		{name: "ErrContentOnGet", req: formRequest("POST", "/xapi/statements?method=GET", url.Values{"content": {stmt}}, ""), err: "content"},
		{name: "ErrContentTwice", req: formRequest("POST", "/xapi/statements?method=POST", url.Values{"content": {stmt, stmt}}, ""), err: "content"},
		{name: "ErrNotForm", req: formRequest("POST", "/xapi/statements?method=PUT", url.Values{"content": {stmt}}, "application/json"), err: "x-www-form-urlencoded"},
		{name: "ErrJSONAsForm", req: func() *http.Request {
			b, _ := json.Marshal(map[string]string{"statementId": xid1, "content": stmt})
			r := httptest.NewRequest("POST", "/xapi/statements?method=PUT", strings.NewReader(string(b)))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return r
		}(), err: "content"},
		{name: "ErrBadEncoding", req: func() *http.Request {
			r := httptest.NewRequest("POST", "/xapi/statements?method=PUT", strings.NewReader("content=%zz"))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return r
		}(), err: "URL-encoded"},
		{name: "ErrNotUTF8", req: formRequest("POST", "/xapi/statements?method=PUT", url.Values{"content": {"\xff"}}, ""), err: "UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := alternateRequest(tt.req)
			if tt.err != "" {
				if apperr.Code(err) != apperr.EINVALID || !strings.Contains(apperr.Message(err), tt.err) {
					t.Fatalf("err = %v, want EINVALID mentioning %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(out.Body)
			if out.Method != tt.method || out.URL.RawQuery != tt.query || string(body) != tt.body || out.ContentLength != int64(len(tt.body)) {
				t.Fatalf("rewritten = %s ?%s %q (length %d)", out.Method, out.URL.RawQuery, body, out.ContentLength)
			}
			if got := out.Header.Get("Content-Type"); got != tt.contentType {
				t.Fatalf("Content-Type %q, want %q", got, tt.contentType)
			}
			for k, v := range tt.headers {
				if got := out.Header.Get(k); got != v {
					t.Fatalf("header %s = %q, want %q", k, got, v)
				}
			}
			if !usedAlternateSyntax(out) || usedAlternateSyntax(tt.req) {
				t.Fatal("the rewritten request is not marked, or the original is")
			}
		})
	}
	t.Run("Ordinary", func(t *testing.T) {
		r := httptest.NewRequest("POST", "/xapi/statements?statementId="+xid1, strings.NewReader(stmt))
		if out, err := alternateRequest(r); err != nil || out != r {
			t.Fatalf("a request without a method parameter came back changed: %v", err)
		}
	})
}

// Through the LRS's entry point: 1.0.3 takes the syntax, 2.0.0 refuses it.
func TestXAPIAlternateSyntax(t *testing.T) {
	s := MustOpenServer(t)
	cred := xapiCredential(t, s, "Org A", true, true)
	auth := httptest.NewRequest("GET", "/", nil)
	auth.SetBasicAuth(cred[0], cred[1])
	basic := auth.Header.Get("Authorization")
	stmt := func(id string) string { return testStatement(id, "ann@example.com", xverb) }

	tests := []struct {
		name    string
		version string // the HTTP header's; "" for none
		req     *http.Request
		status  int
	}{
		{"PutStatement", "1.0.3", formRequest("POST", "/xapi/statements?method=PUT", url.Values{"statementId": {xid1}, "content": {stmt(xid1)}}, ""), 204},
		{"HeadersInForm", "", formRequest("POST", "/xapi/statements?method=PUT",
			url.Values{"statementId": {xid2}, "content": {stmt(xid2)}, "X-Experience-API-Version": {"1.0.3"}, "Authorization": {basic}}, ""), 204},
		{"FormVersionLoses", "1.0.3", formRequest("POST", "/xapi/statements?method=PUT",
			url.Values{"statementId": {"10000000-0000-4000-8000-000000000003"}, "content": {stmt("10000000-0000-4000-8000-000000000003")}, "X-Experience-API-Version": {"0.8"}}, ""), 204},
		{"GetStatements", "1.0.3", formRequest("POST", "/xapi/statements?method=GET", url.Values{"limit": {"1"}}, ""), 200},
		{"PutDocument", "1.0.3", formRequest("POST", "/xapi/activities/profile?method=PUT",
			url.Values{"activityId": {docActivity}, "profileId": {"alt"}, "content": {`{"a":1}`}, "If-None-Match": {"*"}}, ""), 204},
		{"ErrPutDocumentAgain", "1.0.3", formRequest("POST", "/xapi/activities/profile?method=PUT",
			url.Values{"activityId": {docActivity}, "profileId": {"alt"}, "content": {`{"a":2}`}, "If-None-Match": {"*"}}, ""), 412},
		{"ErrUnknownFormField", "1.0.3", formRequest("POST", "/xapi/statements?method=GET", url.Values{"happy": {"day"}}, ""), 400},
		{"ErrNotPost", "1.0.3", formRequest("GET", "/xapi/statements?method=POST", url.Values{"content": {stmt("")}}, ""), 400},
		{"ErrOtherQuery", "1.0.3", formRequest("POST", "/xapi/statements?method=PUT&statementId="+xid1, url.Values{"statementId": {xid1}, "content": {stmt(xid1)}}, ""), 400},
		{"ErrNoContent", "1.0.3", formRequest("POST", "/xapi/statements?method=PUT", url.Values{}, "-"), 400},
		{"ErrIn2/Get", "2.0.0", formRequest("POST", "/xapi/statements?method=GET", url.Values{}, "-"), 400},
		{"ErrIn2/Put", "2.0.0", formRequest("POST", "/xapi/statements?method=PUT", url.Values{"statementId": {xid1}, "content": {stmt(xid1)}}, ""), 400},
		{"ErrIn2/VersionInForm", "", formRequest("POST", "/xapi/statements?method=PUT",
			url.Values{"statementId": {xid1}, "content": {stmt(xid1)}, "X-Experience-API-Version": {"2.0.0"}, "Authorization": {basic}}, ""), 400},
		{"ErrIn2/NotPost", "2.0.0", formRequest("PUT", "/xapi/statements?method=POST", url.Values{}, "-"), 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.version != "" {
				tt.req.Header.Set("X-Experience-API-Version", tt.version)
				tt.req.SetBasicAuth(cred[0], cred[1])
			}
			res := do(t, s, tt.req)
			if res.status != tt.status {
				t.Fatalf("status %d, want %d: %s", res.status, tt.status, res.body)
			}
			if tt.status >= 400 {
				message(t, res.body)
			}
			if res.header.Get("X-Experience-API-Version") == "" {
				t.Error("no X-Experience-API-Version on the answer")
			}
		})
	}
	t.Run("Stored", func(t *testing.T) {
		res := do(t, s, xapiRequest("GET", "/xapi/statements?statementId="+xid2, "", cred))
		if res.status != 200 || !strings.Contains(res.body, xid2) {
			t.Fatalf("the statement PUT with headers in the form: %d %s", res.status, res.body)
		}
		res = do(t, s, xapiRequest("GET", docTarget("/xapi/activities/profile", map[string]string{"activityId": docActivity, "profileId": "alt"}), "", cred))
		if res.status != 200 || res.body != `{"a":1}` || res.header.Get("Content-Type") != "application/json" {
			t.Fatalf("the document PUT in a form: %d %s %q", res.status, res.header.Get("Content-Type"), res.body)
		}
	})
}
