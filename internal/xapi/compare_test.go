package xapi

import (
	"encoding/json"
	"testing"

	"journeyman/internal/apperr"
)

func TestEquivalent(t *testing.T) {
	base := typical
	groupActor := with(t, "actor", `{"objectType": "Group", "mbox": "mailto:t@example.com", "member": [{"mbox": "mailto:a@example.com"}, {"mbox": "mailto:b@example.com"}]}`)
	cases := []struct {
		name string
		a, b string
		want bool
	}{
		{"Same", base, base, true},
		{"PropertyOrder", `{"actor":{"mbox":"mailto:a@b.c"},"verb":{"id":"http://v.example/x"},"object":{"id":"http://a.example/1"}}`,
			`{"object":{"id":"http://a.example/1"},"verb":{"id":"http://v.example/x"},"actor":{"mbox":"mailto:a@b.c"}}`, true},
		{"AuthorityIgnored", base, with(t, "authority", `{"mbox": "mailto:other@example.com"}`), true},
		{"StoredIgnored", with(t, "stored", `"2026-01-01T00:00:00Z"`), with(t, "stored", `"2026-02-01T00:00:00Z"`), true},
		{"VersionIgnored", with(t, "version", `"1.0.0"`), with(t, "version", `"1.0.3"`), true},
		{"AttachmentsIgnored", base, with(t, "attachments", "["+validAttachment+"]"), true},
		{"IDMissingOnOneSide", base, with(t, "id", "-"), true},
		{"IDCase", base, with(t, "id", `"FD41C918-B88B-4B20-A0A5-A4C32391AAA0"`), true},
		{"IDDiffers", base, with(t, "id", `"e05aa883-acaf-40ad-bf54-02c8ce485fb0"`), false},
		{"TimestampSameInstant", base, with(t, "timestamp", `"2026-11-24T09:15:00.123Z"`), true},
		{"TimestampOtherInstant", base, with(t, "timestamp", `"2026-11-24T10:15:00.123Z"`), false},
		{"TimestampMissingOnOneSide", base, with(t, "timestamp", "-"), true},
		{"VerbDisplayIgnored", base, with(t, "verb.display", `{"fr": "terminé"}`), true},
		{"VerbDiffers", base, with(t, "verb.id", `"http://adlnet.gov/expapi/verbs/failed"`), false},
		{"ActivityDefinitionIgnored", base, with(t, "object.definition", `{"name": {"en-US": "Other"}}`), true},
		{"ActivityDiffers", base, with(t, "object.id", `"https://journeyman.example/xapi/activities/other"`), false},
		{"ObjectTypeDefault", base, with(t, "object.objectType", "-"), true},
		{"GroupMemberOrder", groupActor, with(t, "actor", `{"objectType": "Group", "mbox": "mailto:t@example.com", "member": [{"mbox": "mailto:b@example.com"}, {"mbox": "mailto:a@example.com"}]}`), true},
		{"GroupMemberDiffers", groupActor, with(t, "actor", `{"objectType": "Group", "mbox": "mailto:t@example.com", "member": [{"mbox": "mailto:c@example.com"}, {"mbox": "mailto:a@example.com"}]}`), false},
		{"MboxDomainCase", base, with(t, "actor.mbox", `"mailto:ada@EXAMPLE.com"`), true},
		{"MboxLocalPartCase", base, with(t, "actor.mbox", `"mailto:ADA@example.com"`), false},
		{"ActorNameDiffers", base, with(t, "actor.name", `"Ada King"`), false},
		{"RegistrationCase", base, with(t, "context.registration", `"EC531277-B57B-4C15-8D91-D292C5B2B8F7"`), true},
		{"ContextActivitySingleOrArray", base, with(t, "context.contextActivities.parent", `[{"id": "https://journeyman.example/xapi/activities/welding"}]`), true},
		{"DurationIsAString", base, with(t, "result.duration", `"PT750.5S"`), false},
		{"NumberSpelling", base, with(t, "result.score.raw", `85.0`), true},
		{"ScoreDiffers", base, with(t, "result.score.raw", `86`), false},
		{"ExtensionDiffers", base, with(t, "context.extensions", `{"https://journeyman.example/xapi/ext/headset": "quest-2"}`), false},
		{"ResultMissing", base, with(t, "result", "-"), false},
		{"NotJSON", base, `{`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Equivalent(json.RawMessage(c.a), json.RawMessage(c.b)); got != c.want {
				t.Errorf("Equivalent = %v, want %v", got, c.want)
			}
			if got := Equivalent(json.RawMessage(c.b), json.RawMessage(c.a)); got != c.want {
				t.Errorf("Equivalent reversed = %v, want %v", got, c.want)
			}
		})
	}
}

// A completed statement is equivalent to what the client sent: the second
// POST of the same statement must not be a conflict.
func TestEquivalentAfterComplete(t *testing.T) {
	for _, v := range []Version{V103, V200} {
		st, _ := completeOne(t, with(t, "object.objectType", "-"), v)
		if !Equivalent(st.Body, json.RawMessage(with(t, "object.objectType", "-"))) {
			t.Errorf("%s: the completed statement is not equivalent to the one sent", v)
		}
	}
}

