package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// compactFields decodes a JSON object into its fields, each compacted.
func compactFields(t *testing.T, raw json.RawMessage) map[string]string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	out := map[string]string{}
	for k, v := range m {
		var c bytes.Buffer
		if err := json.Compact(&c, v); err != nil {
			t.Fatal(err)
		}
		out[k] = c.String()
	}
	return out
}

// recordOf reads session id of user back as GET
// /api/users/{userId}/xr-sessions/{id} answers it, whole and decoded.
func recordOf(t *testing.T, s *Server, user, id string) (training.Session, map[string]json.RawMessage) {
	t.Helper()
	res := call(t, s, user, "GET", "/api/users/"+idOf(t, s, user)+"/xr-sessions/"+id, "")
	checkError(t, res, 200, "")
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(res.body), &raw); err != nil {
		t.Fatal(err)
	}
	return decode[training.Session](t, res), raw
}

// checkInteractionsKept checks that the interactions of body (a PATCH)
// are the record's last ones, each field as sent.
func checkInteractionsKept(t *testing.T, body string, record map[string]json.RawMessage) {
	t.Helper()
	var sent struct {
		InteractionData struct {
			Interactions []json.RawMessage `json:"interactions"`
		} `json:"interactionData"`
	}
	var stored struct {
		Interactions []json.RawMessage `json:"interactions"`
	}
	if err := json.Unmarshal([]byte(body), &sent); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(record["interactionData"], &stored); err != nil {
		t.Fatal(err)
	}
	ins := sent.InteractionData.Interactions
	if len(stored.Interactions) < len(ins) {
		t.Fatalf("%d interactions stored, %d sent", len(stored.Interactions), len(ins))
	}
	tail := stored.Interactions[len(stored.Interactions)-len(ins):]
	for i, in := range ins {
		want, got := compactFields(t, in), compactFields(t, tail[i])
		for k, v := range want {
			if got[k] != v {
				t.Errorf("interaction %d: %s came back as %s, sent %s", i, k, got[k], v)
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok && k != "receivedAt" && k != "timestamp" {
				t.Errorf("interaction %d: the server added %s", i, k)
			}
		}
		if got["receivedAt"] == "" || got["timestamp"] == "" {
			t.Errorf("interaction %d lacks the server's receivedAt or timestamp: %v", i, got)
		}
	}
}

// Every payload of the specification's client is accepted, stored, and
// given back as sent by GET /api/users/{userId}/xr-sessions/{id}: free
// interaction fields, the client's interactionData.completionStatus (kept
// as its claim), and rotations as quaternions or Euler angles.
func TestPatchKeepsWhatTheSpecsClientSends(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s := MustOpenXRServer(t, st)
		tests := []struct {
			name, body string
			// want are top-level fields of the stored record, compacted.
			want map[string]string
		}{
			{"FreeInteractionFields", `{"interactionData":{"interactions":[
				{"type":"click","target":"breaker","sessionTime":1200.5,"timestamp":1773480599123,"hand":{"side":"left","pinch":0.8}},
				{"note":"looked around"},
				{"action":"look","objectId":"panel","stepId":"open-disconnect","sessionTime":1300,"timestamp":"2026-03-14T09:29:59.123Z","seq":2}]}}`, nil},
			{"InteractionWithoutAction", `{"interactionData":{"interactions":[{"stepId":"apply-lock","objectId":"lock","sessionTime":10}]}}`, nil},
			{"InteractionTypeOnly", `{"interactionData":{"interactions":[{"type":"object_grab","timestamp":"Sat Mar 14 2026 09:29:59 GMT+0000"}]}}`, nil},
			{"ClaimedCompletionStatus", `{"interactionData":{"interactions":[],"safetyChecks":[],"completionStatus":"in_progress"}}`,
				map[string]string{"clientCompletionStatus": `"in_progress"`, "interactionData": `{"interactions":[],"safetyChecks":[],"completionStatus":""}`}},
			{"RotationQuaternion", `{"rotation":{"x":0,"y":0.7071068,"z":0,"w":0.7071068}}`,
				map[string]string{"rotation": `{"form":"quaternion","x":0,"y":0.7071068,"z":0,"w":0.7071068}`}},
			{"RotationEuler", `{"rotation":{"x":-0.2,"y":1.5707963,"z":0}}`,
				map[string]string{"rotation": `{"form":"euler","x":-0.2,"y":1.5707963,"z":0}`}},
			{"RotationWithForm", `{"rotation":{"form":"euler","x":0,"y":3.14159,"z":0}}`,
				map[string]string{"rotation": `{"form":"euler","x":0,"y":3.14159,"z":0}`}},
			{"Position", `{"position":{"x":0.5,"y":1.6,"z":-2}}`, map[string]string{"position": `{"x":0.5,"y":1.6,"z":-2}`}},
			{"SpecPeriodicUpdate", `{"position":{"x":0,"y":1.6,"z":0},"rotation":{"x":0,"y":0.5,"z":0},"duration":12,
				"interactionData":{"interactions":[{"type":"click","objectId":"panel","timestamp":"2026-03-14T09:29:59.000Z","sessionTime":11000}],
				"safetyChecks":[],"completionStatus":"in_progress"}}`,
				map[string]string{"position": `{"x":0,"y":1.6,"z":0}`, "rotation": `{"form":"euler","x":0,"y":0.5,"z":0}`, "duration": "12",
					"clientCompletionStatus": `"in_progress"`, "completionStatus": `"in_progress"`}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				user := "forms-" + tt.name
				x := newSession(t, s, user, "electrical-lockout-tagout", "vr")
				checkError(t, call(t, s, user, "PATCH", "/api/xr-sessions/"+x.ID, tt.body), 200, "")
				_, record := recordOf(t, s, user, x.ID)
				checkInteractionsKept(t, tt.body, record)
				for k, v := range tt.want {
					if got := compactFields(t, mustMarshal(t, record))[k]; got != v {
						t.Errorf("%s = %s, want %s", k, got, v)
					}
				}
			})
		}

		// The end repeats the record, claims a pass it did not earn and
		// brings interactions without an action: accepted, stored, and judged
		// by the server.
		t.Run("EndRepeatingTheRecord", func(t *testing.T) {
			user := "forms-end"
			x := newSession(t, s, user, "electrical-lockout-tagout", "desktop")
			body := fmt.Sprintf(`{"userId":%q,"moduleId":"electrical-lockout-tagout","sessionType":"desktop","deviceType":"Mozilla/5.0",
				"startedAt":%q,"endedAt":%q,"duration":30,"completionStatus":"completed",
				"interactionData":{"interactions":[{"type":"grab","target":"gloves","sessionTime":900}],"safetyChecks":[],"completionStatus":"passed"}}`,
				idOf(t, s, user), ts(x.StartedAt), ts(storetest.FixedNow))
			res := call(t, s, user, "PATCH", "/api/xr-sessions/"+x.ID, body)
			checkError(t, res, 200, "")
			got, record := recordOf(t, s, user, x.ID)
			checkInteractionsKept(t, body, record)
			if got.CompletionStatus != training.StatusCompleted || got.InteractionData.CompletionStatus != training.OutcomeFailed ||
				got.ClientCompletionStatus != "passed" || got.SafetyScore == nil || *got.SafetyScore == 100 {
				t.Fatalf("ended %+v; want completed, the server's failed, the claim kept", got)
			}
		})

		t.Run("ErrNotTheLearnersSession", func(t *testing.T) {
			mine := newSession(t, s, "forms-mine", "electrical-lockout-tagout", "desktop")
			theirs := newSession(t, s, "forms-theirs", "electrical-lockout-tagout", "desktop")
			checkError(t, call(t, s, "forms-mine", "GET", "/api/users/"+idOf(t, s, "forms-mine")+"/xr-sessions/"+theirs.ID, ""), 404, "does not exist among learner")
			checkError(t, call(t, s, "forms-mine", "GET", "/api/users/"+idOf(t, s, "forms-mine")+"/xr-sessions/nope", ""), 404, `XR session "nope" does not exist`)
			checkError(t, call(t, s, "forms-theirs", "GET", "/api/users/"+idOf(t, s, "forms-mine")+"/xr-sessions/"+mine.ID, ""), 403, "only read your own")
		})
	})
}

