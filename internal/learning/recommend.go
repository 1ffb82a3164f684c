package learning

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"journeyman/internal/apperr"
	"journeyman/internal/catalog"
)

// Time-constraint bounds of a recommendation request.
const (
	MaxHoursPerWeek = 60
)

// TimeConstraints is the learner's weekly time budget.
type TimeConstraints struct {
	HoursPerWeek           int `json:"hoursPerWeek"`
	PreferredSessionLength int `json:"preferredSessionLength"` // minutes
}

// RecommendationRequest is the body of a generate-recommendations call.
type RecommendationRequest struct {
	TradeCategory     string          `json:"tradeCategory"`
	CurrentSkillLevel string          `json:"currentSkillLevel"`
	TimeConstraints   TimeConstraints `json:"timeConstraints"`
	FocusAreas        []string        `json:"focusAreas"`
}

// Normalize fills the defaults of the AI screen: trade electrical, level
// beginner, and an empty focus list.
func (r *RecommendationRequest) Normalize() {
	if r.TradeCategory == "" {
		r.TradeCategory = "electrical"
	}
	if r.CurrentSkillLevel == "" {
		r.CurrentSkillLevel = catalog.Beginner
	}
	r.FocusAreas = nonNil(r.FocusAreas)
}

// Validate checks every field and reports all bad fields in one message.
// hoursPerWeek may be 0: a 15-minute session length gives floor(45/60) = 0.
func (r RecommendationRequest) Validate() error {
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(checkEnum("tradeCategory", r.TradeCategory, TradeCategories))
	add(checkEnum("currentSkillLevel", r.CurrentSkillLevel, SkillLevels))
	if h := r.TimeConstraints.HoursPerWeek; h < 0 || h > MaxHoursPerWeek {
		add(apperr.Invalid("timeConstraints.hoursPerWeek must be 0 to %d", MaxHoursPerWeek))
	}
	if l := r.TimeConstraints.PreferredSessionLength; l < MinSessionDuration || l > MaxSessionDuration {
		add(apperr.Invalid("timeConstraints.preferredSessionLength must be %d to %d minutes", MinSessionDuration, MaxSessionDuration))
	}
	add(checkList("focusAreas", r.FocusAreas))
	return joinInvalid(errs)
}

// RecommendedPath is one learning path: an ordered list of catalog modules.
type RecommendedPath struct {
	ID                string   `json:"id"`
	Name              string   `json:"name"`
	Difficulty        string   `json:"difficulty"`
	Description       string   `json:"description"`
	EstimatedDuration float64  `json:"estimatedDuration"` // hours, one decimal
	ModuleSequence    []string `json:"moduleSequence"`    // module ids, prerequisites first
}

// Recommendations is the body of the §3 recommendation response.
type Recommendations struct {
	ReasoningExplanation      string            `json:"reasoningExplanation"`
	RecommendedPaths          []RecommendedPath `json:"recommendedPaths"`
	PersonalizedModifications []string          `json:"personalizedModifications"`
	EstimatedOutcomes         []string          `json:"estimatedOutcomes"`
}

// RecommendationResponse is the §3 response shape.
type RecommendationResponse struct {
	Recommendations Recommendations `json:"recommendations"`
}

// RecommendInput is everything the recommender reads. Assessment is the
// learner's latest assessment, nil when they have none.
type RecommendInput struct {
	Trades             []catalog.Trade
	Modules            []catalog.Module // catalog order breaks ties
	Request            RecommendationRequest
	Assessment         *SkillAssessment
	Preferences        LearningPreferences
	CompletedModuleIDs []string
}

// Limits on how far the stretch path reaches into the next level, by
// difficulty progression: a gradual learner sees two modules above their
// level, a moderate one four, an aggressive one every module.
var stretchModules = map[string]int{"gradual": 2, "moderate": 4, "aggressive": math.MaxInt}

var levelRank = map[string]int{catalog.Beginner: 0, catalog.Intermediate: 1, catalog.Advanced: 2}

