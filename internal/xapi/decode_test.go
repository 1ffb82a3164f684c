package xapi

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"journeyman/internal/apperr"
)

// typical is a statement as an XR training session sends it.
const typical = `{
	"id": "fd41c918-b88b-4b20-a0a5-a4c32391aaa0",
	"actor": {"objectType": "Agent", "name": "Ada Lovelace", "mbox": "mailto:ada@example.com"},
	"verb": {"id": "http://adlnet.gov/expapi/verbs/completed", "display": {"en-US": "completed", "de": "abgeschlossen"}},
	"object": {"objectType": "Activity", "id": "https://journeyman.example/xapi/activities/weld-basics",
		"definition": {"name": {"en-US": "Welding basics"}, "type": "http://adlnet.gov/expapi/activities/module"}},
	"result": {"score": {"scaled": 0.85, "raw": 85, "min": 0, "max": 100}, "success": true, "completion": true, "duration": "PT12M30.5S"},
	"context": {"registration": "ec531277-b57b-4c15-8d91-d292c5b2b8f7", "platform": "Journeyman XR", "language": "en-US",
		"contextActivities": {"parent": {"id": "https://journeyman.example/xapi/activities/welding"}},
		"extensions": {"https://journeyman.example/xapi/ext/headset": "quest-3"}},
	"timestamp": "2026-11-24T10:15:00.123+01:00"
}`

// with returns the typical statement with the JSON value at a dotted path
// replaced (or removed when value is "-").
func with(t testing.TB, path, value string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(typical), &m); err != nil {
		t.Fatal(err)
	}
	set(t, m, path, value)
	b, _ := json.Marshal(m)
	return string(b)
}

func set(t testing.TB, m map[string]any, path, value string) {
	t.Helper()
	keys := strings.Split(path, ".")
	cur := m
	for _, k := range keys[:len(keys)-1] {
		next, ok := cur[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[k] = next
		}
		cur = next
	}
	last := keys[len(keys)-1]
	if value == "-" {
		delete(cur, last)
		return
	}
	var v any
	if err := json.Unmarshal([]byte(value), &v); err != nil {
		t.Fatalf("value %s: %v", value, err)
	}
	cur[last] = v
}

func TestDecodeTypical(t *testing.T) {
	for _, v := range []Version{V103, V200} {
		ins, err := Decode([]byte(typical), v)
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if len(ins) != 1 || ins[0].ID() != "fd41c918-b88b-4b20-a0a5-a4c32391aaa0" {
			t.Fatalf("%s: got %d statements, id %q", v, len(ins), ins[0].ID())
		}
	}
}

func TestComplete(t *testing.T) {
	ins, err := Decode([]byte(typical), V103)
	if err != nil {
		t.Fatal(err)
	}
	stored := time.Date(2026, 11, 24, 9, 20, 0, 123456789, time.UTC)
	auth := json.RawMessage(`{"objectType":"Agent","account":{"homePage":"https://journeyman.example","name":"cred-1"}}`)
	st, err := ins[0].Complete(stored, auth, V103)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(st.Body, &got); err != nil {
		t.Fatal(err)
	}
	if got["stored"] != "2026-11-24T09:20:00.123Z" || got["version"] != "1.0.0" || got["timestamp"] != "2026-11-24T10:15:00.123+01:00" {
		t.Errorf("stored %v version %v timestamp %v", got["stored"], got["version"], got["timestamp"])
	}
	if st.VerbID != "http://adlnet.gov/expapi/verbs/completed" || st.Registration != "ec531277-b57b-4c15-8d91-d292c5b2b8f7" {
		t.Errorf("verb %q registration %q", st.VerbID, st.Registration)
	}
	wantAgents := []Ref{{"mbox:mailto:ada@example.com", true}, {"account:https://journeyman.example|cred-1", false}}
	if !equalRefs(st.Agents, wantAgents) {
		t.Errorf("agents %v, want %v", st.Agents, wantAgents)
	}
	wantActs := []Ref{{"https://journeyman.example/xapi/activities/weld-basics", true}, {"https://journeyman.example/xapi/activities/welding", false}}
	if !equalRefs(st.Activities, wantActs) {
		t.Errorf("activities %v, want %v", st.Activities, wantActs)
	}
	if _, ok := st.ActivityDefs["https://journeyman.example/xapi/activities/weld-basics"]; !ok || len(st.ActivityDefs) != 1 {
		t.Errorf("activity defs %v", st.ActivityDefs)
	}
	parent := got["context"].(map[string]any)["contextActivities"].(map[string]any)["parent"]
	if _, ok := parent.([]any); !ok {
		t.Errorf("context activity parent not normalised to an array: %v", parent)
	}
}

func equalRefs(a, b []Ref) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func BenchmarkDecodeComplete(b *testing.B) {
	body := []byte(typical)
	auth := json.RawMessage(`{"objectType":"Agent","account":{"homePage":"https://journeyman.example","name":"cred-1"}}`)
	stored := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		ins, err := Decode(body, V200)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ins[0].Complete(stored, auth, V200); err != nil {
			b.Fatal(err)
		}
	}
}

var _ = apperr.EINVALID

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

func jsonMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
