package server

import (
	"encoding/json"
	"strings"
	"testing"

	"journeyman/internal/catalog"
	"journeyman/internal/identity"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

func TestCompetencySignOff(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s, clock := MustOpenClockedXRServer(t, st)
		mustAccount(t, s, "Pia", "Org P", identity.Instructor)
		mustAccount(t, s, "Ned", "Org P", identity.Instructor)
		lou := mustAccount(t, s, "Lou", "Org P", identity.Learner)
		mustAccount(t, s, "Eve", "Org P", identity.Learner)
		mustAccount(t, s, "Oz", "Org Q", identity.Instructor)
		var plumbing []catalog.Module
		for _, m := range catalog.Modules() {
			if m.TradeID == "plumbing" {
				plumbing = append(plumbing, m)
				passModule(t, s, clock, "Lou", m.ID)
			}
		}
		path := "/api/users/" + lou.ID + "/competencies"
		programme := func(who string) programmeView {
			t.Helper()
			v := decode[competencyView](t, call(t, s, who, "GET", path, ""))
			for _, p := range v.Programmes {
				if p.ID == "plumbing" {
					return p
				}
			}
			t.Fatalf("no plumbing programme in %+v", v.Programmes)
			return programmeView{}
		}
		total := 0
		for _, m := range plumbing {
			total += len(m.LearningObjectives)
		}
		if p := programme("Lou"); p.Total != total || p.Held != 0 || p.Certificate != nil {
			t.Fatalf("before sign-off: %+v", p)
		}

		t.Run("ErrBadRequests", func(t *testing.T) {
			for _, tc := range []struct{ body, problem string }{
				{`{}`, "moduleId is required"},
				{`{"moduleId":"underwater-basket-weaving"}`, "is not a training module"},
				{`{"moduleId":"` + plumbing[0].ID + `","competencies":[99]}`, "99 is not a competency"},
				{`{"moduleId":"` + plumbing[0].ID + `","practical":true}`, "say what was checked"},
				{`{"moduleId":"` + plumbing[0].ID + `","signedBy":"Lou"}`, "unknown field"},
			} {
				checkError(t, call(t, s, "Pia", "POST", path+"/sign-off", tc.body), 400, tc.problem)
			}
			checkError(t, call(t, s, "Pia", "POST", path+"/revoke", `{"moduleId":"`+plumbing[0].ID+`"}`), 400, "say why")
			checkError(t, call(t, s, "Pia", "POST", path+"/revoke", `{"moduleId":"`+plumbing[0].ID+`","note":"x"}`), 409, "nothing to revoke")
			// A learner never signs off, not even their own work.
			checkError(t, call(t, s, "Lou", "POST", path+"/sign-off", `{"moduleId":"`+plumbing[0].ID+`"}`), 403, "")
		})

		var cert signOffResult
		t.Run("SignOffEveryModule", func(t *testing.T) {
			for i, m := range plumbing {
				body := `{"moduleId":"` + m.ID + `"}`
				if i == 0 {
					body = `{"moduleId":"` + m.ID + `","practical":true,"note":"Isolated the test rig's supply"}`
				}
				cert = decode[signOffResult](t, call(t, s, "Pia", "POST", path+"/sign-off", body))
				if (cert.Certificate != nil) != (i == len(plumbing)-1) {
					t.Fatalf("after module %d of %d: certificate %+v", i+1, len(plumbing), cert.Certificate)
				}
			}
			c := cert.Certificate.Certificate
			if c.Learner != "Lou" || c.SignedBy != "Pia" || c.Organisation != "Org P" || c.Programme != "Plumbing programme" ||
				len(c.Competencies) != total || !c.Competencies[0].Practical {
				t.Errorf("certificate = %+v", c)
			}
			if p := programme("Ned"); p.Held != total || p.Certificate == nil || p.Certificate.ID != cert.Certificate.ID {
				t.Errorf("after sign-off: %+v", p)
			}
			checkError(t, call(t, s, "Oz", "GET", path, ""), 403, "")
		})

		t.Run("CertificateAccess", func(t *testing.T) {
			for who, status := range map[string]int{"Lou": 200, "Pia": 200, "Ned": 200, "Eve": 404, "Oz": 404, "": 401} {
				checkError(t, call(t, s, who, "GET", "/api/certificates/"+cert.Certificate.ID, ""), status, "")
			}
		})

		t.Run("Verify", func(t *testing.T) {
			code := cert.Certificate.Certificate.Code
			res := call(t, s, "", "GET", "/api/verify/"+strings.ToLower(code), "")
			v := decode[verification](t, res)
			if v.Status != "valid" || v.RevokedAt != nil || v.Certificate.Code != code || v.Certificate.Learner != "Lou" {
				t.Errorf("verify = %+v", v)
			}
			// Nothing beyond what the certificate prints.
			var raw map[string]any
			if err := json.Unmarshal([]byte(res.body), &raw); err != nil {
				t.Fatal(err)
			}
			for _, leak := range []string{lou.ID, "lou@example.test", "learnerId", "revokedReason"} {
				if strings.Contains(res.body, leak) {
					t.Errorf("verification shows %q: %s", leak, res.body)
				}
			}
			checkError(t, call(t, s, "", "GET", "/api/verify/JXR-0000-0000-0000", ""), 404, "no certificate has the code JXR-0000-0000-0000")
			checkError(t, call(t, s, "", "GET", "/api/verify/not-a-code", ""), 400, "is not a certificate code")
		})

		t.Run("RevokeInvalidatesCertificate", func(t *testing.T) {
			res := decode[signOffResult](t, call(t, s, "Ned", "POST", path+"/revoke",
				`{"moduleId":"`+plumbing[1].ID+`","competencies":[0],"note":"Failed the practical re-check"}`))
			if res.Certificate == nil || res.Certificate.ID != cert.Certificate.ID || res.Certificate.RevokedAt == nil {
				t.Fatalf("revoked = %+v", res.Certificate)
			}
			v := decode[verification](t, call(t, s, "", "GET", "/api/verify/"+cert.Certificate.Certificate.Code, ""))
			if v.Status != "revoked" || v.RevokedAt == nil {
				t.Errorf("verify after revoking = %+v", v)
			}
			if p := programme("Lou"); p.Held != total-1 || p.Certificate != nil {
				t.Errorf("after revoking: %+v", p)
			}
			v2 := decode[competencyView](t, call(t, s, "Lou", "GET", path, ""))
			revoked := 0
			for _, h := range v2.History {
				if h.RevokedAt != nil {
					revoked++
					if h.RevokedBy == nil || h.RevokedBy.Name != "Ned" || h.RevokeNote != "Failed the practical re-check" {
						t.Errorf("revoked entry = %+v", h)
					}
				}
			}
			if len(v2.History) != total || revoked != 1 || len(v2.Certificates) != 1 {
				t.Errorf("history %d entries, %d revoked, %d certificates", len(v2.History), revoked, len(v2.Certificates))
			}
		})
	})
}
