package server

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"journeyman/internal/cmi5"
	"journeyman/internal/identity"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

const cmi5TestXML = `<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="https://example.com/course/weld">
    <title><langstring lang="en-US">Welding theory</langstring></title>
    <description><langstring lang="en-US">Joints and their symbols</langstring></description>
  </course>
  <au id="https://example.com/au/weld-1" moveOn="CompletedAndPassed" masteryScore="0.7" launchMethod="OwnWindow">
    <title><langstring lang="en-US">Joints</langstring></title>
    <description><langstring lang="en-US">Butt, lap and tee</langstring></description>
    <url>lesson/index.html?lang=en</url>
    <launchParameters>mode=quiz</launchParameters>
  </au>
</courseStructure>`

func cmi5TestZip(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range map[string]string{"cmi5.xml": cmi5TestXML, "lesson/index.html": "<!doctype html><p>Joints</p>", "lesson/app.js": "1;"} {
		w, _ := zw.Create(name)
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func cmi5Request(t *testing.T, s *Server, user, method, path, contentType string, body []byte) response {
	t.Helper()
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return do(t, s, as(t, s, req, user))
}

// lrs calls the LRS with a cmi5 session's auth-token.
func lrs(t *testing.T, s *Server, token, method, target, body string) response {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("Authorization", "Basic "+token)
	req.Header.Set("X-Experience-API-Version", "1.0.3")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return do(t, s, req)
}

func TestCmi5API(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s := MustOpenXRServer(t, st)
		mustAccount(t, s, "Cora", "Cmi5 Org", identity.Instructor)
		lars := mustAccount(t, s, "Lars", "Cmi5 Org", identity.Learner)
		mustAccount(t, s, "Olga", "Other Cmi5 Org", identity.Instructor)

		t.Run("ImportErrInvalid", func(t *testing.T) {
			for _, tc := range []struct{ name, ct, body, want string }{
				{"JSON", "application/json", `{}`, "send a cmi5.xml as application/xml"},
				{"BadXML", "application/xml", `<courseStructure><course/></courseStructure>`, "course: the id attribute is required"},
				{"RelativeBare", "application/xml", cmi5TestXML, "is relative"},
				{"NotZip", "application/zip", "PK nonsense", "not a zip file"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					checkError(t, cmi5Request(t, s, "Cora", "POST", "/api/cmi5/courses", tc.ct, []byte(tc.body)), 400, tc.want)
				})
			}
		})

		res := cmi5Request(t, s, "Cora", "POST", "/api/cmi5/courses", "application/zip", cmi5TestZip(t))
		if res.status != 201 {
			t.Fatalf("import: %d %s", res.status, res.body)
		}
		course := decode[store.Cmi5Course](t, res)
		if course.Title != "Welding theory" || !course.HasContent || len(course.AUs) != 1 || course.AUs[0].LaunchMethod != "OwnWindow" {
			t.Fatalf("course = %+v", course)
		}
		auID := course.AUs[0].ID

		t.Run("ImportBare", func(t *testing.T) {
			bare := strings.Replace(cmi5TestXML, "lesson/index.html?lang=en", "https://cdn.example.com/weld/index.html", 1)
			res := cmi5Request(t, s, "Cora", "POST", "/api/cmi5/courses", "application/xml", []byte(bare))
			if res.status != 201 || decode[store.Cmi5Course](t, res).HasContent {
				t.Fatalf("bare import: %d %s", res.status, res.body)
			}
		})
		t.Run("List", func(t *testing.T) {
			list := decode[cmi5CoursesResponse](t, call(t, s, "Lars", "GET", "/api/cmi5/courses", ""))
			found := false
			for _, c := range list.Courses {
				found = found || c.ID == course.ID && len(c.AUs) == 1 && c.AUs[0].ID == auID
			}
			if len(list.Courses) != 2 || !found {
				t.Fatalf("Lars lists %+v", list)
			}
			if other := decode[cmi5CoursesResponse](t, call(t, s, "Olga", "GET", "/api/cmi5/courses", "")); len(other.Courses) != 0 {
				t.Fatalf("another organisation lists %+v", other)
			}
		})
		t.Run("Content", func(t *testing.T) {
			res := call(t, s, "", "GET", "/cmi5/content/"+course.ID+"/lesson/index.html", "")
			if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), "text/html") || res.body != "<!doctype html><p>Joints</p>" {
				t.Fatalf("content: %d %v %s", res.status, res.header, res.body)
			}
			if csp := res.header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox allow-scripts") || strings.Contains(csp, "allow-same-origin") {
				t.Fatalf("a package's page runs with CSP %q: it must be sandboxed away from the site's origin", csp)
			}
			for _, p := range []string{"/cmi5/content/" + course.ID + "/lesson/missing.js", "/cmi5/content/" + course.ID + "/lesson/%2e%2e/cmi5.xml",
				"/cmi5/content/nope/lesson/index.html"} {
				if res := call(t, s, "", "GET", p, ""); res.status != 404 {
					t.Errorf("GET %s: %d", p, res.status)
				}
			}
		})
		t.Run("AppPage", func(t *testing.T) {
			// The catalog page is the app's, beside the /cmi5/ resources.
			if res := call(t, s, "Lars", "GET", "/cmi5", ""); res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), "text/html") {
				t.Fatalf("GET /cmi5: %d %v", res.status, res.header)
			}
		})
		t.Run("LaunchOtherOrg", func(t *testing.T) {
			checkError(t, call(t, s, "Olga", "POST", "/api/cmi5/aus/"+auID+"/launch", ""), 404, "does not exist")
		})

		res = call(t, s, "Lars", "POST", "/api/cmi5/aus/"+auID+"/launch", "")
		if res.status != 200 {
			t.Fatalf("launch: %d %s", res.status, res.body)
		}
		launched := decode[cmi5LaunchResponse](t, res)
		u, err := url.Parse(launched.URL)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		t.Run("LaunchURL", func(t *testing.T) {
			var actor struct {
				Account struct{ HomePage, Name string }
			}
			mustUnmarshal(t, []byte(q.Get("actor")), &actor)
			if u.Path != "/cmi5/content/"+course.ID+"/lesson/index.html" || q.Get("lang") != "en" || q.Get("endpoint") != s.publicURL+"/xapi/" ||
				!strings.HasPrefix(q.Get("fetch"), s.publicURL+"/cmi5/fetch/") || q.Get("registration") != launched.Registration ||
				q.Get("activityId") != store.Cmi5ActivityID(s.publicURL, auID) || actor.Account.Name != lars.ID || launched.LaunchMethod != "OwnWindow" {
				t.Fatalf("launch URL %s (%+v)", launched.URL, launched)
			}
		})
		fetchPath := strings.TrimPrefix(q.Get("fetch"), s.publicURL)
		var token string
		t.Run("Fetch", func(t *testing.T) {
			req := httptest.NewRequest("POST", fetchPath, nil)
			req.Header.Set("Origin", "null") // a sandboxed page's
			res := do(t, s, req)
			var got map[string]string
			mustUnmarshal(t, []byte(res.body), &got)
			if res.status != 200 || got["auth-token"] == "" || res.header.Get("Access-Control-Allow-Origin") != "null" {
				t.Fatalf("fetch: %d %v %s", res.status, res.header, res.body)
			}
			token = got["auth-token"]
			if raw, _ := base64.StdEncoding.DecodeString(token); !strings.HasPrefix(string(raw), "cmi5-") {
				t.Fatalf("auth-token %q is not base64 of a session key and secret", token)
			}
			for _, tc := range []struct{ path, code string }{{fetchPath, "1"}, {"/cmi5/fetch/nonsense", "2"}} {
				res := do(t, s, httptest.NewRequest("POST", tc.path, nil))
				mustUnmarshal(t, []byte(res.body), &got)
				if res.status != 200 || got["error-code"] != tc.code || got["error-text"] == "" {
					t.Fatalf("fetch %s: %d %s; want error-code %s", tc.path, res.status, res.body, tc.code)
				}
			}
		})
		if token == "" {
			t.FailNow()
		}
		activity := q.Get("activityId")
		state := func(reg, stateID string) string {
			return "/xapi/activities/state?" + url.Values{"activityId": {activity}, "agent": {q.Get("actor")}, "registration": {reg}, "stateId": {stateID}}.Encode()
		}
		t.Run("LaunchData", func(t *testing.T) {
			res := lrs(t, s, token, "GET", state(launched.Registration, "LMS.LaunchData"), "")
			var ld struct{ LaunchMode, MoveOn, LaunchParameters string }
			mustUnmarshal(t, []byte(res.body), &ld)
			if res.status != 200 || ld.LaunchMode != "Normal" || ld.MoveOn != "CompletedAndPassed" || ld.LaunchParameters != "mode=quiz" {
				t.Fatalf("LMS.LaunchData: %d %s", res.status, res.body)
			}
		})
		t.Run("SessionLimits", func(t *testing.T) {
			for _, tc := range []struct{ name, method, target, body, want string }{
				{"ChangeLaunchData", "PUT", state(launched.Registration, "LMS.LaunchData"), `{}`, "must not change LMS.LaunchData"},
				{"OtherRegistration", "GET", state("4b6c4c1f-2a9e-4e0c-9b3e-1d2f3a4b5c6d", "x"), "", "its registration"},
				{"OtherActivityProfile", "PUT", "/xapi/activities/profile?" + url.Values{"activityId": {"https://example.com/x"}, "profileId": {"p"}}.Encode(), `{}`, "activity profiles of its AU"},
				{"AgentProfile", "PUT", "/xapi/agents/profile?" + url.Values{"agent": {q.Get("actor")}, "profileId": {"cmi5LearnerPreferences"}}.Encode(), `{}`, "statements, state"},
				{"LMSVerb", "POST", "/xapi/statements", `{"actor":` + q.Get("actor") + `,"verb":{"id":"` + cmi5.VerbSatisfied + `"},"object":{"id":"https://example.com/course/weld"},"context":{"registration":"` + launched.Registration + `"}}`, "the LMS's to state"},
				{"Voiding", "POST", "/xapi/statements", `{"actor":` + q.Get("actor") + `,"verb":{"id":"http://adlnet.gov/expapi/verbs/voided"},"object":{"objectType":"StatementRef","id":"4b6c4c1f-2a9e-4e0c-9b3e-1d2f3a4b5c6d"},"context":{"registration":"` + launched.Registration + `"}}`, "cannot void"},
				{"OtherActor", "POST", "/xapi/statements", `{"actor":{"mbox":"mailto:someone@example.com"},"verb":{"id":"http://adlnet.gov/expapi/verbs/experienced"},"object":{"id":"https://example.com/x"},"context":{"registration":"` + launched.Registration + `"}}`, "statements[0].actor"},
				{"StatementOutside", "POST", "/xapi/statements", `{"actor":` + q.Get("actor") + `,"verb":{"id":"http://adlnet.gov/expapi/verbs/experienced"},"object":{"id":"https://example.com/x"}}`, "context.registration"},
			} {
				t.Run(tc.name, func(t *testing.T) { checkError(t, lrs(t, s, token, tc.method, tc.target, tc.body), 403, tc.want) })
			}
			if res := lrs(t, s, token, "PUT", state(launched.Registration, "bookmark"), `{"page":2}`); res.status != 204 {
				t.Fatalf("the AU's own state: %d %s", res.status, res.body)
			}
			if res := lrs(t, s, token, "PUT", "/xapi/activities/profile?"+url.Values{"activityId": {activity}, "profileId": {"p"}}.Encode(), `{}`); res.status != 204 {
				t.Fatalf("the AU's own activity profile: %d %s", res.status, res.body)
			}
			if res := lrs(t, s, token, "GET", "/xapi/agents/profile?"+url.Values{"agent": {q.Get("actor")}, "profileId": {"cmi5LearnerPreferences"}}.Encode(), ""); res.status != 404 {
				t.Fatalf("the learner's preferences, never written: %d %s", res.status, res.body)
			}
		})
		t.Run("Statements", func(t *testing.T) {
			stmt := func(verb string, result string) string {
				return `{"actor":` + q.Get("actor") + `,"verb":{"id":"` + verb + `"},"object":{"id":"` + activity + `"},` + result +
					`"context":{"registration":"` + launched.Registration + `"}}`
			}
			batch := "[" + stmt(cmi5.VerbInitialized, "") + "," + stmt(cmi5.VerbCompleted, `"result":{"completion":true},`) + "]"
			if res := lrs(t, s, token, "POST", "/xapi/statements", batch); res.status != 200 {
				t.Fatalf("initialized, completed: %d %s", res.status, res.body)
			}
			if n := countVerb(t, s, launched.Registration, cmi5.VerbSatisfied); n != 0 {
				t.Fatalf("%d satisfied before passed", n)
			}
			batch = "[" + stmt(cmi5.VerbPassed, `"result":{"success":true,"score":{"scaled":0.9}},`) + "," + stmt(cmi5.VerbTerminated, "") + "]"
			if res := lrs(t, s, token, "POST", "/xapi/statements", batch); res.status != 200 {
				t.Fatalf("passed, terminated: %d %s", res.status, res.body)
			}
			if n := countVerb(t, s, launched.Registration, cmi5.VerbSatisfied); n != 1 {
				t.Fatalf("%d satisfied statements for the course; want 1", n)
			}
			// The learner reads the AU's statements with their sign-in.
			req := httptest.NewRequest("GET", "/xapi/statements?registration="+launched.Registration, nil)
			req.Header.Set("X-Experience-API-Version", "1.0.3")
			res := do(t, s, as(t, s, req, "Lars"))
			var page struct{ Statements []json.RawMessage }
			mustUnmarshal(t, []byte(res.body), &page)
			// launched, initialized, completed, passed, terminated, satisfied
			if res.status != 200 || len(page.Statements) != 6 {
				t.Fatalf("Lars reads %d statements of the registration: %d %s", len(page.Statements), res.status, res.body)
			}
		})
		t.Run("Delete", func(t *testing.T) {
			checkError(t, call(t, s, "Olga", "DELETE", "/api/cmi5/courses/"+course.ID, ""), 404, "does not exist")
			if res := call(t, s, "Cora", "DELETE", "/api/cmi5/courses/"+course.ID, ""); res.status != 204 {
				t.Fatalf("delete: %d %s", res.status, res.body)
			}
			if res := call(t, s, "", "GET", "/cmi5/content/"+course.ID+"/lesson/index.html", ""); res.status != 404 {
				t.Fatalf("a deleted course's file: %d", res.status)
			}
		})
	})
}

func countVerb(t *testing.T, s *Server, registration, verb string) int {
	t.Helper()
	var n int
	err := s.store.DB().QueryRow(`SELECT COUNT(*) FROM xapi_statements WHERE registration = $1 AND verb_id = $2`, registration, verb).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestCmi5LaunchURL(t *testing.T) {
	p := url.Values{"a": {"1 2"}}
	for _, tc := range []struct{ in, want string }{
		{"https://x.org/au.html", "https://x.org/au.html?a=1+2"},
		{"https://x.org/au.html?v=1", "https://x.org/au.html?v=1&a=1+2"},
		{"https://x.org/au.html?v=1#start", "https://x.org/au.html?v=1&a=1+2#start"},
	} {
		if got := cmi5LaunchURL(tc.in, p); got != tc.want {
			t.Errorf("cmi5LaunchURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}
