package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"journeyman/internal/catalog"
	"journeyman/internal/learning"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

// MustOpenLearningServer returns a server on a new SQLite store holding the
// real catalog, so recommendations name real modules.
func MustOpenLearningServer(tb testing.TB) *Server {
	tb.Helper()
	st := storetest.OpenSQLite(tb)
	if err := st.SeedCatalog(context.Background(), catalog.Trades(), catalog.Modules()); err != nil {
		tb.Fatal(err)
	}
	s, err := New(st, Config{Logger: slog.New(slog.DiscardHandler), App: testApp})
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// guest is a learner's cookie id; each test uses its own.
// guestID names the n-th guest of a test.
func guestID(n int) string { return fmt.Sprintf("guest-%d", n) }

// call is defined with the session tests.

// mustCall is call that fails the test unless the status is want, and
// decodes the body into out when out is not nil.
func mustCall(tb testing.TB, s *Server, id, method, path, body string, want int, out any) response {
	tb.Helper()
	res := call(tb, s, id, method, path, body)
	if res.status != want {
		tb.Fatalf("%s %s = %d %s, want %d", method, path, res.status, res.body, want)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(res.body), out); err != nil {
			tb.Fatalf("%s %s: decode %s: %v", method, path, res.body, err)
		}
	}
	return res
}

// badInput is one request that must be refused with 400 and a message
// naming what is wrong.
type badInput struct {
	name, body string
	msgHas     []string
}

func checkBadInputs(t *testing.T, s *Server, method, path string, tests []badInput) {
	t.Helper()
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// A guest of its own per case, so the write limit never answers first.
			res := call(t, s, guestID(1000+i), method, path, tt.body)
			if res.status != http.StatusBadRequest {
				t.Fatalf("status = %d %s, want 400", res.status, res.body)
			}
			msg := message(t, res.body)
			for _, want := range tt.msgHas {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q lacks %q", msg, want)
				}
			}
		})
	}
}

