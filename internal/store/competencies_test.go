package store_test

import (
	"context"
	"regexp"
	"sync"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/catalog"
	"journeyman/internal/identity"
	"journeyman/internal/portal"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

func testModule(id string) catalog.Module {
	for _, m := range testModules {
		if m.ID == id {
			return m
		}
	}
	panic("no test module " + id)
}

func signOff(moduleID string, practical bool, note string, competencies ...int) portal.SignOff {
	r := portal.SignOff{ModuleID: moduleID, Competencies: competencies, Practical: practical, Note: note}
	if err := r.Validate(testModule(moduleID), false); err != nil {
		panic(err)
	}
	return r
}

func TestCompetencies(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		if err := s.SeedCatalog(ctx, testTrades, testModules); err != nil {
			t.Fatal(err)
		}
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		ann := a.Learner.ID
		mustInsertPortalSessions(t, s, []portalSession{
			{"basics-low", ann, "electrical-basics", 3 * time.Hour, 600, true, true, "passed", score(80)},
			{"basics-best", ann, "electrical-basics", 2 * time.Hour, 600, true, true, "passed", score(95)},
			{"basics-unverified", ann, "electrical-basics", time.Hour, 600, true, false, "passed", score(100)},
			{"loto-pass", ann, "electrical-loto", time.Hour, 600, true, true, "passed", score(88)},
			{"gauges-unverified", ann, "hvac-gauges", time.Hour, 600, true, false, "passed", score(100)},
		})
		basics, loto, gauges := testModule("electrical-basics"), testModule("electrical-loto"), testModule("hvac-gauges")

		t.Run("Evidence", func(t *testing.T) {
			ev, err := s.ModuleEvidence(ctx, ann)
			if err != nil || len(ev) != 2 || ev["electrical-basics"].SessionID != "basics-best" || ev["electrical-loto"].SessionID != "loto-pass" {
				t.Fatalf("evidence = %+v, %v", ev, err)
			}
		})
		for _, tc := range []struct {
			name, org, learner, signer string
			module                     catalog.Module
			code                       string
		}{
			{"ErrOwnWork", a.ID, a.Instructor.ID, a.Instructor.ID, basics, apperr.EFORBIDDEN},
			{"ErrByALearner", a.ID, ann, mustAccount(t, s, "a-other@example.com", "Other", a.ID, identity.Learner).ID, basics, apperr.EFORBIDDEN},
			{"ErrOtherOrganisationsLearner", a.ID, b.Learner.ID, a.Instructor.ID, basics, apperr.ENOTFOUND},
			{"ErrOtherOrganisationsInstructor", a.ID, ann, b.Instructor.ID, basics, apperr.EFORBIDDEN},
			{"ErrNoVerifiedPass", a.ID, ann, a.Instructor.ID, gauges, apperr.ECONFLICT},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := s.SignOffCompetencies(ctx, tc.org, tc.learner, tc.signer, tc.module, signOff(tc.module.ID, false, ""))
				wantCode(t, "sign off", err, tc.code)
			})
		}

		var first *store.StoredCertificate
		t.Run("SignOffIssuesCertificateWhenComplete", func(t *testing.T) {
			at(t, s, time.Minute)
			cert, err := s.SignOffCompetencies(ctx, a.ID, ann, a.Instructor.ID, basics, signOff(basics.ID, false, ""))
			if err != nil || cert != nil {
				t.Fatalf("first module: certificate %+v, %v; want none yet", cert, err)
			}
			_, err = s.SignOffCompetencies(ctx, a.ID, ann, a.Instructor.ID, basics, signOff(basics.ID, false, ""))
			wantCode(t, "sign off twice", err, apperr.ECONFLICT)
			at(t, s, 2*time.Minute)
			first, err = s.SignOffCompetencies(ctx, a.ID, ann, a.Admin.ID, loto, signOff(loto.ID, true, "Hung a lock on the shop's panel"))
			if err != nil || first == nil {
				t.Fatalf("completing sign-off: %+v, %v", first, err)
			}
			c := first.Certificate
			if !regexp.MustCompile(`^JXR-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$`).MatchString(c.Code) ||
				c.Learner != "a Learner" || c.Programme != "Electrical programme" || c.Organisation != "Org A" || c.SignedBy != "a Admin" ||
				!c.IssuedAt.Equal(storetest.FixedNow.Add(2*time.Minute)) || first.RevokedAt != nil || first.ProgrammeID != "electrical" || first.LearnerID != ann {
				t.Errorf("certificate = %+v", first)
			}
			want := []portal.CertifiedCompetency{
				{Module: "Electrical Basics", Objective: "Apply Ohm's law", AchievedAt: storetest.FixedNow.Add(time.Minute), SignedBy: "a Instructor"},
				{Module: "Lockout/Tagout", Objective: "Apply a lock", AchievedAt: storetest.FixedNow.Add(2 * time.Minute), SignedBy: "a Admin", Practical: true},
			}
			if len(c.Competencies) != 2 || c.Competencies[0] != want[0] || c.Competencies[1] != want[1] {
				t.Errorf("competencies = %+v\nwant %+v", c.Competencies, want)
			}
			byCode, err := s.CertificateByCode(ctx, c.Code)
			if err != nil || byCode.ID != first.ID {
				t.Errorf("by code = %+v, %v", byCode, err)
			}
		})

		t.Run("RevokeRemovesValidity", func(t *testing.T) {
			at(t, s, time.Hour)
			r := portal.SignOff{ModuleID: basics.ID, Note: "Could not explain it on the floor"}
			if err := r.Validate(basics, true); err != nil {
				t.Fatal(err)
			}
			revoked, err := s.RevokeCompetencies(ctx, a.ID, ann, a.Admin.ID, basics, r)
			if err != nil || revoked == nil || revoked.ID != first.ID || revoked.RevokedAt == nil || !revoked.RevokedAt.Equal(storetest.FixedNow.Add(time.Hour)) {
				t.Fatalf("revoked = %+v, %v", revoked, err)
			}
			byCode, err := s.CertificateByCode(ctx, first.Certificate.Code)
			if err != nil || byCode.RevokedAt == nil {
				t.Errorf("after revocation, by code = %+v, %v", byCode, err)
			}
			_, err = s.RevokeCompetencies(ctx, a.ID, ann, a.Admin.ID, basics, r)
			wantCode(t, "revoke twice", err, apperr.ECONFLICT)
		})

		t.Run("SignOffAgainIssuesNewCertificate", func(t *testing.T) {
			at(t, s, 2*time.Hour)
			second, err := s.SignOffCompetencies(ctx, a.ID, ann, a.Instructor.ID, basics, signOff(basics.ID, false, ""))
			if err != nil || second == nil || second.Certificate.Code == first.Certificate.Code || second.RevokedAt != nil {
				t.Fatalf("second certificate = %+v, %v", second, err)
			}
			list, err := s.LearnerCertificates(ctx, ann)
			if err != nil || len(list) != 2 || list[0].ID != second.ID || list[1].ID != first.ID || list[1].RevokedAt == nil {
				t.Errorf("certificates = %+v, %v", list, err)
			}
			history, err := s.SignOffs(ctx, ann)
			if err != nil || len(history) != 3 {
				t.Fatalf("history = %+v, %v", history, err)
			}
			h := history[0]
			if h.ModuleID != basics.ID || h.Evidence != "basics-best" || h.RevokedBy == nil || h.RevokedBy.Name != "a Admin" ||
				h.RevokeNote != "Could not explain it on the floor" || h.SignedBy.Name != "a Instructor" {
				t.Errorf("first sign-off in the history = %+v", h)
			}
			if h := history[1]; !h.Practical || h.Note != "Hung a lock on the shop's panel" || h.RevokedAt != nil {
				t.Errorf("practical sign-off = %+v", h)
			}
			if h := history[2]; h.RevokedAt != nil || !h.SignedAt.Equal(storetest.FixedNow.Add(2*time.Hour)) {
				t.Errorf("new sign-off = %+v", h)
			}
		})

		t.Run("ConcurrentCompletionIssuesOne", func(t *testing.T) {
			bo := mustAccount(t, s, "a-bo@example.com", "Bo", a.ID, identity.Learner)
			mustInsertPortalSessions(t, s, []portalSession{
				{"bo-basics", bo.ID, "electrical-basics", time.Hour, 600, true, true, "passed", score(90)},
				{"bo-loto", bo.ID, "electrical-loto", time.Hour, 600, true, true, "passed", score(90)},
			})
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for i, m := range []catalog.Module{basics, loto} {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, errs[i] = s.SignOffCompetencies(ctx, a.ID, bo.ID, a.Instructor.ID, m, signOff(m.ID, false, ""))
				}()
			}
			wg.Wait()
			list, err := s.LearnerCertificates(ctx, bo.ID)
			if errs[0] != nil || errs[1] != nil || err != nil || len(list) != 1 {
				t.Errorf("sign-offs %v; certificates %d, %v; want exactly one", errs, len(list), err)
			}
		})
	})
}
