package learning

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"journeyman/internal/catalog"
)

func request(hours, session int, focus ...string) RecommendationRequest {
	r := RecommendationRequest{TimeConstraints: TimeConstraints{HoursPerWeek: hours, PreferredSessionLength: session}, FocusAreas: focus}
	r.Normalize()
	return r
}

func assessment(trade string, score int, improve ...string) *SkillAssessment {
	a := DefaultAssessment()
	a.TradeCategory, a.OverallScore, a.ImprovementAreas = trade, score, improve
	return &a
}

func pathIDs(r RecommendationResponse) []string {
	var ids []string
	for _, p := range r.Recommendations.RecommendedPaths {
		ids = append(ids, p.ID)
	}
	return ids
}

func path(t *testing.T, r RecommendationResponse, id string) RecommendedPath {
	t.Helper()
	for _, p := range r.Recommendations.RecommendedPaths {
		if p.ID == id {
			return p
		}
	}
	t.Fatalf("no path %q in %v", id, pathIDs(r))
	return RecommendedPath{}
}

func TestRecommend(t *testing.T) {
	prefs := DefaultPreferences()
	aggressive := DefaultPreferences()
	aggressive.DifficultyProgression = "aggressive"

	for _, tt := range []struct {
		name  string
		in    RecommendInput
		paths map[string][]string // path id → module sequence; exactly these paths
		// texts that must appear in the reasoning explanation
		reasoning []string
	}{
		{
			name: "BeginnerWithoutAssessment",
			in:   RecommendInput{Request: request(1, 30), Preferences: prefs},
			paths: map[string][]string{
				"electrical-core-beginner":        {"elec-loto", "elec-meter", "elec-outlet"},
				"electrical-stretch-intermediate": {"elec-loto", "elec-meter", "elec-outlet", "elec-gfci", "elec-panel"},
			},
			reasoning: []string{"the requested skill level (beginner)", "7 Electrical modules", "Focus areas: none given", "1 hour per week", "Completed modules: 0"},
		},
		{
			// Stretch modules pull in their uncompleted prerequisites; the
			// beginner prerequisites come before the intermediate ones.
			name: "AssessmentSetsLevelAndCompletedAreSkipped",
			in: RecommendInput{Request: request(2, 45), Preferences: prefs, Assessment: assessment("electrical", 40),
				CompletedModuleIDs: []string{"elec-loto", "elec-meter"}},
			paths: map[string][]string{
				"electrical-core-intermediate": {"elec-outlet", "elec-gfci", "elec-panel"},
				"electrical-stretch-advanced":  {"elec-panel", "elec-motor", "elec-arcflash"},
			},
			reasoning: []string{"overall score 40%", "intermediate level", "Completed modules: 2 in Electrical"},
		},
		{
			name: "FocusAreasAndImprovementAreasMakeAFocusPath",
			in: RecommendInput{Request: request(1, 30, "Safety"), Preferences: prefs,
				Assessment: assessment("electrical", 0, "troubleshooting")},
			paths: map[string][]string{
				"electrical-core-beginner":        {"elec-loto", "elec-meter", "elec-outlet"},
				"electrical-focus":                {"elec-loto", "elec-meter", "elec-outlet", "elec-gfci", "elec-arcflash"},
				"electrical-stretch-intermediate": {"elec-loto", "elec-meter", "elec-outlet", "elec-gfci", "elec-panel"},
			},
			reasoning: []string{"Focus areas: safety, troubleshooting"},
		},
		{
			name: "FocusMatchesTitleText",
			in:   RecommendInput{Request: request(1, 30, "motor"), Preferences: prefs, Assessment: assessment("electrical", 80)},
			paths: map[string][]string{
				"electrical-core-advanced": {"elec-loto", "elec-panel", "elec-motor", "elec-arcflash"},
				"electrical-focus":         {"elec-loto", "elec-panel", "elec-motor"},
			},
			reasoning: []string{"advanced level"},
		},
		{
			name: "AggressiveProgressionStretchesFurther",
			in:   RecommendInput{Request: request(1, 30), Preferences: aggressive, Assessment: assessment("electrical", 30), CompletedModuleIDs: []string{"elec-loto", "elec-meter", "elec-outlet"}},
			paths: map[string][]string{
				"electrical-stretch-intermediate": {"elec-gfci", "elec-panel"},
			},
			reasoning: []string{"aggressive difficulty progression", "Completed modules: 3"},
		},
		{
			name: "AssessmentOfAnotherTradeIsNotUsedForLevel",
			in:   RecommendInput{Request: request(1, 30), Preferences: prefs, Assessment: assessment("plumbing", 90, "solder")},
			paths: map[string][]string{
				"electrical-core-beginner":        {"elec-loto", "elec-meter", "elec-outlet"},
				"electrical-stretch-intermediate": {"elec-loto", "elec-meter", "elec-outlet", "elec-gfci", "elec-panel"},
			},
			reasoning: []string{"your latest assessment is for plumbing, not electrical"},
		},
		{
			name:      "EverythingCompleted",
			in:        RecommendInput{Request: request(1, 30), Preferences: prefs, Assessment: assessment("electrical", 100), CompletedModuleIDs: []string{"elec-loto", "elec-panel", "elec-motor", "elec-arcflash"}},
			paths:     map[string][]string{},
			reasoning: []string{"You have completed every Electrical module that fits"},
		},
		{
			name: "OtherTrade",
			in:   RecommendInput{Request: func() RecommendationRequest { r := request(3, 60); r.TradeCategory = "plumbing"; return r }(), Preferences: prefs},
			paths: map[string][]string{
				"plumbing-core-beginner": {"plumb-solder"},
			},
			reasoning: []string{"1 Plumbing modules", "3 hours per week"},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := tt.in
			in.Trades, in.Modules = fixtureTrades, fixtureModules
			got := Recommend(in)
			rec := got.Recommendations
			if len(rec.RecommendedPaths) != len(tt.paths) {
				t.Fatalf("paths = %v, want %d paths", pathIDs(got), len(tt.paths))
			}
			for id, seq := range tt.paths {
				if p := path(t, got, id); !slices.Equal(p.ModuleSequence, seq) {
					t.Errorf("%s sequence = %v, want %v", id, p.ModuleSequence, seq)
				}
			}
			for _, p := range rec.RecommendedPaths {
				assertPrerequisitesFirst(t, p.ModuleSequence, in.CompletedModuleIDs)
				if !slices.Contains(SkillLevels, p.Difficulty) || p.Name == "" || p.Description == "" {
					t.Errorf("path %+v lacks a difficulty, name or description", p)
				}
			}
			for _, want := range tt.reasoning {
				if !strings.Contains(rec.ReasoningExplanation, want) {
					t.Errorf("reasoning %q does not mention %q", rec.ReasoningExplanation, want)
				}
			}
			if len(rec.PersonalizedModifications) == 0 || rec.EstimatedOutcomes == nil || rec.RecommendedPaths == nil {
				t.Errorf("missing modifications or nil lists: %+v", rec)
			}
		})
	}
}

