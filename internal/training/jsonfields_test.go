package training

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"
)

// mapEncoding is how an interaction was encoded before encodeObject: a map
// of its fields through encoding/json, which encodeObject must match byte
// for byte.
func mapEncoding(in Interaction) ([]byte, error) {
	if in.sent.value != nil {
		return in.sent.value, nil
	}
	m := make(map[string]any, len(in.Extra)+7)
	for k, v := range in.Extra {
		m[k] = v
	}
	if in.Action != "" {
		m["action"] = in.Action
	}
	if in.ObjectID != "" {
		m["objectId"] = in.ObjectID
	}
	if in.StepID != "" {
		m["stepId"] = in.StepID
	}
	if in.sent.timestamp != nil {
		m["timestamp"] = in.sent.timestamp
	} else {
		m["timestamp"] = in.Timestamp
	}
	switch {
	case in.sent.sessionTime != nil:
		m["sessionTime"] = in.sent.sessionTime
	case !in.sent.noSessionTime:
		m["sessionTime"] = in.SessionTime
	}
	if in.Seq != nil {
		m["seq"] = *in.Seq
	}
	if !in.ReceivedAt.IsZero() {
		m["receivedAt"] = in.ReceivedAt
	}
	return json.Marshal(m)
}

// checkEncoding decodes b as an interaction the way a PATCH does and holds
// what it reads and writes to encoding/json's answers.
func checkEncoding(t *testing.T, b []byte) {
	t.Helper()
	var in Interaction
	if json.Unmarshal(b, &in) != nil {
		return
	}
	for key, got := range map[string]string{"action": in.Action, "objectId": in.ObjectID, "stepId": in.StepID} {
		var want string
		if raw, ok := in.Extra[key]; ok {
			if decodeString(raw, &want) && want != "" {
				t.Errorf("%s: %s %s decodes, but was kept as a free field", b, key, raw)
			}
			continue
		}
		var m map[string]json.RawMessage
		_ = json.Unmarshal(b, &m)
		if raw, ok := m[key]; ok && (json.Unmarshal(raw, &want) != nil || want != got) {
			t.Errorf("%s: %s = %q; encoding/json reads %q", b, key, got, want)
		}
	}
	in.ReceivedAt = time.Date(2026, 12, 6, 9, 0, 0, 123456789, time.UTC)
	got, gotErr := in.MarshalJSON()
	want, wantErr := mapEncoding(in)
	if (gotErr != nil) != (wantErr != nil) || string(got) != string(want) {
		t.Errorf("%s encodes as\n%s (%v); encoding/json writes\n%s (%v)", b, got, gotErr, want, wantErr)
	}
}

func TestInteractionEncodesAsEncodingJSON(t *testing.T) {
	for _, sent := range []string{
		`{"action":"click","target":"breaker-panel","timestamp":"2025-06-01T12:00:00.000Z","sessionTime":15200}`,
		`{"action":"click","objectId":"panel","stepId":"open","sessionTime":1500,"seq":7}`,
		`{ "action" : "look" , "note" : "two  spaces", "to" : { "x" : 1 , "y" : [ 1, 2 ] } }`,
		`{"note":"<b>&amp;</b>","action":"<script>","objectId":"a&b"}`,
		`{"note":"caf\u00e9 \u2028 line","stepId":"\"quoted\"","z":"é ü 日本"}`,
		`{"action":"tab\tin","b":"back\\slash","c":"ctl\u0001"}`,
		`{"timestamp":"2026-03-14T09:29:59+02:00","sessionTime":1.5e3}`,
		`{"timestamp":1773480599123.5,"sessionTime":1500.75}`,
		`{"timestamp":"<not a time>","seq":"3"}`,
		`{"action":{"verb":"click"},"objectId":"","stepId":12,"seq":1e2}`,
		`{"action":"x","receivedAt":"2020-01-01T00:00:00Z","n":null,"ok":true,"f":-0.5e-7}`,
		`{"":"empty key","\u0041":"escaped key","<k>":1}`,
		`{"action":"first","action":"second","note":"}{][\"","note":"last","seq":1,"seq":2}`,
		`{"action":1,"action":"click","timestamp":null,"sessionTime":null}`,
		`{}`,
		`[1,2]`,
		`"just a string"`,
	} {
		t.Run(sent, func(t *testing.T) { checkEncoding(t, []byte(sent)) })
	}
}

