package store_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"journeyman/internal/identity"
	"journeyman/internal/roster"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

func mustParseRoster(t *testing.T, lines ...string) []roster.Row {
	t.Helper()
	rows, err := roster.Parse(strings.NewReader("email,name,role,cohort\n" + strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

type outcome struct {
	Line    int
	Email   string
	Outcome string
	Message string // a part of the message
}

func checkOutcomes(t *testing.T, got []store.RosterResult, want []outcome) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d results, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Line != w.Line || g.Email != w.Email || g.Outcome != w.Outcome || !strings.Contains(g.Message, w.Message) {
			t.Errorf("row %d = %+v, want %+v", i, g, w)
		}
	}
}

// withoutTokens drops what only an applied import has, to compare reports.
func withoutTokens(rs []store.RosterResult) []store.RosterResult {
	out := append([]store.RosterResult(nil), rs...)
	for i := range out {
		out[i].SetupToken = ""
	}
	return out
}

// orgState is what an import may change, to check that a refused one did not.
func orgState(t *testing.T, s *store.Store, orgID string) string {
	t.Helper()
	var b strings.Builder
	members, _, err := s.ListMembers(context.Background(), orgID, "", store.MaxMemberPage, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		b.WriteString(m.Email + " " + string(m.Role))
		for _, c := range m.Cohorts {
			b.WriteString(" " + c.Name)
		}
		b.WriteString("\n")
	}
	cohorts, err := s.ListCohorts(context.Background(), orgID, "")
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString(strings.Join(cohortNames(cohorts), ","))
	b.WriteString("\n" + strings.Repeat("x", count(t, s, `SELECT COUNT(*) FROM learners`)))
	b.WriteString("\n" + strings.Repeat("l", count(t, s, `SELECT COUNT(*) FROM password_links`)))
	return b.String()
}

func TestImportRoster(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		solo := mustAccount(t, s, "solo@example.com", "Solo", "", "")
		welding, err := s.CreateCohort(ctx, a.ID, "Welding A", a.Instructor.ID)
		if err != nil {
			t.Fatal(err)
		}
		rows := mustParseRoster(t,
			"new1@example.com,New One,learner,Welding A",        // 2: create, existing cohort
			"New2@Example.com,New Two,instructor,Pipefitting",   // 3: create, new cohort
			"a-learner@example.com,Alex Learner,instructor,",    // 4: role changed; their own name kept
			"a-instructor@example.com,a Instructor,instructor,", // 5: unchanged
			"new3@example.com,New Three,learner,Pipefitting",    // 6: create, the cohort line 3 made
			"a-admin@example.com,a Admin,admin,Welding A",       // 7: added to a cohort
		)
		want := []outcome{
			{2, "new1@example.com", store.RosterCreate, "setup link"},
			{3, "new2@example.com", store.RosterCreate, "setup link"},
			{4, "a-learner@example.com", store.RosterUpdate, "role learner → instructor; name kept: they go by “a Learner”"},
			{5, "a-instructor@example.com", store.RosterUnchanged, "already a member"},
			{6, "new3@example.com", store.RosterCreate, "setup link"},
			{7, "a-admin@example.com", store.RosterUpdate, "added to cohort Welding A"},
		}
		before := orgState(t, s, a.ID)
		var dry []store.RosterResult

		t.Run("DryRunWritesNothing", func(t *testing.T) {
			var applied bool
			dry, applied, err = s.ImportRoster(ctx, a.ID, a.Admin.ID, rows, true)
			if err != nil || applied {
				t.Fatalf("dry run: applied %v, %v", applied, err)
			}
			checkOutcomes(t, dry, want)
			for _, r := range dry {
				if r.SetupToken != "" {
					t.Fatalf("a dry run gave a setup token: %+v", r)
				}
			}
			if after := orgState(t, s, a.ID); after != before {
				t.Fatalf("a dry run changed the organisation:\n%s\nwas:\n%s", after, before)
			}
		})

		t.Run("ApplyDoesWhatTheDryRunSaid", func(t *testing.T) {
			got, applied, err := s.ImportRoster(ctx, a.ID, a.Admin.ID, rows, false)
			if err != nil || !applied {
				t.Fatalf("import: applied %v, %v", applied, err)
			}
			if !reflect.DeepEqual(withoutTokens(got), dry) {
				t.Fatalf("import report differs from the dry run's:\n%+v\n%+v", got, dry)
			}
			pipefitting := ""
			cohorts, _ := s.ListCohorts(ctx, a.ID, "")
			for _, c := range cohorts {
				if c.Name == "Pipefitting" {
					pipefitting = c.ID
					if c.Instructor.ID != a.Admin.ID || c.MemberCount != 2 {
						t.Errorf("created cohort = %+v, want taught by the importing admin with 2 members", c)
					}
				}
			}
			if pipefitting == "" {
				t.Fatalf("cohort Pipefitting not created: %v", cohortNames(cohorts))
			}
			for _, tc := range []struct {
				line   int
				email  string
				name   string
				role   identity.Role
				cohort string
			}{
				{2, "new1@example.com", "New One", identity.Learner, welding.ID},
				{3, "new2@example.com", "New Two", identity.Instructor, pipefitting},
				{6, "new3@example.com", "New Three", identity.Learner, pipefitting},
			} {
				var res store.RosterResult
				for _, r := range got {
					if r.Line == tc.line {
						res = r
					}
				}
				u, err := s.GetUserByEmail(ctx, tc.email)
				if err != nil || u.OrgID != a.ID || u.Role != tc.role || u.DisplayName != tc.name || u.PasswordHash != "" {
					t.Fatalf("line %d account = %+v, %v", tc.line, u, err)
				}
				m, _ := s.GetMember(ctx, a.ID, u.ID)
				if len(m.Cohorts) != 1 || m.Cohorts[0].ID != tc.cohort {
					t.Errorf("line %d cohorts = %+v, want %s", tc.line, m.Cohorts, tc.cohort)
				}
				if linked, err := s.PasswordLinkUser(ctx, res.SetupToken); err != nil || linked.ID != u.ID {
					t.Fatalf("line %d setup link gives %+v, %v", tc.line, linked, err)
				}
			}
			if u, _ := s.GetUser(ctx, a.Learner.ID); u.Role != identity.Instructor {
				t.Errorf("a Learner's role = %s, want instructor", u.Role)
			}
			if m, _ := s.GetMember(ctx, a.ID, a.Admin.ID); len(m.Cohorts) != 1 || m.Cohorts[0].ID != welding.ID {
				t.Errorf("the admin's cohorts = %+v", m.Cohorts)
			}

			// A setup link sets the password once, for a week.
			token := got[0].SetupToken
			at(t, s, store.SetupLinkTTL-time.Second)
			u, err := s.UsePasswordLink(ctx, token, "chosen hash")
			if err != nil || u.Email != "new1@example.com" || u.PasswordHash != "chosen hash" {
				t.Fatalf("use setup link: %+v, %v", u, err)
			}
			if _, err := s.UsePasswordLink(ctx, token, "again"); err == nil {
				t.Fatal("a setup link worked twice")
			}
			at(t, s, store.SetupLinkTTL)
			if _, err := s.PasswordLinkUser(ctx, got[1].SetupToken); err == nil {
				t.Fatal("a setup link outlived its week")
			}
		})

		t.Run("AgainIsUnchanged", func(t *testing.T) {
			got, applied, err := s.ImportRoster(ctx, a.ID, a.Admin.ID, rows, false)
			if err != nil || !applied {
				t.Fatalf("import: applied %v, %v", applied, err)
			}
			for _, r := range got {
				if r.Outcome != store.RosterUnchanged || r.SetupToken != "" {
					t.Errorf("second import: %+v", r)
				}
			}
		})

		refused := []struct {
			name  string
			lines []string
			want  []outcome
		}{
			{"OneBadRowWritesNothing", []string{
				"ok1@example.com,OK One,learner,Brand New Cohort",
				"not-an-email,Bad,learner,",
				"a-learner@example.com,a Learner,learner,",
			}, []outcome{
				{2, "ok1@example.com", store.RosterCreate, "setup link"},
				{3, "not-an-email", store.RosterError, "email must be an email address"},
				{4, "a-learner@example.com", store.RosterUpdate, "role instructor → learner"},
			}},
			{"DuplicateRowWritesNothing", []string{
				"ok2@example.com,OK Two,learner,",
				"OK2@example.com,OK Two again,admin,",
			}, []outcome{
				{2, "ok2@example.com", store.RosterCreate, "setup link"},
				{3, "ok2@example.com", store.RosterError, "already on line 2"},
			}},
			{"EmailOfAnotherOrganisation", []string{
				"ok3@example.com,OK Three,learner,",
				"b-learner@example.com,b Learner,learner,",
			}, []outcome{
				{2, "ok3@example.com", store.RosterCreate, "setup link"},
				{3, "b-learner@example.com", store.RosterError, "outside your organisation"},
			}},
			{"AccountWithoutOrganisation", []string{
				"SOLO@example.com,Solo,learner,",
			}, []outcome{
				{2, "solo@example.com", store.RosterError, "outside your organisation"},
			}},
			{"LastAdmin", []string{
				"a-admin@example.com,a Admin,learner,",
			}, []outcome{
				{2, "a-admin@example.com", store.RosterError, "at least one admin"},
			}},
			{"CohortInstructorToLearner", []string{
				"a-instructor@example.com,a Instructor,learner,",
			}, []outcome{
				{2, "a-instructor@example.com", store.RosterError, "instructor of 1 cohort"},
			}},
		}
		for _, tc := range refused {
			t.Run(tc.name, func(t *testing.T) {
				rows := mustParseRoster(t, tc.lines...)
				before := orgState(t, s, a.ID)
				beforeB := orgState(t, s, b.ID)
				dry, applied, err := s.ImportRoster(ctx, a.ID, a.Admin.ID, rows, true)
				if err != nil || applied {
					t.Fatalf("dry run: applied %v, %v", applied, err)
				}
				checkOutcomes(t, dry, tc.want)
				got, applied, err := s.ImportRoster(ctx, a.ID, a.Admin.ID, rows, false)
				if err != nil || applied {
					t.Fatalf("import: applied %v, %v", applied, err)
				}
				if !reflect.DeepEqual(got, dry) {
					t.Fatalf("refused import's report differs from the dry run's:\n%+v\n%+v", got, dry)
				}
				for _, r := range got {
					if r.SetupToken != "" {
						t.Fatalf("a refused import gave a setup token: %+v", r)
					}
				}
				if after := orgState(t, s, a.ID); after != before {
					t.Fatalf("a refused import changed the organisation:\n%s\nwas:\n%s", after, before)
				}
				if after := orgState(t, s, b.ID); after != beforeB {
					t.Fatalf("a refused import changed org B:\n%s\nwas:\n%s", after, beforeB)
				}
			})
		}
		if u, _ := s.GetUser(ctx, solo.ID); u.OrgID != "" {
			t.Fatalf("an import took an individual account into the organisation: %+v", u)
		}
	})
}

