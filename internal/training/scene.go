package training

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"journeyman/internal/catalog"
)

// Shapes a scene object can have; the player draws each with the matching
// three.js primitive geometry, so no model file is ever loaded.
const (
	ShapeBox      = "box"      // size: width, height, depth
	ShapeCylinder = "cylinder" // size: radius, height, (unused)
	ShapeSphere   = "sphere"   // size: radius, (unused), (unused)
	ShapeCone     = "cone"     // size: radius, height, (unused)
	ShapeTorus    = "torus"    // size: radius, tube radius, (unused)
)

// Actions a step asks of the learner. On desktop both are a click; in VR and
// AR "click" is the controller's select (or a pinch) and "grab" its squeeze.
const (
	ActionClick = "click"
	ActionGrab  = "grab"
	// ActionSkip is recorded when the learner skips a step instead of doing it.
	ActionSkip = "skip"
)

// SceneObject is one thing in a scene. Coordinates are metres: y is up, the
// floor is y = 0 and the learner starts at the origin facing -z.
type SceneObject struct {
	ID       string     `json:"id"`
	Label    string     `json:"label"`
	Shape    string     `json:"shape"`
	Position [3]float64 `json:"position"`
	Rotation [3]float64 `json:"rotation"` // Euler angles in radians, XYZ order
	Size     [3]float64 `json:"size"`
	Color    string     `json:"color"` // #rrggbb
}

// Step is one instruction the learner carries out on a target object.
type Step struct {
	ID          string `json:"id"`
	Instruction string `json:"instruction"`
	Target      string `json:"target"` // object id
	Action      string `json:"action"` // ActionClick or ActionGrab
	// SafetyCheck is the id of the safety check this step performs, if any.
	SafetyCheck string `json:"safetyCheckId,omitempty"`
	// MinDurationMs is the least time, in milliseconds, in which a learner can
	// carry the step out: from the moment it becomes the current step (the
	// previous step done or skipped, or the session's start) to the action
	// that completes it. A step recorded faster leaves the session
	// unverified (see Verify); the player does not accept the action sooner.
	// Zero in a scene definition means the default for the step's kind
	// (MinStepDuration).
	MinDurationMs int64 `json:"minDurationMs"`
}

// Minimum step durations by kind of step (see Step.MinDurationMs). They are
// floors below any real learner's pace, not targets: reading a one-line
// instruction and selecting one object takes a person well over a second; a
// grab (put on PPE, hang a lock) is a reach and a squeeze; a safety check
// (prove a tester, test for voltage, inspect a harness) is the step a learner
// must not rush, and is never done in under three seconds. What they buy is
// that a perfect score costs real time: with Verify's wall-clock check, a
// scripted run must take as long as the fastest honest one.
const (
	MinClickStepMs       = 1500
	MinGrabStepMs        = 2000
	MinSafetyCheckStepMs = 3000
	// MaxStepDurationMs bounds what a scene may demand of one step.
	MaxStepDurationMs = 60_000
)

// MinStepDuration returns the default minimum duration in milliseconds of a
// step of its kind: a safety check, else by action.
func MinStepDuration(st Step) int64 {
	switch {
	case st.SafetyCheck != "":
		return MinSafetyCheckStepMs
	case st.Action == ActionGrab:
		return MinGrabStepMs
	default:
		return MinClickStepMs
	}
}

// SafetyCheck is a check the learner must perform before going on.
type SafetyCheck struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Weight      int    `json:"weight"` // share of the safety score; heavier for life-critical checks
}

// PassCriteria says when a finished session passes.
type PassCriteria struct {
	RequiredSteps  []string `json:"requiredSteps"`
	MinSafetyScore float64  `json:"minSafetyScore"` // percent
}

