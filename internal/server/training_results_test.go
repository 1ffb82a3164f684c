package server

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"journeyman/internal/identity"
	"journeyman/internal/records"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

// voiceRunBody is a run of electrical-lockout-tagout (8 steps) an hour
// before the test clock, saying phrases a second apart.
func voiceRunBody(phrases ...string) string {
	t0 := storetest.FixedNow.Add(-time.Hour)
	cmds := make([]map[string]any, len(phrases))
	for i, p := range phrases {
		cmds[i] = map[string]any{"command": p, "at": t0.Add(time.Duration(i+1) * time.Second)}
	}
	b, _ := json.Marshal(map[string]any{"moduleId": "electrical-lockout-tagout", "startedAt": t0, "endedAt": t0.Add(5 * time.Minute), "commands": cmds})
	return string(b)
}

func TestVoiceRunAPI(t *testing.T) {
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	const path = "/api/voice-training/runs"
	lena := mustAccount(t, s, "Lena", "Org A", identity.Learner)
	t.Run("BadInput", func(t *testing.T) {
		t0 := storetest.FixedNow.Add(-time.Hour)
		checkBadInputs(t, s, "POST", path, []badInput{
			{"UnknownModule", `{"moduleId":"nope","startedAt":"2026-01-01T00:00:00Z","endedAt":"2026-01-01T00:01:00Z","commands":[]}`, []string{"moduleId", `"nope"`}},
			{"UnknownCommand", voiceRunBody("start lockout", "start setup"), []string{`commands[1].command: "start setup"`}},
			{"NoCommands", voiceRunBody(), []string{"commands"}},
			{"Future", fmt.Sprintf(`{"moduleId":"electrical-lockout-tagout","startedAt":%q,"endedAt":%q,"commands":[{"command":"start lockout","at":%q}]}`,
				ts(t0.Add(2*time.Hour)), ts(t0.Add(3*time.Hour)), ts(t0.Add(2*time.Hour))), []string{"endedAt is in the future"}},
			// The outcome is the server's to work out, never the browser's claim.
			{"ClaimedScore", `{"moduleId":"electrical-lockout-tagout","score":100}`, []string{"score"}},
		})
	})
	t.Run("GuestRunStoredWithoutRecord", func(t *testing.T) {
		var run store.VoiceRun
		mustCall(t, s, guestID(1), "POST", path, voiceRunBody("start lockout", "next step", "next step", "lockout complete"), 201, &run)
		if run.StepsWalked != 3 || !run.Completed || run.Passed || run.Score != 38 || run.ModuleName == "" {
			t.Fatalf("run %+v", run)
		}
		var got struct{ Runs []store.VoiceRun }
		mustCall(t, s, guestID(1), "GET", path, "", 200, &got)
		if len(got.Runs) != 1 || got.Runs[0].ID != run.ID {
			t.Fatalf("list %+v", got)
		}
		mustCall(t, s, guestID(2), "GET", path, "", 200, &got)
		if len(got.Runs) != 0 {
			t.Fatalf("another guest lists %+v", got)
		}
		if st := learnerStatements(t, s, "", guestID(1)); len(st) != 0 {
			t.Errorf("a guest's run recorded %d statements", len(st))
		}
	})
	t.Run("SignedInRunRecorded", func(t *testing.T) {
		var run store.VoiceRun
		mustCall(t, s, "Lena", "POST", path, voiceRunBody("start lockout", "lockout complete"), 201, &run)
		st := learnerStatements(t, s, lena.OrgID, lena.ID)
		if len(st) != 1 || st[0].Verb.ID != records.VerbCompleted || st[0].Context.Registration != run.ID {
			t.Fatalf("statements %+v", st)
		}
	})
}

func TestSkillAssessmentRecorded(t *testing.T) {
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	lena := mustAccount(t, s, "Lena", "Org A", identity.Learner)
	const post = "/api/ai-learning/skill-assessment"
	mustCall(t, s, guestID(1), "POST", post, `{"tradeCategory":"welding","overallScore":60}`, 201, nil)
	if st := learnerStatements(t, s, "", guestID(1)); len(st) != 0 {
		t.Errorf("a guest's assessment recorded %d statements", len(st))
	}
	mustCall(t, s, "Lena", "POST", post, `{"tradeCategory":"welding","overallScore":60}`, 201, nil)
	st := learnerStatements(t, s, lena.OrgID, lena.ID)
	if len(st) != 1 || st[0].Verb.ID != records.VerbCompleted || st[0].Object.ID != records.SkillAssessmentIRI(s.publicURL, "welding") {
		t.Fatalf("statements %+v", st)
	}
}

type learnerStatement struct {
	Verb    struct{ ID string }
	Object  struct{ ID string }
	Context struct{ Registration string }
}

func learnerStatements(t *testing.T, s *Server, orgID, learnerID string) []learnerStatement {
	t.Helper()
	page, err := s.store.QueryXAPIStatements(context.Background(), store.XAPIQuery{OrgID: orgID, LearnerID: learnerID})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]learnerStatement, len(page.Statements))
	for i, b := range page.Statements {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}
