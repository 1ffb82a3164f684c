package training

import (
	"reflect"
	"testing"

	"journeyman/internal/catalog"
)

func TestAnalyze(t *testing.T) {
	score := func(f float64) *float64 { return &f }
	ended := func(module string, dur int64, s *float64, outcome string) SessionSummary {
		return SessionSummary{ModuleID: module, Duration: dur, CompletionStatus: StatusCompleted, SafetyScore: s, Outcome: outcome}
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Analyze(tc.sessions, trades, modules); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Analyze = %+v\nwant %+v", got, tc.want)
			}
		})
	}
}
