package learning

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"
	"time"

	fsrs "github.com/open-spaced-repetition/go-fsrs/v3"

	"journeyman/internal/apperr"
)

var t0 = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

func day(n float64) time.Duration { return time.Duration(n * 24 * float64(time.Hour)) }

func TestRatingFromScore(t *testing.T) {
	for _, tt := range []struct {
		score float64
		want  fsrs.Rating
	}{{0, fsrs.Again}, {49.9, fsrs.Again}, {50, fsrs.Hard}, {74, fsrs.Hard}, {75, fsrs.Good}, {89, fsrs.Good}, {90, fsrs.Easy}, {100, fsrs.Easy}} {
		if got := RatingFromScore(tt.score); got != tt.want {
			t.Errorf("RatingFromScore(%v) = %v, want %v", tt.score, got, tt.want)
		}
	}
}

func TestScheduleRefresher(t *testing.T) {
	var prev RefresherCard
	for i, score := range []float64{30, 60, 80, 95} {
		t.Run(fmt.Sprintf("Score%v", score), func(t *testing.T) {
			c, err := ScheduleRefresher("elec-loto", score, t0)
			if err != nil {
				t.Fatal(err)
			}
			// Whatever the score, the first refresher comes within a day:
			// 70% of new material is forgotten in 24 hours.
			if !c.Due.Equal(t0.Add(24*time.Hour)) || c.ScheduledDays != 1 {
				t.Errorf("due %v (%d days), want %v", c.Due, c.ScheduledDays, t0.Add(24*time.Hour))
			}
			if c.ModuleID != "elec-loto" || c.Reps != 1 || c.Lapses != 0 || c.State != "review" || !c.LastReview.Equal(t0) {
				t.Errorf("card = %+v", c)
			}
			// A better first score means a stronger, easier memory.
			if i > 0 && (c.Stability <= prev.Stability || c.Difficulty >= prev.Difficulty) {
				t.Errorf("score %v: stability %v difficulty %v not better than %+v", score, c.Stability, c.Difficulty, prev)
			}
			prev = c
		})
	}
	for _, tt := range []struct {
		name   string
		module string
		score  float64
	}{{"ErrModule", "", 80}, {"ErrNegative", "m", -1}, {"ErrAbove100", "m", 101}, {"ErrNaN", "m", math.NaN()}} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ScheduleRefresher(tt.module, tt.score, t0); apperr.Code(err) != apperr.EINVALID {
				t.Fatalf("err = %v, want EINVALID", err)
			}
		})
	}
}

func TestReview(t *testing.T) {
	first, err := ScheduleRefresher("plumb-solder", 80, t0)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("BetterScoreWaitsLonger", func(t *testing.T) {
		var prev time.Time
		for _, score := range []float64{30, 60, 80, 95} {
			c, err := Review(first, score, first.Due)
			if err != nil {
				t.Fatal(err)
			}
			if c.Reps != 2 || !c.LastReview.Equal(first.Due) || !c.Due.After(first.Due) {
				t.Errorf("score %v: card %+v", score, c)
			}
			if !prev.IsZero() && !c.Due.After(prev) {
				t.Errorf("score %v due %v, not after the lower score's %v", score, c.Due, prev)
			}
			prev = c.Due
		}
	})
	t.Run("FailedRefresherIsALapse", func(t *testing.T) {
		c, err := Review(first, 20, first.Due)
		if err != nil {
			t.Fatal(err)
		}
		if c.Lapses != 1 || c.Stability >= first.Stability || c.Due.Sub(first.Due) != 24*time.Hour {
			t.Errorf("after a failed refresher: %+v", c)
		}
	})
	t.Run("IntervalsGrowWithEachGoodRefresher", func(t *testing.T) {
		c, last := first, 24*time.Hour
		for i := range 4 {
			next, err := Review(c, 80, c.Due)
			if err != nil {
				t.Fatal(err)
			}
			if gap := next.Due.Sub(c.Due); gap <= last {
				t.Fatalf("refresher %d: interval %v not longer than %v", i+2, gap, last)
			} else {
				last = gap
			}
			c = next
		}
		if last < day(14) {
			t.Errorf("after five good sessions the interval is %v; want weeks", last)
		}
	})
	t.Run("ErrReviewBeforeLastReview", func(t *testing.T) {
		if _, err := Review(first, 80, t0.Add(-time.Minute)); apperr.Code(err) != apperr.EINVALID {
			t.Fatalf("err = %v, want EINVALID", err)
		}
	})
	t.Run("ErrScore", func(t *testing.T) {
		if _, err := Review(first, 120, first.Due); apperr.Code(err) != apperr.EINVALID {
			t.Fatalf("err = %v, want EINVALID", err)
		}
	})
}

