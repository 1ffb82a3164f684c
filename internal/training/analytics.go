package training

import (
	"math"
	"time"

	"journeyman/internal/catalog"
)

// SessionSummary is a session record without its interaction data: an item
// of GET /api/users/{userId}/xr-sessions and of GET /api/live-sessions.
type SessionSummary struct {
	ID               string     `json:"id"`
	UserID           string     `json:"userId"`
	ModuleID         string     `json:"moduleId"`
	ModuleTitle      string     `json:"moduleTitle"`
	SessionType      string     `json:"sessionType"` // desktop, vr or ar
	DeviceType       string     `json:"deviceType"`
	StartedAt        time.Time  `json:"startedAt"`
	EndedAt          *time.Time `json:"endedAt"`          // null while in progress
	Duration         int64      `json:"duration"`         // seconds
	CompletionStatus string     `json:"completionStatus"` // in_progress or completed
	// Outcome is interactionData.completionStatus: "" while the session
	// runs, then passed or failed against the scene's pass criteria.
	Outcome     string    `json:"outcome"`
	SafetyScore *float64  `json:"safetyScore"` // percent; null until the session ends
	UpdatedAt   time.Time `json:"updatedAt"`
	// Verified and VerificationIssues are the session's (see Session).
	Verified           bool     `json:"verified"`
	VerificationIssues []string `json:"verificationIssues"`
	// SafetyChecks are the scene's checks as judged when the session ended
	// (interactionData.safetyChecks); empty while it runs.
	SafetyChecks []SafetyCheckResult `json:"safetyChecks"`
}

// Summary returns the session's summary.
func (s Session) Summary() SessionSummary {
	return SessionSummary{
		ID: s.ID, UserID: s.UserID, ModuleID: s.ModuleID, ModuleTitle: s.ModuleTitle, SessionType: s.SessionType, DeviceType: s.DeviceType,
		StartedAt: s.StartedAt, EndedAt: s.EndedAt, Duration: s.Duration, CompletionStatus: s.CompletionStatus,
		Outcome: s.InteractionData.CompletionStatus, SafetyScore: s.SafetyScore, UpdatedAt: s.UpdatedAt,
		Verified: s.Verified, VerificationIssues: s.VerificationIssues, SafetyChecks: s.InteractionData.SafetyChecks,
	}
}

// Analytics is a learner's XR progress: the body of
// GET /api/users/{userId}/xr-analytics.
type Analytics struct {
	TotalSessions      int             `json:"totalSessions"`      // ended sessions, verified or not
	TotalDuration      int64           `json:"totalDuration"`      // seconds, over every session
	AverageSafetyScore float64         `json:"averageSafetyScore"` // percent, one decimal, over verified scored sessions
	CompletedModules   int             `json:"completedModules"`   // distinct modules with a verified passed session
	TradeProgress      []TradeProgress `json:"tradeProgress"`      // completion share per trade, in catalog order
}

// TradeProgress is the share of a trade's modules the learner has completed.
type TradeProgress struct {
	TradeID   string `json:"tradeId"`
	TradeName string `json:"tradeName"`
	Completed int    `json:"completed"` // modules of the trade with a verified passed session
	Total     int    `json:"total"`     // modules of the trade
	Percent   int    `json:"percent"`   // completed ÷ total × 100, rounded
}

// Analyze computes a learner's analytics from their session records and the
// catalog. A module counts as completed when one of its verified sessions
// ended with the scene's pass criteria met; missing values count as 0. An
// unverified session counts as time trained and as a session, but its score
// is no measure of the learner, so it is neither averaged nor a completion.
func Analyze(sessions []SessionSummary, trades []catalog.Trade, modules []catalog.Module) Analytics {
	a := Analytics{TradeProgress: []TradeProgress{}}
	completed := map[string]bool{}
	var scoreSum float64
	var scored int
	for _, s := range sessions {
		a.TotalDuration += s.Duration
		if s.CompletionStatus != StatusCompleted {
			continue
		}
		a.TotalSessions++
		if !s.Verified {
			continue
		}
		if s.SafetyScore != nil {
			scoreSum += *s.SafetyScore
			scored++
		}
		if s.Outcome == OutcomePassed {
			completed[s.ModuleID] = true
		}
	}
	a.CompletedModules = len(completed)
	if scored > 0 {
		a.AverageSafetyScore = math.Round(10*scoreSum/float64(scored)) / 10
	}

	index := map[string]int{}
	for _, t := range trades {
		index[t.ID] = len(a.TradeProgress)
		a.TradeProgress = append(a.TradeProgress, TradeProgress{TradeID: t.ID, TradeName: t.Name})
	}
	for _, m := range modules {
		i, ok := index[m.TradeID]
		if !ok {
			continue // the catalog's foreign key makes this impossible
		}
		a.TradeProgress[i].Total++
		if completed[m.ID] {
			a.TradeProgress[i].Completed++
		}
	}
	for i, t := range a.TradeProgress {
		if t.Total > 0 {
			a.TradeProgress[i].Percent = int(math.Round(100 * float64(t.Completed) / float64(t.Total)))
		}
	}
	return a
}
