package store_test

import (
	"context"
	"reflect"
	"testing"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

func cohortNames(cs []store.Cohort) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

func TestCohorts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		second := mustAccount(t, s, "a-second@example.com", "a Second", a.ID, identity.Instructor)
		var welding store.Cohort

		t.Run("Create", func(t *testing.T) {
			var err error
			welding, err = s.CreateCohort(ctx, a.ID, "Welding A", a.Instructor.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(welding.ID) != 32 || welding.OrgID != a.ID || welding.Name != "Welding A" ||
				welding.Instructor != (store.Ref{ID: a.Instructor.ID, Name: "a Instructor"}) || welding.MemberCount != 0 || !welding.CreatedAt.Equal(storetest.FixedNow) {
				t.Fatalf("cohort = %+v", welding)
			}
			if got, err := s.GetCohort(ctx, a.ID, welding.ID); err != nil || !reflect.DeepEqual(got, welding) {
				t.Fatalf("get = %+v, %v; want %+v", got, err, welding)
			}
			if _, err := s.CreateCohort(ctx, a.ID, "Admin's", a.Admin.ID); err != nil {
				t.Fatalf("an admin teaching: %v", err)
			}
			if _, err := s.CreateCohort(ctx, a.ID, "Basics", second.ID); err != nil {
				t.Fatal(err)
			}
		})
		for _, tc := range []struct {
			name, org, cohort, instructor, code string
		}{
			{"ErrLearnerInstructor", a.ID, "By a learner", a.Learner.ID, apperr.EINVALID},
			{"ErrOtherOrganisationsInstructor", a.ID, "By B", b.Instructor.ID, apperr.EINVALID},
			{"ErrUnknownInstructor", a.ID, "By nobody", "nobody", apperr.EINVALID},
			{"ErrDuplicateName", a.ID, "Welding A", second.ID, apperr.ECONFLICT},
			{"ErrDuplicateNameInOtherCapitals", a.ID, "WELDING a", second.ID, apperr.ECONFLICT},
			{"SameNameInOtherOrganisation", b.ID, "Welding A", b.Instructor.ID, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := s.CreateCohort(ctx, tc.org, tc.cohort, tc.instructor)
				wantCode(t, "create cohort", err, tc.code)
			})
		}
		t.Run("List", func(t *testing.T) {
			all, err := s.ListCohorts(ctx, a.ID, "")
			if want := []string{"Admin's", "Basics", "Welding A"}; err != nil || !reflect.DeepEqual(cohortNames(all), want) {
				t.Fatalf("org A cohorts = %v, %v; want %v", cohortNames(all), err, want)
			}
			mine, err := s.ListCohorts(ctx, a.ID, a.Instructor.ID)
			if err != nil || !reflect.DeepEqual(cohortNames(mine), []string{"Welding A"}) {
				t.Fatalf("instructor's cohorts = %v, %v", cohortNames(mine), err)
			}
			other, err := s.ListCohorts(ctx, b.ID, "")
			if err != nil || len(other) != 1 || other[0].OrgID != b.ID {
				t.Fatalf("org B cohorts = %+v, %v", other, err)
			}
			none, err := s.ListCohorts(ctx, a.ID, b.Instructor.ID)
			if err != nil || none == nil || len(none) != 0 {
				t.Fatalf("org B's instructor's cohorts in org A = %+v, %v", none, err)
			}
		})
		t.Run("Members", func(t *testing.T) {
			for _, id := range []string{a.Learner.ID, a.Learner.ID, second.ID} {
				if err := s.AddCohortMember(ctx, a.ID, welding.ID, id); err != nil {
					t.Fatal(err)
				}
			}
			members, err := s.CohortMembers(ctx, welding.ID)
			if err != nil || len(members) != 2 || members[0].ID != a.Learner.ID || members[0].Email != a.Learner.Email ||
				members[0].Role != identity.Learner || members[1].ID != second.ID {
				t.Fatalf("members = %+v, %v", members, err)
			}
			if got, _ := s.GetCohort(ctx, a.ID, welding.ID); got.MemberCount != 2 {
				t.Fatalf("member count = %d", got.MemberCount)
			}
			wantCode(t, "add another organisation's learner", s.AddCohortMember(ctx, a.ID, welding.ID, b.Learner.ID), apperr.EINVALID)
			wantCode(t, "add an unknown user", s.AddCohortMember(ctx, a.ID, welding.ID, "nobody"), apperr.EINVALID)
			otherCohort, _ := s.ListCohorts(ctx, b.ID, "")
			wantCode(t, "add to another organisation's cohort", s.AddCohortMember(ctx, a.ID, otherCohort[0].ID, a.Learner.ID), apperr.ENOTFOUND)
			wantCode(t, "org B adds its learner to org A's cohort", s.AddCohortMember(ctx, b.ID, welding.ID, b.Learner.ID), apperr.ENOTFOUND)
			wantCode(t, "remove through another organisation", s.RemoveCohortMember(ctx, b.ID, welding.ID, a.Learner.ID), apperr.ENOTFOUND)
			if err := s.RemoveCohortMember(ctx, a.ID, welding.ID, second.ID); err != nil {
				t.Fatal(err)
			}
			wantCode(t, "remove again", s.RemoveCohortMember(ctx, a.ID, welding.ID, second.ID), apperr.ENOTFOUND)
			if got, _ := s.GetCohort(ctx, a.ID, welding.ID); got.MemberCount != 1 {
				t.Fatalf("member count = %d, want 1", got.MemberCount)
			}
		})
		t.Run("Update", func(t *testing.T) {
			got, err := s.UpdateCohort(ctx, a.ID, welding.ID, "Welding 1", "")
			if err != nil || got.Name != "Welding 1" || got.Instructor.ID != a.Instructor.ID || got.MemberCount != 1 {
				t.Fatalf("renamed = %+v, %v", got, err)
			}
			got, err = s.UpdateCohort(ctx, a.ID, welding.ID, "", second.ID)
			if err != nil || got.Name != "Welding 1" || got.Instructor != (store.Ref{ID: second.ID, Name: "a Second"}) {
				t.Fatalf("reassigned = %+v, %v", got, err)
			}
			got, err = s.UpdateCohort(ctx, a.ID, welding.ID, "", "")
			if err != nil || got.Name != "Welding 1" || got.Instructor.ID != second.ID {
				t.Fatalf("unchanged = %+v, %v", got, err)
			}
			if id, err := s.CohortInstructor(ctx, a.ID, welding.ID); err != nil || id != second.ID {
				t.Fatalf("instructor = %q, %v", id, err)
			}
		})
		for _, tc := range []struct {
			name, org, cohortName, instructor, code string
		}{
			{"ErrUpdateDuplicateName", a.ID, "Basics", "", apperr.ECONFLICT},
			{"ErrUpdateDuplicateNameInOtherCapitals", a.ID, "BASICS", "", apperr.ECONFLICT},
			{"ErrUpdateToLearner", a.ID, "", a.Learner.ID, apperr.EINVALID},
			{"ErrUpdateToOtherOrganisationsInstructor", a.ID, "", b.Instructor.ID, apperr.EINVALID},
			{"ErrUpdateThroughOtherOrganisation", b.ID, "Taken over", b.Instructor.ID, apperr.ENOTFOUND},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := s.UpdateCohort(ctx, tc.org, welding.ID, tc.cohortName, tc.instructor)
				wantCode(t, "update cohort", err, tc.code)
				got, _ := s.GetCohort(ctx, a.ID, welding.ID)
				if got.Name != "Welding 1" || got.Instructor.ID != second.ID {
					t.Fatalf("a refused update changed the cohort: %+v", got)
				}
			})
		}
		t.Run("ErrOtherOrganisation", func(t *testing.T) {
			_, err := s.GetCohort(ctx, b.ID, welding.ID)
			wantCode(t, "get through another organisation", err, apperr.ENOTFOUND)
			_, err = s.CohortInstructor(ctx, b.ID, welding.ID)
			wantCode(t, "instructor through another organisation", err, apperr.ENOTFOUND)
			_, err = s.GetCohort(ctx, a.ID, "nope")
			wantCode(t, "unknown cohort", err, apperr.ENOTFOUND)
		})
	})
}
