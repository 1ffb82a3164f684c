package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"journeyman/internal/identity"
	"journeyman/internal/store/storetest"
)

// BenchmarkGenerateRecommendations is one POST generate-recommendations on
// the shipped catalog with a saved assessment and preferences, end to end
// through the handler and SQLite.
func BenchmarkGenerateRecommendations(b *testing.B) {
	s := MustOpenLearningServer(b)
	me := guestID(1)
	mustCall(b, s, me, "POST", "/api/ai-learning/learning-preferences", `{"sessionDuration":45,"focusAreas":["safety"]}`, 200, nil)
	mustCall(b, s, me, "POST", "/api/ai-learning/skill-assessment", `{"tradeCategory":"electrical","overallScore":40}`, 201, nil)
	const body = `{"tradeCategory":"electrical","currentSkillLevel":"beginner","timeConstraints":{"hoursPerWeek":2,"preferredSessionLength":45},"focusAreas":["safety"]}`
	// The handler is called directly, past the identity middleware and the
	// write limit, so that one learner with history can generate repeatedly.
	c := identity.Caller{ID: idOf(b, s, me), Role: identity.Guest, Presented: true}
	for b.Loop() {
		req, info := withInfo(httptest.NewRequest("POST", "/api/ai-learning/generate-recommendations", strings.NewReader(body)))
		info.caller = c
		rec := httptest.NewRecorder()
		s.handleGenerateRecommendations(rec, req)
		if rec.Code != http.StatusCreated {
			b.Fatalf("status %d %s", rec.Code, rec.Body)
		}
	}
}

// BenchmarkRefreshers is one GET refreshers for a learner with 200 completed
// sessions over 6 modules, all already folded into their cards: the steady
// state of the endpoint.
func BenchmarkRefreshers(b *testing.B) {
	s := MustOpenLearningServer(b)
	me := guestID(1)
	call(b, s, me, "GET", "/api/me", "")
	modules := []string{"electrical-lockout-tagout", "electrical-meter-basics", "electrical-conduit-bending",
		"electrical-branch-circuit-wiring", "electrical-arc-flash-ppe", "electrical-motor-control-troubleshooting"}
	for i := range 200 {
		ended := storetest.FixedNow.Add(time.Duration(i-200) * 6 * time.Hour)
		insertCompletedSession(b, s, fmt.Sprintf("s%03d", i), me, modules[i%len(modules)], ended, float64(50+i%50), "passed")
	}
	mustCall(b, s, me, "GET", "/api/ai-learning/refreshers", "", 200, nil)
	for b.Loop() {
		if res := call(b, s, me, "GET", "/api/ai-learning/refreshers", ""); res.status != http.StatusOK {
			b.Fatalf("status %d %s", res.status, res.body)
		}
	}
}
