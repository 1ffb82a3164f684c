package server

// AI learning paths API. Every call is about the caller (the guest learner of
// the cookie); no path or body names a learner. Errors are 4xx
// {"message": "..."}; a body with several bad fields gets one message naming
// each, separated by "; ". Unknown fields are rejected. Times are RFC 3339 UTC.
// The four POSTs share one budget per learner: a burst of 20, then one every
// 2 s; past it they answer 429 {"message": "too many saves; ..."} with
// Retry-After.
//
// GET /api/ai-learning/learning-preferences → 200
//
//	{"preferredLearningStyle": "mixed",      // visual | auditory | kinesthetic | mixed
//	 "xrComfortLevel": "beginner",           // beginner | comfortable | expert
//	 "sessionDuration": 30,                  // minutes, 15–120 in steps of 15
//	 "industryExperience": 0,                // years, 0–20
//	 "learningGoals": "",                    // at most 2000 characters
//	 "difficultyProgression": "gradual",     // gradual | moderate | aggressive
//	 "focusAreas": [], "availableTimeSlots": [], "certificationGoals": [],
//	                                         // lists of at most 20 non-blank items of at most 100 characters
//	 "saved": false,                         // false: these are the initial values of seed 000 §9
//	 "updatedAt": null}                      // time of the last save once saved
//
// POST /api/ai-learning/learning-preferences with the fields above → 200 and
// the stored preferences in the GET shape (saved true). A field left out takes
// its initial value; "saved" and "updatedAt" may be sent back and are ignored.
//
// POST /api/ai-learning/skill-assessment
//
//	{"tradeCategory": "electrical",          // electrical | plumbing | hvac | welding
//	 "overallScore": 0,                      // percent, 0–100 in steps of 10
//	 "strengths": [], "improvementAreas": [],// lists as above (the page splits its comma-separated input)
//	 "skillAreas": [], "currentLevels": [],  // lists as above
//	 "assessmentType": "initial"}            // initial | progress | certification
//
// → 201 {"id": 7, ...the fields above..., "level": "beginner", "createdAt": "..."}
// where level is what the score places the learner at: 0–30 beginner, 40–70
// intermediate, 80–100 advanced. A field left out takes its initial value.
//
// GET /api/ai-learning/skill-assessments → 200
//
//	{"assessments": [ {the 201 shape above}, ... ],  // newest first; [] before the first save
//	 "initial": {tradeCategory, overallScore, strengths, improvementAreas, skillAreas, currentLevels, assessmentType}}
//
// "initial" is what the assessment form starts with: the fields of the latest
// assessment, or the initial values of seed 000 §9 (electrical, score 0, empty
// lists, type initial) before any is saved. The newest 100 are kept.
//
// POST /api/ai-learning/generate-recommendations
//
//	{"tradeCategory": "electrical",          // default electrical
//	 "currentSkillLevel": "beginner",        // beginner | intermediate | advanced; default beginner
//	 "timeConstraints": {"hoursPerWeek": 1, "preferredSessionLength": 30},
//	                                         // 0–60 hours; 15–120 minutes; left out: derived from the
//	                                         // saved sessionDuration (hoursPerWeek = floor(duration × 3 / 60))
//	 "focusAreas": ["safety"]}               // list as above
//
// → 201 a recommendation set:
//
//	{"id": 3, "createdAt": "...",
//	 "request": {the request with its defaults filled},
//	 "recommendations": {
//	   "reasoningExplanation": "These paths use the 8 Electrical modules of the catalog. Level: ...",
//	   "recommendedPaths": [{"id": "electrical-core-beginner", "name": "...", "difficulty": "beginner",
//	     "description": "...", "estimatedDuration": 2.5,     // hours
//	     "moduleSequence": ["elec-loto", ...]}],           // training-module ids, prerequisites first
//	   "personalizedModifications": ["..."],
//	   "estimatedOutcomes": ["... about 3 weeks at 1 hour per week."]}}
//
// The recommender reads the catalog, the learner's latest assessment of the
// trade (its level outranks currentSkillLevel), their saved preferences, the
// focus areas, the time budget and their completed XR sessions (completed
// modules are left out of every path). The same inputs give the same
// recommendations. recommendedPaths is [] when every module that fits is done.
//
// GET /api/ai-learning/recommendations → 200 a list: [] before the first
// Generate (the page shows Generate), otherwise [ {the latest recommendation
// set, in the 201 shape above} ] — one item, the newest. The newest 20 sets
// are kept.
//
// GET /api/ai-learning/refreshers → 200
//
//	{"now": "...",
//	 "due": [ refresher, ... ],       // due at or before now, most overdue first
//	 "upcoming": [ refresher, ... ]}  // due later, soonest first
//
// refresher = {"moduleId": "elec-loto", "moduleTitle": "Lockout/Tagout Procedure", "tradeId": "electrical",
// "due": "...", "lastReview": "...", "state": "review", "reps": 2, "lapses": 0, "stability": 4.9,
// "difficulty": 5.1, "elapsedDays": 1, "scheduledDays": 5, "retrievability": 0.93}
// (stability in days; difficulty 1–10; retrievability 0–1, FSRS's estimate that
// the learner still recalls the module now).
//
// The schedule is derived from the XR session records: a module's first
// completed session (completionStatus "completed", interactionData.completionStatus
// not "failed") schedules its first refresher within 24 hours; every later
// completed session of the module is a refresher that reschedules it by FSRS,
// rated by its safety score (a failed one as forgotten). Unverified sessions
// (see sessions.go) count for neither. Each session is applied
// once, when this endpoint next runs, whichever endpoint recorded it.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/learning"
	"journeyman/internal/store"
)

