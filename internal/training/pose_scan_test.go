package training

import (
	"encoding/json"
	"testing"
)

// scanPose must read exactly what encoding/json reads, or leave it.
func checkScanPose(t *testing.T, b []byte) (ok bool) {
	t.Helper()
	p, ok := scanPose(b)
	if !ok {
		return false
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("scanPose read %q, which encoding/json refuses: %v", b, err)
	}
	n := 0
	for k, name := range poseKeys {
		if !p.has[k] {
			continue
		}
		n++
		if f, isNum := m[name].(float64); !isNum || f != p.v[k] {
			t.Fatalf("scanPose read %s = %v from %q; encoding/json reads %v", name, p.v[k], b, m[name])
		}
	}
	if p.hasForm {
		n++
		if s, isStr := m["form"].(string); !isStr || s != p.form {
			t.Fatalf("scanPose read form %q from %q; encoding/json reads %v", p.form, b, m["form"])
		}
	}
	if n != len(m) {
		t.Fatalf("scanPose read %d fields from %q; encoding/json reads %d", n, b, len(m))
	}
	return true
}

func TestScanPose(t *testing.T) {
	tests := []struct {
		in   string
		read bool // false: left to numberFields
	}{
		{`{"x":1,"y":2,"z":3}`, true},
		{` { "x" : -0.5 , "y":1.6e2,"z":-1E-3, "w":0 } `, true},
		{`{"form":"euler","x":0,"y":0.3,"z":0}`, true},
		{`{}`, true},
		{`{"x":1,"x":2}`, false},      // a key twice
		{`{"x":1,"v":2}`, false},      // another key
		{`{"x":"1"}`, false},          // a string number
		{`{"x":01}`, false},           // leading zero
		{`{"x":1.}`, false},           // no fraction digits
		{`{"x":.5}`, false},           // no integer part
		{`{"x":+1}`, false},           // plus sign
		{`{"x":1e}`, false},           // no exponent digits
		{`{"x":Infinity}`, false},     // not JSON
		{`{"x":1e999}`, false},        // out of range
		{`{"x":1,}`, false},           // trailing comma
		{`{"x":1} x`, false},          // trailing text
		{`{"x":{"a":1}}`, false},      // nested
		{`{"\u0078":1}`, true},        // an escaped key, read as encoding/json reads it
		{`{"form":"eu\"ler"}`, false}, // an escape in form
		{`{"form":"euler","form":"euler"}`, false},
		{`[1,2,3]`, false},
		{`null`, false},
		{``, false},
		{`{"x":1`, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			if got := checkScanPose(t, []byte(tc.in)); got != tc.read {
				t.Errorf("scanPose(%q) read it: %v; want %v", tc.in, got, tc.read)
			}
		})
	}
}

func FuzzScanPose(f *testing.F) {
	for _, s := range []string{`{"x":1,"y":2,"z":3}`, `{"form":"quaternion","x":0,"y":0,"z":0,"w":1}`, `{"x":-1.5e-3}`, `{"x":1,"x":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkScanPose(t, b) })
}
