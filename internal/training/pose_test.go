package training

import (
	"encoding/json"
	"testing"

	"journeyman/internal/apperr"
)

func TestRotationForms(t *testing.T) {
	for _, tc := range []struct {
		name, sent string
		want       Rotation
		back       string // how it is stored and answered
	}{
		{"Quaternion", `{"x":0,"y":0.7071,"z":0,"w":0.7071}`, Quaternion(0, 0.7071, 0, 0.7071), `{"form":"quaternion","x":0,"y":0.7071,"z":0,"w":0.7071}`},
		{"QuaternionWithForm", `{"form":"quaternion","x":0,"y":0,"z":0,"w":1}`, Quaternion(0, 0, 0, 1), `{"form":"quaternion","x":0,"y":0,"z":0,"w":1}`},
		{"QuaternionRounded", `{"x":0.001,"y":-0.383,"z":0,"w":0.924}`, Quaternion(0.001, -0.383, 0, 0.924), `{"form":"quaternion","x":0.001,"y":-0.383,"z":0,"w":0.924}`},
		{"Euler", `{"x":0.1,"y":-1.5707963,"z":3.14159}`, Euler(0.1, -1.5707963, 3.14159), `{"form":"euler","x":0.1,"y":-1.5707963,"z":3.14159}`},
		{"EulerWithForm", `{"form":"euler","x":0,"y":6.283185307179586,"z":0}`, Euler(0, 6.283185307179586, 0), `{"form":"euler","x":0,"y":6.283185307179586,"z":0}`},
		{"EulerZero", `{"x":0,"y":0,"z":0}`, Euler(0, 0, 0), `{"form":"euler","x":0,"y":0,"z":0}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r Rotation
			if err := json.Unmarshal([]byte(tc.sent), &r); err != nil {
				t.Fatal(err)
			}
			if r != tc.want {
				t.Fatalf("decoded %v; want %v", r, tc.want)
			}
			if err := r.Validate(); err != nil {
				t.Fatal(err)
			}
			if got := mustJSON(t, r); got != tc.back {
				t.Fatalf("encoded %s; want %s", got, tc.back)
			}
			var again Rotation
			if err := json.Unmarshal([]byte(tc.back), &again); err != nil || again != r {
				t.Fatalf("read back %v (%v)", again, err)
			}
		})
	}
}

// Rotations and positions refused, each naming what was wrong: by decoding
// (the shape) or by Validate (the numbers).
func TestPoseRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, field, sent, want string
	}{
		{"RotationMissingZ", "rotation", `{"x":0,"y":0}`, "rotation must be a quaternion {x, y, z, w} or Euler angles {x, y, z} in radians; z is missing"},
		{"RotationOnlyW", "rotation", `{"w":1}`, "x, y and z are missing"},
		{"RotationUnknownField", "rotation", `{"x":0,"y":0,"z":0,"roll":1}`, `rotation has unknown field "roll"`},
		{"RotationString", "rotation", `{"x":"0","y":0,"z":0}`, `rotation.x must be a finite number, not "0"`},
		{"RotationArray", "rotation", `[0,0,0,1]`, "rotation must be a quaternion {x, y, z, w} or Euler angles {x, y, z} in radians, not [0,0,0,1]"},
		{"RotationHugeNumber", "rotation", `{"x":1e400,"y":0,"z":0}`, "rotation.x must be a finite number, not 1e400"},
		{"RotationFormUnknown", "rotation", `{"form":"matrix","x":0,"y":0,"z":0}`, `rotation.form must be "quaternion" or "euler", not "matrix"`},
		{"RotationFormQuaternionNoW", "rotation", `{"form":"quaternion","x":0,"y":0,"z":0}`, `rotation has form "quaternion" but no w`},
		{"RotationFormEulerWithW", "rotation", `{"form":"euler","x":0,"y":0,"z":0,"w":1}`, `rotation has form "euler" but carries w`},
		{"QuaternionNotUnit", "rotation", `{"x":0,"y":0,"z":0,"w":2}`, "rotation as a quaternion {x, y, z, w} must have unit length (within 0.01); this one has length 2"},
		{"QuaternionJustOff", "rotation", `{"x":0,"y":0,"z":0,"w":1.02}`, "this one has length 1.02"},
		{"EulerDegrees", "rotation", `{"x":0,"y":90,"z":0}`, "rotation as Euler angles {x, y, z} is in radians: each angle must be between -2π and 2π (±6.2832); y is 90"},
		{"EulerNegativeDegrees", "rotation", `{"x":-45,"y":0,"z":0}`, "x is -45"},
		{"PositionMissingY", "position", `{"x":1,"z":2}`, "position must be {x, y, z} in metres; y is missing"},
		{"PositionUnknownField", "position", `{"x":1,"y":2,"z":3,"w":1}`, `position has unknown field "w"`},
		{"PositionBool", "position", `{"x":true,"y":2,"z":3}`, "position.x must be a finite number, not true"},
		{"PositionFar", "position", `{"x":0,"y":0,"z":-20000}`, "position.z must be a finite number of metres between -10000 and 10000, not -20000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.field == "rotation" {
				var r Rotation
				if err = json.Unmarshal([]byte(tc.sent), &r); err == nil {
					err = r.Validate()
				}
			} else {
				var v Vec3
				if err = json.Unmarshal([]byte(tc.sent), &v); err == nil {
					err = v.Validate()
				}
			}
			checkErr(t, err, apperr.EINVALID, tc.want)
		})
	}
}