// A roster names a cohort in whatever capitals; it joins the cohort that
// exists, and the report says when an import makes a new one.
func TestImportRosterCohortNames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		if _, err := s.CreateCohort(ctx, a.ID, "Spring Intake", a.Instructor.ID); err != nil {
			t.Fatal(err)
		}
		rows := mustParseRoster(t,
			a.Learner.Email+",a Learner,learner,SPRING INTAKE",
			"new@example.com,New Person,learner,spring intake",
			"other@example.com,Other Person,learner,Autumn Intake",
			"third@example.com,Third Person,learner,autumn intake")
		got, applied, err := s.ImportRoster(ctx, a.ID, a.Admin.ID, rows, false)
		if err != nil || !applied {
			t.Fatalf("import: applied %v, %v", applied, err)
		}
		checkOutcomes(t, got, []outcome{
			{2, a.Learner.Email, store.RosterUpdate, "added to cohort Spring Intake"},
			{3, "new@example.com", store.RosterCreate, "; in cohort Spring Intake"},
			{4, "other@example.com", store.RosterCreate, "; in new cohort Autumn Intake"},
			{5, "third@example.com", store.RosterCreate, "; in new cohort Autumn Intake"},
		})
		cohorts, err := s.ListCohorts(ctx, a.ID, "")
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, c := range cohorts {
			names = append(names, fmt.Sprintf("%s (%d)", c.Name, c.MemberCount))
		}
		if want := []string{"Autumn Intake (2)", "Spring Intake (2)"}; !reflect.DeepEqual(names, want) {
			t.Errorf("cohorts %v, want %v", names, want)
		}
	})
}

// A roster lists people as the organisation knows them; a member's display
// name stays the one they chose, and the report says which it is.
func TestImportRosterKeepsNames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		rows := mustParseRoster(t, "a-instructor@example.com,Ian Instructor,instructor,")
		got, applied, err := s.ImportRoster(ctx, a.ID, a.Admin.ID, rows, false)
		if err != nil || !applied {
			t.Fatalf("import: applied %v, %v", applied, err)
		}
		checkOutcomes(t, got, []outcome{{2, "a-instructor@example.com", store.RosterUnchanged, "already a member; name kept: they go by “a Instructor”"}})
		if u, err := s.GetUser(ctx, a.Instructor.ID); err != nil || u.DisplayName != "a Instructor" {
			t.Fatalf("after the import: %+v, %v", u, err)
		}
	})
}
