package training

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"journeyman/internal/apperr"
)

// The specification gives position and rotation no form (seed 001 §3), so
// the server takes the two a WebXR or three.js client has at hand, keeps
// the one it was given and says which it is.

// Forms of a rotation.
const (
	RotationQuaternion = "quaternion" // {x, y, z, w}, unit length
	RotationEuler      = "euler"      // {x, y, z}, angles in radians
)

// Rotation limits. A quaternion's length may stray this far from 1: a
// client rounding each component to three decimals strays by at most 0.001.
// Euler angles are radians; any orientation can be written with angles in
// [-π, π] and some clients count [0, 2π), so beyond ±2π an angle is almost
// certainly in degrees and would be stored under the wrong unit.
const (
	QuaternionTolerance = 0.01
	MaxEulerAngle       = 2 * math.Pi
)

// Vec3 is a position in metres: {x, y, z}.
type Vec3 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	Z float64 `json:"z"`
}

// UnmarshalJSON reads {x, y, z}, all three numbers; anything else is
// refused with a message naming what was wrong.
func (v *Vec3) UnmarshalJSON(b []byte) error {
	if p, ok := scanPose(b); ok && p.has == [4]bool{true, true, true, false} && !p.hasForm {
		*v = Vec3{X: p.v[0], Y: p.v[1], Z: p.v[2]}
		return nil
	}
	fields, err := numberFields("position", "{x, y, z} in metres", b, []string{"x", "y", "z"}, nil)
	if err != nil {
		return err
	}
	*v = Vec3{X: fields["x"], Y: fields["y"], Z: fields["z"]}
	return nil
}

// Validate checks that the position is finite and within the scene.
func (v Vec3) Validate() error {
	for _, c := range []struct {
		name string
		v    float64
	}{{"x", v.X}, {"y", v.Y}, {"z", v.Z}} {
		if !finite(c.v) || math.Abs(c.v) > MaxCoordinate {
			return apperr.Invalid("position.%s must be a finite number of metres between -%g and %g, not %s", c.name, MaxCoordinate, MaxCoordinate, num(c.v))
		}
	}
	return nil
}

// Rotation is an orientation in the form the client sent it: a quaternion
// {x, y, z, w} or Euler angles {x, y, z} in radians (in the order the
// client applies them; three.js's default is XYZ). It is stored and given
// back as sent, with its form: {"form": "quaternion", x, y, z, w} or
// {"form": "euler", x, y, z}. A client may send form too; it must agree
// with the fields. Records stored before the form was kept hold
// quaternions and are read by their shape.
type Rotation struct {
	Form    string // RotationQuaternion or RotationEuler
	X, Y, Z float64
	W       float64 // quaternions only
}

// Quaternion returns the rotation given as the quaternion {x, y, z, w}.
func Quaternion(x, y, z, w float64) Rotation {
	return Rotation{Form: RotationQuaternion, X: x, Y: y, Z: z, W: w}
}

// Euler returns the rotation given as Euler angles in radians.
func Euler(x, y, z float64) Rotation {
	return Rotation{Form: RotationEuler, X: x, Y: y, Z: z}
}

const rotationForms = "a quaternion {x, y, z, w} or Euler angles {x, y, z} in radians"

// UnmarshalJSON reads either form, by its fields.
func (r *Rotation) UnmarshalJSON(b []byte) error {
	if p, ok := scanPose(b); ok && p.has[0] && p.has[1] && p.has[2] {
		form := RotationEuler
		if p.has[3] {
			form = RotationQuaternion
		}
		if !p.hasForm || p.form == form {
			*r = Rotation{Form: form, X: p.v[0], Y: p.v[1], Z: p.v[2], W: p.v[3]}
			return nil
		}
	}
	fields, err := numberFields("rotation", rotationForms, b, []string{"x", "y", "z"}, []string{"w", "form"})
	if err != nil {
		return err
	}
	_, hasW := fields["w"]
	form := RotationEuler
	if hasW {
		form = RotationQuaternion
	}
	if raw, ok := formOf(b); ok {
		var said string
		if json.Unmarshal(raw, &said) != nil || (said != RotationQuaternion && said != RotationEuler) {
			return apperr.Invalid("rotation.form must be %q or %q, not %s", RotationQuaternion, RotationEuler, jsonValue(raw))
		}
		if said != form {
			if said == RotationQuaternion {
				return apperr.Invalid("rotation has form %q but no w; a quaternion is {x, y, z, w}", said)
			}
			return apperr.Invalid("rotation has form %q but carries w; Euler angles are {x, y, z}", said)
		}
	}
	*r = Rotation{Form: form, X: fields["x"], Y: fields["y"], Z: fields["z"], W: fields["w"]}
	return nil
}