// Recommend builds learning paths from the catalog for one learner. It is
// pure and deterministic: the same input gives the same response. The
// request must have been normalized and validated.
//
// Up to three paths: the core path (every not-yet-completed module at the
// learner's level), a focus path (modules matching the focus areas and the
// assessment's improvement areas) and a stretch path (the first modules of
// the next level, as many as the difficulty progression allows). Each path
// includes the uncompleted prerequisites of its modules, ordered so that a
// module always follows its prerequisites.
func Recommend(in RecommendInput) RecommendationResponse {
	req := in.Request
	trade := req.TradeCategory
	var tradeModules []catalog.Module
	for _, m := range in.Modules {
		if m.TradeID == trade {
			tradeModules = append(tradeModules, m)
		}
	}
	byID := make(map[string]catalog.Module, len(tradeModules))
	pos := make(map[string]int, len(tradeModules))
	for i, m := range tradeModules {
		byID[m.ID] = m
		pos[m.ID] = i
	}
	done := map[string]bool{}
	doneInTrade := 0
	for _, id := range in.CompletedModuleIDs {
		if !done[id] {
			done[id] = true
			if _, ok := byID[id]; ok {
				doneInTrade++
			}
		}
	}

	// The latest assessment of the requested trade outranks the level the
	// request states, because it is what the learner last told us.
	level, levelSource := req.CurrentSkillLevel, fmt.Sprintf("the requested skill level (%s)", req.CurrentSkillLevel)
	if a := in.Assessment; a != nil && a.TradeCategory == trade {
		level = a.Level()
		levelSource = fmt.Sprintf("your latest %s skill assessment (overall score %d%%, which places you at %s level)", trade, a.OverallScore, level)
	} else if a != nil {
		levelSource += fmt.Sprintf("; your latest assessment is for %s, not %s, so it was not used for the level", a.TradeCategory, trade)
	}

	focus := focusTerms(req.FocusAreas, in.Preferences.FocusAreas, in.Assessment, trade)

	var paths []RecommendedPath
	addPath := func(p RecommendedPath, targets []string) {
		seq := sequence(targets, byID, pos, done)
		if len(seq) == 0 {
			return
		}
		for _, q := range paths {
			if slices.Equal(q.ModuleSequence, seq) {
				return
			}
		}
		minutes := 0
		top := 0
		for _, id := range seq {
			minutes += byID[id].EstimatedDuration
			top = max(top, levelRank[byID[id].Difficulty])
		}
		p.ModuleSequence = seq
		p.EstimatedDuration = hours(minutes)
		if p.Difficulty == "" {
			p.Difficulty = SkillLevels[top]
		}
		paths = append(paths, p)
	}

	tradeName := tradeDisplayName(in.Trades, trade)
	var core []string
	for _, m := range tradeModules {
		if m.Difficulty == level {
			core = append(core, m.ID)
		}
	}
	addPath(RecommendedPath{
		ID:          trade + "-core-" + level,
		Name:        fmt.Sprintf("%s %s core path", tradeName, level),
		Difficulty:  level,
		Description: fmt.Sprintf("Every %s %s module you have not completed yet, with any prerequisites you still need, in the order the prerequisites require.", level, tradeName),
	}, core)

	if len(focus) > 0 {
		var matched []string
		for _, m := range tradeModules {
			if matchesAny(m, focus) {
				matched = append(matched, m.ID)
			}
		}
		addPath(RecommendedPath{
			ID:          trade + "-focus",
			Name:        fmt.Sprintf("%s focus path: %s", tradeName, strings.Join(focus, ", ")),
			Description: fmt.Sprintf("%s modules that cover your focus areas (%s), with their prerequisites.", tradeName, strings.Join(focus, ", ")),
		}, matched)
	}

	progression := in.Preferences.DifficultyProgression
	limit, ok := stretchModules[progression]
	if !ok {
		progression, limit = "gradual", stretchModules["gradual"]
	}
	if r := levelRank[level]; r+1 < len(SkillLevels) {
		next := SkillLevels[r+1]
		var stretch []string
		for _, m := range tradeModules {
			if m.Difficulty == next && !done[m.ID] && len(stretch) < limit {
				stretch = append(stretch, m.ID)
			}
		}
		addPath(RecommendedPath{
			ID:          trade + "-stretch-" + next,
			Name:        fmt.Sprintf("%s stretch path: first %s modules", tradeName, next),
			Difficulty:  next,
			Description: fmt.Sprintf("A first step into %s %s work, sized for a %s difficulty progression.", next, tradeName, progression),
		}, stretch)
	}

	budget, budgetText := weeklyMinutes(req.TimeConstraints)
	prefs := in.Preferences
	var reasoning strings.Builder
	fmt.Fprintf(&reasoning, "These paths use the %d %s modules of the catalog. Level: %s. ", len(tradeModules), tradeName, levelSource)
	if len(focus) > 0 {
		fmt.Fprintf(&reasoning, "Focus areas: %s. ", strings.Join(focus, ", "))
	} else {
		reasoning.WriteString("Focus areas: none given, so no focus path. ")
	}
	fmt.Fprintf(&reasoning, "Preferences: %s learning style, %s XR comfort, %d-minute sessions, %s difficulty progression, %d years of industry experience. ",
		prefs.PreferredLearningStyle, prefs.XRComfortLevel, req.TimeConstraints.PreferredSessionLength, progression, prefs.IndustryExperience)
	fmt.Fprintf(&reasoning, "Time budget: %s. ", budgetText)
	fmt.Fprintf(&reasoning, "Completed modules: %d in %s, skipped in every path.", doneInTrade, tradeName)
	if len(paths) == 0 {
		fmt.Fprintf(&reasoning, " You have completed every %s module that fits; review your refreshers or choose another trade.", tradeName)
	}

	return RecommendationResponse{Recommendations: Recommendations{
		ReasoningExplanation:      reasoning.String(),
		RecommendedPaths:          nonNilPaths(paths),
		PersonalizedModifications: modifications(prefs, req.TimeConstraints.PreferredSessionLength, paths, byID),
		EstimatedOutcomes:         outcomes(paths, byID, budget, budgetText, tradeCertifications(in.Trades, trade), prefs.CertificationGoals),
	}}
}

