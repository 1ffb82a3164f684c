package xapi

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// The tree must read JSON exactly as encoding/json does, and reject what it
// rejects.
func TestParseJSONAgreesWithEncodingJSON(t *testing.T) {
	valid := []string{
		`{}`, `[]`, `{"a":[1,-2.5e3,0,true,false,null,"x"]}`, ` { "a" : { "b" : [ ] } } `,
		`"\u00e9\ud83d\ude00\n\t\"\\\/"`, `"\ud800"`, `{"k\u0041y":"v"}`, `-0.0e-0`, `[[[[[]]]]]`, `"日本語"`,
	}
	for _, s := range valid {
		n, err := parseJSON([]byte(s))
		if err != nil {
			t.Errorf("parseJSON(%s): %v", s, err)
			continue
		}
		var want, got any
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatalf("encoding/json rejects %s: %v", s, err)
		}
		if err := json.Unmarshal(n.json(), &got); err != nil {
			t.Errorf("re-encoding %s gave invalid JSON %s: %v", s, n.json(), err)
			continue
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s read as %#v, want %#v", s, got, want)
		}
	}
	invalid := []string{
		``, `{`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `01`, `1.`, `-`, `.5`, `1e`, `tru`, `nul`, `"abc`, "\"a\x01\"",
		`"\x"`, `"\u12"`, `{} {}`, `[1 2]`, "\"\xff\"", `'a'`, `NaN`,
	}
	for _, s := range invalid {
		if _, err := parseJSON([]byte(s)); err == nil {
			t.Errorf("parseJSON(%q) accepted invalid JSON", s)
		}
	}
	deep := make([]byte, 0, 2*(maxDepth+1))
	for range maxDepth + 1 {
		deep = append(deep, '[')
	}
	for range maxDepth + 1 {
		deep = append(deep, ']')
	}
	if _, err := parseJSON(deep); err == nil {
		t.Errorf("nesting deeper than %d accepted", maxDepth)
	}
}

func TestParseJSONKeepsOrderAndSpelling(t *testing.T) {
	in := `{"z":1,"a":{"y":2.50,"b":[3,"\u003c"]},"m":1e2}`
	n, err := parseJSON([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(n.json()), `{"z":1,"a":{"y":2.50,"b":[3,"\u003c"]},"m":1e2}`; got != want {
		t.Errorf("json() = %s, want %s", got, want)
	}
}

// FuzzDecode: no input makes Decode, Complete, Format or Equivalent panic,
// and a statement Decode accepts completes to a body that is valid JSON,
// decodes again, and is equivalent to what was sent.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(typical), true)
	f.Add([]byte(`[`+typical+`,`+typical+`]`), false)
	f.Add([]byte(`{"actor":{"mbox":"mailto:a@b.c"},"verb":{"id":"http://v.example/x"},"object":{"objectType":"SubStatement","actor":{"objectType":"Group","member":[{"mbox":"mailto:m@b.c"}]},"verb":{"id":"http://v.example/y"},"object":{"objectType":"StatementRef","id":"e05aa883-acaf-40ad-bf54-02c8ce485fb0"}}}`), true)
	f.Add([]byte(`{"actor":{"mbox":"mailto:a@b.c"},"verb":{"id":"http://v.example/x"},"object":{"id":"http://a.example/1"},"context":{"contextActivities":{"parent":{"id":"http://a.example/p"}}}}`), false)
	stored := time.Date(2026, 11, 24, 9, 20, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, body []byte, v2 bool) {
		v := V103
		if v2 {
			v = V200
		}
		ins, err := Decode(body, v)
		if err != nil {
			return
		}
		for _, in := range ins {
			st, err := in.Complete(stored, []byte(credAuthority), v)
			if err != nil {
				t.Fatalf("Complete failed on a decoded statement: %v", err)
			}
			if !json.Valid(st.Body) {
				t.Fatalf("body is not JSON: %s", st.Body)
			}
			if _, err := Decode(st.Body, v); err != nil {
				t.Fatalf("the completed body does not decode again: %v\n%s", err, st.Body)
			}
			if !Equivalent(st.Body, in.JSON()) {
				t.Fatalf("the completed body is not equivalent to the statement sent:\n%s\n%s", st.Body, in.JSON())
			}
			for _, format := range []string{"ids", "canonical"} {
				if out, err := Format(st.Body, format, []string{"de"}); err != nil || !json.Valid(out) {
					t.Fatalf("Format(%s) = %s, %v", format, out, err)
				}
			}
		}
	})
}