// assertPrerequisitesFirst fails when a module of seq appears before one of
// its prerequisites, or when a completed module appears at all.
func assertPrerequisitesFirst(t *testing.T, seq, completed []string) {
	t.Helper()
	at := map[string]int{}
	for i, id := range seq {
		at[id] = i
		if slices.Contains(completed, id) {
			t.Errorf("completed module %s in sequence %v", id, seq)
		}
	}
	for _, m := range fixtureModules {
		i, ok := at[m.ID]
		if !ok {
			continue
		}
		for _, p := range m.Prerequisites {
			if j, ok := at[p]; ok && j > i {
				t.Errorf("%s before its prerequisite %s in %v", m.ID, p, seq)
			}
		}
	}
}

func TestRecommend_DurationAndOutcomes(t *testing.T) {
	prefs := DefaultPreferences()
	prefs.CertificationGoals = []string{"NFPA 70E"}
	prefs.IndustryExperience = 6
	got := Recommend(RecommendInput{Trades: fixtureTrades, Modules: fixtureModules, Request: request(1, 15), Preferences: prefs}).Recommendations
	core := got.RecommendedPaths[0]
	// elec-loto 20 + elec-meter 25 + elec-outlet 30 = 75 minutes.
	if core.ID != "electrical-core-beginner" || core.EstimatedDuration != 1.3 {
		t.Fatalf("core path = %+v, want electrical-core-beginner of 1.3 hours", core)
	}
	wantOutcome := "Electrical beginner core path: 3 modules, 1.3 hours, about 2 weeks at 1 hour per week."
	if !slices.Contains(got.EstimatedOutcomes, wantOutcome) {
		t.Errorf("outcomes %q lack %q", got.EstimatedOutcomes, wantOutcome)
	}
	if !slices.Contains(got.EstimatedOutcomes, "Works toward your certification goals: NFPA 70E Arc Flash.") {
		t.Errorf("outcomes %q lack the certification goal", got.EstimatedOutcomes)
	}
	// 15-minute sessions: loto 2, meter 2, outlet 2 sessions.
	wantMods := []string{
		"XR comfort beginner: each module opens in desktop mode with a seated 5-minute VR orientation; teleport movement only, and a break prompt every 15 minutes in the headset.",
		"Mixed learning style: each step is shown as a diagram, narrated, and then practised hands-on.",
		"15-minute sessions: the Electrical beginner core path takes 6 sessions; 3 modules longer than one session are split at safe stopping points.",
		"6 years in the trade: introductory walkthroughs are skippable; the safety briefings are not.",
	}
	if !slices.Equal(got.PersonalizedModifications, wantMods) {
		t.Errorf("modifications = %q\nwant %q", got.PersonalizedModifications, wantMods)
	}

	t.Run("ZeroHoursPerWeekCountsThreeSessions", func(t *testing.T) {
		got := Recommend(RecommendInput{Trades: fixtureTrades, Modules: fixtureModules, Request: request(0, 15), Preferences: DefaultPreferences()}).Recommendations
		// 75 minutes at 45 minutes a week: 2 weeks.
		want := "Electrical beginner core path: 3 modules, 1.3 hours, about 2 weeks at 0 whole hours per week, so three 15-minute sessions (45 minutes) per week."
		if !slices.Contains(got.EstimatedOutcomes, want) {
			t.Errorf("outcomes %q lack %q", got.EstimatedOutcomes, want)
		}
	})

	for _, tt := range []struct{ style, comfort, want string }{
		{"visual", "comfortable", "Visual learning style"},
		{"auditory", "expert", "Auditory learning style"},
		{"kinesthetic", "expert", "Kinesthetic learning style"},
	} {
		t.Run("Style"+tt.style, func(t *testing.T) {
			p := DefaultPreferences()
			p.PreferredLearningStyle, p.XRComfortLevel = tt.style, tt.comfort
			mods := Recommend(RecommendInput{Trades: fixtureTrades, Modules: fixtureModules, Request: request(1, 30), Preferences: p}).Recommendations.PersonalizedModifications
			if !strings.HasPrefix(mods[0], "XR comfort "+tt.comfort) || !strings.HasPrefix(mods[1], tt.want) {
				t.Errorf("modifications %q do not follow comfort %s and style %s", mods, tt.comfort, tt.style)
			}
		})
	}
}