func TestLearningPreferencesAPI(t *testing.T) {
	s := MustOpenLearningServer(t)
	const path = "/api/ai-learning/learning-preferences"
	me := guestID(1)
	t.Run("InitialValuesBeforeSave", func(t *testing.T) {
		res := mustCall(t, s, me, "GET", path, "", 200, nil)
		want := `{"preferredLearningStyle":"mixed","xrComfortLevel":"beginner","sessionDuration":30,"industryExperience":0,` +
			`"learningGoals":"","difficultyProgression":"gradual","focusAreas":[],"availableTimeSlots":[],"certificationGoals":[],` +
			`"saved":false,"updatedAt":null}`
		if strings.TrimSpace(res.body) != want {
			t.Fatalf("body = %s\nwant %s", res.body, want)
		}
	})
	t.Run("SaveThenRead", func(t *testing.T) {
		body := `{"preferredLearningStyle":"visual","xrComfortLevel":"expert","sessionDuration":45,"industryExperience":20,
			"learningGoals":"Journeyman licence","difficultyProgression":"aggressive","focusAreas":["safety"],
			"availableTimeSlots":["Sat morning"],"certificationGoals":["NFPA 70E"]}`
		var saved store.SavedPreferences
		mustCall(t, s, me, "POST", path, body, 200, &saved)
		if !saved.Saved || saved.UpdatedAt == nil || saved.SessionDuration != 45 || saved.PreferredLearningStyle != "visual" ||
			!slices.Equal(saved.CertificationGoals, []string{"NFPA 70E"}) {
			t.Fatalf("saved = %+v", saved)
		}
		var got store.SavedPreferences
		mustCall(t, s, me, "GET", path, "", 200, &got)
		if !reflect.DeepEqual(got, saved) {
			t.Fatalf("GET = %+v, want %+v", got, saved)
		}
	})
	t.Run("WhatWasReadCanBeSentBack", func(t *testing.T) {
		read := mustCall(t, s, me, "GET", path, "", 200, nil)
		var again store.SavedPreferences
		mustCall(t, s, me, "POST", path, read.body, 200, &again)
		if again.SessionDuration != 45 {
			t.Fatalf("after sending back: %+v", again)
		}
	})
	t.Run("LeftOutFieldsTakeInitialValues", func(t *testing.T) {
		var saved store.SavedPreferences
		mustCall(t, s, me, "POST", path, `{"sessionDuration":120}`, 200, &saved)
		want := learning.DefaultPreferences()
		want.SessionDuration = 120
		if !reflect.DeepEqual(saved.LearningPreferences, want) {
			t.Fatalf("saved = %+v, want %+v", saved.LearningPreferences, want)
		}
	})
	t.Run("OtherLearnerSeesInitialValues", func(t *testing.T) {
		var got store.SavedPreferences
		mustCall(t, s, guestID(2), "GET", path, "", 200, &got)
		if got.Saved || got.SessionDuration != 30 {
			t.Fatalf("another learner sees %+v", got)
		}
	})
	many := `["` + strings.Repeat(`a","`, learning.MaxListItems) + `a"]`
	checkBadInputs(t, s, "POST", path, []badInput{
		{"ErrLearningStyle", `{"preferredLearningStyle":"reading"}`, []string{"preferredLearningStyle must be one of visual, auditory, kinesthetic, mixed"}},
		{"ErrComfort", `{"xrComfortLevel":"novice"}`, []string{"xrComfortLevel must be one of beginner, comfortable, expert"}},
		{"ErrProgression", `{"difficultyProgression":"fast"}`, []string{"difficultyProgression must be one of gradual, moderate, aggressive"}},
		{"ErrDurationBelow", `{"sessionDuration":0}`, []string{"sessionDuration must be 15 to 120 minutes in steps of 15"}},
		{"ErrDurationAbove", `{"sessionDuration":135}`, []string{"sessionDuration"}},
		{"ErrDurationStep", `{"sessionDuration":20}`, []string{"sessionDuration"}},
		{"ErrDurationFraction", `{"sessionDuration":30.5}`, []string{`"sessionDuration" must be a whole number, not 30.5`}},
		{"ErrExperienceNegative", `{"industryExperience":-1}`, []string{"industryExperience must be 0 to 20 years"}},
		{"ErrExperienceAbove", `{"industryExperience":21}`, []string{"industryExperience"}},
		{"ErrGoalsTooLong", `{"learningGoals":"` + strings.Repeat("x", learning.MaxTextLength+1) + `"}`, []string{"learningGoals must be at most 2000 characters"}},
		{"ErrTooManyFocusAreas", `{"focusAreas":` + many + `}`, []string{"focusAreas must have at most 20 items"}},
		{"ErrBlankTimeSlot", `{"availableTimeSlots":["  "]}`, []string{"availableTimeSlots must not contain empty items"}},
		{"ErrLongCertification", `{"certificationGoals":["` + strings.Repeat("x", learning.MaxItemLength+1) + `"]}`, []string{"certificationGoals items must be at most 100 characters"}},
		{"ErrListType", `{"focusAreas":"safety, wiring"}`, []string{`"focusAreas" must be a list`}},
		{"ErrUnknownField", `{"favouriteColour":"blue"}`, []string{`unknown field "favouriteColour"`}},
		{"ErrEmptyBody", ``, []string{"request body is empty"}},
		{"ErrNotJSON", `style=visual`, []string{"malformed JSON"}},
		{"ErrNotObject", `[1,2]`, []string{"request body must be a JSON object, not array"}},
		{"ErrNull", `null`, []string{"request body must be a JSON object, not null"}},
		{"ErrSeveralFields", `{"sessionDuration":7,"xrComfortLevel":"x"}`, []string{"xrComfortLevel must be", "sessionDuration must be"}},
	})
	t.Run("ErrRejectedSaveChangesNothing", func(t *testing.T) {
		before := mustCall(t, s, me, "GET", path, "", 200, nil)
		call(t, s, me, "POST", path, `{"sessionDuration":7}`)
		if after := mustCall(t, s, me, "GET", path, "", 200, nil); after.body != before.body {
			t.Fatalf("a refused save changed %s to %s", before.body, after.body)
		}
	})
}

type assessmentsBody struct {
	Assessments []store.StoredAssessment `json:"assessments"`
	Initial     learning.SkillAssessment `json:"initial"`
}

