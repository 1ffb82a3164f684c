package portal

import (
	"bytes"
	"encoding/csv"
	"reflect"
	"strings"
	"testing"
)

func TestCSVWriter(t *testing.T) {
	rows := [][]string{
		{"Learner", "Note"},
		{"Zoë Ångström", `said "hi", then left`},
		{"=HYPERLINK(\"http://evil\")", "+1"},
		{"-2+3", "@SUM(A1)"},
		{"\tTabbed", "\rReturned"},
		{"line\nbreak", "0"},
		{"", "a=b"},
	}
	var buf bytes.Buffer
	w := NewCSVWriter(&buf)
	for _, r := range rows {
		if err := w.Write(append([]string(nil), r...)...); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.HasPrefix(out, "\ufeffLearner,Note\r\n") {
		t.Fatalf("file starts %q, want a byte order mark and a CRLF header", out[:min(len(out), 20)])
	}
	if !strings.Contains(out, "\"said \"\"hi\"\", then left\"") || !strings.Contains(out, "\"line\r\nbreak\"") {
		t.Errorf("cells not quoted as RFC 4180 says:\n%s", out)
	}
	got, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(out, "\ufeff"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"Learner", "Note"},
		{"Zoë Ångström", `said "hi", then left`},
		{`'=HYPERLINK("http://evil")`, "'+1"},
		{"'-2+3", "'@SUM(A1)"},
		{"'\tTabbed", "'\rReturned"},
		{"line\nbreak", "0"},
		{"", "a=b"},
	}
	// encoding/csv, writing CRLF line ends, drops a lone carriage return.
	want[4][1] = "'Returned"
	if !strings.Contains(out, "\"'Returned\"") {
		t.Errorf("a cell starting with a carriage return was not neutralised:\n%q", out)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back\n%q\nwant\n%q", got, want)
	}
}

func TestCSVWriterEmpty(t *testing.T) {
	var buf bytes.Buffer
	if err := NewCSVWriter(&buf).Flush(); err != nil || buf.Len() != 0 {
		t.Errorf("an empty export wrote %q, %v", buf.String(), err)
	}
}
