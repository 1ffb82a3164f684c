package learning

import (
	"slices"
	"strings"
	"testing"

	"journeyman/internal/apperr"
)

func TestSplitList(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     []string
	}{
		{"Empty", "", []string{}},
		{"OnlyCommas", " , ,, ", []string{}},
		{"TrimsAndDropsEmpties", " conduit bending, ,load calculations ,", []string{"conduit bending", "load calculations"}},
		{"Single", "brazing", []string{"brazing"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := SplitList(tt.in); !slices.Equal(got, tt.want) {
				t.Fatalf("SplitList(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestHoursPerWeek(t *testing.T) {
	for _, tt := range []struct{ minutes, want int }{{15, 0}, {30, 1}, {45, 2}, {60, 3}, {90, 4}, {120, 6}} {
		if got := HoursPerWeek(tt.minutes); got != tt.want {
			t.Errorf("HoursPerWeek(%d) = %d, want %d", tt.minutes, got, tt.want)
		}
	}
}

func TestDefaultPreferences(t *testing.T) {
	p := DefaultPreferences()
	if p.PreferredLearningStyle != "mixed" || p.SessionDuration != 30 || p.DifficultyProgression != "gradual" ||
		p.XRComfortLevel != "beginner" || p.IndustryExperience != 0 || p.LearningGoals != "" ||
		p.FocusAreas == nil || len(p.FocusAreas) != 0 || p.AvailableTimeSlots == nil || p.CertificationGoals == nil {
		t.Fatalf("DefaultPreferences() = %+v, not the AI screen's initial values", p)
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
}

func TestLearningPreferences_Validate(t *testing.T) {
	for _, tt := range []struct {
		name   string
		edit   func(*LearningPreferences)
		fields []string // each must be named in the message; none means valid
	}{
		{"OK", func(p *LearningPreferences) {}, nil},
		{"OKBounds", func(p *LearningPreferences) { p.SessionDuration, p.IndustryExperience = 120, 20 }, nil},
		{"OKFullLists", func(p *LearningPreferences) {
			p.FocusAreas = []string{"safety", "troubleshooting"}
			p.AvailableTimeSlots = []string{"weekday evenings"}
			p.CertificationGoals = []string{"NFPA 70E"}
		}, nil},
		{"ErrStyle", func(p *LearningPreferences) { p.PreferredLearningStyle = "reading" }, []string{"preferredLearningStyle must be one of visual, auditory, kinesthetic, mixed"}},
		{"ErrComfort", func(p *LearningPreferences) { p.XRComfortLevel = "" }, []string{"xrComfortLevel must be one of beginner, comfortable, expert"}},
		{"ErrSessionStep", func(p *LearningPreferences) { p.SessionDuration = 40 }, []string{"sessionDuration must be 15 to 120 minutes in steps of 15"}},
		{"ErrSessionLow", func(p *LearningPreferences) { p.SessionDuration = 0 }, []string{"sessionDuration"}},
		{"ErrSessionHigh", func(p *LearningPreferences) { p.SessionDuration = 135 }, []string{"sessionDuration"}},
		{"ErrExperienceNegative", func(p *LearningPreferences) { p.IndustryExperience = -1 }, []string{"industryExperience must be 0 to 20 years"}},
		{"ErrExperienceHigh", func(p *LearningPreferences) { p.IndustryExperience = 21 }, []string{"industryExperience"}},
		{"ErrGoalsTooLong", func(p *LearningPreferences) { p.LearningGoals = strings.Repeat("x", MaxTextLength+1) }, []string{"learningGoals must be at most 2000 characters"}},
		{"ErrProgression", func(p *LearningPreferences) { p.DifficultyProgression = "fast" }, []string{"difficultyProgression must be one of gradual, moderate, aggressive"}},
		{"ErrTooManyFocusAreas", func(p *LearningPreferences) { p.FocusAreas = make([]string, MaxListItems+1) }, []string{"focusAreas must have at most 20 items"}},
		{"ErrBlankTimeSlot", func(p *LearningPreferences) { p.AvailableTimeSlots = []string{" "} }, []string{"availableTimeSlots must not contain empty items"}},
		{"ErrLongCertification", func(p *LearningPreferences) { p.CertificationGoals = []string{strings.Repeat("c", MaxItemLength+1)} }, []string{"certificationGoals items must be at most 100 characters"}},
		{"ErrSeveral", func(p *LearningPreferences) {
			p.PreferredLearningStyle, p.SessionDuration, p.IndustryExperience = "x", 7, 99
		},
			[]string{"preferredLearningStyle", "sessionDuration", "industryExperience"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultPreferences()
			tt.edit(&p)
			assertInvalid(t, p.Validate(), tt.fields)
		})
	}
}

func TestDefaultAssessment(t *testing.T) {
	a := DefaultAssessment()
	if a.TradeCategory != "electrical" || a.OverallScore != 0 || a.AssessmentType != "initial" ||
		a.SkillAreas == nil || a.CurrentLevels == nil || a.Strengths == nil || a.ImprovementAreas == nil {
		t.Fatalf("DefaultAssessment() = %+v, not the AI screen's initial values", a)
	}
	if err := a.Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
}

func TestSkillAssessment_Validate(t *testing.T) {
	for _, tt := range []struct {
		name   string
		edit   func(*SkillAssessment)
		fields []string
	}{
		{"OK", func(a *SkillAssessment) { a.OverallScore = 70; a.Strengths = []string{"conduit bending"} }, nil},
		{"OKEveryTrade", func(a *SkillAssessment) { a.TradeCategory = "welding"; a.AssessmentType = "progress" }, nil},
		{"OKMax", func(a *SkillAssessment) { a.OverallScore = 100; a.AssessmentType = "certification" }, nil},
		{"ErrTrade", func(a *SkillAssessment) { a.TradeCategory = "carpentry" }, []string{"tradeCategory must be one of electrical, plumbing, hvac, welding"}},
		{"ErrScoreStep", func(a *SkillAssessment) { a.OverallScore = 45 }, []string{"overallScore must be 0 to 100 in steps of 10"}},
		{"ErrScoreHigh", func(a *SkillAssessment) { a.OverallScore = 110 }, []string{"overallScore"}},
		{"ErrScoreNegative", func(a *SkillAssessment) { a.OverallScore = -10 }, []string{"overallScore"}},
		{"ErrType", func(a *SkillAssessment) { a.AssessmentType = "" }, []string{"assessmentType must be one of initial, progress, certification"}},
		{"ErrBlankStrength", func(a *SkillAssessment) { a.Strengths = []string{""} }, []string{"strengths must not contain empty items"}},
		{"ErrTooManyAreas", func(a *SkillAssessment) { a.ImprovementAreas = make([]string, 21) }, []string{"improvementAreas"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := DefaultAssessment()
			tt.edit(&a)
			assertInvalid(t, a.Validate(), tt.fields)
		})
	}
}

func TestLevelFromScore(t *testing.T) {
	for _, tt := range []struct {
		score int
		want  string
	}{{0, "beginner"}, {30, "beginner"}, {40, "intermediate"}, {70, "intermediate"}, {80, "advanced"}, {100, "advanced"}} {
		if got := LevelFromScore(tt.score); got != tt.want {
			t.Errorf("LevelFromScore(%d) = %q, want %q", tt.score, got, tt.want)
		}
	}
}

func TestRecommendationRequest_Validate(t *testing.T) {
	valid := func() RecommendationRequest {
		r := RecommendationRequest{TimeConstraints: TimeConstraints{HoursPerWeek: 1, PreferredSessionLength: 30}}
		r.Normalize()
		return r
	}
	t.Run("Defaults", func(t *testing.T) {
		r := RecommendationRequest{}
		r.Normalize()
		if r.TradeCategory != "electrical" || r.CurrentSkillLevel != "beginner" || r.FocusAreas == nil {
			t.Fatalf("Normalize() = %+v", r)
		}
	})
	for _, tt := range []struct {
		name   string
		edit   func(*RecommendationRequest)
		fields []string
	}{
		{"OK", func(r *RecommendationRequest) {}, nil},
		{"OKZeroHours", func(r *RecommendationRequest) { r.TimeConstraints = TimeConstraints{0, 15} }, nil},
		{"ErrTrade", func(r *RecommendationRequest) { r.TradeCategory = "roofing" }, []string{"tradeCategory"}},
		{"ErrLevel", func(r *RecommendationRequest) { r.CurrentSkillLevel = "expert" }, []string{"currentSkillLevel must be one of beginner, intermediate, advanced"}},
		{"ErrHours", func(r *RecommendationRequest) { r.TimeConstraints.HoursPerWeek = 61 }, []string{"timeConstraints.hoursPerWeek must be 0 to 60"}},
		{"ErrSessionLength", func(r *RecommendationRequest) { r.TimeConstraints.PreferredSessionLength = 5 }, []string{"timeConstraints.preferredSessionLength must be 15 to 120 minutes"}},
		{"ErrFocus", func(r *RecommendationRequest) { r.FocusAreas = []string{""} }, []string{"focusAreas"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := valid()
			tt.edit(&r)
			assertInvalid(t, r.Validate(), tt.fields)
		})
	}
}

// assertInvalid checks that err is nil when no fields are expected, and
// otherwise an EINVALID error whose message contains each expected text.
func assertInvalid(t *testing.T, err error, fields []string) {
	t.Helper()
	if len(fields) == 0 {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if apperr.Code(err) != apperr.EINVALID {
		t.Fatalf("error = %v, want EINVALID", err)
	}
	for _, f := range fields {
		if !strings.Contains(apperr.Message(err), f) {
			t.Errorf("message %q does not mention %q", apperr.Message(err), f)
		}
	}
}
