package server

import (
	"reflect"
	"strings"
	"testing"

	"journeyman/internal/personalization"
)

type profileJSON struct {
	personalization.Profile
	Saved   bool            `json:"saved"`
	Applied appliedSettings `json:"applied"`
}

func TestPersonalizationAPI(t *testing.T) {
	s := MustOpenLearningServer(t)
	const get, save = "/api/personalization", "/api/personalization/save"
	me := guestID(1)
	t.Run("DefaultsBeforeSave", func(t *testing.T) {
		res := mustCall(t, s, me, "GET", get, "", 200, nil)
		want := `{"experienceLevel":"beginner","primaryTrade":"","learningStyle":"mixed","xrComfortLevel":5,` +
			`"preferredSessionLength":30,"motionSensitivity":"medium","difficultyProgression":"moderate","safetyEmphasis":8,` +
			`"feedbackFrequency":"moderate","visualAssistance":[],"audioAssistance":[],"motorAssistance":[],` +
			`"colorScheme":"default","fontSize":"medium","uiComplexity":"standard","saved":false,"updatedAt":null,` +
			`"applied":{"reducedMotion":false,"captions":false,"extendedTimeouts":false}}`
		if strings.TrimSpace(res.body) != want {
			t.Fatalf("body = %s\nwant %s", res.body, want)
		}
	})
	full := `{"experienceLevel":"expert","primaryTrade":"automotive","learningStyle":"auditory","xrComfortLevel":1,
		"preferredSessionLength":60,"motionSensitivity":"high","difficultyProgression":"gradual","safetyEmphasis":10,
		"feedbackFrequency":"frequent","visualAssistance":["text-to-speech","high-contrast","large-ui","color-indicators","magnification"],
		"audioAssistance":["visual-captions","sign-language"],"motorAssistance":["extended-timeouts"],
		"colorScheme":"high-contrast","fontSize":"large","uiComplexity":"simple"}`
	var saved profileJSON
	t.Run("SaveThenRead", func(t *testing.T) {
		mustCall(t, s, me, "POST", save, full, 200, &saved)
		if !saved.Saved || saved.ColorScheme != "high-contrast" || saved.FontSize != "large" || saved.PrimaryTrade != "automotive" ||
			len(saved.VisualAssistance) != 5 || saved.Applied != (appliedSettings{ReducedMotion: true, Captions: true, ExtendedTimeouts: true}) {
			t.Fatalf("saved = %+v", saved)
		}
		var got profileJSON
		mustCall(t, s, me, "GET", get, "", 200, &got)
		if !reflect.DeepEqual(got, saved) {
			t.Fatalf("GET = %+v, want %+v", got, saved)
		}
	})
	t.Run("WhatWasReadCanBeSentBack", func(t *testing.T) {
		read := mustCall(t, s, me, "GET", get, "", 200, nil)
		var again profileJSON
		mustCall(t, s, me, "POST", save, read.body, 200, &again)
		if !reflect.DeepEqual(again.Profile, saved.Profile) {
			t.Fatalf("after sending back: %+v, want %+v", again.Profile, saved.Profile)
		}
	})
	t.Run("LeftOutFieldsTakeDefaults", func(t *testing.T) {
		var got profileJSON
		mustCall(t, s, me, "POST", save, `{"colorScheme":"dark"}`, 200, &got)
		want := personalization.DefaultProfile()
		want.ColorScheme = "dark"
		if !reflect.DeepEqual(got.Profile, want) || got.Applied != (appliedSettings{}) {
			t.Fatalf("saved = %+v, want %+v", got, want)
		}
	})
	t.Run("OtherLearnerSeesDefaults", func(t *testing.T) {
		var got profileJSON
		mustCall(t, s, guestID(2), "GET", get, "", 200, &got)
		if got.Saved || got.ColorScheme != "default" {
			t.Fatalf("another learner sees %+v", got)
		}
	})
	checkBadInputs(t, s, "POST", save, []badInput{
		{"ErrExperience", `{"experienceLevel":"master"}`, []string{"experienceLevel must be one of beginner, intermediate, advanced, expert"}},
		{"ErrTrade", `{"primaryTrade":"masonry"}`, []string{"primaryTrade must be one of electrical, plumbing, hvac, welding, carpentry, automotive"}},
		{"ErrLearningStyle", `{"learningStyle":"reading"}`, []string{"learningStyle must be one of visual, auditory, kinesthetic, mixed"}},
		{"ErrComfortLow", `{"xrComfortLevel":0}`, []string{"xrComfortLevel must be 1 to 10"}},
		{"ErrComfortHigh", `{"xrComfortLevel":11}`, []string{"xrComfortLevel must be 1 to 10"}},
		{"ErrSessionLength", `{"preferredSessionLength":90}`, []string{"preferredSessionLength must be one of 15, 30, 45, 60"}},
		{"ErrMotion", `{"motionSensitivity":"none"}`, []string{"motionSensitivity must be one of low, medium, high"}},
		{"ErrProgression", `{"difficultyProgression":"steep"}`, []string{"difficultyProgression must be one of gradual, moderate, aggressive"}},
		{"ErrSafetyLow", `{"safetyEmphasis":0}`, []string{"safetyEmphasis must be 1 to 10"}},
		{"ErrSafetyHigh", `{"safetyEmphasis":11}`, []string{"safetyEmphasis must be 1 to 10"}},
		{"ErrFeedback", `{"feedbackFrequency":"always"}`, []string{"feedbackFrequency must be one of minimal, moderate, frequent"}},
		{"ErrVisualOption", `{"visualAssistance":["zoom"]}`, []string{"visualAssistance must be distinct options from text-to-speech"}},
		{"ErrVisualDuplicate", `{"visualAssistance":["large-ui","large-ui"]}`, []string{"visualAssistance must be distinct options"}},
		{"ErrAudioOption", `{"audioAssistance":["subtitles"]}`, []string{"audioAssistance must be distinct options from visual-captions"}},
		{"ErrMotorOption", `{"motorAssistance":["eye-tracking"]}`, []string{"motorAssistance must be distinct options from simplified-controls"}},
		{"ErrColorScheme", `{"colorScheme":"neon"}`, []string{"colorScheme must be one of default, high-contrast, dark, colorblind-friendly"}},
		{"ErrFontSize", `{"fontSize":"huge"}`, []string{"fontSize must be one of small, medium, large"}},
		{"ErrUIComplexity", `{"uiComplexity":"expert"}`, []string{"uiComplexity must be one of simple, standard, advanced"}},
		{"ErrScaleType", `{"safetyEmphasis":"high"}`, []string{`"safetyEmphasis" must be a whole number, not string`}},
		{"ErrListType", `{"motorAssistance":"extended-timeouts"}`, []string{`"motorAssistance" must be a list`}},
		{"ErrUnknownField", `{"theme":"dark"}`, []string{`unknown field "theme"`}},
		{"ErrEmptyBody", ``, []string{"request body is empty"}},
		{"ErrNotJSON", `{"fontSize":`, []string{"malformed JSON"}},
		{"ErrSeveralFields", `{"fontSize":"huge","safetyEmphasis":0}`, []string{"safetyEmphasis must be 1 to 10", "fontSize must be one of"}},
	})
	t.Run("ErrRefusedSaveChangesNothing", func(t *testing.T) {
		before := mustCall(t, s, me, "GET", get, "", 200, nil)
		call(t, s, me, "POST", save, `{"fontSize":"huge"}`)
		if after := mustCall(t, s, me, "GET", get, "", 200, nil); after.body != before.body {
			t.Fatalf("a refused save changed %s to %s", before.body, after.body)
		}
	})
}
