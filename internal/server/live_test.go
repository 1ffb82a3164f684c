package server

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"journeyman/internal/identity"
	"journeyman/internal/portal"
	"journeyman/internal/realtime"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/training"
)

func liveOf(t *testing.T, m realtime.Message) portal.LiveSession {
	t.Helper()
	var l portal.LiveSession
	if err := json.Unmarshal(m.Payload, &l); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestPortalLive walks the live view: an instructor watches the
// organisation's running sessions update as a learner trains, sends the
// learner a message and a stop, and acknowledges the learner's alert.
func TestPortalLive(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s, clock := MustOpenClockedXRServer(t, st)
		srv := serveHTTP(t, s)
		lea := mustAccount(t, s, "Lea", "Org A", identity.Learner)
		ian := mustAccount(t, s, "Ian", "Org A", identity.Instructor)
		mustAccount(t, s, "Ivy", "Org B", identity.Instructor)
		mustAccount(t, s, "Olga", "Org A", identity.Learner)
		const module = "electrical-lockout-tagout"
		scene := training.SceneForModule(module, "electrical")

		ianWS, leaWS, ivyWS, olgaWS := mustDial(t, srv, "Ian"), mustDial(t, srv, "Lea"), mustDial(t, srv, "Ivy"), mustDial(t, srv, "Olga")
		waitConns(t, s, 4)

		// Only staff watch, and only their own organisation.
		wsSend(t, olgaWS, map[string]any{"type": "watch_live"})
		if m := wsRead(t, olgaWS, realtime.TypeError); !strings.Contains(errorOf(m), "instructors and admins") {
			t.Fatalf("a learner watching: %s", errorOf(m))
		}
		wsSend(t, ianWS, map[string]any{"type": "watch_live"})
		wsRead(t, ianWS, realtime.TypeWatching)
		wsSend(t, ivyWS, map[string]any{"type": "watch_live"})
		wsRead(t, ivyWS, realtime.TypeWatching)

		// A session starts: the watcher hears of it, on step 1.
		x := newSession(t, s, "Lea", module, "desktop")
		wsSend(t, leaWS, map[string]any{"type": "join", "sessionId": x.ID, "payload": map[string]string{"role": "participant"}})
		wsRead(t, leaWS, realtime.TypeJoined)
		l := liveOf(t, wsNext(t, ianWS, realtime.TypeLiveSession))
		if l.SessionID != x.ID || l.LearnerName != "Lea" || l.UserID != lea.ID || l.Status != portal.LiveRunning ||
			l.Step == nil || l.Step.Index != 0 || l.Step.ID != scene.Steps[0].ID || l.StepsDone != 0 || l.StepsTotal != len(scene.Steps) {
			t.Fatalf("started: %+v", l)
		}

		// Two steps done, the second skipped: step 3 is current, and the
		// checks of the first two are passed and skipped.
		var ms int64
		for i, action := range []string{scene.Steps[0].Action, training.ActionSkip} {
			ms += scene.Steps[i].MinDurationMs + 500
			clock.advance(time.Duration(scene.Steps[i].MinDurationMs+500) * time.Millisecond)
			checkError(t, call(t, s, "Lea", "PATCH", "/api/xr-sessions/"+x.ID,
				`{"interactionData":{"interactions":[`+stepJSON(scene.Steps[i], action, ms, i)+`]}}`), 200, "")
		}
		deadline := time.Now().Add(5 * time.Second)
		for l.StepsDone < 2 && time.Now().Before(deadline) {
			l = liveOf(t, wsNext(t, ianWS, realtime.TypeLiveSession))
		}
		if l.Step == nil || l.Step.Index != 2 || l.Interactions != 2 {
			t.Fatalf("after two steps: %+v", l)
		}
		checks := map[string]string{}
		for _, c := range l.SafetyChecks {
			checks[c.ID] = c.Status
		}
		for i, want := range []string{training.CheckPassed, training.CheckSkipped} {
			if id := scene.Steps[i].SafetyCheck; id != "" && checks[id] != want {
				t.Errorf("check %s of step %d = %s, want %s", id, i, checks[id], want)
			}
		}

		// The list says the same; another organisation's staff see nothing.
		list := decode[[]portal.LiveSession](t, call(t, s, "Ian", "GET", "/api/portal/live", ""))
		if len(list) != 1 || list[0].SessionID != x.ID || list[0].StepsDone != 2 {
			t.Fatalf("Ian's live list = %+v", list)
		}
		if list := decode[[]portal.LiveSession](t, call(t, s, "Ivy", "GET", "/api/portal/live", "")); len(list) != 0 {
			t.Fatalf("Ivy sees %+v", list)
		}

		// Messages: the learner's room hears the instructor, by name.
		for _, tc := range []struct {
			who, path, body string
			status          int
			message         string
		}{
			{"Ian", "message", `{"text":"   "}`, 400, "text must be 1 to 500"},
			{"Ian", "message", `{"text":"` + strings.Repeat("x", 501) + `"}`, 400, "text must be 1 to 500"},
			{"Ian", "stop", `{"reason":"` + strings.Repeat("x", 501) + `"}`, 400, "reason must be at most 500"},
			{"Ivy", "message", `{"text":"Hello"}`, 404, "does not exist in your organisation"},
			{"Lea", "message", `{"text":"Hello"}`, 403, ""},
			{"Ian", "message", `{"text":"Check the tester on a live source first"}`, 202, ""},
		} {
			checkError(t, call(t, s, tc.who, "POST", "/api/portal/live/"+x.ID+"/"+tc.path, tc.body), tc.status, tc.message)
		}
		m := wsRead(t, leaWS, realtime.TypeInstructorMessage)
		var msg realtime.InstructorMessagePayload
		_ = json.Unmarshal(m.Payload, &msg)
		if m.SessionID != x.ID || m.UserID != ian.ID || msg.Text != "Check the tester on a live source first" || msg.From.DisplayName != "Ian" {
			t.Fatalf("message = %+v %+v", m, msg)
		}

		// An alert reaches the organisation at once; an instructor
		// acknowledges it once, and everyone there hears who did.
		wsSend(t, leaWS, map[string]any{"type": "safety_alert", "sessionId": x.ID, "payload": map[string]string{"alertType": "help", "description": "Breaker will not lock"}})
		a := alertOf(t, wsNext(t, ianWS, realtime.TypeSafetyAlert))
		if a.DisplayName != "Lea" || a.Acknowledgement != nil {
			t.Fatalf("alert = %+v", a)
		}
		id := strconv.FormatInt(a.ID, 10)
		checkError(t, call(t, s, "Ivy", "POST", "/api/safety-alerts/"+id+"/acknowledge", ""), 404, "does not exist in your organisation")
		checkError(t, call(t, s, "Ian", "POST", "/api/safety-alerts/x1/acknowledge", ""), 400, "positive whole number")
		acked := decode[realtime.SafetyAlert](t, call(t, s, "Ian", "POST", "/api/safety-alerts/"+id+"/acknowledge", ""))
		if acked.Acknowledgement == nil || acked.Acknowledgement.UserID != ian.ID || acked.Acknowledgement.DisplayName != "Ian" || !acked.Acknowledgement.At.Equal(clock.now()) {
			t.Fatalf("acknowledged = %+v", acked.Acknowledgement)
		}
		for name, c := range map[string]*websocket.Conn{"learner": leaWS, "instructor": ianWS} {
			if got := alertOf(t, wsNext(t, c, realtime.TypeSafetyAlertAck)); got.ID != a.ID || got.Acknowledgement == nil || got.Acknowledgement.DisplayName != "Ian" {
				t.Fatalf("%s hears %+v", name, got)
			}
		}
		checkError(t, call(t, s, "Ian", "POST", "/api/safety-alerts/"+id+"/acknowledge", ""), 409, "already acknowledged by Ian")
		if list := decode[[]realtime.SafetyAlert](t, call(t, s, "Olga", "GET", "/api/safety-alerts", "")); len(list) != 1 || list[0].Acknowledgement == nil || list[0].Acknowledgement.DisplayName != "Ian" {
			t.Fatalf("alerts listed = %+v", list)
		}

		// A stop reaches the room; once the learner's player ends the
		// session, the watcher hears it ended and it leaves the list.
		checkError(t, call(t, s, "Ian", "POST", "/api/portal/live/"+x.ID+"/stop", `{"reason":"Lockout kit missing"}`), 202, "")
		var stop realtime.InstructorStopPayload
		_ = json.Unmarshal(wsNext(t, leaWS, realtime.TypeInstructorStop).Payload, &stop)
		if stop.Reason != "Lockout kit missing" || stop.From.UserID != ian.ID {
			t.Fatalf("stop = %+v", stop)
		}
		clock.advance(time.Second)
		checkError(t, call(t, s, "Lea", "PATCH", "/api/xr-sessions/"+x.ID, `{"endedAt":"`+ts(clock.now())+`","completionStatus":"completed","duration":9}`), 200, "")
		for l.Status != portal.LiveEnded {
			l = liveOf(t, wsNext(t, ianWS, realtime.TypeLiveSession))
		}
		if l.Outcome != training.OutcomeFailed {
			t.Fatalf("ended: %+v", l)
		}
		if list := decode[[]portal.LiveSession](t, call(t, s, "Ian", "GET", "/api/portal/live", "")); len(list) != 0 {
			t.Fatalf("ended session still listed: %+v", list)
		}
		checkError(t, call(t, s, "Ian", "POST", "/api/portal/live/"+x.ID+"/message", `{"text":"Hello"}`), 409, "has ended")

		// Nothing of Org A reached Org B's watcher: its next message is the
		// answer to this.
		wsSend(t, ivyWS, map[string]any{"type": "watch_live"})
		wsRead(t, ivyWS, realtime.TypeWatching)
	})
}

