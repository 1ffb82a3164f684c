package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"net/url"
	"strings"
	"testing"

	"journeyman/internal/identity"
)

// xapiCredential makes a credential of org for the tests and returns its
// HTTP Basic pair.
func xapiCredential(tb testing.TB, s *Server, org string, read, write bool) [2]string {
	tb.Helper()
	cred, secret, err := s.store.CreateXAPICredential(context.Background(), mustOrg(tb, s, org), "test", "test tool", read, write)
	if err != nil {
		tb.Fatal(err)
	}
	return [2]string{cred.Key, secret}
}

// xapiRequest is a request to the LRS with version 2.0.0 and, when cred
// is set, its Basic credential.
func xapiRequest(method, target, body string, cred [2]string) *http.Request {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("X-Experience-API-Version", "2.0.0")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if cred[0] != "" {
		req.SetBasicAuth(cred[0], cred[1])
	}
	return req
}

func testStatement(id, actor, verb string) string {
	idPart := ""
	if id != "" {
		idPart = fmt.Sprintf(`"id":%q,`, id)
	}
	return fmt.Sprintf(`{%s"actor":{"objectType":"Agent","mbox":"mailto:%s"},"verb":{"id":%q,"display":{"en-US":"did"}},"object":{"id":"http://example.com/activities/wiring"}}`, idPart, actor, verb)
}

const (
	xid1     = "10000000-0000-4000-8000-000000000001"
	xid2     = "10000000-0000-4000-8000-000000000002"
	xverb    = "http://adlnet.gov/expapi/verbs/experienced"
	xverbAlt = "http://adlnet.gov/expapi/verbs/passed"
)

func TestXAPIAccess(t *testing.T) {
	s := MustOpenServer(t)
	rw := xapiCredential(t, s, "Org A", true, true)
	readOnly := xapiCredential(t, s, "Org A", true, false)
	writeOnly := xapiCredential(t, s, "Org A", false, true)
	mustAccount(t, s, "Ann", "Org A", identity.Learner)

	tests := []struct {
		name   string
		req    *http.Request
		status int
	}{
		{"AboutNeedsNothing", httptest.NewRequest("GET", "/xapi/about", nil), 200},
		{"ErrNoVersion", func() *http.Request {
			r := xapiRequest("GET", "/xapi/statements", "", rw)
			r.Header.Del("X-Experience-API-Version")
			return r
		}(), 400},
		{"ErrUnknownVersion", func() *http.Request {
			r := xapiRequest("GET", "/xapi/statements", "", rw)
			r.Header.Set("X-Experience-API-Version", "0.95")
			return r
		}(), 400},
		{"Version103", func() *http.Request {
			r := xapiRequest("GET", "/xapi/statements", "", rw)
			r.Header.Set("X-Experience-API-Version", "1.0.3")
			return r
		}(), 200},
		{"ErrNoCredential", xapiRequest("GET", "/xapi/statements", "", [2]string{}), 401},
		{"ErrWrongSecret", xapiRequest("GET", "/xapi/statements", "", [2]string{rw[0], "not the secret"}), 401},
		{"ErrUnknownKey", xapiRequest("GET", "/xapi/statements", "", [2]string{"nobody", rw[1]}), 401},
		{"ErrReadOnlyWrites", xapiRequest("POST", "/xapi/statements", testStatement("", "ann@example.com", xverb), readOnly), 403},
		{"ErrWriteOnlyReads", xapiRequest("GET", "/xapi/statements", "", writeOnly), 403},
		{"WriteOnlyWrites", xapiRequest("POST", "/xapi/statements", testStatement("", "ann@example.com", xverb), writeOnly), 200},
		{"PersonReadsTheirOwn", as(t, s, xapiRequest("GET", "/xapi/statements", "", [2]string{}), "Ann"), 200},
		{"GuestReadsTheirOwn", as(t, s, xapiRequest("GET", "/xapi/statements", "", [2]string{}), "guest"), 200},
		{"ErrPersonWrites", as(t, s, xapiRequest("POST", "/xapi/statements", testStatement("", "ann@example.com", xverb), [2]string{}), "Ann"), 403},
		{"ErrUnknownResource", xapiRequest("GET", "/xapi/nothing", "", rw), 404},
		{"ErrWrongMethod", xapiRequest("PATCH", "/xapi/statements", "", rw), 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, tt.req)
			if res.status != tt.status {
				t.Fatalf("status %d, want %d: %s", res.status, tt.status, res.body)
			}
			if tt.status >= 400 {
				message(t, res.body)
			}
			if tt.status == 401 && res.header.Get("WWW-Authenticate") == "" {
				t.Error("a 401 without WWW-Authenticate")
			}
			if v := res.header.Get("X-Experience-API-Version"); v == "" {
				t.Error("no X-Experience-API-Version on the answer")
			}
		})
	}
}