func mustMarshal(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// What the server refuses, it names precisely; a refused update stores
// nothing.
func TestPatchRefusalsArePrecise(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s := MustOpenXRServer(t, st)
		user := "forms-refused"
		x := newSession(t, s, user, "electrical-lockout-tagout", "vr")
		looks := func(n int) string {
			return `{"interactionData":{"interactions":[` + strings.TrimSuffix(strings.Repeat(`{"type":"look"},`, n), ",") + `]}}`
		}
		tests := []struct {
			name, body string
			status     int
			want       string
		}{
			{"UnknownTopLevelField", `{"speed":3}`, 400, `unknown field "speed"`},
			{"UnknownInteractionDataField", `{"interactionData":{"interactions":[],"score":100}}`, 400, `unknown field "score"`},
			{"InteractionNotAnObject", `{"interactionData":{"interactions":["click"]}}`, 400, `interactionData.interactions[0] must be a JSON object, not "click"`},
			{"SecondInteractionNotAnObject", `{"interactionData":{"interactions":[{"type":"look"},42]}}`, 400, `interactionData.interactions[1] must be a JSON object, not 42`},
			{"InteractionNull", `{"interactionData":{"interactions":[null]}}`, 400, `interactionData.interactions[0] must be a JSON object, not null`},
			{"SessionTimeNotANumber", `{"interactionData":{"interactions":[{"type":"look","sessionTime":"12s"}]}}`, 400,
				`interactionData.interactions[0].sessionTime must be a number of milliseconds since the session started, not "12s"`},
			{"SessionTimeNegative", `{"interactionData":{"interactions":[{"type":"look","sessionTime":-1}]}}`, 400,
				`interactionData.interactions[0].sessionTime must be between 0 and 86400000 ms, not -1`},
			{"SeqNotWhole", `{"interactionData":{"interactions":[{"type":"look","seq":0.5}]}}`, 400,
				`interactionData.interactions[0].seq must be a whole number from 0 to 1999, not 0.5`},
			{"InteractionTooBig", `{"interactionData":{"interactions":[{"note":"` + strings.Repeat("x", 3000) + `"}]}}`, 400,
				`interactionData.interactions[0] is 3`},
			{"TooManyInteractions", looks(training.MaxInteractionsPerUpdate + 1), 400,
				"interactionData.interactions holds 101 interactions; one update may send at most 100"},
			{"ClaimTooLong", `{"interactionData":{"completionStatus":"` + strings.Repeat("c", 65) + `"}}`, 400,
				"interactionData.completionStatus must be at most 64 characters"},
			{"ClaimNotAString", `{"interactionData":{"completionStatus":true}}`, 400,
				`field "interactionData.completionStatus" must be a string, not bool`},
			{"RotationMissingZ", `{"rotation":{"x":0,"y":0}}`, 400,
				"rotation must be a quaternion {x, y, z, w} or Euler angles {x, y, z} in radians; z is missing"},
			{"RotationUnknownField", `{"rotation":{"x":0,"y":0,"z":0,"roll":0}}`, 400, `rotation has unknown field "roll"`},
			{"RotationArray", `{"rotation":[0,0,0,1]}`, 400, "rotation must be a quaternion {x, y, z, w} or Euler angles {x, y, z} in radians, not [0,0,0,1]"},
			{"RotationNotANumber", `{"rotation":{"x":"0","y":0,"z":0,"w":1}}`, 400, `rotation.x must be a finite number, not "0"`},
			{"QuaternionNotUnit", `{"rotation":{"x":0,"y":0,"z":0,"w":2}}`, 400,
				"rotation as a quaternion {x, y, z, w} must have unit length (within 0.01); this one has length 2"},
			{"EulerInDegrees", `{"rotation":{"x":0,"y":90,"z":0}}`, 400,
				"rotation as Euler angles {x, y, z} is in radians: each angle must be between -2π and 2π (±6.2832); y is 90"},
			{"RotationFormDisagrees", `{"rotation":{"form":"euler","x":0,"y":0,"z":0,"w":1}}`, 400, `rotation has form "euler" but carries w`},
			{"RotationFormUnknown", `{"rotation":{"form":"matrix","x":0,"y":0,"z":0}}`, 400, `rotation.form must be "quaternion" or "euler", not "matrix"`},
			{"PositionMissingY", `{"position":{"x":0,"z":0}}`, 400, "position must be {x, y, z} in metres; y is missing"},
			{"PositionUnknownField", `{"position":{"x":0,"y":0,"z":0,"w":0}}`, 400, `position has unknown field "w"`},
			{"PositionTooFar", `{"position":{"x":0,"y":0,"z":20000}}`, 400,
				"position.z must be a finite number of metres between -10000 and 10000, not 20000"},
			{"BodyTooLarge", `{"interactionData":{"interactions":[{"note":"` + strings.Repeat("x", MaxBodyBytes) + `"}]}}`, 413,
				"request body is larger than 1048576 bytes"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				checkError(t, call(t, s, user, "PATCH", "/api/xr-sessions/"+x.ID, tt.body), tt.status, tt.want)
			})
		}
		got, _ := recordOf(t, s, user, x.ID)
		if len(got.InteractionData.Interactions) != 0 || got.Rotation != nil || got.Position != nil || got.ClientCompletionStatus != "" {
			t.Fatalf("refused updates stored %+v", got)
		}
	})
}
