package portal

import (
	"reflect"
	"strings"
	"testing"

	"journeyman/internal/catalog"
)

func TestSignOffValidate(t *testing.T) {
	m := catalog.Module{ID: "loto", LearningObjectives: []string{"Identify sources", "Apply a lock", "Verify zero energy"}}
	for _, tc := range []struct {
		name    string
		in      SignOff
		revoke  bool
		problem string
		want    []int
	}{
		{"AllByDefault", SignOff{}, false, "", []int{0, 1, 2}},
		{"SomeSorted", SignOff{Competencies: []int{2, 0}}, false, "", []int{0, 2}},
		{"PracticalWithNote", SignOff{Practical: true, Note: "  Locked out the bench press  "}, false, "", []int{0, 1, 2}},
		{"ErrPracticalWithoutNote", SignOff{Practical: true, Note: "   "}, false, "say what was checked", nil},
		{"ErrRevokeWithoutReason", SignOff{}, true, "say why", nil},
		{"ErrRevokePractical", SignOff{Practical: true, Note: "x"}, true, "practical applies to a sign-off", nil},
		{"RevokeWithReason", SignOff{Competencies: []int{1}, Note: "Forgot the tag"}, true, "", []int{1}},
		{"ErrOutOfRange", SignOff{Competencies: []int{3}}, false, "3 is not a competency of module loto (0 to 2)", nil},
		{"ErrNegative", SignOff{Competencies: []int{-1}}, false, "-1 is not a competency", nil},
		{"ErrDuplicate", SignOff{Competencies: []int{1, 1}}, false, "twice", nil},
		{"ErrTooMany", SignOff{Competencies: []int{0, 1, 2, 0}}, false, "lists 4 entries", nil},
		{"ErrLongNote", SignOff{Note: strings.Repeat("é", MaxNote+1)}, false, "at most 1000 characters", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.in
			err := r.Validate(m, tc.revoke)
			if tc.problem != "" {
				if err == nil || !strings.Contains(err.Error(), tc.problem) {
					t.Fatalf("Validate = %v, want %q", err, tc.problem)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(r.Competencies, tc.want) || r.Note != strings.TrimSpace(tc.in.Note) {
				t.Fatalf("Validate = %v, %+v", err, r)
			}
		})
	}
}

func TestCodes(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		c := NewCode()
		got, ok := NormalizeCode(c)
		if !ok || got != c || seen[c] {
			t.Fatalf("code %q normalises to %q, %v (seen before: %v)", c, got, ok, seen[c])
		}
		seen[c] = true
	}
	for _, tc := range []struct{ typed, want string }{
		{"jxr-0abc-defg-hjkm", "JXR-0ABC-DEFG-HJKM"},
		{"0abc defg hjkm", "JXR-0ABC-DEFG-HJKM"},
		{"JXR-OABC-DEFG-HJKL", "JXR-0ABC-DEFG-HJK1"},
		{"JXR-0ABC-DEFG-HJK", ""},
		{"jxr1 2345 6789", "JXR-JXR1-2345-6789"},
		{"JXR-0ABC-DEFG-HJKU", ""},
		{"'; DROP TABLE", ""},
	} {
		got, ok := NormalizeCode(tc.typed)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("NormalizeCode(%q) = %q, %v; want %q", tc.typed, got, ok, tc.want)
		}
	}
}

func TestProgrammes(t *testing.T) {
	trades := []catalog.Trade{{ID: "electrical", Name: "Electrical"}, {ID: "hvac", Name: "HVAC"}}
	modules := []catalog.Module{
		{ID: "e1", TradeID: "electrical", LearningObjectives: []string{"a", "b"}},
		{ID: "h1", TradeID: "hvac", LearningObjectives: []string{"c"}},
		{ID: "e2", TradeID: "electrical", LearningObjectives: []string{"d"}},
	}
	got := Programmes(trades, modules)
	want := []Programme{
		{ID: "electrical", Name: "Electrical programme", Competencies: []Competency{{"e1", 0, "a"}, {"e1", 1, "b"}, {"e2", 0, "d"}}},
		{ID: "hvac", Name: "HVAC programme", Competencies: []Competency{{"h1", 0, "c"}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Programmes = %+v\nwant %+v", got, want)
	}
}
