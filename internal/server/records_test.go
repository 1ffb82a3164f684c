package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"journeyman/internal/identity"
	"journeyman/internal/records"
	"journeyman/internal/store/storetest"
)

// TestSessionStatementsReadBack runs a session over the API as a signed-in
// learner and reads its statements back through the LRS as each kind of
// reader: the learner, their instructor, their organisation's credential,
// another organisation's credential, another learner and a guest.
func TestSessionStatementsReadBack(t *testing.T) {
	s := MustOpenXRServer(t, storetest.OpenSQLite(t))
	mustAccount(t, s, "Lena", "Org A", identity.Learner)
	mustAccount(t, s, "Luke", "Org A", identity.Learner)
	mustAccount(t, s, "Ian", "Org A", identity.Instructor)
	orgCred := xapiCredential(t, s, "Org A", true, false)
	otherCred := xapiCredential(t, s, "Org B", true, false)

	x := newSession(t, s, "Lena", "electrical-lockout-tagout", "vr")
	if res := call(t, s, "Lena", "PATCH", "/api/xr-sessions/"+x.ID,
		`{"interactionData":{"interactions":[{"action":"grab","stepId":"don-ppe","sessionTime":1000}]}}`); res.status != http.StatusOK {
		t.Fatalf("update: %d %s", res.status, res.body)
	}
	end := ts(started.Add(5 * time.Minute))
	if res := call(t, s, "Lena", "PATCH", "/api/xr-sessions/"+x.ID, fmt.Sprintf(`{"endedAt":%q,"completionStatus":"completed"}`, end)); res.status != http.StatusOK {
		t.Fatalf("end: %d %s", res.status, res.body)
	}
	// A guest's session keeps no learning record.
	newSession(t, s, "guest", "electrical-lockout-tagout", "desktop")

	query := "/xapi/statements?ascending=true&registration=" + url.QueryEscape(x.ID)
	read := func(t *testing.T, who string, cred [2]string) (int, []string) {
		t.Helper()
		req := xapiRequest("GET", query, "", cred)
		if who != "" {
			req = as(t, s, req, who)
		}
		res := do(t, s, req)
		if res.status != http.StatusOK {
			return res.status, nil
		}
		var result struct {
			Statements []struct{ Verb struct{ ID string } }
		}
		if err := json.Unmarshal([]byte(res.body), &result); err != nil {
			t.Fatal(err)
		}
		var verbs []string
		for _, st := range result.Statements {
			verbs = append(verbs, st.Verb.ID)
		}
		return res.status, verbs
	}
	all := 6 // launched, initialized, interacted, completed, passed or failed, terminated
	tests := []struct {
		name   string
		who    string
		cred   [2]string
		status int
		n      int
	}{
		{"Learner", "Lena", [2]string{}, 200, all},
		{"Instructor", "Ian", [2]string{}, 200, all},
		{"OrganisationCredential", "", orgCred, 200, all},
		{"OtherOrganisation", "", otherCred, 200, 0},
		{"OtherLearner", "Luke", [2]string{}, 200, 0},
		{"Guest", "guest", [2]string{}, 200, 0},
		{"ErrNobody", "", [2]string{}, 401, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, verbs := read(t, tt.who, tt.cred)
			if status != tt.status || len(verbs) != tt.n {
				t.Fatalf("status %d with %d statements %v, want %d with %d", status, len(verbs), verbs, tt.status, tt.n)
			}
			if tt.n > 0 && (verbs[0] != records.VerbLaunched || verbs[2] != records.VerbInteracted || verbs[len(verbs)-1] != records.VerbTerminated) {
				t.Errorf("verbs %v", verbs)
			}
		})
	}
}