func TestRecommend_Deterministic(t *testing.T) {
	in := RecommendInput{Trades: fixtureTrades, Modules: fixtureModules, Request: request(2, 45, "safety", "troubleshooting"),
		Preferences: DefaultPreferences(), Assessment: assessment("electrical", 50, "grounding"), CompletedModuleIDs: []string{"elec-meter"}}
	first := Recommend(in)
	for range 20 {
		if got := Recommend(in); !reflect.DeepEqual(got, first) {
			t.Fatalf("Recommend gave a different answer for the same input:\n%+v\n%+v", got, first)
		}
	}
}

func TestRecommend_PrerequisiteCycleTerminates(t *testing.T) {
	modules := []catalog.Module{
		{ID: "a", TradeID: "hvac", Difficulty: catalog.Beginner, EstimatedDuration: 10, Prerequisites: []string{"b"}},
		{ID: "b", TradeID: "hvac", Difficulty: catalog.Beginner, EstimatedDuration: 10, Prerequisites: []string{"a", "missing"}},
	}
	r := request(1, 30)
	r.TradeCategory = "hvac"
	got := Recommend(RecommendInput{Modules: modules, Request: r, Preferences: DefaultPreferences()})
	if p := got.Recommendations.RecommendedPaths; len(p) != 1 || !slices.Equal(p[0].ModuleSequence, []string{"a", "b"}) {
		t.Fatalf("paths = %+v, want one path a, b", p)
	}
}

