package training

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"
)

// interactionsFrom decodes interactions as a client sends them.
func interactionsFrom(t *testing.T, body string) []Interaction {
	t.Helper()
	var ins []Interaction
	if err := json.Unmarshal([]byte(body), &ins); err != nil {
		t.Fatal(err)
	}
	return ins
}

// AppendJSON writes what json.Marshal writes, byte for byte, for sessions
// with every field set and unset, strings that need escaping, numbers of
// every magnitude, and interactions as clients send them.
func TestSessionAppendJSON(t *testing.T) {
	berlin := time.FixedZone("CET", 3600)
	ended := time.Date(2026, 3, 4, 5, 6, 7, 890_000_000, berlin)
	score := 87.5
	tiny, huge := 1e-7, 2.5e21
	full := Session{
		ID: "x-1", UserID: "u<1>&", ModuleID: "electrical-loto", ModuleTitle: "Lockout/Tagout \u2014 \"live\"",
		SessionType: SessionVR, DeviceType: "Mozilla/5.0 (X11; Linux) \u00e9\u2028", StartedAt: time.Date(2026, 3, 4, 5, 0, 0, 1, time.UTC),
		EndedAt: &ended, Duration: 367, CompletionStatus: StatusCompleted,
		Position: &Vec3{X: 1.25, Y: -0, Z: 1e21}, Rotation: &Rotation{Form: RotationQuaternion, X: 0, Y: 0.7071067811865476, Z: 0, W: 0.7071067811865476},
		InteractionData: InteractionData{
			Interactions: interactionsFrom(t, `[{"action":"click","target":"breaker <panel>","timestamp":"2025-06-01T12:00:00.000Z","sessionTime":15200},
				{"action":"grab", "extra": {"a": [1, 2.50, "\u00e9"]}, "timestamp": 1748779200123.5},
				{"seq": 3, "stepId": "verify", "sessionTime": 12.0}, "not an object", 42, [1, 2, "<b>"]]`),
			SafetyChecks:     []SafetyCheckResult{{ID: "ppe", Status: CheckPassed}, {ID: "loto&try", Status: CheckSkipped}},
			CompletionStatus: OutcomePassed,
		},
		ClientCompletionStatus: "completed", SafetyScore: &score, UpdatedAt: ended.Add(time.Second),
		ServerStartedAt: &ended, Verified: true, VerificationIssues: []string{"too fast <1 s>", ""},
	}
	euler := full
	euler.Rotation = &Rotation{Form: RotationEuler, X: 90, Y: -45.5, Z: tiny}
	euler.Position = &Vec3{X: huge, Y: -tiny, Z: 123456789.125}
	euler.SafetyScore = &tiny
	empty := Session{InteractionData: InteractionData{Interactions: []Interaction{}, SafetyChecks: []SafetyCheckResult{}}, VerificationIssues: []string{}}
	tests := map[string]Session{"zero": {}, "empty lists": empty, "full": full, "euler": euler}

	// And sessions of random values, as a fuzzer would try them.
	r := rand.New(rand.NewPCG(1, 2))
	floats := func() float64 {
		switch r.IntN(4) {
		case 0:
			return r.NormFloat64() * math.Pow(10, float64(r.IntN(60)-30))
		case 1:
			return float64(r.IntN(2000) - 1000)
		case 2:
			return r.Float64()
		}
		return 0
	}
	text := func() string {
		const alphabet = "aZ09 <>&\"\\/\n\t\u00e9\u2028\u2029\U0001F600\x7f"
		runes := []rune(alphabet)
		out := make([]rune, r.IntN(12))
		for i := range out {
			out[i] = runes[r.IntN(len(runes))]
		}
		return string(out)
	}
	for i := range 200 {
		x := full
		x.ID, x.UserID, x.ModuleTitle, x.DeviceType = text(), text(), text(), text()
		x.Position = &Vec3{X: floats(), Y: floats(), Z: floats()}
		x.Rotation = &Rotation{Form: []string{RotationEuler, RotationQuaternion}[r.IntN(2)], X: floats(), Y: floats(), Z: floats(), W: floats()}
		s := floats()
		x.SafetyScore = &s
		x.Duration = r.Int64N(1<<40) - 1<<39
		at := time.Unix(r.Int64N(1<<35), r.Int64N(1e9)).In(time.FixedZone("", (r.IntN(48)-24)*1800))
		x.StartedAt, x.UpdatedAt = at, at.Add(time.Duration(r.Int64N(1e12)))
		x.InteractionData.Interactions = []Interaction{{Action: text(), StepID: text(), Timestamp: at, SessionTime: r.Int64N(1e6)}}
		x.VerificationIssues = []string{text()}
		tests["random "+strconv.Itoa(i)] = x
	}
	for name, x := range tests {
		want, err := json.Marshal(x)
		if err != nil {
			t.Fatalf("%s: json.Marshal: %v", name, err)
		}
		got, err := x.AppendJSON(nil)
		if err != nil {
			t.Fatalf("%s: AppendJSON: %v", name, err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got  %s\n want %s", name, got, want)
		}
	}
}

// AppendJSON fails where json.Marshal fails: a number JSON cannot hold,
// a year it cannot write.
func TestSessionAppendJSONRefuses(t *testing.T) {
	inf := math.Inf(1)
	for name, x := range map[string]Session{
		"score":    {SafetyScore: &inf},
		"position": {Position: &Vec3{X: math.NaN()}},
		"rotation": {Rotation: &Rotation{Form: RotationEuler, Z: inf}},
		"year":     {StartedAt: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		if _, err := json.Marshal(x); err == nil {
			t.Fatalf("%s: json.Marshal took it; the case tests nothing", name)
		}
		if b, err := x.AppendJSON(nil); err == nil {
			t.Errorf("%s: AppendJSON wrote %s", name, b)
		}
	}
}