// Scene is an interactive training task, defined as data and served to the
// WebXR player by GET /api/training-modules/{id}/xr-content.
type Scene struct {
	ID           string        `json:"id"`
	Title        string        `json:"title"`
	TradeIDs     []string      `json:"tradeIds"`
	Environment  string        `json:"environment"`
	Objects      []SceneObject `json:"objects"`
	Steps        []Step        `json:"steps"`
	SafetyChecks []SafetyCheck `json:"safetyChecks"`
	PassCriteria PassCriteria  `json:"passCriteria"`
}

// XRContent is the body of GET /api/training-modules/{id}/xr-content.
type XRContent struct {
	ModuleTitle string `json:"moduleTitle"`
	SceneURL    string `json:"sceneUrl"` // where the scene alone can be fetched again
	Scene       Scene  `json:"scene"`
}

// SceneURL is the path that serves the scene with the given id.
func SceneURL(sceneID string) string { return "/api/xr-scenes/" + sceneID }

// ContentFor returns the XR content of a catalog module.
func ContentFor(m catalog.Module) XRContent {
	s := SceneForModule(m.ID, m.TradeID)
	return XRContent{ModuleTitle: m.Title, SceneURL: SceneURL(s.ID), Scene: s}
}

// Scenes returns every training scene.
func Scenes() []Scene { return append([]Scene(nil), scenes...) }

// SceneByID returns the scene with the given id.
func SceneByID(id string) (Scene, bool) {
	for _, s := range scenes {
		if s.ID == id {
			return s, true
		}
	}
	return Scene{}, false
}

// SceneForModule returns the scene a module trains in: the scene named for
// the module if there is one, else its trade's scene, else, for a module
// of no known trade (such as the center's "default"), the site-safety
// orientation. Without a trade id, a trade id inside the module id counts
// ("sample-welding-module" trains welding).
func SceneForModule(moduleID, tradeID string) Scene {
	if s, ok := SceneByID(moduleID); ok {
		return s
	}
	if tradeID == "" {
		for _, s := range scenes {
			for _, t := range s.TradeIDs {
				if tradeID == "" && strings.Contains(moduleID, t) {
					tradeID = t
				}
			}
		}
	}
	return tradeScene(tradeID)
}

// tradeScene returns the first scene of the trade, or the site-safety
// orientation for no known trade.
func tradeScene(tradeID string) Scene {
	for _, s := range scenes {
		if slices.Contains(s.TradeIDs, tradeID) {
			return s
		}
	}
	s, _ := SceneByID(DefaultSceneID)
	return s
}

// RecordedScene returns the scene a session of a module was trained in:
// the module's own, except for a session recorded before the module had a
// scene of its own, which trained in its trade's. Its interactions tell:
// such a session names steps of the trade's scene and none of the module's.
func RecordedScene(moduleID, tradeID string, interactions []Interaction) Scene {
	own := SceneForModule(moduleID, tradeID)
	if tradeID == "" || namesStepOf(own, interactions) {
		return own
	}
	if trade := tradeScene(tradeID); trade.ID != own.ID && namesStepOf(trade, interactions) {
		return trade
	}
	return own
}

// namesStepOf reports whether any interaction names a step of s.
func namesStepOf(s Scene, interactions []Interaction) bool {
	for _, in := range interactions {
		if in.StepID != "" && slices.ContainsFunc(s.Steps, func(st Step) bool { return st.ID == in.StepID }) {
			return true
		}
	}
	return false
}

// DefaultSceneID is the scene of modules that belong to no known trade.
const DefaultSceneID = "site-safety-orientation"

var (
	colorPattern = regexp.MustCompile(`^#[0-9a-f]{6}$`)
	idPattern    = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
)

