package server

import (
	"net/http"

	"github.com/google/uuid"

	"journeyman/internal/voice"
)

// handleListVoiceModules serves GET /api/voice-modules: the voice training
// modules with their step instructions and voice commands
// ([]voice.Module). The learner's step and active module are browser state.
func (s *Server) handleListVoiceModules(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, voice.Modules())
}

// handleAddVoiceRun serves POST /api/voice-training/runs: a finished voice
// run (voice.NewRun) → 201 store.VoiceRun, its outcome replayed here from
// the commands given. A signed-in learner's run is also an xAPI statement.
func (s *Server) handleAddVoiceRun(w http.ResponseWriter, r *http.Request) {
	var in voice.NewRun
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	m, err := in.Validate(s.store.Now())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	me := caller(r)
	run, err := s.store.AddVoiceRun(r.Context(), me.ID, uuid.NewString(), in, m, s.recorder(me))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, run)
}

// handleListVoiceRuns serves GET /api/voice-training/runs: the caller's
// voice runs, newest first ({"runs": []store.VoiceRun}).
func (s *Server) handleListVoiceRuns(w http.ResponseWriter, r *http.Request) {
	list, err := s.store.ListVoiceRuns(r.Context(), caller(r).ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"runs": list})
}
