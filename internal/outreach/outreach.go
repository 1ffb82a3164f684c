// Package outreach holds what the public site gathers from and shows to
// visitors: demo requests, and the platform figures of the landing page's
// Learning Management Dashboard. No HTTP, no SQL.
package outreach

import (
	"math"
	"net/mail"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"journeyman/internal/apperr"
)

// Length limits of a demo request's fields, in characters (not bytes).
const (
	MaxNameLen         = 100
	MaxEmailLen        = 254 // the longest address SMTP carries (RFC 5321)
	MaxOrganisationLen = 150
	MinMessageLen      = 10 // shorter says nothing a salesperson can act on
	MaxMessageLen      = 2000
	MaxInterestLen     = 60
)

// A learner may send at most DemoRequestLimit demo requests per
// DemoRequestWindow: enough to correct a mistake or ask about a second
// trade, too few to flood the sales inbox from one browser.
const (
	DemoRequestLimit  = 5
	DemoRequestWindow = time.Hour
)

// DemoRequest is a visitor's request to be shown the platform.
type DemoRequest struct {
	ID           string    `json:"id"`
	LearnerID    string    `json:"-"` // who sent it; never shown back
	Name         string    `json:"name"`
	Email        string    `json:"email"`
	Organisation string    `json:"organisation"`
	Message      string    `json:"message"`
	Interest     string    `json:"interest"` // optional: what the visitor looked at, e.g. "analytics" or a trade id
	CreatedAt    time.Time `json:"createdAt"`
}

// DemoRequestInput is the body of POST /api/demo-requests.
type DemoRequestInput struct {
	Name         string `json:"name"`
	Email        string `json:"email"`
	Organisation string `json:"organisation"`
	Message      string `json:"message"`
	Interest     string `json:"interest"`
}

// Normalize trims surrounding white space from every field.
func (in DemoRequestInput) Normalize() DemoRequestInput {
	return DemoRequestInput{
		Name:         strings.TrimSpace(in.Name),
		Email:        strings.TrimSpace(in.Email),
		Organisation: strings.TrimSpace(in.Organisation),
		Message:      strings.TrimSpace(in.Message),
		Interest:     strings.TrimSpace(in.Interest),
	}
}

// Validate checks every field and reports all problems at once, as one
// apperr.Invalid whose message holds one "field: problem" clause per bad
// field, joined by "; ", so that a form can show each next to its input.
// Call it on a normalized input.
func (in DemoRequestInput) Validate() error {
	var problems []string
	add := func(field, problem string) { problems = append(problems, field+": "+problem) }

	checkText := func(field, value string, least, most int) {
		n := utf8.RuneCountInString(value)
		switch {
		case n == 0 && least > 0:
			add(field, "is required")
		case n < least:
			add(field, "must be at least "+strconv.Itoa(least)+" characters")
		case n > most:
			add(field, "must be at most "+strconv.Itoa(most)+" characters")
		case hasControl(value, field == "message"):
			add(field, "must not contain control characters")
		}
	}
	checkText("name", in.Name, 1, MaxNameLen)
	switch {
	case in.Email == "":
		add("email", "is required")
	case utf8.RuneCountInString(in.Email) > MaxEmailLen:
		add("email", "must be at most "+strconv.Itoa(MaxEmailLen)+" characters")
	case !validEmail(in.Email):
		add("email", "must be an address like name@example.com")
	}
	checkText("organisation", in.Organisation, 1, MaxOrganisationLen)
	checkText("message", in.Message, MinMessageLen, MaxMessageLen)
	checkText("interest", in.Interest, 0, MaxInterestLen)

	if len(problems) > 0 {
		return apperr.Invalid("%s", strings.Join(problems, "; "))
	}
	return nil
}

// validEmail accepts a bare address (no display name) with a dotted domain.
func validEmail(s string) bool {
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || addr.Name != "" {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	return at > 0 && strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// hasControl reports control characters; a message may hold line breaks and tabs.
func hasControl(s string, multiline bool) bool {
	for _, r := range s {
		if multiline && (r == '\n' || r == '\r' || r == '\t') {
			continue
		}
		if r < 0x20 || r == 0x7f {
			return true
		}
	}
	return false
}

// ActiveLearnerWindow is how recently a learner must have started an XR
// session to count as active.
const ActiveLearnerWindow = 30 * 24 * time.Hour

// DashboardStats is the body of GET /api/analytics/dashboard-stats: the
// figures of the landing page's four dashboard tiles, of the caller's
// organisation or, for everyone outside one, of the whole platform.
type DashboardStats struct {
	ActiveLearners      int     `json:"activeLearners"`      // distinct learners with a session started within ActiveLearnerWindow
	TotalCertifications int     `json:"totalCertifications"` // certificates issued and not revoked
	TotalXRSessions     int     `json:"totalXrSessions"`     // every session ever started
	AverageSafetyScore  float64 `json:"averageSafetyScore"`  // mean of ended verified sessions' scores, one decimal; 0 when none
	Scope               string  `json:"scope"`               // ScopeOrganisation or ScopePlatform
}

// Scopes of the dashboard's figures.
const (
	ScopeOrganisation = "organisation"
	ScopePlatform     = "platform"
)

// RoundScore rounds a percentage to the one decimal the dashboard shows.
func RoundScore(v float64) float64 { return math.Round(v*10) / 10 }