// TestRecommend_RealCatalog checks the recommender's promises on the catalog
// the product ships, for every trade of the AI screen, level and difficulty
// progression: real module ids of the trade, each once, prerequisites first,
// durations summed from the modules, and completed modules left out.
func TestRecommend_RealCatalog(t *testing.T) {
	trades, modules := catalog.Trades(), catalog.Modules()
	byID := map[string]catalog.Module{}
	for _, m := range modules {
		byID[m.ID] = m
	}
	for _, trade := range TradeCategories {
		for _, level := range SkillLevels {
			for _, progression := range DifficultyProgressions {
				for _, completed := range [][]string{nil, {trade + "-never-a-module"}, firstModules(modules, trade, 2)} {
					name := trade + "/" + level + "/" + progression + "/" + strings.Join(completed, "+")
					t.Run(name, func(t *testing.T) {
						prefs := DefaultPreferences()
						prefs.DifficultyProgression = progression
						req := request(2, 45, "safety")
						req.TradeCategory, req.CurrentSkillLevel = trade, level
						res := Recommend(RecommendInput{Trades: trades, Modules: modules, Request: req, Preferences: prefs, CompletedModuleIDs: completed})
						recs := res.Recommendations
						if len(recs.RecommendedPaths) == 0 {
							t.Fatalf("no paths; reasoning: %s", recs.ReasoningExplanation)
						}
						for _, p := range recs.RecommendedPaths {
							placed := map[string]bool{}
							minutes := 0
							for _, id := range p.ModuleSequence {
								m, ok := byID[id]
								if !ok || m.TradeID != trade {
									t.Fatalf("path %s names %q, not a %s module", p.ID, id, trade)
								}
								if placed[id] || slices.Contains(completed, id) {
									t.Fatalf("path %s lists %s twice or after completion: %v", p.ID, id, p.ModuleSequence)
								}
								for _, pre := range m.Prerequisites {
									if byID[pre].TradeID == trade && !slices.Contains(completed, pre) && !placed[pre] {
										t.Fatalf("path %s puts %s before its prerequisite %s: %v", p.ID, id, pre, p.ModuleSequence)
									}
								}
								placed[id] = true
								minutes += m.EstimatedDuration
							}
							if want := hours(minutes); p.EstimatedDuration != want {
								t.Errorf("path %s: %v hours, want %v", p.ID, p.EstimatedDuration, want)
							}
						}
						if !strings.Contains(recs.EstimatedOutcomes[0], "weeks at 2 hours per week") && !strings.Contains(recs.EstimatedOutcomes[0], "week at 2 hours per week") {
							t.Errorf("first outcome lacks the weeks to finish: %s", recs.EstimatedOutcomes[0])
						}
					})
				}
			}
		}
	}
}

func firstModules(modules []catalog.Module, trade string, n int) []string {
	var ids []string
	for _, m := range modules {
		if m.TradeID == trade && len(ids) < n {
			ids = append(ids, m.ID)
		}
	}
	return ids
}