func TestSkillAssessmentAPI(t *testing.T) {
	s := MustOpenLearningServer(t)
	const post, list = "/api/ai-learning/skill-assessment", "/api/ai-learning/skill-assessments"
	me := guestID(1)
	t.Run("EmptyWithInitialValues", func(t *testing.T) {
		res := mustCall(t, s, me, "GET", list, "", 200, nil)
		want := `{"assessments":[],"initial":{"tradeCategory":"electrical","skillAreas":[],"currentLevels":[],"strengths":[],` +
			`"improvementAreas":[],"overallScore":0,"assessmentType":"initial"}}`
		if strings.TrimSpace(res.body) != want {
			t.Fatalf("body = %s\nwant %s", res.body, want)
		}
	})
	var first, second store.StoredAssessment
	t.Run("SaveAndListNewestFirst", func(t *testing.T) {
		mustCall(t, s, me, "POST", post, `{"tradeCategory":"plumbing","overallScore":30,"strengths":["soldering"],"improvementAreas":["venting"]}`, 201, &first)
		if first.ID == 0 || first.Level != "beginner" || first.AssessmentType != "initial" || first.CreatedAt.IsZero() ||
			!slices.Equal(first.ImprovementAreas, []string{"venting"}) || first.SkillAreas == nil {
			t.Fatalf("first = %+v", first)
		}
		mustCall(t, s, me, "POST", post, `{"tradeCategory":"hvac","overallScore":80,"strengths":[],"improvementAreas":[],
			"skillAreas":["refrigeration"],"currentLevels":["advanced"],"assessmentType":"progress"}`, 201, &second)
		if second.Level != "advanced" || second.ID <= first.ID {
			t.Fatalf("second = %+v after %+v", second, first)
		}
		var got assessmentsBody
		mustCall(t, s, me, "GET", list, "", 200, &got)
		if !reflect.DeepEqual(got.Assessments, []store.StoredAssessment{second, first}) {
			t.Fatalf("assessments = %+v", got.Assessments)
		}
		if !reflect.DeepEqual(got.Initial, second.SkillAssessment) {
			t.Fatalf("initial = %+v, want the latest %+v", got.Initial, second.SkillAssessment)
		}
	})
	t.Run("OtherLearnerHasNone", func(t *testing.T) {
		var got assessmentsBody
		mustCall(t, s, guestID(2), "GET", list, "", 200, &got)
		if len(got.Assessments) != 0 || got.Initial.TradeCategory != "electrical" {
			t.Fatalf("another learner sees %+v", got)
		}
	})
	many := `["` + strings.Repeat(`a","`, learning.MaxListItems) + `a"]`
	checkBadInputs(t, s, "POST", post, []badInput{
		{"ErrTrade", `{"tradeCategory":"carpentry"}`, []string{"tradeCategory must be one of electrical, plumbing, hvac, welding"}},
		{"ErrTradeEmpty", `{"tradeCategory":""}`, []string{"tradeCategory must be one of"}},
		{"ErrScoreStep", `{"overallScore":55}`, []string{"overallScore must be 0 to 100 in steps of 10"}},
		{"ErrScoreAbove", `{"overallScore":110}`, []string{"overallScore"}},
		{"ErrScoreNegative", `{"overallScore":-10}`, []string{"overallScore"}},
		{"ErrScoreType", `{"overallScore":"high"}`, []string{`"overallScore" must be a whole number, not string`}},
		{"ErrTooManyStrengths", `{"strengths":` + many + `}`, []string{"strengths must have at most 20 items"}},
		{"ErrBlankImprovement", `{"improvementAreas":["wiring",""]}`, []string{"improvementAreas must not contain empty items"}},
		{"ErrLongSkillArea", `{"skillAreas":["` + strings.Repeat("x", learning.MaxItemLength+1) + `"]}`, []string{"skillAreas items must be at most 100 characters"}},
		{"ErrTooManyLevels", `{"currentLevels":` + many + `}`, []string{"currentLevels must have at most 20 items"}},
		{"ErrAssessmentType", `{"assessmentType":"final"}`, []string{"assessmentType must be one of initial, progress, certification"}},
		{"ErrStrengthsAsText", `{"strengths":"a, b"}`, []string{`"strengths" must be a list`}},
		{"ErrUnknownField", `{"score":50}`, []string{`unknown field "score"`}},
		{"ErrEmptyBody", ``, []string{"request body is empty"}},
		{"ErrSeveralFields", `{"tradeCategory":"x","overallScore":5}`, []string{"tradeCategory must be", "overallScore must be"}},
	})
}

type recommendationSet struct {
	ID              int64                          `json:"id"`
	CreatedAt       time.Time                      `json:"createdAt"`
	Request         learning.RecommendationRequest `json:"request"`
	Recommendations learning.Recommendations       `json:"recommendations"`
}