func FuzzInteractionEncoding(f *testing.F) {
	for _, s := range []string{`{"action":"click","sessionTime":1}`, `{"a":{"b":[1, "<"]},"seq":2}`, `{"stepId":"é","timestamp":"2026-01-01T00:00:00Z"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkEncoding(t, b) })
}

// The seq read by Atoi is the seq encoding/json reads into an int.
func TestSeqReadsAsAnInt(t *testing.T) {
	for _, v := range []string{"0", "7", "-1", "1999", "1.0", "1e2", "9223372036854775808", `"3"`, "true", "[]"} {
		var want int
		wantErr := json.Unmarshal([]byte(v), &want)
		got, gotErr := strconv.Atoi(v)
		if (gotErr != nil) != (wantErr != nil) || gotErr == nil && got != want {
			t.Errorf("seq %s: Atoi %d (%v); encoding/json %d (%v)", v, got, gotErr, want, wantErr)
		}
	}
}

// A free field that is not JSON, which only Go code can build, fails to
// encode and says why.
func TestInteractionEncodingNamesBadJSON(t *testing.T) {
	for _, raw := range []string{`{"a":`, `nul`, `{"a" : 1`} {
		in := Interaction{Extra: map[string]json.RawMessage{"bad": json.RawMessage(raw)}}
		if _, err := in.MarshalJSON(); err == nil || err.Error() == "" {
			t.Errorf("free field %s: error %v; want encoding/json's message", raw, err)
		}
	}
}

// eachMember reads the members encoding/json reads into a map, the last of
// a key twice included, from any valid JSON, and refuses what is not an
// object.
func checkEachMember(t *testing.T, b []byte) {
	t.Helper()
	if !json.Valid(b) {
		return // never handed to an UnmarshalJSON
	}
	var want map[string]json.RawMessage
	wantErr := json.Unmarshal(b, &want)
	got := map[string]json.RawMessage{}
	err := eachMember(b, func(k string, v []byte) { got[k] = v })
	if (err != nil) != (wantErr != nil || want == nil) {
		t.Fatalf("eachMember(%s): %v; encoding/json: %v, %v", b, err, want, wantErr)
	}
	if err != nil {
		return
	}
	if len(got) != len(want) {
		t.Fatalf("eachMember(%s) read %d members; encoding/json %d", b, len(got), len(want))
	}
	for k, v := range want {
		if string(got[k]) != string(v) {
			t.Fatalf("eachMember(%s): %q is %s; encoding/json reads %s", b, k, got[k], v)
		}
	}
}

func TestEachMember(t *testing.T) {
	for _, b := range []string{
		`{}`, ` { } `, `{"a":1}`, `{"a":1,"a":2}`, `{"a" : [ 1 , { "b" : "}" } ] , "c" : null }`,
		`{"s":"q\"uo}te\\","t":"]"}`, `{"\u0061":true,"a\"b":false}`, `{"é":"ü","\ud83d\ude00":-1.5e-3}`,
		"{\"a\":\t1\r\n}", `{"n":{"m":{"o":[[],[{}]]}},"x":"y"}`,
		`[]`, `[{"a":1}]`, `null`, `"{}"`, `12`,
	} {
		t.Run(b, func(t *testing.T) { checkEachMember(t, []byte(b)) })
	}
}

func FuzzEachMember(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":[2,{"b":"}"}]}`, `{"\u00e9":"\"","x":null}`, `[1]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkEachMember(t, b) })
}

// appendString writes every byte, alone and beside plain text, as
// encoding/json writes it.
func TestAppendStringAsEncodingJSON(t *testing.T) {
	for c := range 256 {
		for _, s := range []string{string([]byte{byte(c)}), "id-" + string([]byte{byte(c)}) + "-x"} {
			want, _ := json.Marshal(s)
			if got := appendString([]byte("["), s); string(got) != "["+string(want) {
				t.Errorf("appendString(%q) = %s; encoding/json writes %s", s, got[1:], want)
			}
		}
	}
}
