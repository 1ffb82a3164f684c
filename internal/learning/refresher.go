package learning

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"time"

	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"

	"journeyman/internal/apperr"
)

// FirstRefresherWithin caps the wait before the first refresher of a newly
// completed module. Apprentices forget about 70% of new material within 24
// hours, so whatever FSRS computes from a first rating, the first refresher is
// due no later than a day after completion; FSRS spaces every later one.
const FirstRefresherWithin = 24 * time.Hour

// schedulerParams are FSRS's published default weights, a 90% target
// retention, the long-term scheduler (intervals in whole days: a refresher is
// an XR session, not a flash card to repeat in ten minutes) and no fuzz, so
// the schedule is deterministic.
var schedulerParams = func() fsrs.Parameters {
	p := fsrs.DefaultParam()
	p.EnableShortTerm = false
	p.EnableFuzz = false
	return p
}()

// scheduler returns a scheduler of its own to each caller: go-fsrs writes a
// seed into its parameters on every Next, so one shared scheduler is a data
// race between concurrent requests.
func scheduler() *fsrs.FSRS { return fsrs.NewFSRS(schedulerParams) }

// Refresher card states, FSRS's memory states by name.
var refresherStates = map[fsrs.State]string{fsrs.New: "new", fsrs.Learning: "learning", fsrs.Review: "review", fsrs.Relearning: "relearning"}

// RefresherCard is the spaced-repetition schedule of one completed module.
type RefresherCard struct {
	ModuleID      string    `json:"moduleId"`
	Due           time.Time `json:"due"`
	Stability     float64   `json:"stability"`  // days until recall falls to 90%
	Difficulty    float64   `json:"difficulty"` // 1 (easy) to 10 (hard)
	ElapsedDays   int       `json:"elapsedDays"`
	ScheduledDays int       `json:"scheduledDays"`
	Reps          int       `json:"reps"`
	Lapses        int       `json:"lapses"`
	State         string    `json:"state"` // new, learning, review, relearning
	LastReview    time.Time `json:"lastReview"`
}

// Completion is one completed session of a module with its score in percent
// (the session's safety score, or its completion score when it has none).
type Completion struct {
	ModuleID string
	Score    float64
	At       time.Time
}

// RatingFromScore maps a session score in percent to an FSRS rating: below 50
// the module was not recalled (Again), 50–74 recalled with serious difficulty
// (Hard), 75–89 recalled (Good), 90 and above recalled easily (Easy).
func RatingFromScore(score float64) fsrs.Rating {
	switch {
	case score >= 90:
		return fsrs.Easy
	case score >= 75:
		return fsrs.Good
	case score >= 50:
		return fsrs.Hard
	default:
		return fsrs.Again
	}
}

func checkScore(score float64) error {
	if math.IsNaN(score) || score < 0 || score > 100 {
		return apperr.Invalid("score must be 0 to 100")
	}
	return nil
}

// ScheduleRefresher creates the refresher card of a module completed at
// completedAt with the given score; the first refresher is due within
// FirstRefresherWithin.
func ScheduleRefresher(moduleID string, score float64, completedAt time.Time) (RefresherCard, error) {
	if moduleID == "" {
		return RefresherCard{}, apperr.Invalid("moduleId is required")
	}
	if err := checkScore(score); err != nil {
		return RefresherCard{}, err
	}
	next := scheduler().Next(fsrs.NewCard(), completedAt, RatingFromScore(score)).Card
	if limit := completedAt.Add(FirstRefresherWithin); next.Due.After(limit) {
		next.Due = limit
		next.ScheduledDays = uint64(FirstRefresherWithin / (24 * time.Hour))
	}
	return fromFSRS(moduleID, next), nil
}

