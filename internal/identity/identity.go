// Package identity says who a caller is and what they may do: roles, the
// access levels the route table asks for, the password policy and password
// hashing. It knows nothing of HTTP or SQL.
package identity

import (
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"journeyman/internal/apperr"
)

// Role is what a person may do in their organisation. A guest has no
// account; an account without an organisation is a learner.
type Role string

// The roles, from least to most trusted.
const (
	Guest      Role = "guest"
	Learner    Role = "learner"
	Instructor Role = "instructor"
	Admin      Role = "admin"
)

var rank = map[Role]int{Guest: 0, Learner: 1, Instructor: 2, Admin: 3}

// MemberRoles are the roles an organisation gives its members.
var MemberRoles = []Role{Learner, Instructor, Admin}

// ParseMemberRole reads the role of an organisation member.
func ParseMemberRole(field, s string) (Role, error) {
	switch r := Role(strings.ToLower(strings.TrimSpace(s))); r {
	case Learner, Instructor, Admin:
		return r, nil
	}
	return "", apperr.Invalid("%s must be learner, instructor or admin, not %q", field, s)
}

// Level is who may call a route, from anyone to admins only.
type Level int

// The access levels of the route table.
const (
	// Anyone: no identity needed (public pages' data).
	Anyone Level = iota
	// Identified: a server-issued identity, guest or account, presented with the request.
	Identified
	// Member: a signed-in account.
	Member
	// OrgMember: a signed-in account in an organisation.
	OrgMember
	// Staff: an instructor or admin of an organisation.
	Staff
	// OrgAdmin: an admin of an organisation.
	OrgAdmin
)

var levelNames = [...]string{"anyone", "identified", "member", "organisation member", "instructor or admin", "admin"}

func (l Level) String() string { return levelNames[l] }

// Caller is who made a request.
type Caller struct {
	ID          string // the public, opaque user id (never a credential)
	DisplayName string
	Role        Role
	OrgID       string // "" outside any organisation
	OrgName     string
	Email       string // "" for guests
	// Presented is false when the request carried no valid identity: the
	// server issued a new guest token with its answer.
	Presented bool
}

// Signed reports whether the caller is signed in to an account.
func (c Caller) Signed() bool { return c.Role != Guest && c.Presented }

// Meets reports whether the caller may call a route of level l.
func (c Caller) Meets(l Level) bool {
	switch l {
	case Anyone:
		return true
	case Identified:
		return c.Presented
	case Member:
		return c.Signed()
	case OrgMember:
		return c.Signed() && c.OrgID != ""
	case Staff:
		return c.Signed() && c.OrgID != "" && rank[c.Role] >= rank[Instructor]
	case OrgAdmin:
		return c.Signed() && c.OrgID != "" && c.Role == Admin
	}
	return false
}

// Channel is the realtime channel the caller's safety alerts and live
// sessions belong to: their organisation's, or the shared demo channel of
// everyone outside one.
func (c Caller) Channel() string { return ChannelOf(c.OrgID) }

// DemoChannel is the channel of guests and of accounts without an organisation.
const DemoChannel = "demo"

// ChannelOf names an organisation's channel.
func ChannelOf(orgID string) string {
	if orgID == "" {
		return DemoChannel
	}
	return "org:" + orgID
}

// Limits of account fields.
const (
	MaxEmail       = 254
	MaxDisplayName = 80
	MaxOrgName     = 120
)

// NormalizeEmail checks an email address and returns its canonical form
// (lower case, trimmed), the key accounts are found by.
func NormalizeEmail(field, s string) (string, error) {
	// Checked before lowering: strings.ToLower turns each invalid byte into
	// U+FFFD, which would make a Latin-1 roster's "josé" a valid address.
	if !utf8.ValidString(s) {
		return "", apperr.Invalid("%s must be an email address like name@example.com", field)
	}
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return "", apperr.Invalid("%s is required", field)
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || len(s) > MaxEmail || !strings.Contains(s[strings.LastIndexByte(s, '@'):], ".") {
		return "", apperr.Invalid("%s must be an email address like name@example.com", field)
	}
	return s, nil
}

// CheckName validates a display name or organisation name.
func CheckName(field, s string, most int) (string, error) {
	// Text that is not UTF-8 (a roster saved as Latin-1) would be refused
	// by PostgreSQL as an internal error; say what is wrong instead.
	if !utf8.ValidString(s) {
		return "", apperr.Invalid("%s must be UTF-8 text", field)
	}
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	if n == 0 || n > most {
		return "", apperr.Invalid("%s must be 1 to %d characters", field, most)
	}
	if strings.ContainsFunc(s, unicode.IsControl) {
		return "", apperr.Invalid("%s must not contain control characters", field)
	}
	return s, nil
}

// GuestName is the display name of a guest: a stable tag from their id.
func GuestName(id string) string {
	if len(id) < 4 {
		return "Guest"
	}
	return "Guest " + strings.ToUpper(id[:4])
}

// FoldEmail is the form an email is looked up by, without checking it.
func FoldEmail(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