// TestPortalLiveTwoProcesses runs the live view across two server processes
// sharing one PostgreSQL database: the watcher, the learner and the
// instructor's requests each on whichever process they reached.
func TestPortalLiveTwoProcesses(t *testing.T) {
	s1, s2 := twoProcesses(t)
	srv1, srv2 := serveHTTP(t, s1), serveHTTP(t, s2)
	mustAccount(t, s1, "Lea", "Org A", identity.Learner)
	mustAccount(t, s2, "Ian", "Org A", identity.Instructor)
	leaWS, ianWS := mustDial(t, srv1, "Lea"), mustDial(t, srv2, "Ian")
	waitConns(t, s1, 1)
	waitConns(t, s2, 1)
	wsSend(t, ianWS, map[string]any{"type": "watch_live"})
	wsRead(t, ianWS, realtime.TypeWatching)

	x := newSession(t, s1, "Lea", "electrical-lockout-tagout", "desktop")
	if l := liveOf(t, wsNext(t, ianWS, realtime.TypeLiveSession)); l.SessionID != x.ID || l.LearnerName != "Lea" {
		t.Fatalf("process 2's watcher heard %+v", l)
	}
	wsSend(t, leaWS, map[string]any{"type": "join", "sessionId": x.ID, "payload": map[string]string{"role": "participant"}})
	wsRead(t, leaWS, realtime.TypeJoined)
	checkError(t, call(t, s2, "Ian", "POST", "/api/portal/live/"+x.ID+"/message", `{"text":"Gloves on"}`), 202, "")
	if m := wsNext(t, leaWS, realtime.TypeInstructorMessage); !strings.Contains(string(m.Payload), "Gloves on") {
		t.Fatalf("process 1's learner heard %s", m.Payload)
	}

	wsSend(t, leaWS, map[string]any{"type": "safety_alert", "payload": map[string]string{"alertType": "emergency", "description": "Arc flash"}})
	a := alertOf(t, wsNext(t, ianWS, realtime.TypeSafetyAlert))
	checkError(t, call(t, s2, "Ian", "POST", "/api/safety-alerts/"+strconv.FormatInt(a.ID, 10)+"/acknowledge", ""), 200, "")
	if got := alertOf(t, wsNext(t, leaWS, realtime.TypeSafetyAlertAck)); got.ID != a.ID || got.Acknowledgement == nil || got.Acknowledgement.DisplayName != "Ian" {
		t.Fatalf("process 1's learner heard %+v", got)
	}
}

// A session nobody has updated for portal.LiveWindow is no longer running
// as far as the live view is concerned (a closed tab never ends one), and
// is again when its learner comes back to it.
func TestPortalLiveWindow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s, clock := MustOpenClockedXRServer(t, st)
		mustAccount(t, s, "Lea", "Org A", identity.Learner)
		mustAccount(t, s, "Ian", "Org A", identity.Instructor)
		x := newSession(t, s, "Lea", "electrical-lockout-tagout", "desktop")
		count := func() int {
			return len(decode[[]portal.LiveSession](t, call(t, s, "Ian", "GET", "/api/portal/live", "")))
		}
		clock.advance(portal.LiveWindow - time.Second)
		if n := count(); n != 1 {
			t.Fatalf("%d running just inside the window", n)
		}
		clock.advance(2 * time.Second)
		if n := count(); n != 0 {
			t.Fatalf("%d running past the window", n)
		}
		checkError(t, call(t, s, "Lea", "PATCH", "/api/xr-sessions/"+x.ID, `{"duration":1900}`), 200, "")
		if n := count(); n != 1 {
			t.Fatalf("%d running after the learner came back", n)
		}
	})
}
