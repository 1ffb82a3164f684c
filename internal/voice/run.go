package voice

import (
	"errors"
	"fmt"
	"time"

	"journeyman/internal/apperr"
)

// Bounds of a recorded run: a procedure is spoken through in well under a
// shift, and a learner cannot give more commands than they could say in it.
const (
	MaxRunDuration = 8 * time.Hour
	MaxRunCommands = 500
	// clockSkew is how far ahead of the server's clock a browser's may run.
	clockSkew = 5 * time.Minute
)

// HeardCommand is one command the learner gave during a run: the phrase as
// the module names it (what the browser matched), and when.
type HeardCommand struct {
	Command string    `json:"command"`
	At      time.Time `json:"at"`
}

// NewRun is a finished voice training run as the browser reports it: the
// module and the commands it acted on, in order. Everything the run
// achieved is recomputed from these (Replay), never taken from the client.
type NewRun struct {
	ModuleID  string         `json:"moduleId"`
	StartedAt time.Time      `json:"startedAt"`
	EndedAt   time.Time      `json:"endedAt"`
	Commands  []HeardCommand `json:"commands"`
}

// Outcome is what a run achieved, replayed by the rules the page applies
// (spec 001 §4): start goes to step 1, next advances one step, complete
// jumps to the last step, an emergency stop pauses until the next start.
type Outcome struct {
	TotalSteps int `json:"totalSteps"`
	// StepsWalked is the furthest step reached by start and next: complete
	// ends the procedure but walks no steps.
	StepsWalked    int  `json:"stepsWalked"`
	Completed      bool `json:"completed"`
	EmergencyStops int  `json:"emergencyStops"`
}

// Score is the share of the procedure's steps the learner walked, in
// percent, as the page's progress bar shows it.
func (o Outcome) Score() int {
	if o.TotalSteps == 0 {
		return 0
	}
	return (o.StepsWalked*100 + o.TotalSteps/2) / o.TotalSteps
}

// Passed says the learner walked every step in order and completed.
func (o Outcome) Passed() bool { return o.Completed && o.StepsWalked == o.TotalSteps }

// Validate checks r against the module it names and the server's clock,
// and returns the module. Every error names the field at fault.
func (r NewRun) Validate(now time.Time) (Module, error) {
	m, ok := ByID(r.ModuleID)
	if !ok {
		return Module{}, apperr.Invalid("moduleId: %q is not a voice training module", r.ModuleID)
	}
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	switch {
	case r.StartedAt.IsZero():
		bad("startedAt is required")
	case r.EndedAt.IsZero():
		bad("endedAt is required")
	case r.EndedAt.Before(r.StartedAt):
		bad("endedAt is before startedAt")
	case r.EndedAt.Sub(r.StartedAt) > MaxRunDuration:
		bad("the run lasts longer than %s", MaxRunDuration)
	case r.EndedAt.After(now.Add(clockSkew)):
		bad("endedAt is in the future")
	}
	if len(r.Commands) == 0 {
		bad("commands: a run needs at least the start command")
	}
	if len(r.Commands) > MaxRunCommands {
		bad("commands: more than %d", MaxRunCommands)
	}
	for i, c := range r.Commands {
		if i >= MaxRunCommands {
			break
		}
		if _, ok := m.command(c.Command); !ok {
			bad("commands[%d].command: %q is not a command of %s", i, c.Command, m.ID)
		}
		if c.At.Before(r.StartedAt) || c.At.After(r.EndedAt) {
			bad("commands[%d].at: not between startedAt and endedAt", i)
		} else if i > 0 && c.At.Before(r.Commands[i-1].At) {
			bad("commands[%d].at: before the command ahead of it", i)
		}
	}
	if len(errs) > 0 {
		return Module{}, apperr.Invalid("%v", errors.Join(errs...))
	}
	return m, nil
}

func (m Module) command(phrase string) (Command, bool) {
	for _, c := range m.VoiceCommands {
		if c.Command == phrase {
			return c, true
		}
	}
	return Command{}, false
}

// Replay applies a valid run's commands to m from the start.
func (r NewRun) Replay(m Module) Outcome {
	o := Outcome{TotalSteps: m.TotalSteps}
	step, active := 0, true
	for _, heard := range r.Commands {
		c, _ := m.command(heard.Command)
		switch c.Action {
		case ActionStart:
			step, active = 1, true
		case ActionEmergency:
			active = false
			o.EmergencyStops++
		case ActionNext:
			if active && step > 0 && step < m.TotalSteps {
				step++
			}
		case ActionComplete:
			if active {
				o.StepsWalked = max(o.StepsWalked, step)
				step = m.TotalSteps
				o.Completed = true
				continue
			}
		}
		if c.Action == ActionStart || c.Action == ActionNext {
			o.StepsWalked = max(o.StepsWalked, step)
		}
	}
	return o
}
