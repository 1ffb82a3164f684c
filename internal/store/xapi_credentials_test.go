package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

func mustXAPICredential(t *testing.T, s *store.Store, org testOrg, name string, canRead, canWrite bool) (store.XAPICredential, string) {
	t.Helper()
	c, secret, err := s.CreateXAPICredential(context.Background(), org.ID, org.Admin.ID, name, canRead, canWrite)
	if err != nil {
		t.Fatalf("create xAPI credential %q: %v", name, err)
	}
	return c, secret
}

func TestXAPICredentials(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s *store.Store) {
		ctx := context.Background()
		a := mustOrg(t, s, "Org A", "a")
		b := mustOrg(t, s, "Org B", "b")

		t.Run("Create", func(t *testing.T) {
			c, secret := mustXAPICredential(t, s, a, "  Course player  ", true, false)
			if len(c.ID) != 32 || c.OrgID != a.ID || c.Name != "Course player" || len(c.Key) != 20 || !c.CanRead || c.CanWrite ||
				c.CreatedBy != a.Admin.ID || !c.CreatedAt.Equal(storetest.FixedNow) || c.RevokedAt != nil {
				t.Fatalf("credential = %+v", c)
			}
			if len(secret) != 43 { // 32 bytes in unpadded base64
				t.Fatalf("secret %q is not 32 random bytes", secret)
			}
			if strings.ContainsAny(c.Key+secret, ":+/=") {
				t.Fatalf("key %q or secret %q is not URL-safe or would break Basic auth", c.Key, secret)
			}
			if n := count(t, s, `SELECT COUNT(*) FROM xapi_credentials WHERE secret_hash = $1`, secret); n != 0 {
				t.Fatal("the secret is stored as it is")
			}
			got, err := s.CheckXAPICredential(ctx, c.Key, secret)
			if err != nil || got != c {
				t.Fatalf("check = %+v, %v; want %+v", got, err, c)
			}
		})
		t.Run("KeysAndSecretsDiffer", func(t *testing.T) {
			c1, s1 := mustXAPICredential(t, s, a, "one", true, true)
			c2, s2 := mustXAPICredential(t, s, a, "two", true, true)
			if c1.Key == c2.Key || s1 == s2 || c1.ID == c2.ID {
				t.Fatalf("two credentials share a key, secret or id: %+v %+v", c1, c2)
			}
		})

		t.Run("ErrInvalid", func(t *testing.T) {
			for _, tc := range []struct {
				name, credName    string
				canRead, canWrite bool
				field             string
			}{
				{"EmptyName", "", true, true, "name"},
				{"BlankName", "   ", true, true, "name"},
				{"LongName", strings.Repeat("é", store.MaxXAPICredentialName+1), true, true, "name"},
				{"ControlInName", "tab\there", true, true, "name"},
				{"NotUTF8Name", "bad \xff", true, true, "name"},
				{"NoScope", "nothing", false, false, "canRead"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					_, _, err := s.CreateXAPICredential(ctx, a.ID, a.Admin.ID, tc.credName, tc.canRead, tc.canWrite)
					wantCode(t, tc.name, err, apperr.EINVALID)
					if !strings.Contains(apperr.Message(err), tc.field) {
						t.Fatalf("message %q does not name %s", apperr.Message(err), tc.field)
					}
				})
			}
			c, _ := mustXAPICredential(t, s, a, strings.Repeat("é", store.MaxXAPICredentialName), false, true)
			if c.CanRead || !c.CanWrite {
				t.Fatalf("write-only credential = %+v", c)
			}
		})

		t.Run("ListNewestFirstWithRevoked", func(t *testing.T) {
			c := mustOrg(t, s, "Org C", "c")
			older, _ := mustXAPICredential(t, s, c, "older", true, false)
			at(t, s, time.Hour)
			newer, _ := mustXAPICredential(t, s, c, "newer", false, true)
			if err := s.RevokeXAPICredential(ctx, c.ID, older.ID); err != nil {
				t.Fatal(err)
			}
			list, err := s.ListXAPICredentials(ctx, c.ID)
			if err != nil || len(list) != 2 || list[0].ID != newer.ID || list[1].ID != older.ID {
				t.Fatalf("list = %+v, %v", list, err)
			}
			if list[0].RevokedAt != nil || list[1].RevokedAt == nil || !list[1].RevokedAt.Equal(storetest.FixedNow.Add(time.Hour)) {
				t.Fatalf("revokedAt = %v, %v", list[0].RevokedAt, list[1].RevokedAt)
			}
			if !list[0].CreatedAt.Equal(storetest.FixedNow.Add(time.Hour)) || list[0].Name != "newer" || list[0].CanRead || !list[0].CanWrite {
				t.Fatalf("newer = %+v", list[0])
			}
			other, err := s.ListXAPICredentials(ctx, mustOrg(t, s, "Org D", "d").ID)
			if err != nil || other == nil || len(other) != 0 {
				t.Fatalf("list of an organisation without credentials = %#v, %v; want empty, not nil", other, err)
			}
		})

		t.Run("Revoke", func(t *testing.T) {
			c, secret := mustXAPICredential(t, s, a, "to revoke", true, true)
			if err := s.RevokeXAPICredential(ctx, b.ID, c.ID); apperr.Code(err) != apperr.ENOTFOUND {
				t.Fatalf("revoke by another organisation: %v, want not found", err)
			}
			if _, err := s.CheckXAPICredential(ctx, c.Key, secret); err != nil {
				t.Fatalf("another organisation's revoke ended the credential: %v", err)
			}
			wantCode(t, "revoke an unknown id", s.RevokeXAPICredential(ctx, a.ID, "nope"), apperr.ENOTFOUND)
			if err := s.RevokeXAPICredential(ctx, a.ID, c.ID); err != nil {
				t.Fatal(err)
			}
			_, err := s.CheckXAPICredential(ctx, c.Key, secret)
			wantCode(t, "check a revoked credential", err, apperr.EUNAUTHORIZED)
			at(t, s, 2*time.Hour)
			if err := s.RevokeXAPICredential(ctx, a.ID, c.ID); err != nil {
				t.Fatalf("revoking twice: %v", err)
			}
			list, _ := s.ListXAPICredentials(ctx, a.ID)
			for _, l := range list {
				if l.ID == c.ID && (l.RevokedAt == nil || !l.RevokedAt.Equal(storetest.FixedNow)) {
					t.Fatalf("revokedAt after a second revoke = %v, want the first revocation", l.RevokedAt)
				}
			}
		})

		t.Run("CheckRefusesAlike", func(t *testing.T) {
			c, secret := mustXAPICredential(t, s, a, "checked", true, false)
			for _, tc := range []struct{ name, key, secret string }{
				{"WrongSecret", c.Key, secret + "x"},
				{"EmptySecret", c.Key, ""},
				{"UnknownKey", "nosuchkeynosuchkey00", secret},
				{"EmptyKey", "", secret},
				{"NotUTF8Key", "\xff\xfe", secret},
				{"SecretAsKey", secret, c.Key},
			} {
				t.Run(tc.name, func(t *testing.T) {
					_, err := s.CheckXAPICredential(ctx, tc.key, tc.secret)
					wantCode(t, tc.name, err, apperr.EUNAUTHORIZED)
					if apperr.Message(err) != "the xAPI key or secret is wrong" {
						t.Fatalf("message = %q", apperr.Message(err))
					}
				})
			}
		})

		t.Run("ErrTooManyLive", func(t *testing.T) {
			e := mustOrg(t, s, "Org E", "e")
			var first store.XAPICredential
			for i := range store.MaxXAPICredentials {
				c, _ := mustXAPICredential(t, s, e, "tool", true, false)
				if i == 0 {
					first = c
				}
			}
			_, _, err := s.CreateXAPICredential(ctx, e.ID, e.Admin.ID, "one too many", true, false)
			wantCode(t, "credential beyond the limit", err, apperr.EINVALID)
			if !strings.Contains(apperr.Message(err), "100") {
				t.Fatalf("message %q does not say the limit", apperr.Message(err))
			}
			// Another organisation's count is its own.
			mustXAPICredential(t, s, a, "not counted against Org E", true, false)
			// Revoked credentials do not count.
			if err := s.RevokeXAPICredential(ctx, e.ID, first.ID); err != nil {
				t.Fatal(err)
			}
			mustXAPICredential(t, s, e, "after a revoke", true, false)
		})
	})
}
