package store_test

import (
	"context"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

func mustInvite(t *testing.T, s *store.Store, org testOrg, n store.NewInvite) (store.Invite, string) {
	t.Helper()
	inv, token, err := s.CreateInvite(context.Background(), org.ID, org.Admin.ID, n)
	if err != nil {
		t.Fatalf("create invite: %v", err)
	}
	return inv, token
}

// signUp creates an account through an invite link.
func signUp(s *store.Store, email, token string) (store.User, error) {
	return s.CreateAccount(context.Background(), store.NewAccount{Email: email, DisplayName: email, PasswordHash: "h"}, "", identity.HashSecret(token))
}

func TestInvites(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		cohortA, err := s.CreateCohort(ctx, a.ID, "Welding A", a.Instructor.ID)
		if err != nil {
			t.Fatal(err)
		}
		cohortB, err := s.CreateCohort(ctx, b.ID, "Welding B", b.Instructor.ID)
		if err != nil {
			t.Fatal(err)
		}
		week := 7 * 24 * time.Hour

		t.Run("Create", func(t *testing.T) {
			inv, token := mustInvite(t, s, a, store.NewInvite{Role: identity.Instructor, CohortID: cohortA.ID, MaxUses: 3, TTL: week})
			if len(inv.ID) != 32 || inv.OrgID != a.ID || inv.Role != identity.Instructor || inv.Cohort == nil || *inv.Cohort != (store.Ref{ID: cohortA.ID, Name: "Welding A"}) ||
				inv.MaxUses != 3 || inv.Uses != 0 || !inv.ExpiresAt.Equal(storetest.FixedNow.Add(week)) || inv.Revoked ||
				!inv.CreatedAt.Equal(storetest.FixedNow) || inv.CreatedBy != (store.Ref{ID: a.Admin.ID, Name: "a Admin"}) || len(token) < 32 {
				t.Fatalf("invite = %+v, token %q", inv, token)
			}
			got, org, err := s.InviteByToken(ctx, token)
			if err != nil || got.ID != inv.ID || org.ID != a.ID || org.Name != "Org A" {
				t.Fatalf("by token = %+v, %+v, %v", got, org, err)
			}
			if n := count(t, s, `SELECT COUNT(*) FROM invites WHERE token_hash = $1`, token); n != 0 {
				t.Fatal("the invite's token is stored as it is")
			}
		})
		t.Run("ErrCohortOfAnotherOrganisation", func(t *testing.T) {
			_, _, err := s.CreateInvite(ctx, a.ID, a.Admin.ID, store.NewInvite{Role: identity.Learner, CohortID: cohortB.ID, MaxUses: 1, TTL: week})
			wantCode(t, "invite to another organisation's cohort", err, apperr.ENOTFOUND)
			_, _, err = s.CreateInvite(ctx, a.ID, a.Admin.ID, store.NewInvite{Role: identity.Learner, CohortID: "nope", MaxUses: 1, TTL: week})
			wantCode(t, "invite to an unknown cohort", err, apperr.ENOTFOUND)
		})
		t.Run("UsesCountedUntilUsedUp", func(t *testing.T) {
			inv, token := mustInvite(t, s, a, store.NewInvite{Role: identity.Learner, CohortID: cohortA.ID, MaxUses: 2, TTL: week})
			for i, email := range []string{"first@example.com", "second@example.com"} {
				u, err := signUp(s, email, token)
				if err != nil {
					t.Fatalf("use %d: %v", i+1, err)
				}
				if u.OrgID != a.ID || u.Role != identity.Learner || u.JoinedAt == nil {
					t.Fatalf("joined = %+v", u)
				}
				m, err := s.GetMember(ctx, a.ID, u.ID)
				if err != nil || len(m.Cohorts) != 1 || m.Cohorts[0].ID != cohortA.ID {
					t.Fatalf("member = %+v, %v; want in the invite's cohort", m, err)
				}
			}
			_, err := signUp(s, "third@example.com", token)
			wantCode(t, "a third use of a two-use invite", err, apperr.EINVALID)
			_, err = s.GetUserByEmail(ctx, "third@example.com")
			wantCode(t, "the refused account", err, apperr.ENOTFOUND)
			_, _, err = s.InviteByToken(ctx, token)
			wantCode(t, "a used-up invite by token", err, apperr.ENOTFOUND)
			list, err := s.ListInvites(ctx, a.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, got := range list {
				if got.ID == inv.ID && got.Uses != 2 {
					t.Fatalf("uses = %d, want 2", got.Uses)
				}
			}
		})
		t.Run("InviteDecidesOrganisationAndRole", func(t *testing.T) {
			_, token := mustInvite(t, s, a, store.NewInvite{Role: identity.Learner, MaxUses: 1, TTL: week})
			u, err := s.CreateAccount(ctx, store.NewAccount{Email: "sneaky@example.com", DisplayName: "S", PasswordHash: "h", OrgID: b.ID, Role: identity.Admin, CohortID: cohortB.ID}, "", identity.HashSecret(token))
			if err != nil || u.OrgID != a.ID || u.Role != identity.Learner {
				t.Fatalf("account = %+v, %v; want a learner of org A", u, err)
			}
			if m, _ := s.GetMember(ctx, a.ID, u.ID); len(m.Cohorts) != 0 {
				t.Fatalf("cohorts = %+v, want none", m.Cohorts)
			}
		})
		t.Run("ErrTakenEmailDoesNotUseTheInvite", func(t *testing.T) {
			inv, token := mustInvite(t, s, a, store.NewInvite{Role: identity.Learner, MaxUses: 1, TTL: week})
			_, err := signUp(s, "first@example.com", token)
			wantCode(t, "taken email", err, apperr.ECONFLICT)
			got, _, err := s.InviteByToken(ctx, token)
			if err != nil || got.ID != inv.ID || got.Uses != 0 {
				t.Fatalf("invite after a failed sign-up = %+v, %v", got, err)
			}
		})
		t.Run("Expired", func(t *testing.T) {
			_, token := mustInvite(t, s, a, store.NewInvite{Role: identity.Learner, MaxUses: 5, TTL: week})
			at(t, s, week-time.Second)
			if _, _, err := s.InviteByToken(ctx, token); err != nil {
				t.Fatalf("a second before expiry: %v", err)
			}
			at(t, s, week)
			_, _, err := s.InviteByToken(ctx, token)
			wantCode(t, "expired by token", err, apperr.ENOTFOUND)
			_, err = signUp(s, "late@example.com", token)
			wantCode(t, "sign-up with an expired invite", err, apperr.EINVALID)
		})
		t.Run("Revoked", func(t *testing.T) {
			inv, token := mustInvite(t, s, a, store.NewInvite{Role: identity.Learner, MaxUses: 5, TTL: week})
			wantCode(t, "revoke through another organisation", s.RevokeInvite(ctx, b.ID, inv.ID), apperr.ENOTFOUND)
			if _, _, err := s.InviteByToken(ctx, token); err != nil {
				t.Fatalf("another organisation revoked the invite: %v", err)
			}
			if err := s.RevokeInvite(ctx, a.ID, inv.ID); err != nil {
				t.Fatal(err)
			}
			_, _, err := s.InviteByToken(ctx, token)
			wantCode(t, "revoked by token", err, apperr.ENOTFOUND)
			_, err = signUp(s, "revoked@example.com", token)
			wantCode(t, "sign-up with a revoked invite", err, apperr.EINVALID)
			u := mustAccount(t, s, "solo-revoked@example.com", "Solo", "", "")
			_, err = s.AcceptInvite(ctx, u.ID, token)
			wantCode(t, "accept a revoked invite", err, apperr.EINVALID)
			wantCode(t, "revoke an unknown invite", s.RevokeInvite(ctx, a.ID, "nope"), apperr.ENOTFOUND)
		})
		t.Run("ErrUnknownToken", func(t *testing.T) {
			_, _, err := s.InviteByToken(ctx, "no-such-token")
			wantCode(t, "unknown token", err, apperr.ENOTFOUND)
			_, err = signUp(s, "unknown@example.com", "no-such-token")
			wantCode(t, "sign-up with an unknown invite", err, apperr.EINVALID)
		})
		t.Run("ListByOrganisation", func(t *testing.T) {
			listA, err := s.ListInvites(ctx, a.ID)
			if err != nil || len(listA) != 6 {
				t.Fatalf("org A invites = %d, %v; want 6", len(listA), err)
			}
			for _, inv := range listA {
				if inv.OrgID != a.ID {
					t.Fatalf("org A lists %+v", inv)
				}
			}
			listB, err := s.ListInvites(ctx, b.ID)
			if err != nil || listB == nil || len(listB) != 0 {
				t.Fatalf("org B invites = %+v, %v; want an empty list", listB, err)
			}
		})
	})
}

