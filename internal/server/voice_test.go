package server

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"journeyman/internal/voice"
)

func TestListVoiceModules(t *testing.T) {
	s := MustOpenServer(t)
	tests := []struct {
		name, method string
		status       int
	}{
		{"OK", "GET", 200},
		{"ErrWrongMethod", "POST", 405},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, s, httptest.NewRequest(tt.method, "/api/voice-modules", nil))
			if res.status != tt.status {
				t.Fatalf("status = %d, want %d: %s", res.status, tt.status, res.body)
			}
			if tt.status != 200 {
				message(t, res.body)
				return
			}
			var got []voice.Module
			if err := json.Unmarshal([]byte(res.body), &got); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(voice.Modules()) {
				t.Fatalf("got %d modules, want %d", len(got), len(voice.Modules()))
			}
			for _, m := range got {
				if err := m.Validate(); err != nil {
					t.Errorf("served module fails validation: %v", err)
				}
			}
			if got[0].VoiceCommands[0].Action != voice.ActionStart || got[0].TotalSteps != len(got[0].Steps) {
				t.Fatalf("first module = %+v", got[0])
			}
		})
	}
}
