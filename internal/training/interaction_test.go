package training

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"journeyman/internal/apperr"
)

// sentFields decodes a JSON object into its fields, each compacted.
func sentFields(t *testing.T, b []byte) map[string]string {
	t.Helper()
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out := map[string]string{}
	for k, v := range raw {
		var c bytes.Buffer
		if err := json.Compact(&c, v); err != nil {
			t.Fatal(err)
		}
		out[k] = c.String()
	}
	return out
}

// Every field a client sends comes back as sent; the server adds only
// receivedAt, and timestamp when none was sent. Kind is what the judgement
// reads as the learner's action.
func TestInteractionKeepsWhatWasSent(t *testing.T) {
	for _, tc := range []struct {
		name, sent  string
		kind        string
		sessionTime int64
		timestamp   time.Time // zero: none understood
	}{
		{"Action", `{"action":"click","objectId":"panel","stepId":"open","sessionTime":1500,"seq":0}`, "click", 1500, time.Time{}},
		{"NoActionType", `{"type":"grab","objectId":"gloves","stepId":"don-ppe","sessionTime":2500}`, "grab", 2500, time.Time{}},
		{"ActionBeforeType", `{"action":"click","type":"ui-event","sessionTime":1}`, "click", 1, time.Time{}},
		{"StepIdOnly", `{"stepId":"apply-lock","sessionTime":3000}`, "apply-lock", 3000, time.Time{}},
		{"TargetOnly", `{"target":"valve-2","sessionTime":10}`, "valve-2", 10, time.Time{}},
		{"TargetAsObject", `{"target":{"id":"valve-2","position":[1,2,3]},"note":"free"}`, "", 0, time.Time{}},
		{"EmptyActionFallsToType", `{"action":"","type":"look"}`, "look", 0, time.Time{}},
		{"NonStringAction", `{"action":{"verb":"click"},"type":"press","sessionTime":5}`, "press", 5, time.Time{}},
		{"NothingButTime", `{"sessionTime":42}`, "", 42, time.Time{}},
		{"Empty", `{}`, "", 0, time.Time{}},
		{"FractionalSessionTime", `{"action":"look","sessionTime":1500.75}`, "look", 1500, time.Time{}},
		{"ExponentSessionTime", `{"action":"look","sessionTime":1.5e3}`, "look", 1500, time.Time{}},
		{"TimestampISO", `{"action":"look","timestamp":"2026-03-14T09:29:59.123Z","sessionTime":0}`, "look", 0, time.Date(2026, 3, 14, 9, 29, 59, 123e6, time.UTC)},
		{"TimestampEpochMs", `{"action":"look","timestamp":1773480599123,"sessionTime":0}`, "look", 0, time.UnixMilli(1773480599123).UTC()},
		{"TimestampFreeText", `{"action":"look","timestamp":"Sat Mar 14 2026 09:29:59 GMT+0000"}`, "look", 0, time.Time{}},
		{"NestedFreeFields", `{"action":"teleport","to":{"x":1,"y":0,"z":-2},"path":[[0,0],[1,-2]],"ok":true,"n":null}`, "teleport", 0, time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in Interaction
			if err := json.Unmarshal([]byte(tc.sent), &in); err != nil {
				t.Fatal(err)
			}
			if err := in.validate(0); err != nil {
				t.Fatalf("refused: %v", err)
			}
			if in.Kind() != tc.kind || in.SessionTime != tc.sessionTime || !in.Timestamp.Equal(tc.timestamp) {
				t.Fatalf("kind %q sessionTime %d timestamp %v; want %q, %d, %v", in.Kind(), in.SessionTime, in.Timestamp, tc.kind, tc.sessionTime, tc.timestamp)
			}
			// As the server stores it: stamped with its receipt.
			in.ReceivedAt = now
			if in.Timestamp.IsZero() {
				in.Timestamp = now
			}
			out, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			sent, got := sentFields(t, []byte(tc.sent)), sentFields(t, out)
			for k, v := range sent {
				if got[k] != v {
					t.Errorf("%s came back as %s, sent %s", k, got[k], v)
				}
			}
			for k := range got {
				if _, ok := sent[k]; !ok && k != "receivedAt" && k != "timestamp" {
					t.Errorf("the server added %s: %s", k, out)
				}
			}
			if _, ok := got["receivedAt"]; !ok {
				t.Errorf("no receivedAt in %s", out)
			}
			if _, ok := got["timestamp"]; !ok {
				t.Errorf("no timestamp in %s", out)
			}
			// Stored and read again, it encodes the same: the store counts
			// bytes once, when it writes them.
			var again Interaction
			if err := json.Unmarshal(out, &again); err != nil {
				t.Fatal(err)
			}
			if out2, _ := json.Marshal(again); string(out2) != string(out) {
				t.Errorf("read back it encodes as\n%s\nnot\n%s", out2, out)
			}
			if again.Kind() != tc.kind || again.SessionTime != tc.sessionTime || again.HasSessionTime() != in.HasSessionTime() {
				t.Errorf("read back: kind %q sessionTime %d", again.Kind(), again.SessionTime)
			}
		})
	}
}

