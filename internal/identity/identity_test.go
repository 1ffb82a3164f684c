package identity_test

import (
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
)

// defaultCost is the production argon2id cost, saved before TestMain lowers it.
var defaultCost = identity.HashCost

// TestMain lowers argon2id's cost: hashing at the production cost under
// -race would make these tests slow without testing anything more.
func TestMain(m *testing.M) {
	identity.HashCost.Memory, identity.HashCost.Time = 64, 1
	os.Exit(m.Run())
}

func TestParseMemberRole(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want identity.Role
	}{
		{"learner", identity.Learner},
		{" Instructor ", identity.Instructor},
		{"ADMIN", identity.Admin},
		{"guest", ""},
		{"", ""},
		{"owner", ""},
		{"admins", ""},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := identity.ParseMemberRole("role", tc.in)
			if tc.want == "" {
				if apperr.Code(err) != apperr.EINVALID || !strings.Contains(apperr.Message(err), "role must be") {
					t.Fatalf("ParseMemberRole(%q) = %q, %v; want invalid naming the field", tc.in, got, err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ParseMemberRole(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}

func TestCallerMeets(t *testing.T) {
	levels := []identity.Level{identity.Anyone, identity.Identified, identity.Member, identity.OrgMember, identity.Staff, identity.OrgAdmin}
	// want lists the levels each caller meets, in the order of levels.
	for _, tc := range []struct {
		name   string
		caller identity.Caller
		want   [6]bool
		signed bool
	}{
		{"AnonymousGuest", identity.Caller{ID: "g1", Role: identity.Guest}, [6]bool{true, false, false, false, false, false}, false},
		{"PresentedGuest", identity.Caller{ID: "g1", Role: identity.Guest, Presented: true}, [6]bool{true, true, false, false, false, false}, false},
		// A guest token that somehow carried an organisation still is no member.
		{"GuestWithOrg", identity.Caller{ID: "g1", Role: identity.Guest, OrgID: "o1", Presented: true}, [6]bool{true, true, false, false, false, false}, false},
		{"LearnerWithoutOrg", identity.Caller{ID: "u1", Role: identity.Learner, Email: "a@example.com", Presented: true}, [6]bool{true, true, true, false, false, false}, true},
		{"LearnerWithOrg", identity.Caller{ID: "u1", Role: identity.Learner, OrgID: "o1", Presented: true}, [6]bool{true, true, true, true, false, false}, true},
		{"InstructorWithOrg", identity.Caller{ID: "u1", Role: identity.Instructor, OrgID: "o1", Presented: true}, [6]bool{true, true, true, true, true, false}, true},
		{"AdminWithOrg", identity.Caller{ID: "u1", Role: identity.Admin, OrgID: "o1", Presented: true}, [6]bool{true, true, true, true, true, true}, true},
		// Staff roles only count inside an organisation.
		{"InstructorWithoutOrg", identity.Caller{ID: "u1", Role: identity.Instructor, Presented: true}, [6]bool{true, true, true, false, false, false}, true},
		{"AdminWithoutOrg", identity.Caller{ID: "u1", Role: identity.Admin, Presented: true}, [6]bool{true, true, true, false, false, false}, true},
		// A role without a presented identity is worth nothing.
		{"AdminNotPresented", identity.Caller{ID: "u1", Role: identity.Admin, OrgID: "o1"}, [6]bool{true, false, false, false, false, false}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i, l := range levels {
				if got := tc.caller.Meets(l); got != tc.want[i] {
					t.Errorf("Meets(%s) = %v, want %v", l, got, tc.want[i])
				}
			}
			if tc.caller.Meets(identity.Level(99)) {
				t.Error("Meets(an unknown level) = true")
			}
			if got := tc.caller.Signed(); got != tc.signed {
				t.Errorf("Signed() = %v, want %v", got, tc.signed)
			}
		})
	}
}

func TestLevelString(t *testing.T) {
	want := map[identity.Level]string{identity.Anyone: "anyone", identity.Identified: "identified", identity.Member: "member",
		identity.OrgMember: "organisation member", identity.Staff: "instructor or admin", identity.OrgAdmin: "admin"}
	for l, name := range want {
		if l.String() != name {
			t.Errorf("Level(%d).String() = %q, want %q", l, l.String(), name)
		}
	}
}

func TestChannel(t *testing.T) {
	if got := (identity.Caller{Role: identity.Guest}).Channel(); got != identity.DemoChannel {
		t.Errorf("guest channel = %q", got)
	}
	if got := (identity.Caller{Role: identity.Learner, OrgID: "o1", Presented: true}).Channel(); got != "org:o1" {
		t.Errorf("member channel = %q", got)
	}
	if identity.ChannelOf("") == identity.ChannelOf("demo") {
		t.Error("an organisation with id demo shares the demo channel")
	}
}

func TestNormalizeEmail(t *testing.T) {
	long := strings.Repeat("a", 60) + "@" + strings.Repeat("b", 189) + ".com" // 254 characters
	for _, tc := range []struct {
		name, in, want string // want "" means invalid
		required       bool   // the error says the field is required
	}{
		{"Plain", "ada@example.com", "ada@example.com", false},
		{"CaseAndSpace", "  Ada.Lovelace@Example.COM \n", "ada.lovelace@example.com", false},
		{"Plus", "ada+jm@example.co.uk", "ada+jm@example.co.uk", false},
		{"NonASCII", "JOSÉ@example.com", "josé@example.com", false},
		{"Longest", long, long, false},
		{"TooLong", "a" + long, "", false},
		{"Empty", "", "", true},
		{"Blank", "   ", "", true},
		{"NoAt", "ada.example.com", "", false},
		{"NoLocal", "@example.com", "", false},
		{"NoDomain", "ada@", "", false},
		{"NoDotInDomain", "ada@localhost", "", false},
		{"DoubleAt", "ada@@example.com", "", false},
		{"DoubleDot", "ada@example..com", "", false},
		{"TrailingDot", "ada@example.", "", false},
		{"WithName", "Ada <ada@example.com>", "", false},
		{"WithComment", "ada@example.com (Ada)", "", false},
		{"InnerSpace", "ada lovelace@example.com", "", false},
		{"QuotedLocal", `"ada lovelace"@example.com`, "", false},
		{"Newline", "ada\n@example.com", "", false},
		{"TwoAddresses", "ada@example.com, bob@example.com", "", false},
		{"BadUTF8", "jos\xe9@example.com", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := identity.NormalizeEmail("email", tc.in)
			if tc.want != "" {
				if err != nil || got != tc.want {
					t.Fatalf("NormalizeEmail(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
				}
				return
			}
			if apperr.Code(err) != apperr.EINVALID || !strings.HasPrefix(apperr.Message(err), "email ") {
				t.Fatalf("NormalizeEmail(%q) = %q, %v; want an invalid error naming the field", tc.in, got, err)
			}
			if tc.required != strings.Contains(apperr.Message(err), "required") {
				t.Errorf("message %q: want required = %v", apperr.Message(err), tc.required)
			}
		})
	}
	if got := identity.FoldEmail("  Ada@Example.COM "); got != "ada@example.com" {
		t.Errorf("FoldEmail = %q", got)
	}
}

func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		max      int
		want     string // "" means invalid
	}{
		{"Trimmed", "  Ada Lovelace \t", identity.MaxDisplayName, "Ada Lovelace"},
		{"MaxRunesNotBytes", strings.Repeat("é", identity.MaxDisplayName), identity.MaxDisplayName, strings.Repeat("é", identity.MaxDisplayName)},
		{"OneTooMany", strings.Repeat("é", identity.MaxDisplayName+1), identity.MaxDisplayName, ""},
		{"OrgNameLimit", strings.Repeat("x", identity.MaxOrgName), identity.MaxOrgName, strings.Repeat("x", identity.MaxOrgName)},
		{"Emoji", "Welding 🔥", identity.MaxOrgName, "Welding 🔥"},
		{"Empty", "", identity.MaxDisplayName, ""},
		{"Blank", " \t ", identity.MaxDisplayName, ""},
		{"Tab", "Ada\tLovelace", identity.MaxDisplayName, ""},
		{"Newline", "Ada\nLovelace", identity.MaxDisplayName, ""},
		{"NUL", "Ada\x00", identity.MaxDisplayName, ""},
		{"DEL", "Ada\x7f", identity.MaxDisplayName, ""},
		{"C1Control", "Ada\u0085Lovelace", identity.MaxDisplayName, ""},
		// A Latin-1 CSV export: PostgreSQL refuses such text, so it must
		// be refused here rather than fail as an internal error there.
		{"InvalidUTF8", "Jos\xe9", identity.MaxDisplayName, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := identity.CheckName("displayName", tc.in, tc.max)
			if tc.want != "" {
				if err != nil || got != tc.want {
					t.Fatalf("CheckName(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
				}
				return
			}
			if apperr.Code(err) != apperr.EINVALID || !strings.HasPrefix(apperr.Message(err), "displayName ") {
				t.Fatalf("CheckName(%q) = %q, %v; want an invalid error naming the field", tc.in, got, err)
			}
		})
	}
}

func TestGuestName(t *testing.T) {
	if got := identity.GuestName("abcdef0123"); got != "Guest ABCD" {
		t.Errorf("GuestName = %q", got)
	}
	if got := identity.GuestName("ab"); got != "Guest" {
		t.Errorf("GuestName(short) = %q", got)
	}
}

func TestNewSecretAndID(t *testing.T) {
	token, hash := identity.NewSecret()
	if identity.HashSecret(token) != hash || hash == token || strings.Contains(hash, token) {
		t.Fatalf("secret %q stored as %q", token, hash)
	}
	token2, hash2 := identity.NewSecret()
	if token2 == token || hash2 == hash {
		t.Fatal("two secrets are equal")
	}
	if identity.HashSecret(token+"x") == hash {
		t.Fatal("another token has the same hash")
	}
	a, b := identity.NewID(), identity.NewID()
	if _, err := hex.DecodeString(a); err != nil || len(a) != 32 || a == b {
		t.Fatalf("ids %q, %q", a, b)
	}
}
