package learning

import (
	"unicode/utf8"

	"journeyman/internal/apperr"
)

// Allowed values of the learning-preference enumerations.
var (
	LearningStyles         = []string{"visual", "auditory", "kinesthetic", "mixed"}
	XRComfortLevels        = []string{"beginner", "comfortable", "expert"}
	DifficultyProgressions = []string{"gradual", "moderate", "aggressive"}
)

// Session duration and industry experience ranges of the preferences form.
const (
	MinSessionDuration  = 15
	MaxSessionDuration  = 120
	SessionDurationStep = 15
	MaxIndustryYears    = 20
)

// LearningPreferences are what a learner tells the AI learning paths page
// about how they like to learn.
type LearningPreferences struct {
	PreferredLearningStyle string   `json:"preferredLearningStyle"`
	XRComfortLevel         string   `json:"xrComfortLevel"`
	SessionDuration        int      `json:"sessionDuration"`    // minutes
	IndustryExperience     int      `json:"industryExperience"` // years
	LearningGoals          string   `json:"learningGoals"`
	DifficultyProgression  string   `json:"difficultyProgression"`
	FocusAreas             []string `json:"focusAreas"`
	AvailableTimeSlots     []string `json:"availableTimeSlots"`
	CertificationGoals     []string `json:"certificationGoals"`
}

// DefaultPreferences returns the initial values of the AI screen.
func DefaultPreferences() LearningPreferences {
	return LearningPreferences{
		PreferredLearningStyle: "mixed",
		XRComfortLevel:         "beginner",
		SessionDuration:        30,
		IndustryExperience:     0,
		LearningGoals:          "",
		DifficultyProgression:  "gradual",
		FocusAreas:             []string{},
		AvailableTimeSlots:     []string{},
		CertificationGoals:     []string{},
	}
}

// Normalize replaces nil lists with empty ones.
func (p *LearningPreferences) Normalize() {
	p.FocusAreas = nonNil(p.FocusAreas)
	p.AvailableTimeSlots = nonNil(p.AvailableTimeSlots)
	p.CertificationGoals = nonNil(p.CertificationGoals)
}

// Validate checks every field and reports all bad fields in one message.
func (p LearningPreferences) Validate() error {
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(checkEnum("preferredLearningStyle", p.PreferredLearningStyle, LearningStyles))
	add(checkEnum("xrComfortLevel", p.XRComfortLevel, XRComfortLevels))
	if p.SessionDuration < MinSessionDuration || p.SessionDuration > MaxSessionDuration || p.SessionDuration%SessionDurationStep != 0 {
		add(apperr.Invalid("sessionDuration must be %d to %d minutes in steps of %d", MinSessionDuration, MaxSessionDuration, SessionDurationStep))
	}
	if p.IndustryExperience < 0 || p.IndustryExperience > MaxIndustryYears {
		add(apperr.Invalid("industryExperience must be 0 to %d years", MaxIndustryYears))
	}
	if utf8.RuneCountInString(p.LearningGoals) > MaxTextLength {
		add(apperr.Invalid("learningGoals must be at most %d characters", MaxTextLength))
	}
	add(checkEnum("difficultyProgression", p.DifficultyProgression, DifficultyProgressions))
	add(checkList("focusAreas", p.FocusAreas))
	add(checkList("availableTimeSlots", p.AvailableTimeSlots))
	add(checkList("certificationGoals", p.CertificationGoals))
	return joinInvalid(errs)
}

// HoursPerWeek is the weekly time budget the AI screen derives from the
// session duration: three sessions a week, whole hours, rounded down.
func HoursPerWeek(sessionDuration int) int {
	return sessionDuration * 3 / 60
}

// joinInvalid merges several Invalid errors into one whose message lists each
// field's problem, so a form can show them all at once.
func joinInvalid(errs []error) error {
	if len(errs) == 0 {
		return nil
	}
	msg := ""
	for i, err := range errs {
		if i > 0 {
			msg += "; "
		}
		msg += apperr.Message(err)
	}
	return apperr.Invalid("%s", msg)
}
