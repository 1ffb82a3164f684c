package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"journeyman/internal/identity"
	"journeyman/internal/store"
)

// runAdmin is `journeyman admin create --email E --org NAME [--name N]`:
// it makes the first admin of a deployment (or of another organisation)
// and prints a one-time setup link with which they choose a password.
func runAdmin(ctx context.Context, args []string, getenv func(string) string, out io.Writer) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: journeyman admin create --email EMAIL --org NAME [--name DISPLAY NAME] [-db PATH|URL] [--url BASE]")
	}
	fs := flag.NewFlagSet("journeyman admin create", flag.ContinueOnError)
	fs.SetOutput(out)
	email := fs.String("email", "", "the admin's email address")
	org := fs.String("org", "", "the organisation's name (created when no organisation has it)")
	name := fs.String("name", "", "the admin's display name (default: the email's local part)")
	db := fs.String("db", envOr(getenv, "JOURNEYMAN_DB", "./data/journeyman.db"), "SQLite file path, or a postgres:// URL (env JOURNEYMAN_DB)")
	base := fs.String("url", "http://"+envOr(getenv, "JOURNEYMAN_ADDR", "127.0.0.1:8080"), "the address people open the app at, for the link")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	addr, err := identity.NormalizeEmail("--email", *email)
	if err != nil {
		return err
	}
	orgName, err := identity.CheckName("--org", *org, identity.MaxOrgName)
	if err != nil {
		return err
	}
	if *name == "" {
		*name, _, _ = strings.Cut(addr, "@")
	}
	display, err := identity.CheckName("--name", *name, identity.MaxDisplayName)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	u, token, expires, err := st.CreateAdmin(ctx, orgName, addr, display)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "admin: %s (%s) of %s\nsetup link (one use, until %s): %s/reset-password/%s\n",
		u.Email, u.DisplayName, u.OrgName, expires.Format("2006-01-02 15:04 MST"), *base, token)
	return nil
}