func TestXAPIAbout(t *testing.T) {
	s := MustOpenServer(t)
	res := do(t, s, httptest.NewRequest("GET", "/xapi/about", nil))
	var about struct{ Version []string }
	if err := json.Unmarshal([]byte(res.body), &about); err != nil {
		t.Fatal(err)
	}
	if strings.Join(about.Version, ",") != "1.0.3,2.0.0" {
		t.Errorf("versions %v", about.Version)
	}
}

func TestXAPIStatementResource(t *testing.T) {
	s := MustOpenServer(t)
	cred := xapiCredential(t, s, "Org A", true, true)
	other := xapiCredential(t, s, "Org B", true, true)

	put := func(id, body string) response {
		return do(t, s, xapiRequest("PUT", "/xapi/statements?statementId="+id, body, cred))
	}
	t.Run("Put", func(t *testing.T) {
		if res := put(xid1, testStatement("", "ann@example.com", xverb)); res.status != 204 {
			t.Fatalf("status %d: %s", res.status, res.body)
		}
		if res := put(xid1, testStatement(xid1, "ann@example.com", xverb)); res.status != 204 {
			t.Errorf("the same statement again: status %d: %s", res.status, res.body)
		}
	})
	for _, tt := range []struct {
		name, target, body string
		status             int
	}{
		{"ErrPutWithoutStatementID", "/xapi/statements", testStatement("", "ann@example.com", xverb), 400},
		{"ErrPutStatementIDNotUUID", "/xapi/statements?statementId=abc", testStatement("", "ann@example.com", xverb), 400},
		{"ErrPutIDsDisagree", "/xapi/statements?statementId=" + xid2, testStatement(xid1, "ann@example.com", xverb), 400},
		{"ErrPutBatch", "/xapi/statements?statementId=" + xid2, "[" + testStatement("", "ann@example.com", xverb) + "]", 400},
		{"ErrPutChangedStatement", "/xapi/statements?statementId=" + xid1, testStatement("", "ann@example.com", xverbAlt), 409},
		{"ErrPutUnknownParameter", "/xapi/statements?statementId=" + xid2 + "&x=1", testStatement("", "ann@example.com", xverb), 400},
		{"ErrPutInvalidStatement", "/xapi/statements?statementId=" + xid2, `{"actor":{"mbox":"ann@example.com"}}`, 400},
		{"ErrPutNotJSON", "/xapi/statements?statementId=" + xid2, `{"actor":`, 400},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, xapiRequest("PUT", tt.target, tt.body, cred))
			if res.status != tt.status {
				t.Fatalf("status %d, want %d: %s", res.status, tt.status, res.body)
			}
			message(t, res.body)
		})
	}

	var posted []string
	t.Run("PostBatch", func(t *testing.T) {
		res := do(t, s, xapiRequest("POST", "/xapi/statements", "["+testStatement(xid2, "bob@example.com", xverbAlt)+","+testStatement("", "cat@example.com", xverb)+"]", cred))
		if res.status != 200 {
			t.Fatalf("status %d: %s", res.status, res.body)
		}
		if err := json.Unmarshal([]byte(res.body), &posted); err != nil || len(posted) != 2 || posted[0] != xid2 {
			t.Fatalf("ids %s (%v)", res.body, err)
		}
	})

	t.Run("GetOne", func(t *testing.T) {
		res := do(t, s, xapiRequest("GET", "/xapi/statements?statementId="+xid1, "", cred))
		if res.status != 200 {
			t.Fatalf("status %d: %s", res.status, res.body)
		}
		var st struct {
			ID        string
			Stored    string
			Authority struct{ Account struct{ Name string } }
		}
		if err := json.Unmarshal([]byte(res.body), &st); err != nil {
			t.Fatal(err)
		}
		if st.ID != xid1 || st.Stored == "" || st.Authority.Account.Name != cred[0] {
			t.Errorf("statement %s", res.body)
		}
		if res.header.Get("X-Experience-API-Consistent-Through") == "" || res.header.Get("Last-Modified") == "" {
			t.Errorf("headers %v", res.header)
		}
	})
	t.Run("ErrOtherOrganisationCannotRead", func(t *testing.T) {
		if res := do(t, s, xapiRequest("GET", "/xapi/statements?statementId="+xid1, "", other)); res.status != 404 {
			t.Errorf("status %d: %s", res.status, res.body)
		}
	})
	for _, tt := range []struct{ name, query string }{
		{"ErrUnknownParameter", "?colour=red"},
		{"ErrStatementIDWithFilter", "?statementId=" + xid1 + "&verb=" + url.QueryEscape(xverb)},
		{"ErrBothIDs", "?statementId=" + xid1 + "&voidedStatementId=" + xid2},
		{"ErrBadFormat", "?format=pretty"},
		{"ErrBadLimit", "?limit=-1"},
		{"ErrBadSince", "?since=yesterday"},
		{"ErrBadAgent", "?agent=" + url.QueryEscape(`{"mbox":"ann@example.com"}`)},
		{"ErrBadAscending", "?ascending=yes"},
		{"ErrDamagedMore", "?more=!!!"},
		{"ErrNULInAParameter", "?verb=http://example.com/%00"},
		{"ErrNotUTF8", "?activity=http://example.com/%ff"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, xapiRequest("GET", "/xapi/statements"+tt.query, "", cred))
			if res.status != 400 {
				t.Fatalf("status %d, want 400: %s", res.status, res.body)
			}
			message(t, res.body)
		})
	}

	t.Run("QueryAndMore", func(t *testing.T) {
		var got []string
		target := "/xapi/statements?limit=2&verb=" + url.QueryEscape(xverb)
		for pages := 0; target != ""; pages++ {
			if pages > 3 {
				t.Fatal("more links never end")
			}
			res := do(t, s, xapiRequest("GET", target, "", cred))
			if res.status != 200 {
				t.Fatalf("status %d: %s", res.status, res.body)
			}
			var result struct {
				Statements []struct{ ID string }
				More       string
			}
			if err := json.Unmarshal([]byte(res.body), &result); err != nil {
				t.Fatal(err)
			}
			for _, st := range result.Statements {
				got = append(got, st.ID)
			}
			target = result.More
		}
		// Newest first: the batch's second, then the PUT's; the POST's first
		// (another verb) is not selected.
		if want := posted[1] + "," + xid1; strings.Join(got, ",") != want {
			t.Errorf("got %v, want %s", got, want)
		}
	})
	t.Run("FormatIDs", func(t *testing.T) {
		res := do(t, s, xapiRequest("GET", "/xapi/statements?format=ids&statementId="+xid1, "", cred))
		if strings.Contains(res.body, `"display"`) {
			t.Errorf("ids format keeps the verb's display: %s", res.body)
		}
	})
}