// Validate checks that the scene is consistent: unique ids, every step's
// target exists, every safety check is performed by exactly one step,
// the pass criteria name real steps, and shapes, sizes and colours can be
// drawn.
func (s Scene) Validate() error {
	if !idPattern.MatchString(s.ID) || s.Title == "" || s.Environment == "" || len(s.TradeIDs) == 0 {
		return fmt.Errorf("scene %q: id, title, environment and trade ids are required", s.ID)
	}
	objects := map[string]bool{}
	for _, o := range s.Objects {
		if !idPattern.MatchString(o.ID) || len(o.ID) > MaxIDLen || objects[o.ID] {
			return fmt.Errorf("scene %s: object id %q is malformed or repeated", s.ID, o.ID)
		}
		objects[o.ID] = true
		if o.Label == "" || !colorPattern.MatchString(o.Color) {
			return fmt.Errorf("scene %s: object %s needs a label and a #rrggbb colour", s.ID, o.ID)
		}
		need := map[string]int{ShapeBox: 3, ShapeCylinder: 2, ShapeSphere: 1, ShapeCone: 2, ShapeTorus: 2}[o.Shape]
		if need == 0 {
			return fmt.Errorf("scene %s: object %s has unknown shape %q", s.ID, o.ID, o.Shape)
		}
		for i := range need {
			if !(o.Size[i] > 0) || o.Size[i] > 50 {
				return fmt.Errorf("scene %s: object %s size[%d] = %g must be in (0, 50] m", s.ID, o.ID, i, o.Size[i])
			}
		}
		for _, c := range append(o.Position[:], o.Rotation[:]...) {
			if math.IsNaN(c) || math.Abs(c) > 100 {
				return fmt.Errorf("scene %s: object %s is placed outside the scene", s.ID, o.ID)
			}
		}
	}
	checks := map[string]int{}
	for _, c := range s.SafetyChecks {
		if !idPattern.MatchString(c.ID) || c.Description == "" || c.Weight <= 0 {
			return fmt.Errorf("scene %s: safety check %q needs an id, a description and a positive weight", s.ID, c.ID)
		}
		if _, dup := checks[c.ID]; dup {
			return fmt.Errorf("scene %s: safety check %s is repeated", s.ID, c.ID)
		}
		checks[c.ID] = 0
	}
	steps := map[string]bool{}
	for _, st := range s.Steps {
		if !idPattern.MatchString(st.ID) || steps[st.ID] || st.Instruction == "" {
			return fmt.Errorf("scene %s: step %q is malformed, repeated or has no instruction", s.ID, st.ID)
		}
		steps[st.ID] = true
		if !objects[st.Target] {
			return fmt.Errorf("scene %s: step %s targets unknown object %q", s.ID, st.ID, st.Target)
		}
		if st.Action != ActionClick && st.Action != ActionGrab {
			return fmt.Errorf("scene %s: step %s has action %q; want click or grab", s.ID, st.ID, st.Action)
		}
		if st.MinDurationMs <= 0 || st.MinDurationMs > MaxStepDurationMs {
			return fmt.Errorf("scene %s: step %s minimum duration %d ms is outside 1..%d", s.ID, st.ID, st.MinDurationMs, MaxStepDurationMs)
		}
		if st.SafetyCheck != "" {
			n, ok := checks[st.SafetyCheck]
			if !ok {
				return fmt.Errorf("scene %s: step %s performs unknown safety check %q", s.ID, st.ID, st.SafetyCheck)
			}
			checks[st.SafetyCheck] = n + 1
		}
	}
	for id, n := range checks {
		if n != 1 {
			return fmt.Errorf("scene %s: safety check %s is performed by %d steps; want exactly 1", s.ID, id, n)
		}
	}
	if len(s.Steps) == 0 || len(s.PassCriteria.RequiredSteps) == 0 {
		return fmt.Errorf("scene %s: a scene needs steps and required steps", s.ID)
	}
	for _, id := range s.PassCriteria.RequiredSteps {
		if !steps[id] {
			return fmt.Errorf("scene %s: pass criteria require unknown step %q", s.ID, id)
		}
	}
	if s.PassCriteria.MinSafetyScore < 0 || s.PassCriteria.MinSafetyScore > 100 {
		return fmt.Errorf("scene %s: minimum safety score %g is outside 0..100", s.ID, s.PassCriteria.MinSafetyScore)
	}
	return nil
}
