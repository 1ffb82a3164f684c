package training

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// serverStart is when the server received the start of the sessions below.
var serverStart = time.Date(2026, 3, 14, 9, 0, 0, 0, time.UTC)

// paced performs steps as a learner would: each completion comes 500 ms
// after the step's minimum duration, a skip 800 ms after the step began, and
// each interaction reaches the server 300 ms after it happened.
func paced(s Scene, steps ...string) []Interaction {
	ins := perform(s, steps...)
	var at int64
	for i := range ins {
		at += 800
		if ins[i].Action != ActionSkip {
			for _, st := range s.Steps {
				if st.ID == ins[i].StepID {
					at += st.MinDurationMs - 300
				}
			}
		}
		ins[i].SessionTime = at
		ins[i].ReceivedAt = serverStart.Add(time.Duration(at+300) * time.Millisecond)
	}
	return ins
}

// receivedAll marks every interaction received at one instant, as a single
// update delivers them.
func receivedAll(ins []Interaction, at time.Time) []Interaction {
	for i := range ins {
		ins[i].ReceivedAt = at
	}
	return ins
}

func TestVerify(t *testing.T) {
	scene, _ := SceneByID("electrical-lockout-tagout")
	all := stepIDs(scene.Steps)
	// Minimum durations: open-disconnect 1.5 s (click); the seven steps with
	// a check 3 s: 22.5 s.
	for _, tc := range []struct {
		name         string
		start        time.Time
		interactions []Interaction
		want         []string // issues, each a substring of one reason in order; nil: verified
	}{
		{"GenuineRun", serverStart, paced(scene, all...), nil},
		{"GenuineRunWithSkipAndLooks", serverStart, func() []Interaction {
			ins := paced(scene, "don-ppe", "open-disconnect", "skip:apply-lock", "prove-tester", "test-dead", "try-start")
			// Looking around and selecting the wrong object are no steps.
			look := Interaction{Action: "inspect", ObjectID: "bench", SessionTime: ins[1].SessionTime, ReceivedAt: ins[1].ReceivedAt}
			wrong := Interaction{Action: "click", ObjectID: "motor", StepID: "apply-lock", SessionTime: ins[1].SessionTime + 100, ReceivedAt: ins[1].ReceivedAt}
			return append(ins[:2:2], append([]Interaction{look, wrong}, ins[2:]...)...)
		}(), nil},
		{"NoInteractions", serverStart, nil, nil},
		{"OnePatchPerfectScore", serverStart,
			// Every step, plausibly spaced, in one update 3 s after the start.
			receivedAll(perform(scene, all...), serverStart.Add(3*time.Second)),
			[]string{"Steps were recorded faster than the scene allows: step 1 “Put on the arc-rated face shield and voltage-rated gloves before you approach the panel” took 1 s, at least 3 s is needed; step 2 “Tell the line operator you are locking out the conveyor, then stop it at its local station and wait until it stands still” took 1 s, at least 3 s is needed; step 3 “Switch the fused disconnect to OFF, and check through its window that the blades are open” took 1 s, at least 1.5 s is needed; and 5 more.",
				"Actions were recorded ahead of real time: one at 6 s arrived when only 3 s of the session had passed."}},
		{"OnePatchPacedButEarly", serverStart,
			// Paced sessionTimes claim 21 s; the update came at 5 s.
			receivedAll(paced(scene, all...), serverStart.Add(5*time.Second)),
			[]string{"Actions were recorded ahead of real time: one at 9 s arrived when only 5 s of the session had passed."}},
		{"OutOfOrder", serverStart,
			paced(scene, "don-ppe", "stop-conveyor", "open-disconnect", "prove-tester", "apply-lock", "test-dead", "reprove-tester", "try-start"),
			[]string{"Steps were recorded out of order: step 4 “Apply your personal padlock and danger tag to the disconnect hasp” was recorded after step 5 “Prove your voltage tester on the proving unit”."}},
		{"SkippedStepCompletedAtTheEnd", serverStart,
			paced(scene, "skip:don-ppe", "stop-conveyor", "open-disconnect", "apply-lock", "prove-tester", "test-dead", "reprove-tester", "try-start", "don-ppe"),
			[]string{"Steps were recorded out of order: step 1 “Put on the arc-rated face shield and voltage-rated gloves before you approach the panel” was recorded after step 8"}},
		{"SessionTimeGoesBackwards", serverStart, func() []Interaction {
			ins := paced(scene, all...)
			// A look recorded after apply-lock (at 9 s) claims 8 s.
			look := Interaction{Action: "inspect", ObjectID: "bench", SessionTime: 8000, ReceivedAt: ins[2].ReceivedAt}
			return append(ins[:3:3], append([]Interaction{look}, ins[3:]...)...)
		}(), []string{"The session clock went backwards: an action at 8 s was recorded after one at 9 s."}},
		{"AheadOfWallTime", serverStart, func() []Interaction {
			ins := paced(scene, all...)
			ins[4].ReceivedAt = serverStart.Add(time.Duration(ins[4].SessionTime)*time.Millisecond - MaxClientLead - time.Millisecond)
			return ins
		}(), []string{"Actions were recorded ahead of real time: one at 16 s arrived when only 13.9 s of the session had passed."}},
		{"AheadWithinTolerance", serverStart, func() []Interaction {
			ins := paced(scene, all...)
			ins[4].ReceivedAt = serverStart.Add(time.Duration(ins[4].SessionTime)*time.Millisecond - MaxClientLead)
			return ins
		}(), nil},
		{"ExactlyTheMinimum", serverStart, func() []Interaction {
			ins := paced(scene, all...)
			ins[0].SessionTime = 3000 // don-ppe began at 0
			return ins
		}(), nil},
		{"JustUnderTheMinimum", serverStart, func() []Interaction {
			ins := paced(scene, all...)
			ins[0].SessionTime = 2999
			return ins
		}(), []string{"Steps were recorded faster than the scene allows: step 1 “Put on the arc-rated face shield and voltage-rated gloves before you approach the panel” took 2.9 s, at least 3 s is needed."}},
		{"RecordedBeforeVerification", time.Time{}, paced(scene, all...), []string{IssueRecordedBeforeVerification}},
		{"InteractionWithoutReceipt", serverStart, func() []Interaction {
			ins := paced(scene, all...)
			ins[0].ReceivedAt = time.Time{}
			return ins
		}(), []string{IssueRecordedBeforeVerification}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Verify(scene, tc.start, tc.interactions)
			if v.Verified != (tc.want == nil) || v.Issues == nil || len(v.Issues) != len(tc.want) {
				t.Fatalf("Verify = %+v; want verified %v with %d issues %q", v, tc.want == nil, len(tc.want), tc.want)
			}
			for i, want := range tc.want {
				if !strings.Contains(v.Issues[i], want) {
					t.Errorf("issue %d = %q\nwant it to contain %q", i, v.Issues[i], want)
				}
			}
		})
	}
}