func TestRetrievability(t *testing.T) {
	c, err := ScheduleRefresher("elec-meter", 80, t0)
	if err != nil {
		t.Fatal(err)
	}
	r1, r7, r30 := Retrievability(c, t0.Add(day(1))), Retrievability(c, t0.Add(day(7))), Retrievability(c, t0.Add(day(30)))
	if !(r1 > r7 && r7 > r30 && r30 > 0 && r1 < 1) {
		t.Errorf("recall after 1, 7, 30 days = %v, %v, %v; want strictly falling", r1, r7, r30)
	}
	// FSRS's stability is the time at which recall falls to 90%.
	if got := Retrievability(c, t0.Add(day(c.Stability))); math.Abs(got-0.9) > 1e-6 {
		t.Errorf("recall at stability = %v, want 0.9", got)
	}
}

func TestDueRefreshers(t *testing.T) {
	cards := []RefresherCard{
		{ModuleID: "c", Due: t0.Add(2 * time.Hour)},
		{ModuleID: "b", Due: t0.Add(-day(2))},
		{ModuleID: "a", Due: t0},
		{ModuleID: "d", Due: t0.Add(-day(2))},
	}
	for _, tt := range []struct {
		name string
		now  time.Time
		want []string
	}{
		{"MostOverdueFirstThenById", t0, []string{"b", "d", "a"}},
		{"NoneDue", t0.Add(-day(3)), []string{}},
		{"AllDue", t0.Add(day(1)), []string{"b", "d", "a", "c"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := []string{}
			for _, c := range DueRefreshers(cards, tt.now) {
				got = append(got, c.ModuleID)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("due = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestBuildRefreshers(t *testing.T) {
	completions := []Completion{
		{ModuleID: "elec-outlet", Score: 70, At: t0.Add(day(3))},
		{ModuleID: "elec-loto", Score: 90, At: t0},
		{ModuleID: "elec-loto", Score: 60, At: t0.Add(day(1))},
		{ModuleID: "elec-loto", Score: 85, At: t0.Add(day(4))},
	}
	got, err := BuildRefreshers(completions)
	if err != nil {
		t.Fatal(err)
	}
	// The same history recorded one completion at a time, in time order.
	loto, _ := ScheduleRefresher("elec-loto", 90, t0)
	loto, _ = Review(loto, 60, t0.Add(day(1)))
	loto, _ = Review(loto, 85, t0.Add(day(4)))
	outlet, _ := ScheduleRefresher("elec-outlet", 70, t0.Add(day(3)))
	want := []RefresherCard{outlet, loto}
	if outlet.Due.After(loto.Due) {
		want = []RefresherCard{loto, outlet}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("BuildRefreshers =\n%+v\nwant\n%+v", got, want)
	}
	if got[0].ModuleID == got[1].ModuleID || loto.Reps != 3 {
		t.Errorf("cards %+v", got)
	}
	t.Run("Empty", func(t *testing.T) {
		got, err := BuildRefreshers(nil)
		if err != nil || got == nil || len(got) != 0 {
			t.Fatalf("BuildRefreshers(nil) = %v, %v", got, err)
		}
	})
	t.Run("ErrBadScore", func(t *testing.T) {
		if _, err := BuildRefreshers([]Completion{{ModuleID: "m", Score: -5, At: t0}}); apperr.Code(err) != apperr.EINVALID {
			t.Fatalf("err = %v, want EINVALID", err)
		}
	})
}

// TestRefreshersConcurrently runs the scheduler from many goroutines, as
// concurrent requests do; -race fails it if FSRS state is shared.
func TestRefreshersConcurrently(t *testing.T) {
	want, err := ScheduleRefresher("elec-loto", 80, t0)
	if err != nil {
		t.Fatal(err)
	}
	wantReview, err := Review(want, 95, want.Due)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 16)
	for range cap(errs) {
		go func() {
			c, err := ScheduleRefresher("elec-loto", 80, t0)
			if err == nil && !reflect.DeepEqual(c, want) {
				err = fmt.Errorf("card %+v, want %+v", c, want)
			}
			if err == nil {
				var r RefresherCard
				r, err = Review(c, 95, c.Due)
				if err == nil && !reflect.DeepEqual(r, wantReview) {
					err = fmt.Errorf("review %+v, want %+v", r, wantReview)
				}
				_ = Retrievability(r, r.Due)
			}
			errs <- err
		}()
	}
	for range cap(errs) {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