// Review records a refresher session of the card's module at now with the
// given score and returns the rescheduled card.
func Review(card RefresherCard, score float64, now time.Time) (RefresherCard, error) {
	if err := checkScore(score); err != nil {
		return RefresherCard{}, err
	}
	if now.Before(card.LastReview) {
		return RefresherCard{}, apperr.Invalid("review time %s is before the last review %s", now.Format(time.RFC3339), card.LastReview.Format(time.RFC3339))
	}
	next := scheduler().Next(card.toFSRS(), now, RatingFromScore(score)).Card
	return fromFSRS(card.ModuleID, next), nil
}

// RecordCompletion applies one completed session: a first completion
// schedules the module's refresher, a later one reviews it. existing is the
// module's card, nil when it has none.
func RecordCompletion(existing *RefresherCard, c Completion) (RefresherCard, error) {
	if existing == nil {
		return ScheduleRefresher(c.ModuleID, c.Score, c.At)
	}
	return Review(*existing, c.Score, c.At)
}

// BuildRefreshers replays completed sessions in time order and returns one
// card per module, ordered by due time then module id. Replaying the history
// gives the same cards as recording each completion as it happened.
func BuildRefreshers(completions []Completion) ([]RefresherCard, error) {
	sorted := slices.Clone(completions)
	slices.SortStableFunc(sorted, func(a, b Completion) int { return a.At.Compare(b.At) })
	cards := map[string]*RefresherCard{}
	for _, c := range sorted {
		next, err := RecordCompletion(cards[c.ModuleID], c)
		if err != nil {
			return nil, fmt.Errorf("build refreshers: %s at %s: %w", c.ModuleID, c.At.Format(time.RFC3339), err)
		}
		cards[c.ModuleID] = &next
	}
	out := make([]RefresherCard, 0, len(cards))
	for _, c := range cards {
		out = append(out, *c)
	}
	sortByDue(out)
	return out, nil
}

// DueRefreshers returns the cards due at or before now, most overdue first.
func DueRefreshers(cards []RefresherCard, now time.Time) []RefresherCard {
	due := []RefresherCard{}
	for _, c := range cards {
		if !c.Due.After(now) {
			due = append(due, c)
		}
	}
	sortByDue(due)
	return due
}

// Retrievability is FSRS's estimate of the probability, 0 to 1, that the
// learner still recalls the module at now.
func Retrievability(card RefresherCard, now time.Time) float64 {
	return scheduler().GetRetrievability(card.toFSRS(), now)
}

func sortByDue(cards []RefresherCard) {
	slices.SortFunc(cards, func(a, b RefresherCard) int {
		if c := a.Due.Compare(b.Due); c != 0 {
			return c
		}
		return cmp.Compare(a.ModuleID, b.ModuleID)
	})
}

func fromFSRS(moduleID string, c fsrs.Card) RefresherCard {
	return RefresherCard{
		ModuleID:      moduleID,
		Due:           c.Due.UTC(),
		Stability:     c.Stability,
		Difficulty:    c.Difficulty,
		ElapsedDays:   count(c.ElapsedDays),
		ScheduledDays: count(c.ScheduledDays),
		Reps:          count(c.Reps),
		Lapses:        count(c.Lapses),
		State:         refresherStates[c.State],
		LastReview:    c.LastReview.UTC(),
	}
}

func (r RefresherCard) toFSRS() fsrs.Card {
	state := fsrs.New
	for s, name := range refresherStates {
		if name == r.State {
			state = s
		}
	}
	return fsrs.Card{
		Due:           r.Due,
		Stability:     r.Stability,
		Difficulty:    r.Difficulty,
		ElapsedDays:   uint64(max(r.ElapsedDays, 0)),
		ScheduledDays: uint64(max(r.ScheduledDays, 0)),
		Reps:          uint64(max(r.Reps, 0)),
		Lapses:        uint64(max(r.Lapses, 0)),
		State:         state,
		LastReview:    r.LastReview,
	}
}

// count converts one of FSRS's counters (days, reviews), saturating: no
// real one comes near the bound, and none may wrap to a negative.
func count(n uint64) int {
	if n > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(n)
}