// Every scene can be verified when done at the pace its steps allow, and
// its minimum durations are the documented ones for their kinds.
func TestVerifyEveryScenePaced(t *testing.T) {
	for _, s := range Scenes() {
		t.Run(s.ID, func(t *testing.T) {
			for _, st := range s.Steps {
				if st.MinDurationMs != MinStepDuration(st) {
					t.Errorf("step %s: minimum %d ms, want %d for its kind", st.ID, st.MinDurationMs, MinStepDuration(st))
				}
			}
			if v := Verify(s, serverStart, paced(s, stepIDs(s.Steps)...)); !v.Verified {
				t.Fatalf("a paced run is not verified: %q", v.Issues)
			}
		})
	}
}

func TestMinStepDuration(t *testing.T) {
	for _, tc := range []struct {
		step Step
		want int64
	}{
		{Step{Action: ActionClick}, 1500},
		{Step{Action: ActionGrab}, 2000},
		{Step{Action: ActionClick, SafetyCheck: "x"}, 3000},
		{Step{Action: ActionGrab, SafetyCheck: "x"}, 3000},
	} {
		if got := MinStepDuration(tc.step); got != tc.want {
			t.Errorf("MinStepDuration(%+v) = %d, want %d", tc.step, got, tc.want)
		}
	}
}

func TestStepName(t *testing.T) {
	for instruction, want := range map[string]string{
		"Put on safety glasses: the spray is pressurized.":                                          "Put on safety glasses",
		"Switch the fused disconnect to OFF.":                                                       "Switch the fused disconnect to OFF",
		"Set the blade to clear the stock by about 3 mm (1/8 in).":                                  "Set the blade to clear the stock by about 3 mm (1/8 in)",
		"Air-test and inspect your rubber gloves, then put them on.":                                "Air-test and inspect your rubber gloves, then put them on",
		"Pull the dipstick: engine oil between the marks.":                                          "Pull the dipstick",
		"After the manufacturer's wait time, verify 0 V at the inverter HV terminals. Then record.": "After the manufacturer's wait time, verify 0 V at the inverter HV terminals",
	} {
		if got := StepName(Step{Instruction: instruction}); got != want {
			t.Errorf("StepName(%q) = %q, want %q", instruction, got, want)
		}
	}
}

