package voice

import (
	"strings"
	"testing"

	"journeyman/internal/apperr"
)

func TestModulesAreValid(t *testing.T) {
	ms := Modules()
	if len(ms) < 5 {
		t.Fatalf("got %d modules, want at least 5", len(ms))
	}
	ids := map[string]bool{}
	for _, m := range ms {
		t.Run(m.ID, func(t *testing.T) {
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			if ids[m.ID] {
				t.Fatalf("id %s appears twice", m.ID)
			}
			ids[m.ID] = true
			// The page shows the first six commands; the five that drive the
			// module must be among them.
			shown := map[string]bool{}
			for _, c := range m.VoiceCommands[:6] {
				shown[c.Action] = true
			}
			for _, a := range requiredActions {
				if !shown[a] {
					t.Errorf("action %s is not among the first six commands", a)
				}
			}
		})
	}
}

func TestModulesReturnsACopy(t *testing.T) {
	a := Modules()
	a[0].Steps[0] = "changed"
	a[0].VoiceCommands[0].Command = "changed"
	b := Modules()
	if b[0].Steps[0] == "changed" || b[0].VoiceCommands[0].Command == "changed" {
		t.Fatal("changing the result of Modules changed the stored modules")
	}
}

func TestByID(t *testing.T) {
	if m, ok := ByID("electrical-lockout-tagout"); !ok || m.TotalSteps != 8 {
		t.Fatalf("ByID(electrical-lockout-tagout) = %d steps, %v", m.TotalSteps, ok)
	}
	if _, ok := ByID("nope"); ok {
		t.Fatal("ByID(nope) found a module")
	}
}

func TestValidate(t *testing.T) {
	valid := func() Module {
		m, _ := ByID("welding-mig-setup")
		return m
	}
	tests := []struct {
		name   string
		change func(*Module)
		want   string // part of the message; "" means valid
	}{
		{"OK", func(*Module) {}, ""},
		{"ErrID", func(m *Module) { m.ID = "Bad ID" }, "lower-case letters"},
		{"ErrNoName", func(m *Module) { m.Name = " " }, "needs a name"},
		{"ErrDifficulty", func(m *Module) { m.Difficulty = "expert" }, "difficulty must be one of"},
		{"ErrTotalStepsMismatch", func(m *Module) { m.TotalSteps = 3 }, "totalSteps is 3 but 8 step instructions"},
		{"ErrNoSteps", func(m *Module) { m.Steps, m.TotalSteps = nil, 0 }, "totalSteps must be between 1"},
		{"ErrEmptyStep", func(m *Module) { m.Steps[2] = "" }, "step 3 must be"},
		{"ErrLongStep", func(m *Module) { m.Steps[0] = strings.Repeat("x", MaxInstructionLen+1) }, "step 1 must be"},
		{"ErrNoCommands", func(m *Module) { m.VoiceCommands = nil }, "voiceCommands must hold 1 to"},
		{"ErrUpperCasePhrase", func(m *Module) { m.VoiceCommands[1].Command = "Next Step" }, "lower-case words"},
		{"ErrDoubleSpace", func(m *Module) { m.VoiceCommands[1].Command = "next  step" }, "single spaces"},
		{"ErrFillerWord", func(m *Module) { m.VoiceCommands[1].Command = "go to the next" }, `filler word "to"`},
		{"ErrTooManyWords", func(m *Module) { m.VoiceCommands[1].Command = "go forward one more step now" }, "more than 5 words"},
		{"ErrAction", func(m *Module) { m.VoiceCommands[6].Action = "dance" }, `action "dance" must be one of`},
		{"ErrNoDescription", func(m *Module) { m.VoiceCommands[6].Description = "" }, "needs a description"},
		{"ErrDuplicate", func(m *Module) { m.VoiceCommands[6].Command = "next step" }, `"next step" appears twice`},
		{"ErrMissingEmergency", func(m *Module) { m.VoiceCommands[3].Action = ActionHelp }, "has no emergency command"},
		{"ErrMissingStart", func(m *Module) { m.VoiceCommands[0].Action = ActionConfirm }, "has no start command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := valid()
			tt.change(&m)
			err := m.Validate()
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate() = nil, want an error holding %q", tt.want)
			}
			if apperr.Code(err) != apperr.EINVALID || !strings.Contains(apperr.Message(err), tt.want) {
				t.Fatalf("Validate() = %v, want EINVALID holding %q", err, tt.want)
			}
		})
	}
}
