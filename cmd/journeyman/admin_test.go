package main

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"journeyman/internal/store"
)

func TestAdminCommands(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "journeyman.db")
	getenv := func(string) string { return "" }
	link := regexp.MustCompile(`(?m)^(setup|password) link \(one use, until [^)]+\): https://training\.example/reset-password/(\S+)$`)
	admin := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := runAdmin(ctx, append(args, "-db", db, "--url", "https://training.example"), getenv, &out)
		return out.String(), err
	}
	// The token each successful command printed, to be checked against the store.
	tokens := map[string]string{}
	cases := []struct {
		name    string
		args    []string
		wantErr string
		account string // the email whose link it prints
	}{
		{"Create", []string{"create", "--email", "Ada@Plant.example", "--org", "Plant School", "--name", "Ada"}, "", "ada@plant.example"},
		{"CreateWithoutOrg", []string{"create", "--email", "eve@plant.example"}, "--org must be 1 to 120", ""},
		{"ResetPassword", []string{"reset-password", "--email", "ada@plant.example"}, "", "ada@plant.example"},
		{"ResetPasswordUnknownEmail", []string{"reset-password", "--email", "nobody@plant.example"}, "no account has the email nobody@plant.example", ""},
		{"ResetPasswordBadEmail", []string{"reset-password", "--email", "nope"}, "--email must be an email address", ""},
		{"ResetPasswordTakesNoOrg", []string{"reset-password", "--email", "ada@plant.example", "--org", "X"}, "flag provided but not defined: -org", ""},
		{"UnknownCommand", []string{"delete"}, "usage: journeyman admin create", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, err := admin(c.args...)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			m := link.FindStringSubmatch(out)
			if m == nil || !strings.Contains(out, c.account) {
				t.Fatalf("output %q has no link for %s", out, c.account)
			}
			tokens[c.name] = m[2]
		})
	}

	st, err := store.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for name, token := range tokens {
		u, err := st.PasswordLinkUser(ctx, token)
		if err != nil || u.Email != "ada@plant.example" {
			t.Errorf("%s's link is for %+v, %v", name, u, err)
		}
	}
	if len(tokens) != 2 {
		t.Errorf("%d links printed, want 2", len(tokens))
	}
}
