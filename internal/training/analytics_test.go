package training

import (
	"reflect"
	"testing"

	"journeyman/internal/catalog"
)

func TestAnalyze(t *testing.T) {
	score := func(f float64) *float64 { return &f }
	ended := func(module string, dur int64, s *float64, outcome string) SessionSummary {
		return SessionSummary{ModuleID: module, Duration: dur, CompletionStatus: StatusCompleted, SafetyScore: s, Outcome: outcome, Verified: true}
	}
	unverified := func(s SessionSummary) SessionSummary {
		s.Verified, s.VerificationIssues = false, []string{"Steps were recorded faster than the scene allows."}
		return s
	}
	trades := []catalog.Trade{{ID: "electrical", Name: "Electrical"}, {ID: "welding", Name: "Welding"}, {ID: "empty", Name: "No modules"}}
	modules := []catalog.Module{
		{ID: "e1", TradeID: "electrical"}, {ID: "e2", TradeID: "electrical"}, {ID: "e3", TradeID: "electrical"},
		{ID: "w1", TradeID: "welding"},
	}
	for _, tc := range []struct {
		name     string
		sessions []SessionSummary
		want     Analytics
	}{
		{"Empty", nil, Analytics{TradeProgress: []TradeProgress{
			{"electrical", "Electrical", 0, 3, 0}, {"welding", "Welding", 0, 1, 0}, {"empty", "No modules", 0, 0, 0}}}},
		{"Mixed", []SessionSummary{
			ended("e1", 600, score(100), OutcomePassed),
			ended("e1", 300, score(80), OutcomePassed), // the same module again
			ended("e2", 900, score(55), OutcomeFailed),
			{ModuleID: "w1", Duration: 120, CompletionStatus: StatusInProgress},
			ended("w1", 60, nil, OutcomePassed), // no score: not averaged
		}, Analytics{
			TotalSessions: 4, TotalDuration: 1980, AverageSafetyScore: 78.3, CompletedModules: 2,
			TradeProgress: []TradeProgress{{"electrical", "Electrical", 1, 3, 33}, {"welding", "Welding", 1, 1, 100}, {"empty", "No modules", 0, 0, 0}},
		}},
		// An unverified pass is time trained and a session, but neither a
		// completed module nor a score: e2's perfect run leaves it incomplete
		// and the average at the verified 55.
		{"UnverifiedCountsForNoCompletion", []SessionSummary{
			unverified(ended("e2", 30, score(100), OutcomePassed)),
			ended("e2", 900, score(55), OutcomeFailed),
			unverified(ended("w1", 40, score(90), OutcomeFailed)),
		}, Analytics{
			TotalSessions: 3, TotalDuration: 970, AverageSafetyScore: 55, CompletedModules: 0,
			TradeProgress: []TradeProgress{{"electrical", "Electrical", 0, 3, 0}, {"welding", "Welding", 0, 1, 0}, {"empty", "No modules", 0, 0, 0}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Analyze(tc.sessions, trades, modules); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Analyze = %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