// focusTerms merges the request's and the preferences' focus areas with the
// improvement areas of a same-trade assessment, lower-cased, first mention
// kept, in the order given.
func focusTerms(request, prefs []string, a *SkillAssessment, trade string) []string {
	var all []string
	all = append(all, request...)
	all = append(all, prefs...)
	if a != nil && a.TradeCategory == trade {
		all = append(all, a.ImprovementAreas...)
	}
	var terms []string
	for _, t := range all {
		t = strings.ToLower(strings.TrimSpace(t))
		if t != "" && !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	return terms
}

// matchesAny reports whether a module covers one of the focus terms: a term
// names one of its categories, or appears in its title, description or
// learning objectives.
func matchesAny(m catalog.Module, terms []string) bool {
	text := strings.ToLower(m.Title + "\n" + m.Description + "\n" + strings.Join(m.LearningObjectives, "\n"))
	for _, t := range terms {
		if slices.Contains(m.Categories, t) || strings.Contains(text, t) {
			return true
		}
	}
	return false
}

// sequence returns the targets plus their uncompleted prerequisites (within
// the trade), completed modules dropped, ordered so that every module follows
// its prerequisites; among modules whose prerequisites are all placed, the
// easier and then the earlier in the catalog comes first. Cycles in the
// catalog cannot hang it: a module already being visited is skipped.
func sequence(targets []string, byID map[string]catalog.Module, pos map[string]int, done map[string]bool) []string {
	need := map[string]bool{}
	var visit func(id string)
	visit = func(id string) {
		if need[id] || done[id] {
			return
		}
		if _, ok := byID[id]; !ok {
			return
		}
		need[id] = true
		for _, p := range byID[id].Prerequisites {
			visit(p)
		}
	}
	for _, id := range targets {
		visit(id)
	}
	placed := map[string]bool{}
	var seq []string
	for len(seq) < len(need) {
		var ready []string
		for id := range need {
			if placed[id] {
				continue
			}
			ok := true
			for _, p := range byID[id].Prerequisites {
				if need[p] && !placed[p] {
					ok = false
					break
				}
			}
			if ok {
				ready = append(ready, id)
			}
		}
		if len(ready) == 0 { // a prerequisite cycle: place the rest in catalog order
			for id := range need {
				if !placed[id] {
					ready = append(ready, id)
				}
			}
		}
		slices.SortFunc(ready, func(a, b string) int {
			if d := levelRank[byID[a].Difficulty] - levelRank[byID[b].Difficulty]; d != 0 {
				return d
			}
			return pos[a] - pos[b]
		})
		placed[ready[0]] = true
		seq = append(seq, ready[0])
	}
	return seq
}

// weeklyMinutes is the weekly study time. When hoursPerWeek rounds down to 0
// (15-minute sessions), the same three sessions a week the AI screen assumes
// are counted in minutes instead, so a plan never takes forever.
func weeklyMinutes(tc TimeConstraints) (int, string) {
	if tc.HoursPerWeek > 0 {
		return tc.HoursPerWeek * 60, fmt.Sprintf("%d %s per week", tc.HoursPerWeek, plural(tc.HoursPerWeek, "hour", "hours"))
	}
	m := 3 * tc.PreferredSessionLength
	return m, fmt.Sprintf("0 whole hours per week, so three %d-minute sessions (%d minutes) per week", tc.PreferredSessionLength, m)
}

func modifications(p LearningPreferences, sessionLength int, paths []RecommendedPath, byID map[string]catalog.Module) []string {
	mods := []string{}
	switch p.XRComfortLevel {
	case "beginner":
		mods = append(mods, "XR comfort beginner: each module opens in desktop mode with a seated 5-minute VR orientation; teleport movement only, and a break prompt every 15 minutes in the headset.")
	case "comfortable":
		mods = append(mods, "XR comfort comfortable: standing VR sessions with teleport and smooth movement available; break prompts every 30 minutes.")
	case "expert":
		mods = append(mods, "XR comfort expert: room-scale VR with free movement and full-speed equipment animations; no forced break prompts.")
	}
	switch p.PreferredLearningStyle {
	case "visual":
		mods = append(mods, "Visual learning style: 3D exploded views, wiring and piping diagrams and highlighted hazards lead each step; narration is optional.")
	case "auditory":
		mods = append(mods, "Auditory learning style: narrated step instructions and voice commands are on by default, and each module ends with a spoken recap.")
	case "kinesthetic":
		mods = append(mods, "Kinesthetic learning style: hands-on practice comes first; every procedure is performed with the controllers before it is explained.")
	case "mixed":
		mods = append(mods, "Mixed learning style: each step is shown as a diagram, narrated, and then practised hands-on.")
	}
	if len(paths) > 0 && sessionLength > 0 {
		sessions, split := 0, 0
		for _, id := range paths[0].ModuleSequence {
			n := (byID[id].EstimatedDuration + sessionLength - 1) / sessionLength
			sessions += n
			if n > 1 {
				split++
			}
		}
		mods = append(mods, fmt.Sprintf("%d-minute sessions: the %s takes %d %s; %d %s longer than one session %s split at safe stopping points.",
			sessionLength, paths[0].Name, sessions, plural(sessions, "session", "sessions"), split, plural(split, "module", "modules"), plural(split, "is", "are")))
	}
	if p.IndustryExperience >= 5 {
		mods = append(mods, fmt.Sprintf("%d years in the trade: introductory walkthroughs are skippable; the safety briefings are not.", p.IndustryExperience))
	}
	return mods
}

func outcomes(paths []RecommendedPath, byID map[string]catalog.Module, budget int, budgetText string, certs, goals []string) []string {
	out := []string{}
	for _, p := range paths {
		minutes := 0
		for _, id := range p.ModuleSequence {
			minutes += byID[id].EstimatedDuration
		}
		weeks := (minutes + budget - 1) / budget
		out = append(out, fmt.Sprintf("%s: %d %s, %.1f hours, about %d %s at %s.",
			p.Name, len(p.ModuleSequence), plural(len(p.ModuleSequence), "module", "modules"), p.EstimatedDuration, weeks, plural(weeks, "week", "weeks"), budgetText))
	}
	if len(paths) > 0 {
		var skills []string
		for _, id := range paths[0].ModuleSequence {
			if objs := byID[id].LearningObjectives; len(objs) > 0 && len(skills) < 3 {
				skills = append(skills, objs[0])
			}
		}
		if len(skills) > 0 {
			out = append(out, "After the first path you will be able to: "+strings.Join(skills, "; ")+".")
		}
	}
	var aligned []string
	for _, g := range goals {
		for _, c := range certs {
			if strings.Contains(strings.ToLower(c), strings.ToLower(g)) || strings.Contains(strings.ToLower(g), strings.ToLower(c)) {
				if !slices.Contains(aligned, c) {
					aligned = append(aligned, c)
				}
			}
		}
	}
	switch {
	case len(aligned) > 0:
		out = append(out, "Works toward your certification goals: "+strings.Join(aligned, ", ")+".")
	case len(certs) > 0 && len(paths) > 0:
		out = append(out, "Prepares for: "+strings.Join(certs, ", ")+".")
	}
	return out
}

func hours(minutes int) float64 { return math.Round(float64(minutes)/6) / 10 }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func tradeDisplayName(trades []catalog.Trade, id string) string {
	for _, t := range trades {
		if t.ID == id && t.Name != "" {
			return t.Name
		}
	}
	return id
}

func tradeCertifications(trades []catalog.Trade, id string) []string {
	for _, t := range trades {
		if t.ID == id {
			return t.Certifications
		}
	}
	return nil
}

func nonNilPaths(p []RecommendedPath) []RecommendedPath {
	if p == nil {
		return []RecommendedPath{}
	}
	return p
}
