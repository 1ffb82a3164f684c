package training

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"journeyman/internal/apperr"
)

var now = time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)

func TestNewSessionValidate(t *testing.T) {
	ok := func() NewSession {
		return NewSession{ModuleID: "electrical-lockout-tagout", SessionType: SessionVR, DeviceType: "Mozilla/5.0", StartedAt: now.Add(-time.Second)}
	}
	for _, tc := range []struct {
		name   string
		change func(*NewSession)
		want   string // substring of the error message; "" for success
	}{
		{"OK", func(*NewSession) {}, ""},
		{"DefaultType", func(n *NewSession) { n.SessionType = "" }, ""},
		{"ErrNoModule", func(n *NewSession) { n.ModuleID = "" }, "moduleId is required"},
		{"ErrLongModule", func(n *NewSession) { n.ModuleID = strings.Repeat("m", MaxModuleIDLen+1) }, "moduleId must be at most"},
		{"ErrType", func(n *NewSession) { n.SessionType = "hologram" }, "sessionType must be one of desktop, vr, ar"},
		{"ErrDeviceType", func(n *NewSession) { n.DeviceType = strings.Repeat("d", MaxDeviceTypeLen+1) }, "deviceType must be at most 512"},
		{"ErrNoStart", func(n *NewSession) { n.StartedAt = time.Time{} }, "startedAt is required"},
		{"ErrFutureStart", func(n *NewSession) { n.StartedAt = now.Add(time.Hour) }, "startedAt must not be in the future"},
		{"ErrOldStart", func(n *NewSession) { n.StartedAt = now.Add(-25 * time.Hour) }, "within the last 24 hours"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := ok()
			tc.change(&n)
			checkErr(t, n.Validate(now), apperr.EINVALID, tc.want)
			if tc.want == "" && n.SessionType == "" {
				t.Error("session type was not defaulted")
			}
		})
	}
}

func checkErr(t *testing.T, err error, code, want string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("unexpected error: %v", err)
		}
		return
	}
	if apperr.Code(err) != code || !strings.Contains(apperr.Message(err), want) {
		t.Fatalf("error = %v; want %s containing %q", err, code, want)
	}
}

func newTestSession() Session {
	return Start("s1", "learner-1", NewSession{ModuleID: "electrical-lockout-tagout", SessionType: SessionDesktop, StartedAt: now.Add(-10 * time.Minute)}, now.Add(-10*time.Minute))
}

func seq(i int) *int { return &i }

