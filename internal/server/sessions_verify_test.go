package server

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"journeyman/internal/outreach"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

// testClock is a store clock that the test moves forward, as the server's
// wall clock moves between a learner's requests.
type testClock struct{ offset atomic.Int64 }

func (c *testClock) now() time.Time          { return storetest.FixedNow.Add(time.Duration(c.offset.Load())) }
func (c *testClock) advance(d time.Duration) { c.offset.Add(int64(d)) }

// MustOpenClockedXRServer returns an XR server whose store reads clock.
func MustOpenClockedXRServer(t *testing.T, st *store.Store) (*Server, *testClock) {
	t.Helper()
	clock := &testClock{}
	st.Now = clock.now
	return MustOpenXRServer(t, st), clock
}

// stepJSON is the interaction that completes (or, with action skip, skips)
// step st at sessionTime ms, as the player records it.
func stepJSON(st training.Step, action string, ms int64, seq int) string {
	return fmt.Sprintf(`{"action":%q,"objectId":%q,"stepId":%q,"sessionTime":%d,"seq":%d,"input":"mouse"}`, action, st.Target, st.ID, ms, seq)
}

func patchSession(t *testing.T, s *Server, id, body string) training.Session {
	t.Helper()
	res := call(t, s, alice, "PATCH", "/api/xr-sessions/"+id, body)
	checkError(t, res, 200, "")
	return decode[training.Session](t, res)
}

func endBody(clock *testClock, interactions ...string) string {
	return `{"endedAt":"` + ts(clock.now()) + `","completionStatus":"completed","interactionData":{"interactions":[` + strings.Join(interactions, ",") + `]}}`
}

func dashboard(t *testing.T, s *Server) outreach.DashboardStats {
	t.Helper()
	return decode[outreach.DashboardStats](t, call(t, s, bob, "GET", "/api/analytics/dashboard-stats", ""))
}