// The server stamps every interaction it stores with its own receive time
// and the session with its own start, and judges the session at its end.
func TestSessionRecordsReceiptsAndVerifiesAtEnd(t *testing.T) {
	scene, _ := SceneByID("electrical-lockout-tagout")
	s := Start("s1", "learner-1", NewSession{ModuleID: "electrical-lockout-tagout", StartedAt: serverStart.Add(-time.Hour)}, serverStart)
	if s.ServerStartedAt == nil || !s.ServerStartedAt.Equal(serverStart) || s.Verified || s.VerificationIssues == nil {
		t.Fatalf("started: serverStartedAt %v verified %v issues %v; want the server's receipt, false, []", s.ServerStartedAt, s.Verified, s.VerificationIssues)
	}

	// A client's own receivedAt is not believed.
	var forged InteractionData
	if err := json.Unmarshal([]byte(`{"interactions":[{"action":"look","sessionTime":100,"receivedAt":"2030-01-01T00:00:00Z"},{"action":"look","sessionTime":200,"receivedAt":"soon"}]}`), &forged); err != nil {
		t.Fatal(err)
	}
	at := serverStart.Add(time.Second)
	if err := s.Update("learner-1", SessionUpdate{InteractionData: &forged}, at); err != nil {
		t.Fatal(err)
	}
	for i, in := range s.InteractionData.Interactions {
		if !in.ReceivedAt.Equal(at) || in.Extra["receivedAt"] != nil {
			t.Fatalf("interaction %d received at %v (extra %s); want the server's %v", i, in.ReceivedAt, in.Extra["receivedAt"], at)
		}
	}
	// The receipt survives storage as JSON.
	b, _ := json.Marshal(s.InteractionData)
	var back InteractionData
	if err := json.Unmarshal(b, &back); err != nil || !back.Interactions[0].ReceivedAt.Equal(at) {
		t.Fatalf("round trip: %s → %+v, %v", b, back, err)
	}

	// Each step in its own update, as the player sends them, at a real pace.
	for i, in := range paced(scene, stepIDs(scene.Steps)...) {
		in.Seq = seq(i + 2)
		if err := s.Update("learner-1", SessionUpdate{InteractionData: &InteractionData{Interactions: []Interaction{in}}}, in.ReceivedAt); err != nil {
			t.Fatal(err)
		}
	}
	end := serverStart.Add(30 * time.Second)
	if err := s.End("learner-1", SessionEnd{EndedAt: end, CompletionStatus: StatusCompleted}, scene, end); err != nil {
		t.Fatal(err)
	}
	if !s.Verified || len(s.VerificationIssues) != 0 || *s.SafetyScore != 100 || s.InteractionData.CompletionStatus != OutcomePassed {
		t.Fatalf("ended: verified %v issues %q score %v outcome %s", s.Verified, s.VerificationIssues, *s.SafetyScore, s.InteractionData.CompletionStatus)
	}
	if sum := s.Summary(); !sum.Verified || !reflect.DeepEqual(sum.VerificationIssues, []string{}) {
		t.Fatalf("summary verified %v issues %v", sum.Verified, sum.VerificationIssues)
	}

	// The one-update attack: stored, scored, completed, and unverified.
	x := Start("s2", "learner-1", NewSession{ModuleID: "electrical-lockout-tagout", StartedAt: serverStart}, serverStart)
	at = serverStart.Add(3 * time.Second)
	attack := SessionEnd{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{Interactions: perform(scene, stepIDs(scene.Steps)...)}}, EndedAt: at, CompletionStatus: StatusCompleted}
	if err := x.End("learner-1", attack, scene, at); err != nil {
		t.Fatal(err)
	}
	if x.CompletionStatus != StatusCompleted || *x.SafetyScore != 100 || x.InteractionData.CompletionStatus != OutcomePassed || x.Verified || len(x.VerificationIssues) != 2 {
		t.Fatalf("attack: status %s score %v outcome %s verified %v issues %q", x.CompletionStatus, *x.SafetyScore, x.InteractionData.CompletionStatus, x.Verified, x.VerificationIssues)
	}
}
