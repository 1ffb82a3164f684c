package personalization

import (
	"strings"
	"testing"

	"journeyman/internal/apperr"
)

func TestDefaultProfile(t *testing.T) {
	p := DefaultProfile()
	want := Profile{ExperienceLevel: "beginner", LearningStyle: "mixed", XRComfortLevel: 5, PreferredSessionLength: 30,
		MotionSensitivity: "medium", DifficultyProgression: "moderate", SafetyEmphasis: 8, FeedbackFrequency: "moderate",
		ColorScheme: "default", FontSize: "medium", UIComplexity: "standard"}
	if p.ExperienceLevel != want.ExperienceLevel || p.PrimaryTrade != "" || p.LearningStyle != want.LearningStyle ||
		p.XRComfortLevel != want.XRComfortLevel || p.PreferredSessionLength != want.PreferredSessionLength ||
		p.MotionSensitivity != want.MotionSensitivity || p.DifficultyProgression != want.DifficultyProgression ||
		p.SafetyEmphasis != want.SafetyEmphasis || p.FeedbackFrequency != want.FeedbackFrequency ||
		p.ColorScheme != want.ColorScheme || p.FontSize != want.FontSize || p.UIComplexity != want.UIComplexity ||
		p.VisualAssistance == nil || p.AudioAssistance == nil || p.MotorAssistance == nil {
		t.Fatalf("DefaultProfile() = %+v", p)
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	if p.ReducedMotion() || p.Captions() || p.ExtendedTimeouts() {
		t.Errorf("defaults turn on an assistance: %+v", p)
	}
}

func TestProfile_Validate(t *testing.T) {
	for _, tt := range []struct {
		name   string
		edit   func(*Profile)
		fields []string
	}{
		{"OK", func(p *Profile) {}, nil},
		{"OKEveryChoice", func(p *Profile) {
			*p = Profile{ExperienceLevel: "expert", PrimaryTrade: "automotive", LearningStyle: "kinesthetic", XRComfortLevel: 10,
				PreferredSessionLength: 60, MotionSensitivity: "high", DifficultyProgression: "aggressive", SafetyEmphasis: 1,
				FeedbackFrequency: "frequent", VisualAssistance: []string{"text-to-speech", "magnification"},
				AudioAssistance: []string{"visual-captions", "sign-language", "haptic-feedback", "volume-control"},
				MotorAssistance: []string{"extended-timeouts"}, ColorScheme: "colorblind-friendly", FontSize: "large", UIComplexity: "simple"}
		}, nil},
		{"ErrExperience", func(p *Profile) { p.ExperienceLevel = "master" }, []string{"experienceLevel must be one of beginner, intermediate, advanced, expert"}},
		{"ErrTrade", func(p *Profile) { p.PrimaryTrade = "roofing" }, []string{"primaryTrade must be one of electrical, plumbing, hvac, welding, carpentry, automotive"}},
		{"ErrStyle", func(p *Profile) { p.LearningStyle = "" }, []string{"learningStyle"}},
		{"ErrComfortLow", func(p *Profile) { p.XRComfortLevel = 0 }, []string{"xrComfortLevel must be 1 to 10"}},
		{"ErrComfortHigh", func(p *Profile) { p.XRComfortLevel = 11 }, []string{"xrComfortLevel"}},
		{"ErrSessionLength", func(p *Profile) { p.PreferredSessionLength = 90 }, []string{"preferredSessionLength must be one of 15, 30, 45, 60"}},
		{"ErrMotion", func(p *Profile) { p.MotionSensitivity = "none" }, []string{"motionSensitivity must be one of low, medium, high"}},
		{"ErrProgression", func(p *Profile) { p.DifficultyProgression = "steep" }, []string{"difficultyProgression"}},
		{"ErrSafety", func(p *Profile) { p.SafetyEmphasis = -3 }, []string{"safetyEmphasis must be 1 to 10"}},
		{"ErrFeedback", func(p *Profile) { p.FeedbackFrequency = "always" }, []string{"feedbackFrequency must be one of minimal, moderate, frequent"}},
		{"ErrVisualOption", func(p *Profile) { p.VisualAssistance = []string{"visual-captions"} }, []string{"visualAssistance must be distinct options from text-to-speech"}},
		{"ErrAudioDuplicate", func(p *Profile) { p.AudioAssistance = []string{"sign-language", "sign-language"} }, []string{"audioAssistance"}},
		{"ErrMotorOption", func(p *Profile) { p.MotorAssistance = []string{"eye-tracking"} }, []string{"motorAssistance"}},
		{"ErrColor", func(p *Profile) { p.ColorScheme = "light" }, []string{"colorScheme must be one of default, high-contrast, dark, colorblind-friendly"}},
		{"ErrFont", func(p *Profile) { p.FontSize = "huge" }, []string{"fontSize must be one of small, medium, large"}},
		{"ErrUI", func(p *Profile) { p.UIComplexity = "expert" }, []string{"uiComplexity must be one of simple, standard, advanced"}},
		{"ErrSeveral", func(p *Profile) { p.FontSize, p.SafetyEmphasis, p.ColorScheme = "", 0, "" }, []string{"fontSize", "safetyEmphasis", "colorScheme"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultProfile()
			tt.edit(&p)
			err := p.Validate()
			if len(tt.fields) == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if apperr.Code(err) != apperr.EINVALID {
				t.Fatalf("err = %v, want EINVALID", err)
			}
			for _, f := range tt.fields {
				if !strings.Contains(apperr.Message(err), f) {
					t.Errorf("message %q does not mention %q", apperr.Message(err), f)
				}
			}
		})
	}
}

func TestProfile_Assistance(t *testing.T) {
	for _, tt := range []struct {
		name                        string
		edit                        func(*Profile)
		reduced, captions, extended bool
	}{
		{"HighMotionSensitivity", func(p *Profile) { p.MotionSensitivity = "high" }, true, false, false},
		{"LowMotionSensitivity", func(p *Profile) { p.MotionSensitivity = "low" }, false, false, false},
		{"Captions", func(p *Profile) { p.AudioAssistance = []string{"haptic-feedback", "visual-captions"} }, false, true, false},
		{"ExtendedTimeouts", func(p *Profile) { p.MotorAssistance = []string{"extended-timeouts"} }, false, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := DefaultProfile()
			tt.edit(&p)
			if p.ReducedMotion() != tt.reduced || p.Captions() != tt.captions || p.ExtendedTimeouts() != tt.extended {
				t.Errorf("ReducedMotion, Captions, ExtendedTimeouts = %v, %v, %v", p.ReducedMotion(), p.Captions(), p.ExtendedTimeouts())
			}
		})
	}
	t.Run("NormalizeFillsNilLists", func(t *testing.T) {
		p := Profile{}
		p.Normalize()
		if p.VisualAssistance == nil || p.AudioAssistance == nil || p.MotorAssistance == nil {
			t.Fatalf("Normalize left nil lists: %+v", p)
		}
	})
}