// readOnlyFields are the fields GET answers add to what POST stores; a POST
// may send them back, and they are ignored.
var readOnlyFields = []string{"saved", "updatedAt", "applied"}

// readJSONIgnoring is readJSON for an object body, after dropping the named
// top-level fields.
func readJSONIgnoring(w http.ResponseWriter, r *http.Request, dst any, ignored []string) error {
	var fields map[string]json.RawMessage
	if err := readJSON(w, r, &fields); err != nil {
		return err
	}
	if fields == nil {
		return apperr.Invalid("request body must be a JSON object, not null")
	}
	for _, f := range ignored {
		delete(fields, f)
	}
	b, err := json.Marshal(fields)
	if err != nil {
		return fmt.Errorf("re-encode body: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	return nil
}

func (s *Server) handleGetLearningPreferences(w http.ResponseWriter, r *http.Request) {
	p, err := s.store.GetLearningPreferences(r.Context(), caller(r).ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) handleSaveLearningPreferences(w http.ResponseWriter, r *http.Request) {
	in := learning.DefaultPreferences()
	if err := readJSONIgnoring(w, r, &in, readOnlyFields); err != nil {
		s.writeError(w, r, err)
		return
	}
	in.Normalize()
	if err := in.Validate(); err != nil {
		s.writeError(w, r, err)
		return
	}
	p, err := s.store.SaveLearningPreferences(r.Context(), caller(r).ID, in)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) handleAddSkillAssessment(w http.ResponseWriter, r *http.Request) {
	in := learning.DefaultAssessment()
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	in.Normalize()
	if err := in.Validate(); err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.store.AddSkillAssessment(r.Context(), caller(r).ID, in, s.recorder(caller(r)))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, a)
}

type skillAssessmentsResponse struct {
	Assessments []store.StoredAssessment `json:"assessments"`
	Initial     learning.SkillAssessment `json:"initial"`
}

func (s *Server) handleListSkillAssessments(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.ListSkillAssessments(r.Context(), caller(r).ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res := skillAssessmentsResponse{Assessments: list, Initial: learning.DefaultAssessment()}
	if len(list) > 0 {
		res.Initial = list[0].SkillAssessment
	}
	writeJSON(w, http.StatusOK, res)
}

// recommendationBody is the generate-recommendations body; TimeConstraints is
// a pointer to tell "left out" from zeros.
type recommendationBody struct {
	TradeCategory     string                    `json:"tradeCategory"`
	CurrentSkillLevel string                    `json:"currentSkillLevel"`
	TimeConstraints   *learning.TimeConstraints `json:"timeConstraints"`
	FocusAreas        []string                  `json:"focusAreas"`
}

func (s *Server) handleGenerateRecommendations(w http.ResponseWriter, r *http.Request) {
	var in recommendationBody
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	ctx, id := r.Context(), caller(r).ID
	prefs, err := s.store.GetLearningPreferences(ctx, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	req := learning.RecommendationRequest{TradeCategory: in.TradeCategory, CurrentSkillLevel: in.CurrentSkillLevel, FocusAreas: in.FocusAreas}
	if in.TimeConstraints != nil {
		req.TimeConstraints = *in.TimeConstraints
	} else {
		req.TimeConstraints = learning.TimeConstraints{
			HoursPerWeek:           learning.HoursPerWeek(prefs.SessionDuration),
			PreferredSessionLength: prefs.SessionDuration,
		}
	}
	req.Normalize()
	if err := req.Validate(); err != nil {
		s.writeError(w, r, err)
		return
	}
	trades, err := s.store.ListTrades(ctx)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	modules, err := s.store.ListModules(ctx)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	assessments, err := s.store.ListSkillAssessments(ctx, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	sessions, err := s.store.CompletedSessions(ctx, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res := learning.Recommend(learning.RecommendInput{
		Trades:             trades,
		Modules:            modules,
		Request:            req,
		Assessment:         latestAssessment(assessments, req.TradeCategory),
		Preferences:        prefs.LearningPreferences,
		CompletedModuleIDs: learning.CompletedModuleIDs(sessions),
	})
	set, err := s.store.AddRecommendationSet(ctx, id, req, res.Recommendations)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, set)
}

// latestAssessment picks the newest assessment of the trade, or else the
// newest of any trade, so the recommender can say why it did not use it.
// list is newest first.
func latestAssessment(list []store.StoredAssessment, trade string) *learning.SkillAssessment {
	for _, a := range list {
		if a.TradeCategory == trade {
			return &a.SkillAssessment
		}
	}
	if len(list) > 0 {
		return &list[0].SkillAssessment
	}
	return nil
}

func (s *Server) handleLatestRecommendations(w http.ResponseWriter, r *http.Request) {
	set, err := s.store.LatestRecommendationSet(r.Context(), caller(r).ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	list := []store.RecommendationSet{}
	if set != nil {
		list = append(list, *set)
	}
	writeJSON(w, http.StatusOK, list)
}

// refresherItem is a refresher with FSRS's recall estimate at request time.
type refresherItem struct {
	store.Refresher
	Retrievability float64 `json:"retrievability"`
}

type refreshersResponse struct {
	Now      time.Time       `json:"now"`
	Due      []refresherItem `json:"due"`
	Upcoming []refresherItem `json:"upcoming"`
}

func (s *Server) handleRefreshers(w http.ResponseWriter, r *http.Request) {
	cards, err := s.store.SyncRefreshers(r.Context(), caller(r).ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	now := s.store.Now().UTC()
	res := refreshersResponse{Now: now, Due: []refresherItem{}, Upcoming: []refresherItem{}}
	// cards come ordered by due time: the most overdue first, then the soonest.
	for _, c := range cards {
		// A session stamped slightly in the future (client clock skew) would
		// give a recall estimate above 1.
		recall := min(max(learning.Retrievability(c.RefresherCard, now), 0), 1)
		item := refresherItem{Refresher: c, Retrievability: math.Round(recall*1000) / 1000}
		if c.Due.After(now) {
			res.Upcoming = append(res.Upcoming, item)
		} else {
			res.Due = append(res.Due, item)
		}
	}
	writeJSON(w, http.StatusOK, res)
}
