// Package portal is the instructor's side of the platform (PORTAL): what an
// instructor sees of each learner, how lists of learners are filtered and
// sorted, and exports a spreadsheet opens safely.
package portal

import (
	"time"

	"journeyman/internal/apperr"
)

// LearnerFigures are what an instructor sees of one learner's training, all
// computed from stored records:
//
//   - Sessions, TimeSeconds: every XR session the learner started, and the
//     sum of their recorded durations;
//   - LastActive: the latest update of any of them;
//   - ModulesCompleted: modules with at least one verified, passed session;
//   - AverageSafetyScore: the mean score of the ended, verified sessions
//     (one decimal), nil without one; an unverified score is the client's word;
//   - Alerts: safety alerts the learner raised;
//   - RefreshersDue: modules whose spaced-repetition refresher is due now;
//   - UnverifiedSessions: ended sessions the server could not verify.
type LearnerFigures struct {
	ID                 string     `json:"id"`
	DisplayName        string     `json:"displayName"`
	Email              string     `json:"email"`
	Sessions           int        `json:"sessions"`
	TimeSeconds        int64      `json:"timeSeconds"`
	LastActive         *time.Time `json:"lastActive"`
	ModulesCompleted   int        `json:"modulesCompleted"`
	AverageSafetyScore *float64   `json:"averageSafetyScore"`
	Alerts             int        `json:"alerts"`
	RefreshersDue      int        `json:"refreshersDue"`
	UnverifiedSessions int        `json:"unverifiedSessions"`
}

// InactiveAfter is how long without a session makes a learner inactive.
const InactiveAfter = 30 * 24 * time.Hour

// Filters of a learner list: who needs the instructor's attention.
const (
	FlagRefreshersDue = "refreshersDue"
	FlagUnverified    = "unverified"
	FlagAlerts        = "alerts"
	FlagInactive      = "inactive"
)

// SortKeys are the columns a learner list sorts by, as the query names them.
var SortKeys = []string{"displayName", "sessions", "timeSeconds", "lastActive", "modulesCompleted",
	"averageSafetyScore", "alerts", "refreshersDue", "unverifiedSessions"}

// Page sizes of learner lists.
const (
	DefaultLearnerPage = 25
	MaxLearnerPage     = 100
	MaxQuery           = 254 // a search matches names and emails, so it may be as long as an email
)

// LearnerQuery selects, orders and pages a cohort's learners.
type LearnerQuery struct {
	Q      string // matched, case-insensitively, inside the name or the email
	Flag   string // one of the Flag constants, or "" for everyone
	Sort   string // one of SortKeys; "" is displayName
	Desc   bool
	Limit  int
	Offset int
}

// Validate checks the query and fills in its defaults.
func (q *LearnerQuery) Validate() error {
	if len([]rune(q.Q)) > MaxQuery {
		return apperr.Invalid("q must be at most %d characters", MaxQuery)
	}
	switch q.Flag {
	case "", FlagRefreshersDue, FlagUnverified, FlagAlerts, FlagInactive:
	default:
		return apperr.Invalid("flag must be one of %s, %s, %s or %s, not %q", FlagRefreshersDue, FlagUnverified, FlagAlerts, FlagInactive, q.Flag)
	}
	if q.Sort == "" {
		q.Sort = "displayName"
	}
	known := false
	for _, k := range SortKeys {
		known = known || k == q.Sort
	}
	if !known {
		return apperr.Invalid("sort must be one of %v, not %q", SortKeys, q.Sort)
	}
	if q.Limit == 0 {
		q.Limit = DefaultLearnerPage
	}
	if q.Limit < 1 || q.Limit > MaxLearnerPage {
		return apperr.Invalid("limit must be from 1 to %d, not %d", MaxLearnerPage, q.Limit)
	}
	if q.Offset < 0 {
		return apperr.Invalid("offset must not be negative, not %d", q.Offset)
	}
	return nil
}
