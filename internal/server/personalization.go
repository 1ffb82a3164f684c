package server

// Personalization API: the wizard's profile of the caller (the guest learner
// of the cookie). Errors are 4xx {"message": "..."}; several bad fields get
// one message naming each, separated by "; ". Unknown fields are rejected.
// The save shares the learning saves' budget per learner (429 past it).
//
// GET /api/personalization → 200
//
//	{"experienceLevel": "beginner",          // beginner | intermediate | advanced | expert
//	 "primaryTrade": "",                     // "" (not chosen) | electrical | plumbing | hvac | welding | carpentry | automotive
//	 "learningStyle": "mixed",               // visual | auditory | kinesthetic | mixed
//	 "xrComfortLevel": 5,                    // 1–10
//	 "preferredSessionLength": 30,           // 15 | 30 | 45 | 60
//	 "motionSensitivity": "medium",          // low | medium | high
//	 "difficultyProgression": "moderate",    // gradual | moderate | aggressive
//	 "safetyEmphasis": 8,                    // 1–10
//	 "feedbackFrequency": "moderate",        // minimal | moderate | frequent
//	 "visualAssistance": [],                 // distinct ids of text-to-speech, high-contrast, large-ui, color-indicators, magnification
//	 "audioAssistance": [],                  // distinct ids of visual-captions, sign-language, haptic-feedback, volume-control
//	 "motorAssistance": [],                  // distinct ids of simplified-controls, gesture-alternatives, reduced-precision, extended-timeouts
//	 "colorScheme": "default",               // default | high-contrast | dark | colorblind-friendly
//	 "fontSize": "medium",                   // small | medium | large
//	 "uiComplexity": "standard",             // simple | standard | advanced
//	 "saved": false,                         // false: these are the wizard's defaults (seed 001 §3, §9)
//	 "updatedAt": null,                      // time of the last save once saved
//	 "applied": {"reducedMotion": false,     // motionSensitivity high
//	             "captions": false,          // audioAssistance has visual-captions
//	             "extendedTimeouts": false}} // motorAssistance has extended-timeouts
//
// POST /api/personalization/save with the profile fields → 200 and the stored
// profile in the GET shape (saved true). A field left out takes its default;
// "saved", "updatedAt" and "applied" may be sent back and are ignored.

import (
	"net/http"

	"journeyman/internal/personalization"
	"journeyman/internal/store"
)

// appliedSettings are the app-wide behaviours the profile switches on, derived
// here so every page agrees on them.
type appliedSettings struct {
	ReducedMotion    bool `json:"reducedMotion"`
	Captions         bool `json:"captions"`
	ExtendedTimeouts bool `json:"extendedTimeouts"`
}

type profileResponse struct {
	store.SavedProfile
	Applied appliedSettings `json:"applied"`
}

func newProfileResponse(p store.SavedProfile) profileResponse {
	return profileResponse{SavedProfile: p, Applied: appliedSettings{
		ReducedMotion:    p.ReducedMotion(),
		Captions:         p.Captions(),
		ExtendedTimeouts: p.ExtendedTimeouts(),
	}}
}

func (s *Server) handleGetPersonalization(w http.ResponseWriter, r *http.Request) {
	p, err := s.store.GetPersonalization(r.Context(), caller(r).ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newProfileResponse(p))
}

func (s *Server) handleSavePersonalization(w http.ResponseWriter, r *http.Request) {
	in := personalization.DefaultProfile()
	if err := readJSONIgnoring(w, r, &in, readOnlyFields); err != nil {
		s.writeError(w, r, err)
		return
	}
	in.Normalize()
	if err := in.Validate(); err != nil {
		s.writeError(w, r, err)
		return
	}
	p, err := s.store.SavePersonalization(r.Context(), caller(r).ID, in)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, newProfileResponse(p))
}