// MarshalJSON writes the rotation with its form and the form's fields.
func (r Rotation) MarshalJSON() ([]byte, error) {
	type euler struct {
		Form string  `json:"form"`
		X    float64 `json:"x"`
		Y    float64 `json:"y"`
		Z    float64 `json:"z"`
	}
	if r.Form == RotationEuler {
		return json.Marshal(euler{r.Form, r.X, r.Y, r.Z})
	}
	return json.Marshal(struct {
		euler
		W float64 `json:"w"`
	}{euler{RotationQuaternion, r.X, r.Y, r.Z}, r.W})
}

// Validate checks the rotation's numbers: finite, a quaternion of unit
// length within QuaternionTolerance, Euler angles within ±MaxEulerAngle.
func (r Rotation) Validate() error {
	switch r.Form {
	case RotationQuaternion:
		for _, c := range []float64{r.X, r.Y, r.Z, r.W} {
			if !finite(c) {
				return apperr.Invalid("rotation as a quaternion {x, y, z, w} must hold finite numbers")
			}
		}
		if n := math.Sqrt(r.X*r.X + r.Y*r.Y + r.Z*r.Z + r.W*r.W); math.Abs(n-1) > QuaternionTolerance {
			return apperr.Invalid("rotation as a quaternion {x, y, z, w} must have unit length (within %g); this one has length %s", QuaternionTolerance, num(n))
		}
	case RotationEuler:
		for _, c := range []struct {
			name string
			v    float64
		}{{"x", r.X}, {"y", r.Y}, {"z", r.Z}} {
			if !finite(c.v) || math.Abs(c.v) > MaxEulerAngle+1e-9 {
				return apperr.Invalid("rotation as Euler angles {x, y, z} is in radians: each angle must be between -2π and 2π (±6.2832); %s is %s", c.name, num(c.v))
			}
		}
	default:
		return apperr.Invalid("rotation must be %s", rotationForms)
	}
	return nil
}

// numberFields reads a JSON object of numbers for the field name, whose form
// describes it: every key of need must be present, those of may may be, and
// any other key is refused by name. Keys of may other than numbers (form)
// are the caller's to read. It answers EINVALID errors a person can act on.
func numberFields(name, form string, b []byte, need, may []string) (map[string]float64, error) {
	var raw map[string]json.RawMessage
	if len(b) == 0 || b[0] != '{' || json.Unmarshal(b, &raw) != nil {
		return nil, apperr.Invalid("%s must be %s, not %s", name, form, jsonValue(b))
	}
	allowed := map[string]bool{}
	for _, k := range append(append([]string(nil), need...), may...) {
		allowed[k] = true
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys) // a stable message when several keys are wrong
	out := map[string]float64{}
	for _, k := range keys {
		if !allowed[k] {
			return nil, apperr.Invalid("%s has unknown field %q; %s is %s", name, k, name, form)
		}
		if k == "form" {
			continue
		}
		f, err := strconv.ParseFloat(string(bytes.TrimSpace(raw[k])), 64)
		if err != nil || !finite(f) {
			return nil, apperr.Invalid("%s.%s must be a finite number, not %s", name, k, jsonValue(raw[k]))
		}
		out[k] = f
	}
	var missing []string
	for _, k := range need {
		if _, ok := out[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return nil, apperr.Invalid("%s must be %s; %s missing", name, form, listMissing(missing))
	}
	return out, nil
}

func formOf(b []byte) (json.RawMessage, bool) {
	var probe struct {
		Form json.RawMessage `json:"form"`
	}
	if json.Unmarshal(b, &probe) != nil || probe.Form == nil {
		return nil, false
	}
	return probe.Form, true
}

func listMissing(keys []string) string {
	if len(keys) == 1 {
		return keys[0] + " is"
	}
	return strings.Join(keys[:len(keys)-1], ", ") + " and " + keys[len(keys)-1] + " are"
}

// jsonValue shows a JSON value in a message: short values as they are,
// long ones by their kind.
func jsonValue(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	if len(raw) <= 40 {
		return string(raw)
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string of " + strconv.Itoa(len(raw)-2) + " bytes"
	default:
		return string(raw[:40]) + "…"
	}
}

// num formats a number for a message.
func num(f float64) string { return strconv.FormatFloat(f, 'g', 6, 64) }

// String names the rotation's form and numbers, for tests and logs.
func (r Rotation) String() string {
	if r.Form == RotationEuler {
		return fmt.Sprintf("euler(%g, %g, %g)", r.X, r.Y, r.Z)
	}
	return fmt.Sprintf("quaternion(%g, %g, %g, %g)", r.X, r.Y, r.Z, r.W)
}
