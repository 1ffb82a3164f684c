package store_test

import (
	"context"
	"testing"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

func TestSetUp(t *testing.T) {
	ada := store.NewAccount{Email: "ada@example.com", DisplayName: "Ada Admin", PasswordHash: "hash"}
	cases := []struct {
		name string
		run  func(t *testing.T, s *store.Store, token string)
	}{
		{"NewAccount", func(t *testing.T, s *store.Store, token string) {
			if _, err := s.CheckSetupLink(context.Background(), token); err != nil {
				t.Fatalf("fresh link: %v", err)
			}
			u, err := s.SetUp(context.Background(), token, "Northside Training", "", ada, "")
			if err != nil {
				t.Fatal(err)
			}
			if u.Role != identity.Admin || u.OrgName != "Northside Training" || u.Email != "ada@example.com" || u.PasswordHash != "hash" || u.JoinedAt == nil {
				t.Fatalf("admin = %+v", u)
			}
		}},
		{"SignedInAccount", func(t *testing.T, s *store.Store, token string) {
			lea := mustAccount(t, s, "lea@example.com", "Lea", "", identity.Learner)
			u, err := s.SetUp(context.Background(), token, "Lea's Shop", lea.ID, store.NewAccount{}, "")
			if err != nil || u.ID != lea.ID || u.Role != identity.Admin || u.OrgName != "Lea's Shop" {
				t.Fatalf("admin = %+v, %v", u, err)
			}
		}},
		{"GuestRecordsMove", func(t *testing.T, s *store.Store, token string) {
			ctx := context.Background()
			if err := s.EnsureGuest(ctx, "guest-1"); err != nil {
				t.Fatal(err)
			}
			u, err := s.SetUp(ctx, token, "Northside Training", "", ada, "guest-1")
			if err != nil {
				t.Fatal(err)
			}
			if n := count(t, s, `SELECT COUNT(*) FROM learners WHERE id = $1`, "guest-1"); n != 0 {
				t.Fatalf("guest still there beside %s", u.ID)
			}
		}},
		{"TakenEmailLeavesNothing", func(t *testing.T, s *store.Store, token string) {
			mustAccount(t, s, "ada@example.com", "Someone", "", identity.Learner)
			_, err := s.SetUp(context.Background(), token, "Northside Training", "", ada, "")
			wantCode(t, "taken email", err, apperr.ECONFLICT)
			if n := count(t, s, `SELECT COUNT(*) FROM organisations`); n != 0 {
				t.Fatalf("%d organisations after a refused setup", n)
			}
			if _, err := s.CheckSetupLink(context.Background(), token); err != nil {
				t.Fatalf("the link was spent by a refused setup: %v", err)
			}
		}},
		{"UnknownLink", func(t *testing.T, s *store.Store, _ string) {
			_, err := s.SetUp(context.Background(), "not-a-link", "Northside Training", "", ada, "")
			wantCode(t, "unknown link", err, apperr.ENOTFOUND)
			_, err = s.CheckSetupLink(context.Background(), "not-a-link")
			wantCode(t, "check unknown link", err, apperr.ENOTFOUND)
		}},
		{"ExpiredLink", func(t *testing.T, s *store.Store, token string) {
			at(t, s, store.DeploymentLinkTTL)
			_, err := s.CheckSetupLink(context.Background(), token)
			wantCode(t, "check expired link", err, apperr.ENOTFOUND)
			_, err = s.SetUp(context.Background(), token, "Northside Training", "", ada, "")
			wantCode(t, "expired link", err, apperr.ENOTFOUND)
		}},
		{"OnceOnly", func(t *testing.T, s *store.Store, token string) {
			ctx := context.Background()
			other, _, _, err := s.CreateSetupLink(ctx) // a second server start's link
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.SetUp(ctx, token, "Northside Training", "", ada, ""); err != nil {
				t.Fatal(err)
			}
			for _, link := range []string{token, other} {
				_, err := s.CheckSetupLink(ctx, link)
				wantCode(t, "check after setup", err, apperr.ECONFLICT)
				_, err = s.SetUp(ctx, link, "Second Org", "", store.NewAccount{Email: "eve@example.com", DisplayName: "Eve", PasswordHash: "h"}, "")
				wantCode(t, "setup again", err, apperr.ECONFLICT)
			}
			if n := count(t, s, `SELECT COUNT(*) FROM organisations`); n != 1 {
				t.Fatalf("%d organisations", n)
			}
			if _, _, ok, err := s.CreateSetupLink(ctx); ok || err != nil {
				t.Fatalf("a new link once set up: ok %v, %v", ok, err)
			}
		}},
		{"NoLinkOnceAnOrganisationExists", func(t *testing.T, s *store.Store, token string) {
			ctx := context.Background()
			mustOrg(t, s, "Made On The Command Line", "cli")
			if n := count(t, s, `SELECT COUNT(*) FROM setup_links`); n != 0 {
				t.Fatalf("%d setup links left beside the command line's organisation", n)
			}
			if _, _, ok, err := s.CreateSetupLink(ctx); ok || err != nil {
				t.Fatalf("new link: ok %v, %v", ok, err)
			}
			_, err := s.CheckSetupLink(ctx, token)
			wantCode(t, "check beside an organisation", err, apperr.ECONFLICT)
			_, err = s.SetUp(ctx, token, "Northside Training", "", ada, "")
			wantCode(t, "setup beside an organisation", err, apperr.ECONFLICT)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, s *store.Store) {
				token, expires, ok, err := s.CreateSetupLink(context.Background())
				if err != nil || !ok || token == "" || !expires.Equal(storetest.FixedNow.Add(store.DeploymentLinkTTL)) {
					t.Fatalf("setup link %q until %v: ok %v, %v", token, expires, ok, err)
				}
				c.run(t, s, token)
			})
		})
	}
}