// The attacks of issue 10 item 7, and the honest run beside them: a session
// is stored and scored either way, and only the honest one is verified and
// certifies.
func TestSessionVerification(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s, clock := MustOpenClockedXRServer(t, st)
		scene := training.SceneForModule("electrical-lockout-tagout", "electrical")
		steps := scene.Steps

		t.Run("OnePatchPerfectScore", func(t *testing.T) {
			before := dashboard(t, s)
			x := newSession(t, s, alice, "electrical-lockout-tagout", "desktop")
			// Seconds after the start, one PATCH lists every step, spaced as a
			// learner would do them, and ends the session.
			clock.advance(4 * time.Second)
			var ins []string
			for i, step := range steps {
				ins = append(ins, stepJSON(step, step.Action, int64(5000*(i+1)), i))
			}
			got := patchSession(t, s, x.ID, endBody(clock, ins...))
			if got.CompletionStatus != training.StatusCompleted || got.SafetyScore == nil || *got.SafetyScore != 100 ||
				got.InteractionData.CompletionStatus != training.OutcomePassed || got.Verified ||
				len(got.VerificationIssues) != 1 || !strings.Contains(got.VerificationIssues[0], "ahead of real time: one at 10 s arrived when only 4 s") {
				t.Fatalf("attack: status %s score %v outcome %s verified %v issues %q", got.CompletionStatus, got.SafetyScore,
					got.InteractionData.CompletionStatus, got.Verified, got.VerificationIssues)
			}
			// Stored as such, and the learner's history says why.
			list := decode[[]training.SessionSummary](t, call(t, s, alice, "GET", "/api/users/"+idOf(t, s, alice)+"/xr-sessions", ""))
			if len(list) == 0 || list[0].ID != x.ID || list[0].Verified || len(list[0].VerificationIssues) != 1 {
				t.Fatalf("history = %+v", list)
			}
			if after := dashboard(t, s); after.TotalCertifications != before.TotalCertifications || after.AverageSafetyScore != before.AverageSafetyScore {
				t.Fatalf("dashboard %+v → %+v: the attack certified or moved the average", before, after)
			}
			a := decode[training.Analytics](t, call(t, s, alice, "GET", "/api/users/"+idOf(t, s, alice)+"/xr-analytics", ""))
			if a.CompletedModules != 0 || a.AverageSafetyScore != 0 || a.TotalSessions != 1 {
				t.Fatalf("analytics = %+v; want one session, nothing completed or averaged", a)
			}
			if r := decode[refreshersResponse](t, call(t, s, alice, "GET", "/api/ai-learning/refreshers", "")); len(r.Due)+len(r.Upcoming) != 0 {
				t.Fatalf("refreshers = %+v; an unverified pass schedules none", r)
			}
		})

		// honest runs the session's steps in order as the player does: one
		// PATCH per step, the clock moving on by the step's minimum and a bit,
		// each sessionTime a little behind the server's. order and times
		// override that for the attacks below.
		honest := func(t *testing.T, order []int, sessionTime func(i int, ms int64) int64) training.Session {
			t.Helper()
			x := newSession(t, s, alice, "electrical-lockout-tagout", "desktop")
			var ms int64
			for i, k := range order {
				step := steps[k]
				ms += step.MinDurationMs + 600
				clock.advance(time.Duration(step.MinDurationMs+600) * time.Millisecond)
				patchSession(t, s, x.ID, `{"interactionData":{"interactions":[`+stepJSON(step, step.Action, sessionTime(i, ms-150), i)+`]}}`)
			}
			clock.advance(2 * time.Second)
			return patchSession(t, s, x.ID, endBody(clock))
		}
		inOrder := []int{0, 1, 2, 3, 4, 5, 6, 7}
		asRecorded := func(_ int, ms int64) int64 { return ms }

		t.Run("OutOfOrderSteps", func(t *testing.T) {
			got := honest(t, []int{0, 1, 2, 4, 3, 5, 6, 7}, asRecorded)
			if got.Verified || len(got.VerificationIssues) != 1 || !strings.Contains(got.VerificationIssues[0], "out of order: step 4") {
				t.Fatalf("verified %v issues %q", got.Verified, got.VerificationIssues)
			}
		})
		t.Run("DecreasingSessionTime", func(t *testing.T) {
			got := honest(t, inOrder, func(i int, ms int64) int64 {
				if i == 4 {
					return 1000 // claims to be earlier than the step before it
				}
				return ms
			})
			if got.Verified || !strings.Contains(strings.Join(got.VerificationIssues, " "), "The session clock went backwards") {
				t.Fatalf("verified %v issues %q", got.Verified, got.VerificationIssues)
			}
		})
		t.Run("SessionTimeAheadOfWallTime", func(t *testing.T) {
			got := honest(t, inOrder, func(i int, ms int64) int64 { return ms + 5000 }) // a clock started 5 s early
			if got.Verified || len(got.VerificationIssues) != 1 || !strings.Contains(got.VerificationIssues[0], "ahead of real time") {
				t.Fatalf("verified %v issues %q", got.Verified, got.VerificationIssues)
			}
		})
		t.Run("StepsFasterThanAllowed", func(t *testing.T) {
			got := honest(t, inOrder, func(i int, ms int64) int64 {
				if i == 5 {
					return ms - 3200 // test-dead 0.4 s after proving the tester
				}
				return ms
			})
			if got.Verified || len(got.VerificationIssues) != 1 ||
				!strings.Contains(got.VerificationIssues[0], "step 6 “Test phase to phase and phase to ground at the motor terminals” took 0.4 s, at least 3 s is needed") {
				t.Fatalf("verified %v issues %q", got.Verified, got.VerificationIssues)
			}
		})
		t.Run("GenuineRunIsVerifiedAndAveraged", func(t *testing.T) {
			before := dashboard(t, s)
			got := honest(t, inOrder, asRecorded)
			if !got.Verified || len(got.VerificationIssues) != 0 || *got.SafetyScore != 100 || got.InteractionData.CompletionStatus != training.OutcomePassed {
				t.Fatalf("verified %v issues %q score %v outcome %s", got.Verified, got.VerificationIssues, *got.SafetyScore, got.InteractionData.CompletionStatus)
			}
			if after := dashboard(t, s); after.TotalCertifications != before.TotalCertifications || after.AverageSafetyScore != 100 {
				t.Fatalf("dashboard %+v → %+v; want the verified average, and no certification (only a sign-off issues one)", before, after)
			}
			a := decode[training.Analytics](t, call(t, s, alice, "GET", "/api/users/"+idOf(t, s, alice)+"/xr-analytics", ""))
			if a.CompletedModules != 1 || a.AverageSafetyScore != 100 {
				t.Fatalf("analytics = %+v; want the module completed at 100", a)
			}
		})
	})
}
