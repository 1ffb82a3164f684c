package server

import (
	"context"
	"strings"
	"testing"
	"time"

	"journeyman/internal/identity"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
)

func TestXAPICredentialsAPI(t *testing.T) {
	storetest.Each(t, func(t *testing.T, st *store.Store) {
		s := MustOpenXRServer(t, st)
		admin := mustAccount(t, s, "Xena", "LRS Org", identity.Admin)
		mustAccount(t, s, "Otto", "Other LRS Org", identity.Admin)
		const path = "/api/organisation/xapi/credentials"

		t.Run("ErrInvalid", func(t *testing.T) {
			for _, tc := range []struct{ name, body, want string }{
				{"NoName", `{"canRead":true}`, "name must be 1 to 80 characters"},
				{"LongName", `{"name":"` + strings.Repeat("x", 81) + `","canRead":true}`, "name must be 1 to 80 characters"},
				{"NoScope", `{"name":"Player"}`, "canRead or canWrite must be true"},
				{"BothFalse", `{"name":"Player","canRead":false,"canWrite":false}`, "canRead or canWrite must be true"},
				{"ScopeNotBool", `{"name":"Player","canRead":"yes"}`, `"canRead" must be true or false`},
				{"NameNotString", `{"name":7,"canRead":true}`, `"name" must be a string`},
				{"UnknownField", `{"name":"Player","canRead":true,"canDelete":true}`, `unknown field "canDelete"`},
				{"NotJSON", `name=Player`, "malformed JSON"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					checkError(t, call(t, s, "Xena", "POST", path, tc.body), 400, tc.want)
				})
			}
			if list := decode[xapiCredentialsResponse](t, call(t, s, "Xena", "GET", path, "")); len(list.Credentials) != 0 {
				t.Fatalf("refused requests stored credentials: %+v", list.Credentials)
			}
		})

		var created createdXAPICredential
		t.Run("Create", func(t *testing.T) {
			res := call(t, s, "Xena", "POST", path, `{"name":" Course player ","canRead":true,"canWrite":true}`)
			checkError(t, res, 201, "")
			created = decode[createdXAPICredential](t, res)
			c := created.Credential
			if c.Name != "Course player" || !c.CanRead || !c.CanWrite || len(c.Key) != 20 || c.RevokedAt != nil || created.Secret == "" {
				t.Fatalf("created = %+v", created)
			}
			for _, field := range []string{`"id":`, `"name":`, `"key":`, `"canRead":`, `"canWrite":`, `"createdAt":`, `"revokedAt":null`, `"secret":`} {
				if !strings.Contains(res.body, field) {
					t.Fatalf("answer %s lacks %s", res.body, field)
				}
			}
			if strings.Contains(res.body, admin.ID) || strings.Contains(res.body, admin.OrgID) {
				t.Fatalf("answer %s shows the creator or organisation id", res.body)
			}
			got, err := st.CheckXAPICredential(context.Background(), c.Key, created.Secret)
			if err != nil || got.OrgID != admin.OrgID || got.CreatedBy != admin.ID {
				t.Fatalf("check of the answered key and secret = %+v, %v", got, err)
			}
		})

		t.Run("List", func(t *testing.T) {
			res := call(t, s, "Xena", "GET", path, "")
			checkError(t, res, 200, "")
			list := decode[xapiCredentialsResponse](t, res)
			// httptest requests come to example.com over plain HTTP.
			if list.Endpoint != "http://example.com/xapi/" {
				t.Fatalf("endpoint = %q", list.Endpoint)
			}
			if len(list.Credentials) != 1 || list.Credentials[0].ID != created.Credential.ID || list.Credentials[0].Key != created.Credential.Key {
				t.Fatalf("credentials = %+v", list.Credentials)
			}
			if strings.Contains(res.body, created.Secret) || strings.Contains(res.body, "secret") {
				t.Fatalf("the list %s shows a secret", res.body)
			}
			other := decode[xapiCredentialsResponse](t, call(t, s, "Otto", "GET", path, ""))
			if other.Credentials == nil || len(other.Credentials) != 0 {
				t.Fatalf("another organisation's admin sees %+v, want an empty list", other.Credentials)
			}
		})

		t.Run("Revoke", func(t *testing.T) {
			one := path + "/" + created.Credential.ID
			checkError(t, call(t, s, "Otto", "DELETE", one, ""), 404, "does not exist")
			checkError(t, call(t, s, "Xena", "DELETE", path+"/nope", ""), 404, "does not exist")
			if _, err := st.CheckXAPICredential(context.Background(), created.Credential.Key, created.Secret); err != nil {
				t.Fatalf("refused revokes ended the credential: %v", err)
			}
			checkError(t, call(t, s, "Xena", "DELETE", one, ""), 204, "")
			checkError(t, call(t, s, "Xena", "DELETE", one, ""), 204, "")
			if _, err := st.CheckXAPICredential(context.Background(), created.Credential.Key, created.Secret); err == nil {
				t.Fatal("a revoked credential still checks")
			}
			list := decode[xapiCredentialsResponse](t, call(t, s, "Xena", "GET", path, ""))
			if len(list.Credentials) != 1 || list.Credentials[0].RevokedAt == nil || !list.Credentials[0].RevokedAt.Equal(st.Now().Truncate(time.Microsecond)) {
				t.Fatalf("after revoke = %+v", list.Credentials)
			}
		})
	})
}