func TestFormat(t *testing.T) {
	body := with2(t, with(t, "context.platform", "-"), "object", `{"objectType": "SubStatement",
		"actor": {"objectType": "Group", "name": "anon", "member": [{"name": "A", "mbox": "mailto:a@example.com"}]},
		"verb": {"id": "http://adlnet.gov/expapi/verbs/mentored", "display": {"en-US": "mentored", "de": "betreute"}},
		"object": {"id": "http://example.com/sub", "definition": {"name": {"en-GB": "Sub", "fr": "Sous"}}}}`)
	body = with2(t, body, "context.instructor", `{"name": "Inst", "account": {"homePage": "http://x.example", "name": "i"}}`)
	body = with2(t, body, "context.team", `{"objectType": "Group", "name": "Blue", "mbox": "mailto:blue@example.com", "member": [{"mbox": "mailto:m@example.com"}]}`)
	body = with2(t, body, "verb.display", `{"en-US": "completed", "de": "abgeschlossen", "fr-CA": "terminé"}`)
	body = with2(t, body, "attachments", "["+with2(t, validAttachment, "display", `{"en-US": "A test attachment", "de": "Ein Anhang"}`)+"]")
	st, _ := completeOne(t, body, V103)
	body = string(st.Body)

	t.Run("Exact", func(t *testing.T) {
		got, err := Format(json.RawMessage(body), "exact", nil)
		if err != nil || string(got) != body {
			t.Errorf("exact changed the body: %s, %v", got, err)
		}
	})
	t.Run("IDs", func(t *testing.T) {
		got, err := Format(json.RawMessage(body), "ids", nil)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		_ = json.Unmarshal(got, &m)
		checks := map[string]string{
			"actor":                     `{"mbox":"mailto:ada@example.com","objectType":"Agent"}`,
			"verb":                      `{"id":"http://adlnet.gov/expapi/verbs/completed"}`,
			"object.actor":              `{"member":[{"mbox":"mailto:a@example.com","objectType":"Agent"}],"objectType":"Group"}`,
			"object.verb":               `{"id":"http://adlnet.gov/expapi/verbs/mentored"}`,
			"object.object":             `{"id":"http://example.com/sub"}`,
			"context.instructor":        `{"account":{"homePage":"http://x.example","name":"i"},"objectType":"Agent"}`,
			"context.team":              `{"mbox":"mailto:blue@example.com","objectType":"Group"}`,
			"context.contextActivities": `{"parent":[{"id":"https://journeyman.example/xapi/activities/welding"}]}`,
			"context.registration":      `"ec531277-b57b-4c15-8d91-d292c5b2b8f7"`,
			"result.score":              `{"max":100,"min":0,"raw":85,"scaled":0.85}`,
		}
		for path, want := range checks {
			if got := jsonMarshal(dig(m, path)); got != want {
				t.Errorf("%s = %s, want %s", path, got, want)
			}
		}
	})
	t.Run("Canonical", func(t *testing.T) {
		for _, c := range []struct {
			accept  []string
			display string
			subName string
		}{
			{[]string{"de"}, `{"de":"abgeschlossen"}`, `{"en-GB":"Sub"}`},
			{[]string{"fr-FR", "en"}, `{"fr-CA":"terminé"}`, `{"fr":"Sous"}`},
			{[]string{"en-GB"}, `{"en-US":"completed"}`, `{"en-GB":"Sub"}`},
			{[]string{"ja"}, `{"en-US":"completed"}`, `{"en-GB":"Sub"}`},
			{[]string{"de;q=0.9, fr;q=0.8"}, `{"de":"abgeschlossen"}`, `{"fr":"Sous"}`},
			{nil, `{"en-US":"completed"}`, `{"en-GB":"Sub"}`},
		} {
			got, err := Format(json.RawMessage(body), "canonical", c.accept)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			_ = json.Unmarshal(got, &m)
			if d := jsonMarshal(dig(m, "verb.display")); d != c.display {
				t.Errorf("%v: verb.display %s, want %s", c.accept, d, c.display)
			}
			if d := jsonMarshal(dig(m, "object.object.definition.name")); d != c.subName {
				t.Errorf("%v: sub-statement activity name %s, want %s", c.accept, d, c.subName)
			}
			if d := jsonMarshal(m["attachments"].([]any)[0].(map[string]any)["display"]); d != `{"de":"Ein Anhang","en-US":"A test attachment"}` {
				t.Errorf("%v: attachment display %s: attachments keep every language", c.accept, d)
			}
			if d := jsonMarshal(dig(m, "actor.name")); d != `"Ada Lovelace"` {
				t.Errorf("%v: actor.name %s: an agent's name is no language map", c.accept, d)
			}
		}
	})
	t.Run("IDsOfAList", func(t *testing.T) {
		got, err := Format(json.RawMessage("["+typical+"]"), "ids", nil)
		if err != nil {
			t.Fatal(err)
		}
		var l []map[string]any
		_ = json.Unmarshal(got, &l)
		if len(l) != 1 || jsonMarshal(l[0]["verb"]) != `{"id":"http://adlnet.gov/expapi/verbs/completed"}` {
			t.Errorf("ids on a list: %s", got)
		}
	})
	t.Run("ErrUnknownFormat", func(t *testing.T) {
		if _, err := Format(json.RawMessage(body), "full", nil); apperr.Code(err) != apperr.EINVALID {
			t.Errorf("got %v, want EINVALID", err)
		}
	})
}

func dig(m map[string]any, path string) any {
	var cur any = m
	for _, k := range splitDots(path) {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = mm[k]
	}
	return cur
}

func splitDots(s string) []string {
	var out []string
	start := 0
	for i := range len(s) {
		if s[i] == '.' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
