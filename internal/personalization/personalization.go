// Package personalization holds the personalization wizard's profile: how a
// learner wants the whole application to look, sound and pace itself.
package personalization

import (
	"slices"
	"strings"

	"journeyman/internal/apperr"
)

// Allowed values of the profile's fields, in the wizard's display order.
var (
	ExperienceLevels         = []string{"beginner", "intermediate", "advanced", "expert"}
	PrimaryTrades            = []string{"electrical", "plumbing", "hvac", "welding", "carpentry", "automotive"}
	LearningStyles           = []string{"visual", "auditory", "kinesthetic", "mixed"}
	SessionLengths           = []int{15, 30, 45, 60}
	MotionSensitivities      = []string{"low", "medium", "high"}
	DifficultyProgressions   = []string{"gradual", "moderate", "aggressive"}
	FeedbackFrequencies      = []string{"minimal", "moderate", "frequent"}
	VisualAssistanceOptions  = []string{"text-to-speech", "high-contrast", "large-ui", "color-indicators", "magnification"}
	AudioAssistanceOptions   = []string{"visual-captions", "sign-language", "haptic-feedback", "volume-control"}
	MotorAssistanceOptions   = []string{"simplified-controls", "gesture-alternatives", "reduced-precision", "extended-timeouts"}
	ColorSchemes             = []string{"default", "high-contrast", "dark", "colorblind-friendly"}
	FontSizes                = []string{"small", "medium", "large"}
	UIComplexities           = []string{"simple", "standard", "advanced"}
	MinScale                 = 1  // least xrComfortLevel and safetyEmphasis
	MaxScale                 = 10 // greatest xrComfortLevel and safetyEmphasis
	WizardSteps              = 7
	DefaultSessionLength     = 30
	DefaultXRComfortLevel    = 5
	DefaultSafetyEmphasis    = 8
	DefaultMotionSensitivity = "medium"
)

// Profile is the personalization wizard's full set of choices.
type Profile struct {
	ExperienceLevel        string   `json:"experienceLevel"`
	PrimaryTrade           string   `json:"primaryTrade"` // empty until chosen
	LearningStyle          string   `json:"learningStyle"`
	XRComfortLevel         int      `json:"xrComfortLevel"` // 1–10
	PreferredSessionLength int      `json:"preferredSessionLength"`
	MotionSensitivity      string   `json:"motionSensitivity"`
	DifficultyProgression  string   `json:"difficultyProgression"`
	SafetyEmphasis         int      `json:"safetyEmphasis"` // 1–10
	FeedbackFrequency      string   `json:"feedbackFrequency"`
	VisualAssistance       []string `json:"visualAssistance"`
	AudioAssistance        []string `json:"audioAssistance"`
	MotorAssistance        []string `json:"motorAssistance"`
	ColorScheme            string   `json:"colorScheme"`
	FontSize               string   `json:"fontSize"`
	UIComplexity           string   `json:"uiComplexity"`
}

// DefaultProfile returns the wizard's defaults.
func DefaultProfile() Profile {
	return Profile{
		ExperienceLevel:        "beginner",
		PrimaryTrade:           "",
		LearningStyle:          "mixed",
		XRComfortLevel:         DefaultXRComfortLevel,
		PreferredSessionLength: DefaultSessionLength,
		MotionSensitivity:      DefaultMotionSensitivity,
		DifficultyProgression:  "moderate",
		SafetyEmphasis:         DefaultSafetyEmphasis,
		FeedbackFrequency:      "moderate",
		VisualAssistance:       []string{},
		AudioAssistance:        []string{},
		MotorAssistance:        []string{},
		ColorScheme:            "default",
		FontSize:               "medium",
		UIComplexity:           "standard",
	}
}

// Normalize replaces nil lists with empty ones.
func (p *Profile) Normalize() {
	for _, l := range []*[]string{&p.VisualAssistance, &p.AudioAssistance, &p.MotorAssistance} {
		if *l == nil {
			*l = []string{}
		}
	}
}

// Validate checks every field and reports all bad fields in one message. No
// field is required in the wizard, but every value sent must be one the wizard
// offers.
func (p Profile) Validate() error {
	var msgs []string
	enum := func(field, value string, allowed []string) {
		if !slices.Contains(allowed, value) {
			msgs = append(msgs, field+" must be one of "+strings.Join(allowed, ", "))
		}
	}
	scale := func(field string, v int) {
		if v < MinScale || v > MaxScale {
			msgs = append(msgs, field+" must be 1 to 10")
		}
	}
	options := func(field string, values, allowed []string) {
		seen := map[string]bool{}
		for _, v := range values {
			if !slices.Contains(allowed, v) || seen[v] {
				msgs = append(msgs, field+" must be distinct options from "+strings.Join(allowed, ", "))
				return
			}
			seen[v] = true
		}
	}
	enum("experienceLevel", p.ExperienceLevel, ExperienceLevels)
	if p.PrimaryTrade != "" {
		enum("primaryTrade", p.PrimaryTrade, PrimaryTrades)
	}
	enum("learningStyle", p.LearningStyle, LearningStyles)
	scale("xrComfortLevel", p.XRComfortLevel)
	if !slices.Contains(SessionLengths, p.PreferredSessionLength) {
		msgs = append(msgs, "preferredSessionLength must be one of 15, 30, 45, 60")
	}
	enum("motionSensitivity", p.MotionSensitivity, MotionSensitivities)
	enum("difficultyProgression", p.DifficultyProgression, DifficultyProgressions)
	scale("safetyEmphasis", p.SafetyEmphasis)
	enum("feedbackFrequency", p.FeedbackFrequency, FeedbackFrequencies)
	options("visualAssistance", p.VisualAssistance, VisualAssistanceOptions)
	options("audioAssistance", p.AudioAssistance, AudioAssistanceOptions)
	options("motorAssistance", p.MotorAssistance, MotorAssistanceOptions)
	enum("colorScheme", p.ColorScheme, ColorSchemes)
	enum("fontSize", p.FontSize, FontSizes)
	enum("uiComplexity", p.UIComplexity, UIComplexities)
	if len(msgs) > 0 {
		return apperr.Invalid("%s", strings.Join(msgs, "; "))
	}
	return nil
}

// ReducedMotion reports whether the app should cut animation and camera
// motion: learners with high motion sensitivity get simulator sickness from it.
func (p Profile) ReducedMotion() bool { return p.MotionSensitivity == "high" }

// Captions reports whether spoken text should also be shown as captions.
func (p Profile) Captions() bool { return slices.Contains(p.AudioAssistance, "visual-captions") }

// ExtendedTimeouts reports whether timed steps should allow more time.
func (p Profile) ExtendedTimeouts() bool {
	return slices.Contains(p.MotorAssistance, "extended-timeouts")
}