func TestXAPIPersonReadsOwnStatementsOnly(t *testing.T) {
	s := MustOpenServer(t)
	// Ann's statements are Journeyman's own records of her sessions; a
	// credential-written statement names no Journeyman learner.
	cred := xapiCredential(t, s, "Org A", true, true)
	mustAccount(t, s, "Ann", "Org A", identity.Learner)
	mustAccount(t, s, "Ian", "Org A", identity.Instructor)
	if res := do(t, s, xapiRequest("POST", "/xapi/statements", testStatement("", "tool@example.com", xverb), cred)); res.status != 200 {
		t.Fatal(res.body)
	}
	count := func(name string) int {
		res := do(t, s, as(t, s, xapiRequest("GET", "/xapi/statements", "", [2]string{}), name))
		var result struct{ Statements []json.RawMessage }
		if err := json.Unmarshal([]byte(res.body), &result); err != nil {
			t.Fatalf("%s: %s", name, res.body)
		}
		return len(result.Statements)
	}
	if n := count("Ann"); n != 0 {
		t.Errorf("the learner reads %d statements not about her", n)
	}
	if n := count("Ian"); n != 1 {
		t.Errorf("the instructor reads %d of the organisation's statements, want 1", n)
	}
}

func TestXAPIAttachments(t *testing.T) {
	s := MustOpenServer(t)
	cred := xapiCredential(t, s, "Org A", true, true)
	const content = "here is a simple attachment"
	const sha = "495395e777cd98da653df9615d09c0fd6bb2f8d4788394cd53c56a3bfdcd848a"
	st := fmt.Sprintf(`{"id":%q,"actor":{"mbox":"mailto:ann@example.com"},"verb":{"id":%q},"object":{"id":"http://example.com/a"},
		"attachments":[{"usageType":"http://example.com/usage","display":{"en-US":"notes"},"contentType":"text/plain","length":%d,"sha2":%q}]}`,
		xid1, xverb, len(content), sha)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	h := textproto.MIMEHeader{}
	h.Set("Content-Type", "application/json")
	pw, _ := mw.CreatePart(h)
	_, _ = io.WriteString(pw, st)
	h = textproto.MIMEHeader{}
	h.Set("Content-Type", "text/plain")
	h.Set("Content-Transfer-Encoding", "binary")
	h.Set("X-Experience-API-Hash", sha)
	pw, _ = mw.CreatePart(h)
	_, _ = io.WriteString(pw, content)
	_ = mw.Close()
	req := xapiRequest("POST", "/xapi/statements", body.String(), cred)
	req.Header.Set("Content-Type", "multipart/mixed; boundary="+mw.Boundary())
	if res := do(t, s, req); res.status != 200 {
		t.Fatalf("status %d: %s", res.status, res.body)
	}

	res := do(t, s, xapiRequest("GET", "/xapi/statements?attachments=true&statementId="+xid1, "", cred))
	mt, params, err := mime.ParseMediaType(res.header.Get("Content-Type"))
	if err != nil || mt != "multipart/mixed" {
		t.Fatalf("content type %q", res.header.Get("Content-Type"))
	}
	mr := multipart.NewReader(strings.NewReader(res.body), params["boundary"])
	var parts []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(p)
		parts = append(parts, string(b))
	}
	if len(parts) != 2 || parts[1] != content || !strings.Contains(parts[0], xid1) {
		t.Errorf("parts %q", parts)
	}

	t.Run("ErrMissingPart", func(t *testing.T) {
		st2 := strings.Replace(st, xid1, xid2, 1)
		if res := do(t, s, xapiRequest("POST", "/xapi/statements", st2, cred)); res.status != 400 {
			t.Errorf("status %d: %s", res.status, res.body)
		}
	})
}

