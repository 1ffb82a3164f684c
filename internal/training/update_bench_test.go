package training

import (
	"encoding/json"
	"testing"
)

// BenchmarkPeriodicUpdate is the CPU a periodic PATCH spends in this
// package: the body decoded, applied to the session and the answer
// encoded. The body is bench/compare's (the Express peer's patch.lua).
func BenchmarkPeriodicUpdate(b *testing.B) {
	body := []byte(`{"position":{"x":1.25,"y":1.6,"z":-0.42},"interactionData":{"interactions":[{"action":"click","target":"breaker-panel","timestamp":"2025-06-01T12:00:00.000Z","sessionTime":15200}],"safetyChecks":[{"id":"ppe","status":"passed"}]},"duration":42}`)
	start := newTestSession()
	b.ReportAllocs()
	for b.Loop() {
		var p SessionPatch
		if err := json.Unmarshal(body, &p); err != nil {
			b.Fatal(err)
		}
		x := start
		if err := x.Apply("learner-1", p, Scene{}, now); err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(x); err != nil {
			b.Fatal(err)
		}
	}
}
