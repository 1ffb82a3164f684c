package store_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

func memberIDs(ms []store.Member) []string {
	out := []string{}
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}

func TestListMembers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")                                                                  // a Admin, a Instructor, a Learner
		b := mustOrg(t, s, "Org B", "b")                                                                  // another organisation's members
		ada := mustAccount(t, s, "ada.lovelace@math.example.com", "Ada Lovelace", a.ID, identity.Learner) // sorts first
		zed := mustAccount(t, s, "zed@example.com", "zed 100%_sure", a.ID, identity.Learner)              // sorts last, case-insensitively
		mustAccount(t, s, "solo@example.com", "Aaron Solo", "", "")                                       // no organisation
		welding, err := s.CreateCohort(ctx, a.ID, "Welding A", a.Instructor.ID)
		if err != nil {
			t.Fatal(err)
		}
		basics, err := s.CreateCohort(ctx, a.ID, "Basics", a.Instructor.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []store.Cohort{welding, basics} {
			if err := s.AddCohortMember(ctx, a.ID, c.ID, ada.ID); err != nil {
				t.Fatal(err)
			}
		}
		// By display name, case-insensitively: a Admin, a Instructor, a Learner, Ada Lovelace, zed.
		all := []string{a.Admin.ID, a.Instructor.ID, a.Learner.ID, ada.ID, zed.ID}

		t.Run("All", func(t *testing.T) {
			got, total, err := s.ListMembers(ctx, a.ID, "", store.DefaultMemberPage, 0)
			if err != nil {
				t.Fatal(err)
			}
			if total != 5 || !reflect.DeepEqual(memberIDs(got), all) {
				t.Fatalf("members = %v (total %d), want %v", memberIDs(got), total, all)
			}
			m := got[3]
			wantCohorts := []store.Ref{{ID: basics.ID, Name: "Basics"}, {ID: welding.ID, Name: "Welding A"}}
			if m.Email != ada.Email || m.DisplayName != "Ada Lovelace" || m.Role != identity.Learner || m.JoinedAt == nil ||
				!m.JoinedAt.Equal(storetest.FixedNow) || !reflect.DeepEqual(m.Cohorts, wantCohorts) {
				t.Fatalf("member = %+v, want cohorts %+v", m, wantCohorts)
			}
			for _, m := range got[:3] {
				if m.Cohorts == nil || len(m.Cohorts) != 0 {
					t.Errorf("%s cohorts = %#v, want []", m.DisplayName, m.Cohorts)
				}
			}
			// The instructor teaches both cohorts, by name; nobody else teaches any.
			if !reflect.DeepEqual(got[1].Teaches, wantCohorts) {
				t.Errorf("instructor teaches %+v, want %+v", got[1].Teaches, wantCohorts)
			}
			for _, m := range append([]store.Member{got[0]}, got[2:]...) {
				if m.Teaches == nil || len(m.Teaches) != 0 {
					t.Errorf("%s teaches %#v, want []", m.DisplayName, m.Teaches)
				}
			}
			if got[0].Role != identity.Admin || got[1].Role != identity.Instructor {
				t.Errorf("roles = %s, %s", got[0].Role, got[1].Role)
			}
		})
		for _, tc := range []struct {
			q    string
			want []string
		}{
			{"LOVE", []string{ada.ID}},
			{"math.example", []string{ada.ID}},
			{"A-INSTRUCTOR@", []string{a.Instructor.ID}},
			{"a ", []string{a.Admin.ID, a.Instructor.ID, a.Learner.ID, ada.ID}},
			{"%", []string{zed.ID}},
			{"_", []string{zed.ID}},
			{"0%_", []string{zed.ID}},
			{`\`, []string{}},
			{"b-admin", []string{}},
			{"solo", []string{}},
			{"nobody", []string{}},
		} {
			t.Run("Filter "+tc.q, func(t *testing.T) {
				got, total, err := s.ListMembers(ctx, a.ID, tc.q, store.DefaultMemberPage, 0)
				if err != nil || total != len(tc.want) || !reflect.DeepEqual(memberIDs(got), tc.want) {
					t.Fatalf("q=%q: %v (total %d), %v; want %v", tc.q, memberIDs(got), total, err, tc.want)
				}
			})
		}
		for _, tc := range []struct {
			limit, offset int
			want          []string
		}{
			{2, 0, all[:2]},
			{2, 2, all[2:4]},
			{2, 4, all[4:]},
			{2, 6, []string{}},
			{0, 0, all[:1]},   // clamped to one
			{-5, -3, all[:1]}, // and from the start
			{10_000, 0, all},
		} {
			t.Run(fmt.Sprintf("Page limit=%d offset=%d", tc.limit, tc.offset), func(t *testing.T) {
				got, total, err := s.ListMembers(ctx, a.ID, "", tc.limit, tc.offset)
				if err != nil || total != 5 || !reflect.DeepEqual(memberIDs(got), tc.want) {
					t.Fatalf("page = %v (total %d), %v; want %v", memberIDs(got), total, err, tc.want)
				}
			})
		}
		t.Run("OtherOrganisation", func(t *testing.T) {
			got, total, err := s.ListMembers(ctx, b.ID, "", store.DefaultMemberPage, 0)
			want := []string{b.Admin.ID, b.Instructor.ID, b.Learner.ID}
			if err != nil || total != 3 || !reflect.DeepEqual(memberIDs(got), want) {
				t.Fatalf("org B members = %v (total %d), %v", memberIDs(got), total, err)
			}
			got, total, err = s.ListMembers(ctx, "no-such-org", "", store.DefaultMemberPage, 0)
			if err != nil || total != 0 || got == nil || len(got) != 0 {
				t.Fatalf("unknown organisation: %#v (total %d), %v; want an empty list", got, total, err)
			}
		})
		t.Run("GetMember", func(t *testing.T) {
			m, err := s.GetMember(ctx, a.ID, ada.ID)
			if err != nil || m.ID != ada.ID || len(m.Cohorts) != 2 {
				t.Fatalf("member = %+v, %v", m, err)
			}
			_, err = s.GetMember(ctx, a.ID, b.Learner.ID)
			wantCode(t, "another organisation's member", err, apperr.ENOTFOUND)
			_, err = s.GetMember(ctx, b.ID, ada.ID)
			wantCode(t, "a member through another organisation", err, apperr.ENOTFOUND)
		})
	})
}

func TestSetMemberRole(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		role := func(id string) identity.Role {
			u, err := s.GetUser(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			return u.Role
		}
		for _, tc := range []struct {
			name     string
			org      string
			user     string
			role     identity.Role
			code     string
			wantRole identity.Role // the user's role afterwards
		}{
			{"Promote", a.ID, a.Learner.ID, identity.Instructor, "", identity.Instructor},
			{"Demote", a.ID, a.Learner.ID, identity.Learner, "", identity.Learner},
			{"ErrLastAdmin", a.ID, a.Admin.ID, identity.Instructor, apperr.ECONFLICT, identity.Admin},
			{"ErrLastAdminToLearner", a.ID, a.Admin.ID, identity.Learner, apperr.ECONFLICT, identity.Admin},
			{"LastAdminStaysAdmin", a.ID, a.Admin.ID, identity.Admin, "", identity.Admin},
			{"SecondAdmin", a.ID, a.Instructor.ID, identity.Admin, "", identity.Admin},
			{"FirstAdminStepsDown", a.ID, a.Admin.ID, identity.Learner, "", identity.Learner},
			{"ErrNowLastAdmin", a.ID, a.Instructor.ID, identity.Instructor, apperr.ECONFLICT, identity.Admin},
			{"ErrOtherOrganisation", a.ID, b.Learner.ID, identity.Admin, apperr.ENOTFOUND, identity.Learner},
			{"ErrOtherOrganisationsAdmin", a.ID, b.Admin.ID, identity.Learner, apperr.ENOTFOUND, identity.Admin},
			{"ErrUnknown", a.ID, "nobody", identity.Admin, apperr.ENOTFOUND, ""},
		} {
			t.Run(tc.name, func(t *testing.T) {
				m, err := s.SetMemberRole(ctx, tc.org, tc.user, tc.role)
				wantCode(t, "SetMemberRole", err, tc.code)
				if err == nil && (m.ID != tc.user || m.Role != tc.role) {
					t.Fatalf("member = %+v", m)
				}
				if tc.wantRole != "" {
					if got := role(tc.user); got != tc.wantRole {
						t.Fatalf("role afterwards = %s, want %s", got, tc.wantRole)
					}
				}
			})
		}
	})
}

func TestSetMemberRoleKeepsCohortsTaught(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		c, err := s.CreateCohort(ctx, a.ID, "Welding A", a.Instructor.ID)
		if err != nil {
			t.Fatal(err)
		}
		// A cohort is taught by staff: demoting its instructor to learner
		// would leave it with a teacher who cannot open it.
		_, err = s.SetMemberRole(ctx, a.ID, a.Instructor.ID, identity.Learner)
		wantCode(t, "demote a cohort's instructor", err, apperr.ECONFLICT)
		if _, err := s.SetMemberRole(ctx, a.ID, a.Instructor.ID, identity.Admin); err != nil {
			t.Fatalf("an instructor teaching a cohort may become admin: %v", err)
		}
		if _, err := s.UpdateCohort(ctx, a.ID, c.ID, "", a.Admin.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SetMemberRole(ctx, a.ID, a.Instructor.ID, identity.Learner); err != nil {
			t.Fatalf("demote after handing the cohort over: %v", err)
		}
	})
}

func TestRemoveMember(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		c, err := s.CreateCohort(ctx, a.ID, "Welding A", a.Instructor.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.AddCohortMember(ctx, a.ID, c.ID, a.Learner.ID); err != nil {
			t.Fatal(err)
		}
		t.Run("ErrTeachesACohort", func(t *testing.T) {
			err := s.RemoveMember(ctx, a.ID, a.Instructor.ID)
			wantCode(t, "remove a cohort's instructor", err, apperr.ECONFLICT)
			if u, _ := s.GetUser(ctx, a.Instructor.ID); u.OrgID != a.ID {
				t.Fatal("the instructor was removed")
			}
		})
		t.Run("ErrLastAdmin", func(t *testing.T) {
			wantCode(t, "remove the last admin", s.RemoveMember(ctx, a.ID, a.Admin.ID), apperr.ECONFLICT)
		})
		t.Run("ErrOtherOrganisation", func(t *testing.T) {
			wantCode(t, "remove another organisation's member", s.RemoveMember(ctx, a.ID, b.Learner.ID), apperr.ENOTFOUND)
			if u, _ := s.GetUser(ctx, b.Learner.ID); u.OrgID != b.ID {
				t.Fatal("another organisation's member was removed")
			}
		})
		t.Run("Learner", func(t *testing.T) {
			if err := s.RemoveMember(ctx, a.ID, a.Learner.ID); err != nil {
				t.Fatal(err)
			}
			u, err := s.GetUser(ctx, a.Learner.ID)
			if err != nil || u.OrgID != "" || u.Role != identity.Learner || u.JoinedAt != nil || u.Email != a.Learner.Email || u.PasswordHash != a.Learner.PasswordHash {
				t.Fatalf("removed member = %+v, %v; want an individual learner", u, err)
			}
			if got, _ := s.GetCohort(ctx, a.ID, c.ID); got.MemberCount != 0 {
				t.Fatalf("cohort still counts %d members", got.MemberCount)
			}
			wantCode(t, "remove again", s.RemoveMember(ctx, a.ID, a.Learner.ID), apperr.ENOTFOUND)
		})
		t.Run("InstructorAfterHandOver", func(t *testing.T) {
			if _, err := s.UpdateCohort(ctx, a.ID, c.ID, "", a.Admin.ID); err != nil {
				t.Fatal(err)
			}
			if err := s.RemoveMember(ctx, a.ID, a.Instructor.ID); err != nil {
				t.Fatal(err)
			}
		})
		t.Run("AdminWhenAnotherRemains", func(t *testing.T) {
			second := mustAccount(t, s, "a-second@example.com", "Second", a.ID, identity.Admin)
			if err := s.RemoveMember(ctx, a.ID, second.ID); err != nil {
				t.Fatal(err)
			}
			if u, _ := s.GetUser(ctx, second.ID); u.Role != identity.Learner || u.OrgID != "" {
				t.Fatalf("removed admin = %+v", u)
			}
		})
	})
}
