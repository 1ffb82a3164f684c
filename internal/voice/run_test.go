package voice_test

import (
	"strings"
	"testing"
	"time"

	"journeyman/internal/voice"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// run says phrases of electrical-lockout-tagout (8 steps) a second apart.
func run(phrases ...string) voice.NewRun {
	r := voice.NewRun{ModuleID: "electrical-lockout-tagout", StartedAt: t0, EndedAt: t0.Add(time.Hour)}
	for i, p := range phrases {
		r.Commands = append(r.Commands, voice.HeardCommand{Command: p, At: t0.Add(time.Duration(i+1) * time.Second)})
	}
	return r
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestReplay(t *testing.T) {
	walkAll := append([]string{"start lockout"}, append(repeat("next step", 7), "lockout complete")...)
	tests := []struct {
		name    string
		phrases []string
		want    voice.Outcome
		score   int
		passed  bool
	}{
		{"OK", walkAll, voice.Outcome{TotalSteps: 8, StepsWalked: 8, Completed: true}, 100, true},
		{"CompleteWalksNoSteps", []string{"start lockout", "lockout complete"}, voice.Outcome{TotalSteps: 8, StepsWalked: 1, Completed: true}, 13, false},
		{"NextStopsAtTheLastStep", append([]string{"start lockout"}, repeat("next step", 20)...), voice.Outcome{TotalSteps: 8, StepsWalked: 8}, 100, false},
		{"NextBeforeStartDoesNothing", []string{"next step", "next step"}, voice.Outcome{TotalSteps: 8}, 0, false},
		{"EmergencyPausesUntilRestart", []string{"start lockout", "emergency stop", "next step", "lockout complete"}, voice.Outcome{TotalSteps: 8, StepsWalked: 1, EmergencyStops: 1}, 13, false},
		{"RestartAfterEmergency", []string{"start lockout", "next step", "emergency stop", "start lockout", "next step", "lockout complete"},
			voice.Outcome{TotalSteps: 8, StepsWalked: 2, Completed: true, EmergencyStops: 1}, 25, false},
		{"OtherCommandsMoveNothing", []string{"start lockout", "help", "status report", "lock applied", "repeat step"}, voice.Outcome{TotalSteps: 8, StepsWalked: 1}, 13, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(tt.phrases...)
			m, err := r.Validate(t0.Add(2 * time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			got := r.Replay(m)
			if got != tt.want || got.Score() != tt.score || got.Passed() != tt.passed {
				t.Errorf("outcome %+v score %d passed %v, want %+v %d %v", got, got.Score(), got.Passed(), tt.want, tt.score, tt.passed)
			}
		})
	}
}

func TestRunValidate(t *testing.T) {
	now := t0.Add(2 * time.Hour)
	tests := []struct {
		name  string
		edit  func(*voice.NewRun)
		field string // what the message must name
	}{
		{"ErrUnknownModule", func(r *voice.NewRun) { r.ModuleID = "welding-underwater" }, "moduleId"},
		{"ErrNoStart", func(r *voice.NewRun) { r.StartedAt = time.Time{} }, "startedAt"},
		{"ErrEndBeforeStart", func(r *voice.NewRun) { r.EndedAt = t0.Add(-time.Second) }, "endedAt is before"},
		{"ErrTooLong", func(r *voice.NewRun) { r.EndedAt = t0.Add(voice.MaxRunDuration + time.Second) }, "longer than"},
		{"ErrFuture", func(r *voice.NewRun) { r.StartedAt, r.EndedAt = now.Add(time.Hour), now.Add(2*time.Hour) }, "endedAt is in the future"},
		{"ErrNoCommands", func(r *voice.NewRun) { r.Commands = nil }, "commands:"},
		{"ErrTooManyCommands", func(r *voice.NewRun) { r.Commands = run(repeat("next step", voice.MaxRunCommands+1)...).Commands }, "commands: more than"},
		{"ErrUnknownCommand", func(r *voice.NewRun) { r.Commands[1].Command = "start setup" }, `commands[1].command: "start setup"`},
		{"ErrCommandOutsideRun", func(r *voice.NewRun) { r.Commands[0].At = t0.Add(-time.Minute) }, "commands[0].at"},
		{"ErrCommandsOutOfOrder", func(r *voice.NewRun) { r.Commands[1].At = t0 }, "commands[1].at: before"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run("start lockout", "next step")
			tt.edit(&r)
			_, err := r.Validate(now)
			if err == nil || !strings.Contains(err.Error(), tt.field) {
				t.Fatalf("error %v, want one naming %q", err, tt.field)
			}
		})
	}
	t.Run("OK", func(t *testing.T) {
		if _, err := run("start lockout", "next step").Validate(now); err != nil {
			t.Fatal(err)
		}
	})
}
