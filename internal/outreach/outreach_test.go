package outreach

import (
	"strings"
	"testing"

	"journeyman/internal/apperr"
)

func valid() DemoRequestInput {
	return DemoRequestInput{
		Name:         "Ada Lovelace",
		Email:        "ada@example.com",
		Organisation: "Local 26 JATC",
		Message:      "We train 40 apprentices a year and want to see the welding modules.",
		Interest:     "welding",
	}
}

func TestDemoRequestValidate(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(*DemoRequestInput)
		errHas []string // every clause the message must hold; none means valid
	}{
		{"OK", func(*DemoRequestInput) {}, nil},
		{"OKWithoutInterest", func(in *DemoRequestInput) { in.Interest = "" }, nil},
		{"OKMultilineMessage", func(in *DemoRequestInput) { in.Message = "Line one is here.\nLine two\tis tabbed." }, nil},
		{"OKLongestFields", func(in *DemoRequestInput) {
			in.Name = strings.Repeat("é", MaxNameLen) // limits count characters, not bytes
			in.Organisation = strings.Repeat("o", MaxOrganisationLen)
			in.Message = strings.Repeat("m", MaxMessageLen)
			in.Interest = strings.Repeat("i", MaxInterestLen)
		}, nil},
		{"ErrNameMissing", func(in *DemoRequestInput) { in.Name = "" }, []string{"name: is required"}},
		{"ErrNameTooLong", func(in *DemoRequestInput) { in.Name = strings.Repeat("n", MaxNameLen+1) }, []string{"name: must be at most 100 characters"}},
		{"ErrNameControl", func(in *DemoRequestInput) { in.Name = "Ada\nLovelace" }, []string{"name: must not contain control characters"}},
		{"ErrEmailMissing", func(in *DemoRequestInput) { in.Email = "" }, []string{"email: is required"}},
		{"ErrEmailNoAt", func(in *DemoRequestInput) { in.Email = "ada.example.com" }, []string{"email: must be an address like name@example.com"}},
		{"ErrEmailNoDot", func(in *DemoRequestInput) { in.Email = "ada@localhost" }, []string{"email: must be an address"}},
		{"ErrEmailDisplayName", func(in *DemoRequestInput) { in.Email = "Ada <ada@example.com>" }, []string{"email: must be an address"}},
		{"ErrEmailTrailingDot", func(in *DemoRequestInput) { in.Email = "ada@example." }, []string{"email: must be an address"}},
		{"ErrEmailTooLong", func(in *DemoRequestInput) { in.Email = strings.Repeat("a", 250) + "@example.com" }, []string{"email: must be at most 254 characters"}},
		{"ErrOrganisationMissing", func(in *DemoRequestInput) { in.Organisation = "" }, []string{"organisation: is required"}},
		{"ErrOrganisationTooLong", func(in *DemoRequestInput) { in.Organisation = strings.Repeat("o", MaxOrganisationLen+1) }, []string{"organisation: must be at most 150 characters"}},
		{"ErrMessageMissing", func(in *DemoRequestInput) { in.Message = "" }, []string{"message: is required"}},
		{"ErrMessageTooShort", func(in *DemoRequestInput) { in.Message = "Hi there" }, []string{"message: must be at least 10 characters"}},
		{"ErrMessageTooLong", func(in *DemoRequestInput) { in.Message = strings.Repeat("m", MaxMessageLen+1) }, []string{"message: must be at most 2000 characters"}},
		{"ErrMessageControl", func(in *DemoRequestInput) { in.Message = "Hello there\x00 friend" }, []string{"message: must not contain control characters"}},
		{"ErrInterestTooLong", func(in *DemoRequestInput) { in.Interest = strings.Repeat("i", MaxInterestLen+1) }, []string{"interest: must be at most 60 characters"}},
		{"ErrEveryFieldAtOnce", func(in *DemoRequestInput) { *in = DemoRequestInput{Email: "nope"} },
			[]string{"name: is required", "email: must be an address", "organisation: is required", "message: is required"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := valid()
			tt.edit(&in)
			err := in.Validate()
			if len(tt.errHas) == 0 {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if apperr.Code(err) != apperr.EINVALID {
				t.Fatalf("Validate() = %v, want an invalid error", err)
			}
			msg := apperr.Message(err)
			for _, want := range tt.errHas {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
			if got, want := strings.Count(msg, "; ")+1, len(tt.errHas); got != want {
				t.Errorf("message %q has %d clauses, want %d", msg, got, want)
			}
		})
	}
}

func TestNormalizeTrims(t *testing.T) {
	in := DemoRequestInput{Name: "  Ada ", Email: " ada@example.com\n", Organisation: "\tJATC ", Message: " Hello there, world ", Interest: " hvac "}
	got := in.Normalize()
	want := DemoRequestInput{Name: "Ada", Email: "ada@example.com", Organisation: "JATC", Message: "Hello there, world", Interest: "hvac"}
	if got != want {
		t.Fatalf("Normalize() = %+v, want %+v", got, want)
	}
}

func TestRoundScore(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{{0, 0}, {87.25, 87.3}, {91.04, 91}, {66.666, 66.7}, {100, 100}} {
		if got := RoundScore(tt.in); got != tt.want {
			t.Errorf("RoundScore(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
