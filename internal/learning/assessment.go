package learning

import (
	"journeyman/internal/apperr"
	"journeyman/internal/catalog"
)

// Allowed values of the skill-assessment enumerations.
var (
	TradeCategories = []string{"electrical", "plumbing", "hvac", "welding"}
	// AssessmentTypes: the first self-assessment, a later check of progress,
	// and the assessment before a certification attempt.
	AssessmentTypes = []string{"initial", "progress", "certification"}
	SkillLevels     = []string{catalog.Beginner, catalog.Intermediate, catalog.Advanced}
)

// Overall score range of the assessment slider.
const (
	MaxOverallScore  = 100
	OverallScoreStep = 10
)

// Score bands of the skill levels: scores up to 30 are beginner, 40 to 70
// intermediate, 80 and above advanced. A learner who can do fewer than a third
// of a trade's tasks unaided still needs the fundamentals; one who can do
// eight in ten is ready for advanced work.
const (
	IntermediateFromScore = 40
	AdvancedFromScore     = 80
)

// SkillAssessment is a learner's self-assessment in one trade.
type SkillAssessment struct {
	TradeCategory    string   `json:"tradeCategory"`
	SkillAreas       []string `json:"skillAreas"`
	CurrentLevels    []string `json:"currentLevels"`
	Strengths        []string `json:"strengths"`
	ImprovementAreas []string `json:"improvementAreas"`
	OverallScore     int      `json:"overallScore"` // percent
	AssessmentType   string   `json:"assessmentType"`
}

// DefaultAssessment returns the initial values of the AI screen.
func DefaultAssessment() SkillAssessment {
	return SkillAssessment{
		TradeCategory:    "electrical",
		SkillAreas:       []string{},
		CurrentLevels:    []string{},
		Strengths:        []string{},
		ImprovementAreas: []string{},
		OverallScore:     0,
		AssessmentType:   "initial",
	}
}

// Normalize replaces nil lists with empty ones.
func (a *SkillAssessment) Normalize() {
	a.SkillAreas = nonNil(a.SkillAreas)
	a.CurrentLevels = nonNil(a.CurrentLevels)
	a.Strengths = nonNil(a.Strengths)
	a.ImprovementAreas = nonNil(a.ImprovementAreas)
}

// Validate checks every field and reports all bad fields in one message.
func (a SkillAssessment) Validate() error {
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(checkEnum("tradeCategory", a.TradeCategory, TradeCategories))
	add(checkList("skillAreas", a.SkillAreas))
	add(checkList("currentLevels", a.CurrentLevels))
	add(checkList("strengths", a.Strengths))
	add(checkList("improvementAreas", a.ImprovementAreas))
	if a.OverallScore < 0 || a.OverallScore > MaxOverallScore || a.OverallScore%OverallScoreStep != 0 {
		add(apperr.Invalid("overallScore must be 0 to %d in steps of %d", MaxOverallScore, OverallScoreStep))
	}
	add(checkEnum("assessmentType", a.AssessmentType, AssessmentTypes))
	return joinInvalid(errs)
}

// Level is the skill level the overall score places the learner at.
func (a SkillAssessment) Level() string { return LevelFromScore(a.OverallScore) }

// LevelFromScore maps an overall score in percent to a skill level using the
// bands IntermediateFromScore and AdvancedFromScore.
func LevelFromScore(score int) string {
	switch {
	case score >= AdvancedFromScore:
		return catalog.Advanced
	case score >= IntermediateFromScore:
		return catalog.Intermediate
	default:
		return catalog.Beginner
	}
}
