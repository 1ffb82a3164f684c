package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
)

// DeploymentLinkTTL is how long a deployment's setup link lasts; every start of
// a server that finds no organisation makes a new one.
const DeploymentLinkTTL = 24 * time.Hour

var (
	errBadSetupLink = apperr.NotFound("this setup link is invalid or has expired; restart the server for a new one")
	errSetUpAlready = apperr.Conflict("this deployment is set up already: sign in, or ask its admin for an invite")
)

// CreateSetupLink makes a one-time link for setting up the deployment, if
// it has no organisation yet: ok is false once it has one.
func (s *Store) CreateSetupLink(ctx context.Context) (token string, expires time.Time, ok bool, err error) {
	err = s.tx(ctx, "create setup link", func(ctx context.Context, tx *sql.Tx) error {
		if err := s.lockSetup(ctx, tx); err != nil {
			return err
		}
		if set, err := hasOrganisation(ctx, tx); err != nil || set {
			return err
		}
		now := s.Now()
		var hash string
		token, hash = identity.NewSecret()
		expires = now.Add(DeploymentLinkTTL).UTC()
		// Expired links go with each new one, so the table never grows.
		if _, err := tx.ExecContext(ctx, `DELETE FROM setup_links WHERE expires_at <= $1`, now); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO setup_links (token_hash, expires_at, created_at) VALUES ($1, $2, $3)`, hash, expires, now)
		ok = err == nil
		return err
	})
	return token, expires, ok, err
}

// CheckSetupLink answers when a setup link expires, if it can still set up
// the deployment: ENOTFOUND for an unknown or expired link, ECONFLICT once
// an organisation exists.
func (s *Store) CheckSetupLink(ctx context.Context, token string) (time.Time, error) {
	var expires time.Time
	if set, err := hasOrganisation(ctx, s.db); err != nil || set {
		return expires, orConflict(err)
	}
	err := s.db.QueryRowContext(ctx, `SELECT expires_at FROM setup_links WHERE token_hash = $1 AND expires_at > $2`,
		identity.HashSecret(token), s.Now()).Scan(&expires)
	if isNoRows(err) {
		return expires, errBadSetupLink
	}
	if err != nil {
		return expires, fmt.Errorf("setup link: %w", err)
	}
	return expires.UTC(), nil
}

// orConflict is err, or errSetUpAlready when there is none.
func orConflict(err error) error {
	if err != nil {
		return fmt.Errorf("setup link: %w", err)
	}
	return errSetUpAlready
}

// SetUp uses a setup link: it creates the deployment's first organisation,
// named orgName, with its first admin, and spends every setup link. The
// admin is the account accountID when one is given (someone signed in
// without an organisation), else a new account a, which takes over the
// guest guestID's records as a sign-up does.
func (s *Store) SetUp(ctx context.Context, token, orgName string, accountID string, a NewAccount, guestID string) (User, error) {
	var u User
	err := s.tx(ctx, "set up", func(ctx context.Context, tx *sql.Tx) error {
		if err := s.lockSetup(ctx, tx); err != nil {
			return err
		}
		if set, err := hasOrganisation(ctx, tx); err != nil || set {
			return orConflict(err)
		}
		now := s.Now()
		res, err := tx.ExecContext(ctx, `DELETE FROM setup_links WHERE token_hash = $1 AND expires_at > $2`, identity.HashSecret(token), now)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return errBadSetupLink
		}
		// Every other link is spent with it.
		if _, err := tx.ExecContext(ctx, `DELETE FROM setup_links`); err != nil {
			return err
		}
		orgID := identity.NewID()
		if _, err := tx.ExecContext(ctx, `INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, $3)`, orgID, orgName, now); err != nil {
			return err
		}
		if accountID == "" {
			a.OrgID, a.Role = orgID, identity.Admin
			u, err = signUp(ctx, tx, a, guestID, now)
			return err
		}
		res, err = tx.ExecContext(ctx, `UPDATE learners SET org_id = $2, role = 'admin', joined_at = $3 WHERE id = $1 AND org_id IS NULL AND email IS NOT NULL`, accountID, orgID, now)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			return apperr.Conflict("only an account outside any organisation becomes the admin this way")
		}
		u, err = getUser(ctx, tx, `l.id = $1`, accountID)
		return err
	})
	return u, err
}

// lockSetup makes setups and new setup links one at a time: on PostgreSQL
// two processes could otherwise each find no organisation and both create
// one. SQLite's write transactions are one at a time already.
func (s *Store) lockSetup(ctx context.Context, tx *sql.Tx) error {
	if s.dialect != Postgres {
		return nil
	}
	_, err := tx.ExecContext(ctx, `LOCK TABLE setup_links IN EXCLUSIVE MODE`)
	return err
}

func hasOrganisation(ctx context.Context, q querier) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM organisations LIMIT 1) o`).Scan(&n)
	return n > 0, err
}