func TestAcceptInvite(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")
		cohort, err := s.CreateCohort(ctx, a.ID, "Welding A", a.Instructor.ID)
		if err != nil {
			t.Fatal(err)
		}
		inv, token := mustInvite(t, s, a, store.NewInvite{Role: identity.Instructor, CohortID: cohort.ID, MaxUses: 2, TTL: time.Hour})

		t.Run("OK", func(t *testing.T) {
			solo := mustAccount(t, s, "solo@example.com", "Solo", "", "")
			u, err := s.AcceptInvite(ctx, solo.ID, token)
			if err != nil || u.ID != solo.ID || u.OrgID != a.ID || u.OrgName != "Org A" || u.Role != identity.Instructor ||
				u.JoinedAt == nil || !u.JoinedAt.Equal(storetest.FixedNow) || u.PasswordHash != solo.PasswordHash {
				t.Fatalf("accepted = %+v, %v", u, err)
			}
			m, err := s.GetMember(ctx, a.ID, solo.ID)
			if err != nil || len(m.Cohorts) != 1 || m.Cohorts[0].ID != cohort.ID {
				t.Fatalf("member = %+v, %v", m, err)
			}
		})
		t.Run("ErrAlreadyInAnOrganisation", func(t *testing.T) {
			_, err := s.AcceptInvite(ctx, b.Learner.ID, token)
			wantCode(t, "accept while in org B", err, apperr.ECONFLICT)
			if u, _ := s.GetUser(ctx, b.Learner.ID); u.OrgID != b.ID || u.Role != identity.Learner {
				t.Fatalf("org B's learner changed: %+v", u)
			}
			_, err = s.AcceptInvite(ctx, a.Learner.ID, token)
			wantCode(t, "accept while already in org A", err, apperr.ECONFLICT)
			got, _, err := s.InviteByToken(ctx, token)
			if err != nil || got.ID != inv.ID || got.Uses != 1 {
				t.Fatalf("invite = %+v, %v; want one use", got, err)
			}
		})
		t.Run("ErrUnknownUser", func(t *testing.T) {
			_, err := s.AcceptInvite(ctx, "nobody", token)
			wantCode(t, "accept by nobody", err, apperr.ENOTFOUND)
		})
		t.Run("ErrUsedUp", func(t *testing.T) {
			if _, err := s.AcceptInvite(ctx, mustAccount(t, s, "two@example.com", "Two", "", "").ID, token); err != nil {
				t.Fatal(err)
			}
			late := mustAccount(t, s, "three@example.com", "Three", "", "")
			_, err := s.AcceptInvite(ctx, late.ID, token)
			wantCode(t, "accept a used-up invite", err, apperr.EINVALID)
			if u, _ := s.GetUser(ctx, late.ID); u.OrgID != "" {
				t.Fatalf("joined through a used-up invite: %+v", u)
			}
		})
	})
}