func TestSessionUpdate(t *testing.T) {
	scene, _ := SceneByID("electrical-lockout-tagout")
	many := func(n, from int) []Interaction {
		out := make([]Interaction, n)
		for i := range out {
			out[i] = Interaction{Action: "look", SessionTime: int64(i), Seq: seq(from + i)}
		}
		return out
	}
	dur := func(d int64) *int64 { return &d }
	for _, tc := range []struct {
		name  string
		prep  func(*Session)
		user  string
		patch SessionPatch
		code  string
		want  string
	}{
		{"OK", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{Position: &Vec3{1, 1.6, 0}, Rotation: ptr(Quaternion(0, 0, 0, 1)), Duration: dur(30)}}, "", ""},
		{"ErrForbidden", nil, "learner-2", SessionPatch{}, apperr.EFORBIDDEN, "belongs to another learner"},
		{"ErrEnded", func(s *Session) {
			if err := s.End("learner-1", SessionEnd{EndedAt: now, CompletionStatus: StatusCompleted}, scene, now); err != nil {
				t.Fatal(err)
			}
		}, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{Duration: dur(1)}}, apperr.ECONFLICT, "has already ended"},
		{"ErrEndTwice", func(s *Session) { s.EndedAt = &now; s.CompletionStatus = StatusCompleted }, "learner-1", SessionPatch{EndedAt: &now, CompletionStatus: ptr(StatusCompleted)}, apperr.ECONFLICT, "has already ended"},
		{"OKEuler", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{Rotation: ptr(Euler(0.1, -3.1, 6.28))}}, "", ""},
		{"OKClaimedOutcome", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{CompletionStatus: OutcomePassed}}}, "", ""},
		{"OKNoAction", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{Interactions: []Interaction{{ObjectID: "panel"}}}}}, "", ""},
		{"ErrFarPosition", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{Position: &Vec3{X: 1e9}}}, apperr.EINVALID, "position.x must be a finite number of metres between -10000 and 10000, not 1e+09"},
		{"ErrNaNPosition", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{Position: &Vec3{Z: math.NaN()}}}, apperr.EINVALID, "position.z must be a finite number"},
		{"ErrQuaternionLength", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{Rotation: ptr(Quaternion(0, 0, 0, 7))}}, apperr.EINVALID, "must have unit length (within 0.01); this one has length 7"},
		{"ErrQuaternionZero", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{Rotation: &Rotation{Form: RotationQuaternion}}}, apperr.EINVALID, "this one has length 0"},
		{"ErrEulerDegrees", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{Rotation: ptr(Euler(0, 90, 0))}}, apperr.EINVALID, "in radians: each angle must be between -2π and 2π (±6.2832); y is 90"},
		{"ErrEulerInf", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{Rotation: ptr(Euler(math.Inf(1), 0, 0))}}, apperr.EINVALID, "x is +Inf"},
		{"ErrRotationNoForm", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{Rotation: &Rotation{W: 1}}}, apperr.EINVALID, "rotation must be a quaternion {x, y, z, w} or Euler angles {x, y, z} in radians"},
		{"ErrLongClaim", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{CompletionStatus: strings.Repeat("c", MaxIDLen+1)}}}, apperr.EINVALID, "interactionData.completionStatus must be at most 64 characters"},
		{"ErrDuration", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{Duration: dur(-1)}}, apperr.EINVALID, "duration must be between 0 and 86400"},
		{"ErrTooManyPerUpdate", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{Interactions: many(MaxInteractionsPerUpdate+1, 0)}}}, apperr.EINVALID, "one update may send at most 100"},
		{"ErrTooManyPerSession", func(s *Session) { s.InteractionData.Interactions = many(MaxInteractionsPerSession, 0) }, "learner-1",
			SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{Interactions: []Interaction{{Action: "look"}}}}}, apperr.ETOOLARGE, "at most 2000 interactions"},
		{"ErrInteractionBytes", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{Interactions: []Interaction{{Action: "note", Extra: map[string]json.RawMessage{"text": json.RawMessage(`"` + strings.Repeat("x", MaxInteractionBytes) + `"`)}}}}}}, apperr.EINVALID, "an interaction may be at most 2048"},
		{"ErrTotalBytes", func(s *Session) {
			big := json.RawMessage(`"` + strings.Repeat("x", 1800) + `"`)
			for range 150 {
				s.InteractionData.Interactions = append(s.InteractionData.Interactions, Interaction{Action: "note", Extra: map[string]json.RawMessage{"t": big}})
			}
		}, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{Interactions: []Interaction{{Action: "look"}}}}}, apperr.ETOOLARGE, "interactionData may be at most 262144 bytes"},
		{"ErrSeqGap", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{Interactions: many(1, 5)}}}, apperr.ECONFLICT, "resend from seq 0"},
		{"ErrCheckStatus", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{SafetyChecks: []SafetyCheckResult{{ID: "x", Status: "maybe"}}}}}, apperr.EINVALID, "status must be one of passed, skipped"},
		{"ErrTooManyChecks", nil, "learner-1", SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{SafetyChecks: make([]SafetyCheckResult, MaxSafetyChecks+1)}}}, apperr.EINVALID, "at most 64 results"},
		{"ErrOtherModule", nil, "learner-1", SessionPatch{ModuleID: "welding-joint-preparation"}, apperr.EINVALID, "does not match the session's module"},
		{"ErrEndStatus", nil, "learner-1", SessionPatch{EndedAt: &now, CompletionStatus: ptr("abandoned")}, apperr.EINVALID, "completionStatus must be completed"},
		{"ErrEndNoTime", nil, "learner-1", SessionPatch{CompletionStatus: ptr(StatusCompleted)}, apperr.EINVALID, "endedAt is required"},
		{"ErrEndBeforeStart", nil, "learner-1", SessionPatch{EndedAt: ptr(now.Add(-time.Hour)), CompletionStatus: ptr(StatusCompleted)}, apperr.EINVALID, "endedAt must not be before startedAt"},
		{"ErrEndFuture", nil, "learner-1", SessionPatch{EndedAt: ptr(now.Add(time.Hour)), CompletionStatus: ptr(StatusCompleted)}, apperr.EINVALID, "endedAt must not be in the future"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestSession()
			if tc.prep != nil {
				tc.prep(&s)
			}
			before, _ := json.Marshal(s)
			err := s.Apply(tc.user, tc.patch, scene, now)
			checkErr(t, err, tc.code, tc.want)
			if err != nil {
				if after, _ := json.Marshal(s); string(after) != string(before) {
					t.Error("a rejected patch changed the session")
				}
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestSessionLifecycle(t *testing.T) {
	scene, _ := SceneByID("electrical-lockout-tagout")
	s := newTestSession()
	ins := perform(scene, "skip:don-ppe", "stop-conveyor", "open-disconnect", "apply-lock", "prove-tester", "test-dead", "reprove-tester", "try-start")
	for i := range ins {
		ins[i].Seq = seq(i)
	}

	// The first update stores three interactions; its retry is a no-op.
	first := SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{Interactions: ins[:3]}}}
	for range 2 {
		if err := s.Apply("learner-1", first, scene, now); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(s.InteractionData.Interactions); n != 3 {
		t.Fatalf("after a retried update: %d interactions; want 3", n)
	}
	if s.InteractionData.Interactions[0].Timestamp != now {
		t.Error("a missing interaction timestamp was not defaulted to now")
	}
	// The next update overlaps the first by one.
	if err := s.Apply("learner-1", SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{Interactions: ins[2:]}}}, scene, now); err != nil {
		t.Fatal(err)
	}
	if n := len(s.InteractionData.Interactions); n != 8 {
		t.Fatalf("%d interactions; want 8", n)
	}

	endedAt := now.Add(-time.Minute)
	if err := s.Apply("learner-1", SessionPatch{EndedAt: &endedAt, CompletionStatus: ptr(StatusCompleted), UserID: "current-user"}, scene, now); err != nil {
		t.Fatal(err)
	}
	if s.CompletionStatus != StatusCompleted || s.EndedAt == nil || !s.EndedAt.Equal(endedAt) {
		t.Errorf("status %s ended %v", s.CompletionStatus, s.EndedAt)
	}
	if s.Duration != 540 {
		t.Errorf("duration %d; want 540 s computed from endedAt", s.Duration)
	}
	if s.SafetyScore == nil || *s.SafetyScore != 84.6 || s.InteractionData.CompletionStatus != OutcomeFailed {
		t.Errorf("score %v outcome %s; want 84.6, failed (skipped PPE)", s.SafetyScore, s.InteractionData.CompletionStatus)
	}
	if len(s.InteractionData.SafetyChecks) != len(scene.SafetyChecks) {
		t.Errorf("safety checks %v", s.InteractionData.SafetyChecks)
	}
}

func TestInteractionJSONKeepsFreeFields(t *testing.T) {
	var in Interaction
	if err := json.Unmarshal([]byte(`{"action":"click","objectId":"panel","sessionTime":1500.7,"seq":3,"hand":"left","pressure":0.4}`), &in); err != nil {
		t.Fatal(err)
	}
	if in.Action != "click" || in.ObjectID != "panel" || in.SessionTime != 1500 || *in.Seq != 3 || string(in.Extra["hand"]) != `"left"` {
		t.Fatalf("decoded %+v", in)
	}
	b, _ := json.Marshal(in)
	for _, want := range []string{`"hand":"left"`, `"pressure":0.4`, `"objectId":"panel"`, `"seq":3`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %s", b, want)
		}
	}
}
