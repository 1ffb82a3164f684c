// Package voice holds the voice-activated training modules: real procedures
// of the trades, each a list of spoken step instructions and the voice
// commands a learner uses to move through them hands-free. The modules are
// data; the command rules (spec 001 §4, §5) run in the browser.
package voice

import (
	"fmt"
	"regexp"
	"strings"

	"journeyman/internal/apperr"
)

// Actions a voice command can trigger. Start, Next, Repeat, Emergency and
// Complete change the module's state (spec 001 §4); the others only speak a
// confirmation.
const (
	ActionStart     = "start"
	ActionNext      = "next"
	ActionRepeat    = "repeat"
	ActionEmergency = "emergency"
	ActionComplete  = "complete"
	ActionHelp      = "help"
	ActionConfirm   = "confirm"
	ActionStatus    = "status"
)

// Actions lists every valid action.
var Actions = []string{ActionStart, ActionNext, ActionRepeat, ActionEmergency, ActionComplete, ActionHelp, ActionConfirm, ActionStatus}

// requiredActions are the ones every module must offer: without them a
// learner cannot begin, move on, hear a step again, stop or finish by voice.
var requiredActions = []string{ActionStart, ActionNext, ActionRepeat, ActionEmergency, ActionComplete}

// Difficulties a module can have.
const (
	Beginner     = "beginner"
	Intermediate = "intermediate"
	Advanced     = "advanced"
)

// Limits that keep a module speakable and its command list usable.
const (
	MaxSteps          = 30
	MaxCommands       = 20
	MaxInstructionLen = 400
	MaxPhraseWords    = 5
)

// Command is one voice command: the phrase a learner says, what it does, and
// a description spoken back when the learner's words are only a near match.
type Command struct {
	Command     string `json:"command"`
	Action      string `json:"action"`
	Description string `json:"description"`
}

// Module is a voice training module (spec 001 §3 "Training module (voice
// and hub)"). CurrentStep and IsActive are the learner's state and live in
// the browser.
type Module struct {
	ID            string    `json:"id"`
	Name          string    `json:"name"`
	Type          string    `json:"type"`
	Trade         string    `json:"trade"`
	Difficulty    string    `json:"difficulty"`
	Description   string    `json:"description"`
	TotalSteps    int       `json:"totalSteps"`
	Steps         []string  `json:"steps"`
	VoiceCommands []Command `json:"voiceCommands"`
}

var (
	idPattern     = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	phrasePattern = regexp.MustCompile(`^[a-z0-9]+( [a-z0-9]+)*$`)
)

// fillerWords may not appear in a command phrase: the fuzzy rule treats any
// single word of a phrase as a guess, so a phrase holding "the" would claim
// almost every sentence.
var fillerWords = map[string]bool{
	"a": true, "an": true, "the": true, "to": true, "of": true, "and": true, "or": true,
	"is": true, "it": true, "i": true, "me": true, "my": true, "please": true, "on": true, "in": true,
}

// Validate checks that the module can be run by voice: steps match
// totalSteps, every required action is offered, and command phrases are
// lower-case words, unique, free of filler words and speakable.
func (m Module) Validate() error {
	if !idPattern.MatchString(m.ID) {
		return apperr.Invalid("voice module id %q must be lower-case letters, digits and dashes", m.ID)
	}
	if strings.TrimSpace(m.Name) == "" || strings.TrimSpace(m.Type) == "" || strings.TrimSpace(m.Trade) == "" {
		return apperr.Invalid("voice module %s needs a name, a type and a trade", m.ID)
	}
	switch m.Difficulty {
	case Beginner, Intermediate, Advanced:
	default:
		return apperr.Invalid("voice module %s: difficulty must be one of beginner, intermediate, advanced", m.ID)
	}
	if m.TotalSteps < 1 || m.TotalSteps > MaxSteps {
		return apperr.Invalid("voice module %s: totalSteps must be between 1 and %d", m.ID, MaxSteps)
	}
	if len(m.Steps) != m.TotalSteps {
		return apperr.Invalid("voice module %s: totalSteps is %d but %d step instructions are given", m.ID, m.TotalSteps, len(m.Steps))
	}
	for i, s := range m.Steps {
		if strings.TrimSpace(s) == "" || len(s) > MaxInstructionLen {
			return apperr.Invalid("voice module %s: step %d must be 1 to %d characters", m.ID, i+1, MaxInstructionLen)
		}
	}
	if len(m.VoiceCommands) == 0 || len(m.VoiceCommands) > MaxCommands {
		return apperr.Invalid("voice module %s: voiceCommands must hold 1 to %d commands", m.ID, MaxCommands)
	}
	seen := map[string]bool{}
	offered := map[string]bool{}
	for i, c := range m.VoiceCommands {
		if err := c.validate(); err != nil {
			return apperr.Invalid("voice module %s: voiceCommands[%d]: %s", m.ID, i, err)
		}
		if seen[c.Command] {
			return apperr.Invalid("voice module %s: command %q appears twice", m.ID, c.Command)
		}
		seen[c.Command] = true
		offered[c.Action] = true
	}
	for _, a := range requiredActions {
		if !offered[a] {
			return apperr.Invalid("voice module %s has no %s command", m.ID, a)
		}
	}
	return nil
}

func (c Command) validate() error {
	if !phrasePattern.MatchString(c.Command) {
		return fmt.Errorf("command %q must be lower-case words separated by single spaces", c.Command)
	}
	words := strings.Fields(c.Command)
	if len(words) > MaxPhraseWords {
		return fmt.Errorf("command %q has more than %d words", c.Command, MaxPhraseWords)
	}
	for _, w := range words {
		if fillerWords[w] {
			return fmt.Errorf("command %q holds the filler word %q, which would make every sentence a fuzzy match", c.Command, w)
		}
	}
	if !validAction(c.Action) {
		return fmt.Errorf("action %q must be one of %s", c.Action, strings.Join(Actions, ", "))
	}
	if strings.TrimSpace(c.Description) == "" {
		return fmt.Errorf("command %q needs a description", c.Command)
	}
	return nil
}

func validAction(a string) bool {
	for _, v := range Actions {
		if a == v {
			return true
		}
	}
	return false
}

// Modules returns the voice training modules in display order. The result
// is a fresh copy: callers may change it.
func Modules() []Module {
	out := make([]Module, len(modules))
	for i, m := range modules {
		m.Steps = append([]string(nil), m.Steps...)
		m.VoiceCommands = append([]Command(nil), m.VoiceCommands...)
		out[i] = m
	}
	return out
}

// ByID returns the module with the given id.
func ByID(id string) (Module, bool) {
	for _, m := range Modules() {
		if m.ID == id {
			return m, true
		}
	}
	return Module{}, false
}