func TestXAPICrossOrigin(t *testing.T) {
	s := MustOpenServer(t)
	cred := xapiCredential(t, s, "Org A", true, true)
	pre := httptest.NewRequest("OPTIONS", "/xapi/statements", nil)
	pre.Header.Set("Origin", "https://content.example")
	pre.Header.Set("Access-Control-Request-Method", "POST")
	res := do(t, s, pre)
	if res.status != 204 || res.header.Get("Access-Control-Allow-Origin") != "https://content.example" ||
		!strings.Contains(res.header.Get("Access-Control-Allow-Headers"), "X-Experience-API-Version") {
		t.Fatalf("preflight %d %v", res.status, res.header)
	}
	// A cross-origin POST with a credential is no forgery: it is let through.
	req := xapiRequest("POST", "/xapi/statements", testStatement("", "ann@example.com", xverb), cred)
	req.Header.Set("Origin", "https://content.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	res = do(t, s, req)
	if res.status != 200 || res.header.Get("Access-Control-Allow-Origin") != "https://content.example" {
		t.Fatalf("status %d %v: %s", res.status, res.header, res.body)
	}
	if res.header.Get("Access-Control-Allow-Credentials") != "" {
		t.Error("credentialed CORS would send the site's cookies cross-origin")
	}
}
