package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
)

// Invite is a link that lets people join an organisation with a role.
type Invite struct {
	ID        string        `json:"id"`
	OrgID     string        `json:"-"`
	Role      identity.Role `json:"role"`
	Cohort    *Ref          `json:"cohort"`
	CohortID  string        `json:"-"`
	MaxUses   int           `json:"maxUses"`
	Uses      int           `json:"uses"`
	ExpiresAt time.Time     `json:"expiresAt"`
	Revoked   bool          `json:"revoked"`
	CreatedAt time.Time     `json:"createdAt"`
	CreatedBy Ref           `json:"createdBy"`
}

// NewInvite is what an admin asks for.
type NewInvite struct {
	Role     identity.Role
	CohortID string
	MaxUses  int
	TTL      time.Duration
}

// CreateInvite stores an invite to orgID and returns it with the token for its link.
func (s *Store) CreateInvite(ctx context.Context, orgID, createdBy string, n NewInvite) (Invite, string, error) {
	token, hash := identity.NewSecret()
	id := identity.NewID()
	now := s.Now()
	err := s.tx(ctx, "create invite", func(ctx context.Context, tx *sql.Tx) error {
		var cohort any
		if n.CohortID != "" {
			if err := cohortInOrg(ctx, tx, orgID, n.CohortID); err != nil {
				return err
			}
			cohort = n.CohortID
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO invites (id, org_id, token_hash, role, cohort_id, max_uses, expires_at, created_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, id, orgID, hash, n.Role, cohort, n.MaxUses, now.Add(n.TTL).UTC(), createdBy, now)
		return err
	})
	if err != nil {
		return Invite{}, "", err
	}
	inv, err := s.getInvite(ctx, `i.id = $1`, id)
	return inv, token, err
}

const inviteColumns = `SELECT i.id, i.org_id, i.role, COALESCE(i.cohort_id, ''), COALESCE(c.name, ''), i.max_uses, i.uses,
	i.expires_at, i.revoked, i.created_at, i.created_by, cb.display_name
	FROM invites i LEFT JOIN cohorts c ON c.id = i.cohort_id JOIN learners cb ON cb.id = i.created_by `

func scanInvite(row interface{ Scan(...any) error }) (Invite, error) {
	var inv Invite
	var cohortName string
	err := row.Scan(&inv.ID, &inv.OrgID, &inv.Role, &inv.CohortID, &cohortName, &inv.MaxUses, &inv.Uses,
		&inv.ExpiresAt, &inv.Revoked, &inv.CreatedAt, &inv.CreatedBy.ID, &inv.CreatedBy.Name)
	if inv.CohortID != "" {
		inv.Cohort = &Ref{ID: inv.CohortID, Name: cohortName}
	}
	inv.ExpiresAt, inv.CreatedAt = inv.ExpiresAt.UTC(), inv.CreatedAt.UTC()
	return inv, err
}

func (s *Store) getInvite(ctx context.Context, where string, arg any) (Invite, error) {
	inv, err := scanInvite(s.db.QueryRowContext(ctx, inviteColumns+`WHERE `+where, arg))
	if isNoRows(err) {
		return inv, errBadInvite
	}
	return inv, err
}

var errBadInvite = apperr.NotFound("this invite link is invalid, expired or used up")

// usable reports whether an invite may still be used at now.
func (inv Invite) usable(now time.Time) bool {
	return !inv.Revoked && inv.Uses < inv.MaxUses && now.Before(inv.ExpiresAt)
}

// InviteByToken returns a usable invite with its organisation's name.
func (s *Store) InviteByToken(ctx context.Context, token string) (Invite, Organisation, error) {
	inv, err := s.getInvite(ctx, `i.token_hash = $1`, identity.HashSecret(token))
	if err != nil || !inv.usable(s.Now()) {
		return Invite{}, Organisation{}, errBadInvite
	}
	org, err := s.GetOrganisation(ctx, inv.OrgID)
	return inv, org, err
}

// ListInvites returns an organisation's invites, newest first (at most 500).
func (s *Store) ListInvites(ctx context.Context, orgID string) ([]Invite, error) {
	rows, err := s.db.QueryContext(ctx, inviteColumns+`WHERE i.org_id = $1 ORDER BY i.created_at DESC, i.id LIMIT 500`, orgID)
	if err != nil {
		return nil, fmt.Errorf("list invites: %w", err)
	}
	defer rows.Close()
	out := []Invite{}
	for rows.Next() {
		inv, err := scanInvite(rows)
		if err != nil {
			return nil, fmt.Errorf("list invites: %w", err)
		}
		out = append(out, inv)
	}
	return out, rows.Err()
}

// RevokeInvite ends an invite of orgID.
func (s *Store) RevokeInvite(ctx context.Context, orgID, id string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE invites SET revoked = TRUE WHERE id = $1 AND org_id = $2`, id, orgID)
	if err != nil {
		return fmt.Errorf("revoke invite: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.NotFound("invite %s does not exist", id)
	}
	return nil
}

// useInvite counts one use of a usable invite, inside the joining transaction.
func useInvite(ctx context.Context, tx *sql.Tx, hash string, now time.Time) (Invite, error) {
	inv, err := scanInvite(tx.QueryRowContext(ctx, inviteColumns+`WHERE i.token_hash = $1`, hash))
	if isNoRows(err) || (err == nil && !inv.usable(now)) {
		return Invite{}, apperr.Invalid("inviteToken: this invite link is invalid, expired or used up")
	}
	if err != nil {
		return Invite{}, err
	}
	// The guard in WHERE keeps two joiners from both taking the last use.
	res, err := tx.ExecContext(ctx, `UPDATE invites SET uses = uses + 1 WHERE id = $1 AND uses < max_uses`, inv.ID)
	if err != nil {
		return Invite{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Invite{}, apperr.Invalid("inviteToken: this invite link is used up")
	}
	return inv, nil
}

// AcceptInvite puts an account without an organisation into the invite's.
func (s *Store) AcceptInvite(ctx context.Context, userID, token string) (User, error) {
	var u User
	err := s.tx(ctx, "accept invite", func(ctx context.Context, tx *sql.Tx) error {
		var org sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT org_id FROM learners WHERE id = $1`, userID).Scan(&org)
		if isNoRows(err) {
			return apperr.NotFound("no such user")
		}
		if err != nil {
			return err
		}
		if org.Valid {
			return apperr.Conflict("you are already a member of an organisation; leave it first")
		}
		inv, err := useInvite(ctx, tx, identity.HashSecret(token), s.Now())
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE learners SET org_id = $2, role = $3, joined_at = $4 WHERE id = $1`, userID, inv.OrgID, inv.Role, s.Now()); err != nil {
			return err
		}
		if inv.CohortID != "" {
			if err := addCohortMember(ctx, tx, inv.CohortID, userID, s.Now()); err != nil {
				return err
			}
		}
		u, err = getUser(ctx, tx, `l.id = $1`, userID)
		return err
	})
	return u, err
}
