package xapi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"journeyman/internal/apperr"
)

var fixedStored = time.Date(2026, 11, 24, 9, 20, 0, 123456789, time.UTC)

const credAuthority = `{"objectType":"Agent","account":{"homePage":"https://journeyman.example","name":"cred-1"}}`

func completeOne(t *testing.T, body string, v Version) (Statement, map[string]any) {
	t.Helper()
	ins, err := Decode([]byte(body), v)
	if err != nil {
		t.Fatal(err)
	}
	st, err := ins[0].Complete(fixedStored, json.RawMessage(credAuthority), v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(st.Body, &m); err != nil {
		t.Fatalf("body is not JSON: %v", err)
	}
	return st, m
}

func TestCompleteDefaults(t *testing.T) {
	body := with(t, "id", "-")
	body = with2(t, body, "timestamp", "-")
	body = with2(t, body, "authority", `{"mbox": "mailto:claimed@example.com"}`)
	for _, c := range []struct {
		v       Version
		version string
	}{{V103, "1.0.0"}, {V200, "2.0.0"}} {
		t.Run(string(c.v), func(t *testing.T) {
			st, m := completeOne(t, body, c.v)
			if !isUUID(st.ID) || st.ID != strings.ToLower(st.ID) || m["id"] != st.ID {
				t.Errorf("id %q (body %v) is not a lower-case UUID", st.ID, m["id"])
			}
			if m["stored"] != "2026-11-24T09:20:00.123Z" || m["timestamp"] != m["stored"] {
				t.Errorf("stored %v, timestamp %v; want both 2026-11-24T09:20:00.123Z", m["stored"], m["timestamp"])
			}
			if m["version"] != c.version {
				t.Errorf("version %v, want %s", m["version"], c.version)
			}
			var cred any
			_ = jsonUnmarshal(credAuthority, &cred)
			if got := jsonMarshal(m["authority"]); got != jsonMarshal(cred) {
				t.Errorf("authority %s, want the credential's %s", got, credAuthority)
			}
			obj := m["object"].(map[string]any)
			if obj["objectType"] != "Activity" {
				t.Errorf("object.objectType %v, want the default Activity filled in", obj["objectType"])
			}
		})
	}
}

func TestCompleteKeepsClientValues(t *testing.T) {
	body := with(t, "version", `"1.0.3"`)
	body = with2(t, body, "id", `"FD41C918-B88B-4B20-A0A5-A4C32391AAA0"`)
	st, m := completeOne(t, body, V103)
	if m["version"] != "1.0.3" || m["timestamp"] != "2026-11-24T10:15:00.123+01:00" || m["id"] != "FD41C918-B88B-4B20-A0A5-A4C32391AAA0" {
		t.Errorf("version %v, timestamp %v, id %v: the client's values must stay", m["version"], m["timestamp"], m["id"])
	}
	if st.ID != "fd41c918-b88b-4b20-a0a5-a4c32391aaa0" {
		t.Errorf("ID %q, want the lower-case key", st.ID)
	}
}

func TestCompleteTwiceIsStable(t *testing.T) {
	ins, err := Decode([]byte(typical), V200)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := ins[0].Complete(fixedStored, json.RawMessage(credAuthority), V200)
	b, _ := ins[0].Complete(fixedStored, json.RawMessage(credAuthority), V200)
	if string(a.Body) != string(b.Body) {
		t.Errorf("second Complete differs:\n%s\n%s", a.Body, b.Body)
	}
}

func TestCompleteIndexes(t *testing.T) {
	t.Run("GroupActorAndSubStatement", func(t *testing.T) {
		body := with2(t, with(t, "context.platform", "-"), "actor", `{"objectType": "Group", "mbox": "mailto:team@example.com", "member": [{"mbox": "mailto:m1@example.com"}]}`)
		body = with2(t, body, "object", `{"objectType": "SubStatement", "actor": {"openid": "http://openid.example.org/s"},
			"verb": {"id": "http://adlnet.gov/expapi/verbs/mentored"}, "object": {"id": "http://example.com/sub-activity", "definition": {"name": {"en": "Sub"}}},
			"context": {"instructor": {"mbox": "mailto:inst@example.com"}, "contextActivities": {"category": {"id": "http://example.com/cat"}}}}`)
		body = with2(t, body, "context.team", `{"objectType": "Group", "account": {"homePage": "https://teams.example", "name": "blue"}}`)
		st, _ := completeOne(t, body, V103)
		wantAgents := []Ref{
			{"mbox:mailto:team@example.com", true},
			{"mbox:mailto:m1@example.com", false},
			{"openid:http://openid.example.org/s", false},
			{"mbox:mailto:inst@example.com", false},
			{"account:https://teams.example|blue", false},
			{"account:https://journeyman.example|cred-1", false},
		}
		if !equalRefs(st.Agents, wantAgents) {
			t.Errorf("agents\n got %v\nwant %v", st.Agents, wantAgents)
		}
		wantActs := []Ref{
			{"http://example.com/sub-activity", false},
			{"http://example.com/cat", false},
			{"https://journeyman.example/xapi/activities/welding", false},
		}
		if !equalRefs(st.Activities, wantActs) {
			t.Errorf("activities\n got %v\nwant %v", st.Activities, wantActs)
		}
		if _, ok := st.ActivityDefs["http://example.com/sub-activity"]; !ok {
			t.Errorf("the sub-statement activity's definition is missing: %v", st.ActivityDefs)
		}
	})
	t.Run("ObjectAgentIsDirect", func(t *testing.T) {
		body := with2(t, with(t, "context.platform", "-"), "object", `{"objectType": "Agent", "mbox": "mailto:Bob@EXAMPLE.com"}`)
		st, _ := completeOne(t, body, V200)
		if len(st.Agents) < 2 || st.Agents[1] != (Ref{"mbox:mailto:Bob@example.com", true}) {
			t.Errorf("agents %v: the object agent must be direct, its domain lower-cased", st.Agents)
		}
	})
	t.Run("SameAgentTwiceOnce", func(t *testing.T) {
		body := with(t, "context.instructor", `{"mbox": "mailto:ada@example.com"}`)
		st, _ := completeOne(t, body, V200)
		n := 0
		for _, r := range st.Agents {
			if r.Key == "mbox:mailto:ada@example.com" {
				n++
				if !r.Direct {
					t.Errorf("the actor lost its direct mark to the instructor entry")
				}
			}
		}
		if n != 1 {
			t.Errorf("agent listed %d times, want once (the store's key is unique)", n)
		}
	})
	t.Run("Voiding", func(t *testing.T) {
		body := with2(t, with(t, "context.platform", "-"), "object", `{"objectType": "StatementRef", "id": "E05AA883-ACAF-40AD-BF54-02C8CE485FB0"}`)
		body = with2(t, body, "verb", `{"id": "`+VoidedVerb+`"}`)
		st, _ := completeOne(t, body, V103)
		if st.Voids != "e05aa883-acaf-40ad-bf54-02c8ce485fb0" || st.TargetID != st.Voids || st.VerbID != VoidedVerb {
			t.Errorf("voids %q target %q verb %q", st.Voids, st.TargetID, st.VerbID)
		}
	})
	t.Run("StatementRefNotVoiding", func(t *testing.T) {
		body := with2(t, with(t, "context.platform", "-"), "object", `{"objectType": "StatementRef", "id": "e05aa883-acaf-40ad-bf54-02c8ce485fb0"}`)
		st, _ := completeOne(t, body, V103)
		if st.Voids != "" || st.TargetID != "e05aa883-acaf-40ad-bf54-02c8ce485fb0" {
			t.Errorf("voids %q target %q", st.Voids, st.TargetID)
		}
	})
	t.Run("Attachments", func(t *testing.T) {
		st, _ := completeOne(t, with(t, "attachments", "["+validAttachment+"]"), V103)
		want := Attachment{UsageType: "http://example.com/attachment-usage/test", ContentType: "text/plain; charset=ascii", Length: 27,
			SHA2: "495395e777cd98da653df9615d09c0fd6bb2f8d4788394cd53c56a3bfdcd848a", FileURL: "http://over.there.com/file.txt"}
		if len(st.Attachments) != 1 || st.Attachments[0] != want {
			t.Errorf("attachments %+v, want %+v", st.Attachments, want)
		}
	})
}

func TestAgentKey(t *testing.T) {
	for _, c := range []struct{ agent, want string }{
		{`{"mbox": "mailto:Ada@Example.COM"}`, "mbox:mailto:Ada@example.com"},
		{`{"mbox_sha1sum": "CD9B00A5611F94EAA7B1661EDAB976068E364975"}`, "mbox_sha1sum:cd9b00a5611f94eaa7b1661edab976068e364975"},
		{`{"openid": "http://openid.example.org/12345"}`, "openid:http://openid.example.org/12345"},
		{`{"account": {"homePage": "http://www.example.com", "name": "xAPI account name"}}`, "account:http://www.example.com|xAPI account name"},
		{`{"objectType": "Group", "mbox": "mailto:team@example.com", "member": [{"mbox": "mailto:a@b.c"}]}`, "mbox:mailto:team@example.com"},
	} {
		got, err := AgentKey(json.RawMessage(c.agent))
		if err != nil || got != c.want {
			t.Errorf("AgentKey(%s) = %q, %v; want %q", c.agent, got, err, c.want)
		}
	}
	if _, err := AgentKey(json.RawMessage(`{"objectType": "Group", "member": [{"mbox": "mailto:a@b.c"}]}`)); apperr.Code(err) != apperr.EINVALID {
		t.Errorf("anonymous group: %v, want EINVALID", err)
	}
}

func TestParseAgentParam(t *testing.T) {
	for _, c := range []struct {
		param string
		v     Version
		want  string // "" for an error
	}{
		{`{"mbox": "mailto:ada@example.com"}`, V103, "mbox:mailto:ada@example.com"},
		{`{"objectType": "Agent", "account": {"homePage": "http://x.example", "name": "a"}}`, V200, "account:http://x.example|a"},
		{`{"objectType": "Group", "openid": "http://openid.example.org/g"}`, V103, "openid:http://openid.example.org/g"},
		{`wrong`, V103, ""},
		{`{"mbox": "ada@example.com"}`, V103, ""},
		{`{"mbox": "mailto:ada@example.com", "openid": "http://openid.example.org/1"}`, V200, ""},
		{`{"objectType": "Group", "member": [{"mbox": "mailto:a@b.c"}]}`, V200, ""},
		{`{"name": "no ifi"}`, V200, ""},
	} {
		got, err := ParseAgentParam(c.param, c.v)
		if c.want == "" {
			if apperr.Code(err) != apperr.EINVALID {
				t.Errorf("ParseAgentParam(%s) = %q, %v; want EINVALID", c.param, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseAgentParam(%s) = %q, %v; want %q", c.param, got, err, c.want)
		}
	}
}

func TestPerson(t *testing.T) {
	got, err := Person(json.RawMessage(`{"objectType": "Agent", "name": "Ada", "mbox": "mailto:ada@example.com"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"objectType":"Person","name":["Ada"],"mbox":["mailto:ada@example.com"]}`
	if string(got) != want {
		t.Errorf("Person = %s, want %s", got, want)
	}
	got, err = Person(json.RawMessage(`{"account": {"homePage": "http://x.example", "name": "a"}}`))
	if err != nil || string(got) != `{"objectType":"Person","account":[{"homePage":"http://x.example","name":"a"}]}` {
		t.Errorf("Person(account) = %s, %v", got, err)
	}
}