// A client's receivedAt is the server's to set.
func TestInteractionReceivedAtIsTheServers(t *testing.T) {
	s := newTestSession()
	var in Interaction
	if err := json.Unmarshal([]byte(`{"action":"look","receivedAt":"2000-01-01T00:00:00Z"}`), &in); err != nil {
		t.Fatal(err)
	}
	u := SessionUpdate{InteractionData: &InteractionData{Interactions: []Interaction{in}}}
	if err := s.Update("learner-1", u, now); err != nil {
		t.Fatal(err)
	}
	if got := s.InteractionData.Interactions[0]; !got.ReceivedAt.Equal(now) || !got.Timestamp.Equal(now) {
		t.Fatalf("receivedAt %v timestamp %v; want both %v", got.ReceivedAt, got.Timestamp, now)
	}
}

// What cannot be stored is refused with the interaction's index and the
// field at fault.
func TestInteractionRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, sent, want string
	}{
		{"NotAnObject", `"click"`, `interactionData.interactions[3] must be a JSON object, not "click"`},
		{"List", `[1,2]`, `interactionData.interactions[3] must be a JSON object, not [1,2]`},
		{"Null", `null`, `interactionData.interactions[3] must be a JSON object, not null`},
		{"SessionTimeString", `{"action":"look","sessionTime":"1500"}`, `interactionData.interactions[3].sessionTime must be a number of milliseconds since the session started, not "1500"`},
		{"SessionTimeNegative", `{"action":"look","sessionTime":-5}`, `interactionData.interactions[3].sessionTime must be between 0 and 86400000 ms, not -5`},
		{"SessionTimeHuge", `{"action":"look","sessionTime":1e300}`, `interactionData.interactions[3].sessionTime must be between 0 and 86400000 ms, not 1e300`},
		{"SeqFraction", `{"action":"look","seq":1.5}`, `interactionData.interactions[3].seq must be a whole number from 0 to 1999, not 1.5`},
		{"SeqString", `{"action":"look","seq":"2"}`, `interactionData.interactions[3].seq must be a whole number`},
		{"SeqNegative", `{"action":"look","seq":-1}`, `interactionData.interactions[3].seq must be between 0 and 1999`},
		{"TooBig", `{"action":"note","text":"` + string(bytes.Repeat([]byte("x"), MaxInteractionBytes)) + `"}`, `interactionData.interactions[3] is 2`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in Interaction
			if err := json.Unmarshal([]byte(tc.sent), &in); err != nil {
				t.Fatal(err)
			}
			checkErr(t, in.validate(3), apperr.EINVALID, tc.want)
		})
	}
}

// An interaction that names its action by type is judged like one that
// names it by action: it completes steps and skips them, and Verify holds
// it to the same clock.
func TestKindIsJudged(t *testing.T) {
	scene, _ := SceneByID("electrical-lockout-tagout")
	byAction := perform(scene, "skip:don-ppe", "stop-conveyor", "open-disconnect", "apply-lock", "prove-tester", "test-dead", "reprove-tester", "try-start")
	start := now.Add(-time.Hour)
	for i := range byAction {
		byAction[i].ReceivedAt = now
	}
	byType := make([]Interaction, len(byAction))
	for i, in := range byAction {
		typ, _ := json.Marshal(in.Action)
		byType[i] = Interaction{ObjectID: in.ObjectID, StepID: in.StepID, SessionTime: in.SessionTime, ReceivedAt: in.ReceivedAt,
			Extra: map[string]json.RawMessage{"type": typ}}
	}
	a, b := Evaluate(scene, byAction), Evaluate(scene, byType)
	if ja, jb := mustJSON(t, a), mustJSON(t, b); ja != jb {
		t.Fatalf("by type %s; by action %s", jb, ja)
	}
	if len(b.CompletedSteps) != 7 || b.SafetyScore != 84.6 {
		t.Fatalf("by type: %+v", b)
	}
	va, vb := Verify(scene, start, byAction), Verify(scene, start, byType)
	if mustJSON(t, va) != mustJSON(t, vb) || va.Verified {
		t.Fatalf("verify by type %+v; by action %+v", vb, va)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The client's interactionData.completionStatus is kept as its claim and
// never decides the outcome.
func TestClaimedCompletionStatus(t *testing.T) {
	scene, _ := SceneByID("electrical-lockout-tagout")
	s := newTestSession()
	claim := func(status string) SessionUpdate {
		return SessionUpdate{InteractionData: &InteractionData{CompletionStatus: status}}
	}
	if err := s.Update("learner-1", claim("in_progress"), now); err != nil {
		t.Fatal(err)
	}
	if s.ClientCompletionStatus != "in_progress" || s.InteractionData.CompletionStatus != "" {
		t.Fatalf("claim %q outcome %q", s.ClientCompletionStatus, s.InteractionData.CompletionStatus)
	}
	// Nothing was done, yet the end claims a pass.
	end := SessionEnd{SessionUpdate: claim(OutcomePassed), EndedAt: now, CompletionStatus: StatusCompleted}
	if err := s.End("learner-1", end, scene, now); err != nil {
		t.Fatal(err)
	}
	if s.ClientCompletionStatus != OutcomePassed || s.InteractionData.CompletionStatus != OutcomeFailed {
		t.Fatalf("claim %q outcome %q; want the claim kept and the server's failed", s.ClientCompletionStatus, s.InteractionData.CompletionStatus)
	}
}