// insertCompletedSession records an ended, verified XR session by SQL, as whichever
// endpoint records sessions would.
func insertCompletedSession(tb testing.TB, s *Server, id, learner, module string, ended time.Time, score float64, outcome string) {
	tb.Helper()
	learnerID := idOf(tb, s, learner)
	if err := s.store.EnsureGuest(context.Background(), learnerID); err != nil {
		tb.Fatal(err)
	}
	_, err := s.store.DB().ExecContext(context.Background(), `
		INSERT INTO xr_sessions (id, user_id, module_id, session_type, started_at, ended_at, duration,
			completion_status, safety_score, interaction_data, updated_at, verified)
		VALUES ($1, $2, $3, 'desktop', $4, $5, 1800, 'completed', $6, $7, $5, TRUE)`,
		id, learnerID, module, ended.Add(-30*time.Minute).UTC(), ended.UTC(), score, `{"completionStatus":"`+outcome+`"}`)
	if err != nil {
		tb.Fatalf("insert session %s: %v", id, err)
	}
}

func TestRecommendationsAPI(t *testing.T) {
	s := MustOpenLearningServer(t)
	const generate, latest = "/api/ai-learning/generate-recommendations", "/api/ai-learning/recommendations"
	me := guestID(1)
	modules, err := s.store.ListModules(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	moduleByID := map[string]catalog.Module{}
	for _, m := range modules {
		moduleByID[m.ID] = m
	}
	const pageRequest = `{"tradeCategory":"electrical","currentSkillLevel":"beginner",
		"timeConstraints":{"hoursPerWeek":1,"preferredSessionLength":30},"focusAreas":[]}`

	t.Run("EmptyListBeforeGenerate", func(t *testing.T) {
		res := mustCall(t, s, me, "GET", latest, "", 200, nil)
		if strings.TrimSpace(res.body) != "[]" {
			t.Fatalf("body = %s, want []", res.body)
		}
	})
	var set recommendationSet
	t.Run("GenerateFromTheCatalog", func(t *testing.T) {
		mustCall(t, s, me, "POST", generate, pageRequest, 201, &set)
		recs := set.Recommendations
		if set.ID == 0 || len(recs.RecommendedPaths) == 0 || recs.ReasoningExplanation == "" ||
			len(recs.PersonalizedModifications) == 0 || len(recs.EstimatedOutcomes) == 0 {
			t.Fatalf("set = %+v", set)
		}
		core := recs.RecommendedPaths[0]
		if !slices.Equal(core.ModuleSequence, []string{"electrical-lockout-tagout", "electrical-meter-basics"}) || core.Difficulty != "beginner" {
			t.Fatalf("core path = %+v", core)
		}
		for _, p := range recs.RecommendedPaths {
			minutes := 0
			for _, id := range p.ModuleSequence {
				m, ok := moduleByID[id]
				if !ok || m.TradeID != "electrical" {
					t.Fatalf("path %s names %q, not an electrical module", p.ID, id)
				}
				minutes += m.EstimatedDuration
			}
			if want := math.Round(float64(minutes)/6) / 10; p.EstimatedDuration != want {
				t.Errorf("path %s: %v hours for %d minutes", p.ID, p.EstimatedDuration, minutes)
			}
		}
		if !strings.Contains(recs.ReasoningExplanation, "1 hour per week") {
			t.Errorf("reasoning does not name the time budget: %s", recs.ReasoningExplanation)
		}
	})
	t.Run("LatestIsTheGeneratedSet", func(t *testing.T) {
		var got []recommendationSet
		mustCall(t, s, me, "GET", latest, "", 200, &got)
		if len(got) != 1 || !reflect.DeepEqual(got[0], set) {
			t.Fatalf("latest = %+v, want [%+v]", got, set)
		}
	})
	t.Run("SameInputsSameAnswer", func(t *testing.T) {
		var again recommendationSet
		mustCall(t, s, me, "POST", generate, pageRequest, 201, &again)
		if again.ID == set.ID || !reflect.DeepEqual(again.Recommendations, set.Recommendations) {
			t.Fatalf("second generate = %+v, want the same recommendations as %+v", again, set)
		}
	})
	t.Run("AssessmentLevelAndCompletedModulesAreUsed", func(t *testing.T) {
		id := guestID(3)
		mustCall(t, s, id, "POST", "/api/ai-learning/skill-assessment", `{"tradeCategory":"electrical","overallScore":50}`, 201, nil)
		insertCompletedSession(t, s, "done-1", id, "electrical-arc-flash-ppe", storetest.FixedNow.Add(-time.Hour), 90, "passed")
		var got recommendationSet
		mustCall(t, s, id, "POST", generate, pageRequest, 201, &got)
		core := got.Recommendations.RecommendedPaths[0]
		if core.Difficulty != "intermediate" || slices.Contains(core.ModuleSequence, "electrical-arc-flash-ppe") {
			t.Fatalf("core path = %+v; want intermediate without the completed module", core)
		}
		if !strings.Contains(got.Recommendations.ReasoningExplanation, "overall score 50%") ||
			!strings.Contains(got.Recommendations.ReasoningExplanation, "Completed modules: 1") {
			t.Errorf("reasoning = %s", got.Recommendations.ReasoningExplanation)
		}
	})
	t.Run("TimeConstraintsFromSavedPreferences", func(t *testing.T) {
		id := guestID(4)
		mustCall(t, s, id, "POST", "/api/ai-learning/learning-preferences", `{"sessionDuration":45}`, 200, nil)
		var got recommendationSet
		mustCall(t, s, id, "POST", generate, `{}`, 201, &got)
		want := learning.RecommendationRequest{TradeCategory: "electrical", CurrentSkillLevel: "beginner",
			TimeConstraints: learning.TimeConstraints{HoursPerWeek: 2, PreferredSessionLength: 45}, FocusAreas: []string{}}
		if !reflect.DeepEqual(got.Request, want) {
			t.Fatalf("request = %+v, want %+v", got.Request, want)
		}
	})
	many := `["` + strings.Repeat(`a","`, learning.MaxListItems) + `a"]`
	checkBadInputs(t, s, "POST", generate, []badInput{
		{"ErrTrade", `{"tradeCategory":"masonry"}`, []string{"tradeCategory must be one of electrical, plumbing, hvac, welding"}},
		{"ErrLevel", `{"currentSkillLevel":"expert"}`, []string{"currentSkillLevel must be one of beginner, intermediate, advanced"}},
		{"ErrHoursNegative", `{"timeConstraints":{"hoursPerWeek":-1,"preferredSessionLength":30}}`, []string{"timeConstraints.hoursPerWeek must be 0 to 60"}},
		{"ErrHoursAbove", `{"timeConstraints":{"hoursPerWeek":61,"preferredSessionLength":30}}`, []string{"timeConstraints.hoursPerWeek"}},
		{"ErrSessionLengthMissing", `{"timeConstraints":{"hoursPerWeek":1}}`, []string{"timeConstraints.preferredSessionLength must be 15 to 120 minutes"}},
		{"ErrSessionLengthAbove", `{"timeConstraints":{"hoursPerWeek":1,"preferredSessionLength":121}}`, []string{"timeConstraints.preferredSessionLength"}},
		{"ErrTimeConstraintsType", `{"timeConstraints":5}`, []string{`"timeConstraints" must be an object`}},
		{"ErrUnknownTimeField", `{"timeConstraints":{"daysPerWeek":3}}`, []string{`unknown field "daysPerWeek"`}},
		{"ErrTooManyFocusAreas", `{"focusAreas":` + many + `}`, []string{"focusAreas must have at most 20 items"}},
		{"ErrBlankFocusArea", `{"focusAreas":[" "]}`, []string{"focusAreas must not contain empty items"}},
		{"ErrUnknownField", `{"trade":"electrical"}`, []string{`unknown field "trade"`}},
		{"ErrEmptyBody", ``, []string{"request body is empty"}},
	})
	t.Run("ErrRefusedGenerateStoresNothing", func(t *testing.T) {
		id := guestID(5)
		call(t, s, id, "POST", generate, `{"tradeCategory":"masonry"}`)
		if res := mustCall(t, s, id, "GET", latest, "", 200, nil); strings.TrimSpace(res.body) != "[]" {
			t.Fatalf("latest after a refused generate = %s", res.body)
		}
	})
}

type refreshersBody struct {
	Now      time.Time       `json:"now"`
	Due      []refresherJSON `json:"due"`
	Upcoming []refresherJSON `json:"upcoming"`
}

type refresherJSON struct {
	ModuleID       string    `json:"moduleId"`
	ModuleTitle    string    `json:"moduleTitle"`
	TradeID        string    `json:"tradeId"`
	Due            time.Time `json:"due"`
	LastReview     time.Time `json:"lastReview"`
	State          string    `json:"state"`
	Reps           int       `json:"reps"`
	Lapses         int       `json:"lapses"`
	Retrievability float64   `json:"retrievability"`
}

func TestRefreshersAPI(t *testing.T) {
	s := MustOpenLearningServer(t)
	const path = "/api/ai-learning/refreshers"
	me := guestID(1)
	now := storetest.FixedNow
	t.Run("NoneBeforeCompletion", func(t *testing.T) {
		res := mustCall(t, s, me, "GET", path, "", 200, nil)
		if want := `{"now":"2026-03-02T09:30:00Z","due":[],"upcoming":[]}`; strings.TrimSpace(res.body) != want {
			t.Fatalf("body = %s, want %s", res.body, want)
		}
	})
	t.Run("CompletedModulesAreScheduled", func(t *testing.T) {
		insertCompletedSession(t, s, "a1", me, "electrical-lockout-tagout", now.Add(-48*time.Hour), 85, "passed")
		insertCompletedSession(t, s, "a3", me, "electrical-meter-basics", now.Add(-2*time.Hour), 95, "passed")
		insertCompletedSession(t, s, "a4", me, "electrical-arc-flash-ppe", now.Add(-time.Hour), 30, "failed")
		var got refreshersBody
		mustCall(t, s, me, "GET", path, "", 200, &got)
		if len(got.Due) != 1 || got.Due[0].ModuleID != "electrical-lockout-tagout" ||
			got.Due[0].ModuleTitle != "Lockout/Tagout and Establishing an Electrically Safe Work Condition" ||
			!got.Due[0].Due.Equal(now.Add(-24*time.Hour)) || got.Due[0].Retrievability <= 0 || got.Due[0].Retrievability >= 1 {
			t.Fatalf("due = %+v", got.Due)
		}
		if len(got.Upcoming) != 1 || got.Upcoming[0].ModuleID != "electrical-meter-basics" || got.Upcoming[0].TradeID != "electrical" ||
			!got.Upcoming[0].Due.After(now) || got.Upcoming[0].Reps != 1 {
			t.Fatalf("upcoming = %+v (the failed first try of arc flash must not count)", got.Upcoming)
		}
	})
	t.Run("RefresherSessionUpdatesTheSchedule", func(t *testing.T) {
		insertCompletedSession(t, s, "a5", me, "electrical-lockout-tagout", now.Add(-10*time.Minute), 100, "passed")
		var got refreshersBody
		mustCall(t, s, me, "GET", path, "", 200, &got)
		if len(got.Due) != 0 || len(got.Upcoming) != 2 {
			t.Fatalf("after the refresher: due %+v, upcoming %+v", got.Due, got.Upcoming)
		}
		var loto refresherJSON
		for _, r := range got.Upcoming {
			if r.ModuleID == "electrical-lockout-tagout" {
				loto = r
			}
		}
		if loto.Reps != 2 || !loto.LastReview.Equal(now.Add(-10*time.Minute)) || !loto.Due.After(now.Add(24*time.Hour)) {
			t.Fatalf("lockout-tagout = %+v, want reviewed and pushed out beyond a day", loto)
		}
	})
	t.Run("OtherLearnerHasNone", func(t *testing.T) {
		var got refreshersBody
		mustCall(t, s, guestID(2), "GET", path, "", 200, &got)
		if len(got.Due)+len(got.Upcoming) != 0 {
			t.Fatalf("another learner sees %+v", got)
		}
	})
}

func TestLearningWritesAreRateLimited(t *testing.T) {
	s := MustOpenLearningServer(t) // its clock stands still: no budget comes back
	me := guestID(1)
	writes := []struct{ path, body string }{
		{"/api/ai-learning/learning-preferences", `{}`},
		{"/api/ai-learning/skill-assessment", `{}`},
		{"/api/ai-learning/generate-recommendations", `{}`},
		{"/api/personalization/save", `{}`},
	}
	for i := range learnerWriteBurst {
		w := writes[i%len(writes)]
		if res := call(t, s, me, "POST", w.path, w.body); res.status >= 300 {
			t.Fatalf("write %d to %s = %d %s, want success within the burst", i+1, w.path, res.status, res.body)
		}
	}
	for _, w := range writes {
		res := call(t, s, me, "POST", w.path, w.body)
		if res.status != http.StatusTooManyRequests || res.header.Get("Retry-After") == "" || !strings.Contains(message(t, res.body), "too many saves") {
			t.Errorf("%s past the burst = %d %v %s, want 429 with Retry-After", w.path, res.status, res.header, res.body)
		}
	}
	if res := call(t, s, me, "GET", "/api/ai-learning/learning-preferences", ""); res.status != 200 {
		t.Errorf("reads are not limited: GET = %d", res.status)
	}
	if res := call(t, s, guestID(2), "POST", writes[0].path, writes[0].body); res.status != 200 {
		t.Errorf("another learner was limited: %d %s", res.status, res.body)
	}
}
