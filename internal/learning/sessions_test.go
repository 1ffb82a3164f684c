package learning

import (
	"math"
	"reflect"
	"slices"
	"testing"
	"time"
)

func score(v float64) *float64 { return &v }

func TestCompletionsFromSessions(t *testing.T) {
	h := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Hour) }
	for _, tt := range []struct {
		name     string
		sessions []SessionResult
		want     []Completion
		modules  []string
	}{
		{"None", nil, []Completion{}, []string{}},
		{"FailedPracticeBeforeFirstPassIsDropped",
			[]SessionResult{
				{ModuleID: "elec-loto", EndedAt: h(2), SafetyScore: score(92), Passed: true},
				{ModuleID: "elec-loto", EndedAt: h(1), SafetyScore: score(40), Passed: false},
			},
			[]Completion{{ModuleID: "elec-loto", Score: 92, At: h(2)}},
			[]string{"elec-loto"}},
		{"FailedRefresherScoresZero",
			[]SessionResult{
				{ModuleID: "elec-loto", EndedAt: h(1), SafetyScore: score(80), Passed: true},
				{ModuleID: "elec-loto", EndedAt: h(30), SafetyScore: score(85), Passed: false},
			},
			[]Completion{{ModuleID: "elec-loto", Score: 80, At: h(1)}, {ModuleID: "elec-loto", Score: 0, At: h(30)}},
			[]string{"elec-loto"}},
		{"UnscoredPassIsGood",
			[]SessionResult{{ModuleID: "plumb-solder", EndedAt: h(3), Passed: true}},
			[]Completion{{ModuleID: "plumb-solder", Score: 75, At: h(3)}},
			[]string{"plumb-solder"}},
		{"NeverPassedIsNotCompleted",
			[]SessionResult{{ModuleID: "elec-gfci", EndedAt: h(1), SafetyScore: score(100), Passed: false}},
			[]Completion{}, []string{}},
		{"OrderOfFirstPass",
			[]SessionResult{
				{ModuleID: "b", EndedAt: h(5), Passed: true},
				{ModuleID: "a", EndedAt: h(4), SafetyScore: score(130), Passed: true},
				{ModuleID: "a", EndedAt: h(6), SafetyScore: score(60), Passed: true},
			},
			[]Completion{{ModuleID: "a", Score: 100, At: h(4)}, {ModuleID: "b", Score: 75, At: h(5)}, {ModuleID: "a", Score: 60, At: h(6)}},
			[]string{"a", "b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := CompletionsFromSessions(tt.sessions); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("CompletionsFromSessions = %+v, want %+v", got, tt.want)
			}
			if got := CompletedModuleIDs(tt.sessions); !slices.Equal(got, tt.modules) {
				t.Errorf("CompletedModuleIDs = %v, want %v", got, tt.modules)
			}
		})
	}
}

func TestApplySessions(t *testing.T) {
	h := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Hour) }
	all := []SessionResult{
		{ID: "s1", ModuleID: "elec-loto", EndedAt: h(1), SafetyScore: score(40), Passed: false}, // practice
		{ID: "s2", ModuleID: "elec-loto", EndedAt: h(2), SafetyScore: score(85), Passed: true},  // completion
		{ID: "s3", ModuleID: "plumb-solder", EndedAt: h(3), Passed: true},
		{ID: "s4", ModuleID: "elec-loto", EndedAt: h(26), SafetyScore: score(95), Passed: true}, // refresher
		{ID: "s5", ModuleID: "plumb-solder", EndedAt: h(30), Passed: false},                     // forgotten
		{ID: "s6", ModuleID: "elec-loto", EndedAt: h(26), SafetyScore: score(70), Passed: true}, // same instant, later id
	}
	want, err := BuildRefreshers(CompletionsFromSessions(all))
	if err != nil {
		t.Fatal(err)
	}
	fold := func(t *testing.T, batches ...[]SessionResult) map[string]AppliedCard {
		t.Helper()
		cards := map[string]AppliedCard{}
		for _, b := range batches {
			changed, err := ApplySessions(cards, b)
			if err != nil {
				t.Fatal(err)
			}
			for id, c := range changed {
				cards[id] = c
			}
		}
		return cards
	}
	for _, tt := range []struct {
		name    string
		batches [][]SessionResult
	}{
		{"OneBatch", [][]SessionResult{all}},
		{"SessionBySession", [][]SessionResult{all[:1], all[1:2], all[2:3], all[3:4], all[4:5], all[5:]}},
		// A caller passes every session it knows each time; applied ones are skipped.
		{"Cumulative", [][]SessionResult{all[:2], all[:4], all}},
		{"Shuffled", [][]SessionResult{{all[5], all[2], all[0], all[4], all[1], all[3]}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cards := fold(t, tt.batches...)
			var got []RefresherCard
			for _, c := range cards {
				got = append(got, c.Card)
			}
			sortByDue(got)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("cards = %+v\nwant %+v", got, want)
			}
			if c := cards["elec-loto"]; c.LastSessionID != "s6" || !c.LastSessionAt.Equal(h(26)) || c.Card.Reps != 3 {
				t.Errorf("elec-loto = %+v, want last session s6 at %v after 3 reviews", c, h(26))
			}
			if c := cards["plumb-solder"]; c.LastSessionID != "s5" || c.Card.Lapses != 1 {
				t.Errorf("plumb-solder = %+v, want last session s5 with one lapse", c)
			}
		})
	}
	t.Run("NothingNew", func(t *testing.T) {
		cards := fold(t, all)
		changed, err := ApplySessions(cards, all)
		if err != nil || len(changed) != 0 {
			t.Fatalf("ApplySessions again = %v, %v; want no change", changed, err)
		}
	})
	t.Run("PracticeOnlyMakesNoCard", func(t *testing.T) {
		changed, err := ApplySessions(nil, all[:1])
		if err != nil || len(changed) != 0 {
			t.Fatalf("ApplySessions = %v, %v; want no card", changed, err)
		}
	})
	t.Run("LateRecordBeforeLastAppliedIsSkipped", func(t *testing.T) {
		cards := fold(t, all)
		late := SessionResult{ID: "s0", ModuleID: "elec-loto", EndedAt: h(3), SafetyScore: score(10), Passed: true}
		changed, err := ApplySessions(cards, []SessionResult{late})
		if err != nil || len(changed) != 0 {
			t.Fatalf("ApplySessions = %v, %v; want the late record skipped", changed, err)
		}
	})
	t.Run("NaNScoreCountsAsUnscoredPass", func(t *testing.T) {
		nan := math.NaN()
		changed, err := ApplySessions(nil, []SessionResult{{ID: "n", ModuleID: "m", EndedAt: h(1), SafetyScore: &nan, Passed: true}})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := ScheduleRefresher("m", unscoredPassScore, h(1))
		if !reflect.DeepEqual(changed["m"].Card, want) {
			t.Errorf("card = %+v, want %+v", changed["m"].Card, want)
		}
	})
}
