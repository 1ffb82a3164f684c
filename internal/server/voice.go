package server

import (
	"net/http"

	"journeyman/internal/voice"
)

// handleListVoiceModules serves GET /api/voice-modules: the voice training
// modules with their step instructions and voice commands
// ([]voice.Module). The learner's step and active module are browser state.
func (s *Server) handleListVoiceModules(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, voice.Modules())
}
