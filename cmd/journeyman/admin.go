package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/store"
)

var errAdminUsage = errors.New(`usage: journeyman admin create --email EMAIL --org NAME [--name DISPLAY NAME] [-db PATH|URL] [--url BASE]
       journeyman admin reset-password --email EMAIL [-db PATH|URL] [--url BASE]`)

// runAdmin is the operator's commands, against the server's database:
// `admin create` makes the first admin of a deployment (or of another
// organisation) and prints a one-time setup link with which they choose a
// password; `admin reset-password` prints a link that sets a new password
// for any account, for someone with no admin to ask (an individual
// learner, an organisation's last admin): the server sends no e-mail.
func runAdmin(ctx context.Context, args []string, getenv func(string) string, out io.Writer) error {
	if len(args) == 0 || (args[0] != "create" && args[0] != "reset-password") {
		return errAdminUsage
	}
	fs := flag.NewFlagSet("journeyman admin "+args[0], flag.ContinueOnError)
	fs.SetOutput(out)
	email := fs.String("email", "", "the account's email address")
	db := fs.String("db", envOr(getenv, "JOURNEYMAN_DB", "./data/journeyman.db"), "SQLite file path, or a postgres:// URL (env JOURNEYMAN_DB)")
	base := fs.String("url", "http://"+envOr(getenv, "JOURNEYMAN_ADDR", "127.0.0.1:8080"), "the address people open the app at, for the link")
	var org, name *string
	if args[0] == "create" {
		org = fs.String("org", "", "the organisation's name (created when no organisation has it)")
		name = fs.String("name", "", "the admin's display name (default: the email's local part)")
	}
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	addr, err := identity.NormalizeEmail("--email", *email)
	if err != nil {
		return err
	}
	if args[0] == "reset-password" {
		return resetPassword(ctx, *db, addr, *base, out)
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

func resetPassword(ctx context.Context, db, email, base string, out io.Writer) error {
	st, err := store.Open(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.GetUserByEmail(ctx, email)
	if apperr.Code(err) == apperr.ENOTFOUND {
		return fmt.Errorf("no account has the email %s", email)
	}
	if err != nil {
		return err
	}
	token, expires, err := st.CreatePasswordLink(ctx, u.ID, store.ResetLinkTTL)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "account: %s (%s)\npassword link (one use, until %s): %s/reset-password/%s\n",
		u.Email, u.DisplayName, expires.Format("2006-01-02 15:04 MST"), base, token)
	return nil
}
