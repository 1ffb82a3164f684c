package learning

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// SessionResult is what the refresher schedule and the recommender need from
// one ended XR session record.
type SessionResult struct {
	ID          string // the session record's id; orders sessions that end at the same instant
	ModuleID    string
	EndedAt     time.Time
	SafetyScore *float64 // percent; nil when the session recorded none
	Passed      bool     // the scene's pass criteria were met
}

// unscoredPassScore rates a passed session that recorded no safety score as a
// plain recall (Good): the learner did the task, nothing says how well.
const unscoredPassScore = 75

// CompletionsFromSessions turns session records into refresher completions.
// A module counts as completed at its first passed session; sessions before
// that are practice, not recall, and are dropped. After it, every ended
// session of the module is a refresher: a passed one is rated by its safety
// score, a failed one as forgotten (score 0).
func CompletionsFromSessions(results []SessionResult) []Completion {
	sorted := slices.Clone(results)
	sortSessions(sorted)
	completed := map[string]bool{}
	out := []Completion{}
	for _, r := range sorted {
		if !completed[r.ModuleID] && !r.Passed {
			continue
		}
		completed[r.ModuleID] = true
		out = append(out, Completion{ModuleID: r.ModuleID, Score: r.score(), At: r.EndedAt})
	}
	return out
}

// score rates a session for FSRS: a passed one by its safety score, a failed
// one as forgotten.
func (r SessionResult) score() float64 {
	if !r.Passed {
		return 0
	}
	if r.SafetyScore == nil || math.IsNaN(*r.SafetyScore) {
		return unscoredPassScore
	}
	return min(max(*r.SafetyScore, 0), 100)
}

// CompletedModuleIDs returns the distinct modules with a passed session, in
// the order they were first passed.
func CompletedModuleIDs(results []SessionResult) []string {
	ids := []string{}
	for _, c := range CompletionsFromSessions(results) {
		if !slices.Contains(ids, c.ModuleID) {
			ids = append(ids, c.ModuleID)
		}
	}
	return ids
}

// sortSessions orders results by end time, then id, the order in which they
// are folded into refresher cards.
func sortSessions(results []SessionResult) {
	slices.SortStableFunc(results, func(a, b SessionResult) int {
		if c := a.EndedAt.Compare(b.EndedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// SessionAfter reports whether r comes after the session (at, id) in the
// order sortSessions uses.
func (r SessionResult) SessionAfter(at time.Time, id string) bool {
	if c := r.EndedAt.Compare(at); c != 0 {
		return c > 0
	}
	return r.ID > id
}

// AppliedCard is a refresher card with the newest session folded into it.
type AppliedCard struct {
	Card          RefresherCard
	LastSessionAt time.Time
	LastSessionID string
}

// ApplySessions folds ended sessions not yet applied into the learner's
// refresher cards and returns the cards that changed, by module id. cards
// holds the stored cards by module id; results may include sessions already
// applied (at or before a card's last session), which are skipped, so a caller
// can pass every session it knows. A module without a card gets one at its
// first passed session, as in CompletionsFromSessions; a module with a card
// is reviewed by every later session. Folding sessions in several batches
// gives the same cards as BuildRefreshers over all of them, provided no
// session ends before one already applied to its module (such a late record
// is skipped: FSRS cannot rewrite a review history).
func ApplySessions(cards map[string]AppliedCard, results []SessionResult) (map[string]AppliedCard, error) {
	sorted := slices.Clone(results)
	sortSessions(sorted)
	changed := map[string]AppliedCard{}
	for _, r := range sorted {
		cur, ok := changed[r.ModuleID]
		if !ok {
			cur, ok = cards[r.ModuleID]
		}
		if ok && !r.SessionAfter(cur.LastSessionAt, cur.LastSessionID) {
			continue
		}
		var existing *RefresherCard
		if ok {
			existing = &cur.Card
		} else if !r.Passed {
			continue // practice before the first pass
		}
		next, err := RecordCompletion(existing, Completion{ModuleID: r.ModuleID, Score: r.score(), At: r.EndedAt})
		if err != nil {
			return nil, fmt.Errorf("apply session %s of %s: %w", r.ID, r.ModuleID, err)
		}
		changed[r.ModuleID] = AppliedCard{Card: next, LastSessionAt: r.EndedAt, LastSessionID: r.ID}
	}
	return changed, nil
}
