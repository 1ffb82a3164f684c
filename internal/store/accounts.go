package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
)

// User is a person known to the platform: a guest (no email) or an account.
type User struct {
	ID           string
	DisplayName  string
	Email        string // "" for a guest
	Role         identity.Role
	OrgID        string
	OrgName      string
	AuthEpoch    int64
	PasswordHash string
	JoinedAt     *time.Time
}

// Caller is the user as a request's caller.
func (u User) Caller() identity.Caller {
	return identity.Caller{ID: u.ID, DisplayName: u.DisplayName, Role: u.Role, OrgID: u.OrgID, OrgName: u.OrgName, Email: u.Email, Presented: true}
}

const userColumns = `l.id, l.display_name, COALESCE(l.email, ''), l.role, COALESCE(l.org_id, ''), COALESCE(o.name, ''),
	l.auth_epoch, l.password_hash, l.joined_at`

const userFrom = ` FROM learners l LEFT JOIN organisations o ON o.id = l.org_id `

func scanUser(row interface{ Scan(...any) error }) (User, error) {
	var u User
	var joined sql.NullTime
	if err := row.Scan(&u.ID, &u.DisplayName, &u.Email, &u.Role, &u.OrgID, &u.OrgName, &u.AuthEpoch, &u.PasswordHash, &joined); err != nil {
		return u, err
	}
	if joined.Valid {
		t := joined.Time.UTC()
		u.JoinedAt = &t
	}
	return u, nil
}

func getUser(ctx context.Context, q querier, where string, arg any) (User, error) {
	u, err := scanUser(q.QueryRowContext(ctx, `SELECT `+userColumns+userFrom+`WHERE `+where, arg))
	if isNoRows(err) {
		return u, apperr.NotFound("no such user")
	}
	return u, err
}

// GetUser returns a user by id, or ENOTFOUND.
func (s *Store) GetUser(ctx context.Context, id string) (User, error) {
	// Every signed-in request reads its account: a prepared statement.
	return getUser(ctx, preparedReads{s}, `l.id = $1`, id)
}

// GetUserByEmail returns the account with this email, in any case, or ENOTFOUND.
func (s *Store) GetUserByEmail(ctx context.Context, email string) (User, error) {
	return getUser(ctx, s.db, `l.email = $1`, identity.FoldEmail(email))
}

// EnsureGuest records a guest the first time they write something, so that
// their records have an owner. Reading stores nothing.
func (s *Store) EnsureGuest(ctx context.Context, id string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO learners (id, display_name, created_at) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO NOTHING`, id, identity.GuestName(id), s.Now())
	if err != nil {
		return fmt.Errorf("ensure guest: %w", err)
	}
	return nil
}

// ServerSecret returns the deployment's secret of this name, creating it with
// n random bytes the first time; every process sharing the database reads
// the same one.
func (s *Store) ServerSecret(ctx context.Context, name string, n int) ([]byte, error) {
	b := make([]byte, n)
	rand.Read(b)
	if _, err := s.db.ExecContext(ctx, `INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, name, b); err != nil {
		return nil, fmt.Errorf("server secret %s: %w", name, err)
	}
	if err := s.db.QueryRowContext(ctx, `SELECT value FROM server_secrets WHERE name = $1`, name).Scan(&b); err != nil {
		return nil, fmt.Errorf("server secret %s: %w", name, err)
	}
	return b, nil
}

// NewAccount is what sign-up and the command line store.
type NewAccount struct {
	Email        string
	DisplayName  string
	PasswordHash string // "" until the person sets one through a link
	OrgID        string
	Role         identity.Role // learner outside an organisation
	CohortID     string
}

var errEmailTaken = apperr.Conflict("this email cannot be used to sign up; if it is yours, sign in")

// CreateAccount stores a new account. When guestID names a guest, the guest's
// records move into the account and the guest is gone. When inviteHash is
// set, the invite is used up by one and decides organisation, role and cohort.
func (s *Store) CreateAccount(ctx context.Context, a NewAccount, guestID, inviteHash string) (User, error) {
	var u User
	err := s.tx(ctx, "create account", func(ctx context.Context, tx *sql.Tx) error {
		if inviteHash != "" {
			inv, err := useInvite(ctx, tx, inviteHash, s.Now())
			if err != nil {
				return err
			}
			a.OrgID, a.Role, a.CohortID = inv.OrgID, inv.Role, inv.CohortID
		}
		var err error
		u, err = signUp(ctx, tx, a, guestID, s.Now())
		return err
	})
	return u, err
}

// signUp inserts the account a and moves the guest guestID's records ("" for
// none) into it.
func signUp(ctx context.Context, tx *sql.Tx, a NewAccount, guestID string, now time.Time) (User, error) {
	id, err := insertAccount(ctx, tx, a, now)
	if err != nil {
		return User{}, err
	}
	if guestID != "" {
		if err := moveGuestData(ctx, tx, guestID, id); err != nil {
			return User{}, err
		}
	}
	return getUser(ctx, tx, `l.id = $1`, id)
}

func insertAccount(ctx context.Context, tx *sql.Tx, a NewAccount, now time.Time) (string, error) {
	// Emails are unique in one case only; a caller that forgot to
	// normalize must not create a second account for the same person.
	a.Email = identity.FoldEmail(a.Email)
	var taken int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM learners WHERE email = $1`, a.Email).Scan(&taken); err != nil {
		return "", err
	}
	if taken > 0 {
		return "", errEmailTaken
	}
	if a.Role == "" {
		a.Role = identity.Learner
	}
	id := identity.NewID()
	var org, joined any
	if a.OrgID != "" {
		org, joined = a.OrgID, now
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO learners (id, display_name, created_at, email, password_hash, role, org_id, joined_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, id, a.DisplayName, now, a.Email, a.PasswordHash, a.Role, org, joined)
	if isUniqueViolation(err) {
		return "", errEmailTaken
	}
	if err != nil {
		return "", err
	}
	if a.CohortID != "" {
		if err := addCohortMember(ctx, tx, a.CohortID, id, now); err != nil {
			return "", err
		}
	}
	return id, nil
}

// MoveGuestData moves a guest's records into an account (at sign-in) and
// forgets the guest. Records kept once per person (preferences, profile, a
// module's refresher card) move only where the account has none.
func (s *Store) MoveGuestData(ctx context.Context, guestID, userID string) error {
	return s.tx(ctx, "move guest data", func(ctx context.Context, tx *sql.Tx) error { return moveGuestData(ctx, tx, guestID, userID) })
}

func moveGuestData(ctx context.Context, tx *sql.Tx, guestID, userID string) error {
	var email sql.NullString
	err := tx.QueryRowContext(ctx, `SELECT email FROM learners WHERE id = $1`, guestID).Scan(&email)
	if isNoRows(err) || (err == nil && email.Valid) {
		return nil // a guest who never wrote anything, or not a guest at all
	}
	if err != nil {
		return err
	}
	moves := []string{
		// A new revision: a process holding a session's head (sessionHeads)
		// must not go on taking the guest for its learner.
		`UPDATE xr_sessions SET user_id = $2, revision = revision + 1 WHERE user_id = $1`,
		`UPDATE safety_alerts SET user_id = $2 WHERE user_id = $1`,
		`UPDATE demo_requests SET learner_id = $2 WHERE learner_id = $1`,
		`UPDATE skill_assessments SET learner_id = $2 WHERE learner_id = $1`,
		`UPDATE voice_training_runs SET learner_id = $2 WHERE learner_id = $1`,
		`UPDATE recommendation_sets SET learner_id = $2 WHERE learner_id = $1`,
		`UPDATE learning_preferences SET learner_id = $2 WHERE learner_id = $1
			AND NOT EXISTS (SELECT 1 FROM learning_preferences WHERE learner_id = $2)`,
		`UPDATE personalization_profiles SET learner_id = $2 WHERE learner_id = $1
			AND NOT EXISTS (SELECT 1 FROM personalization_profiles WHERE learner_id = $2)`,
		`UPDATE refresher_cards SET learner_id = $2 WHERE learner_id = $1
			AND NOT EXISTS (SELECT 1 FROM refresher_cards c WHERE c.learner_id = $2 AND c.module_id = refresher_cards.module_id)`,
	}
	for _, q := range moves {
		if _, err := tx.ExecContext(ctx, q, guestID, userID); err != nil {
			return fmt.Errorf("move guest data: %w", err)
		}
	}
	// Separate from the moves: PostgreSQL refuses more arguments than a
	// statement has parameters.
	deletes := []string{
		`DELETE FROM learning_preferences WHERE learner_id = $1`,
		`DELETE FROM personalization_profiles WHERE learner_id = $1`,
		`DELETE FROM refresher_cards WHERE learner_id = $1`,
		`DELETE FROM learners WHERE id = $1`,
	}
	for _, q := range deletes {
		if _, err := tx.ExecContext(ctx, q, guestID); err != nil {
			return fmt.Errorf("move guest data: %w", err)
		}
	}
	return nil
}

// SetPassword stores a new password hash and raises the account's epoch,
// which signs out every session made before.
func (s *Store) SetPassword(ctx context.Context, userID, hash string) (User, error) {
	var u User
	err := s.tx(ctx, "set password", func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE learners SET password_hash = $2, auth_epoch = auth_epoch + 1 WHERE id = $1`, userID, hash); err != nil {
			return err
		}
		var err error
		u, err = getUser(ctx, tx, `l.id = $1`, userID)
		return err
	})
	return u, err
}

// SignOutEverywhere raises the account's epoch, ending all its sessions.
func (s *Store) SignOutEverywhere(ctx context.Context, userID string) error {
	_, err := s.db.ExecContext(ctx, `UPDATE learners SET auth_epoch = auth_epoch + 1 WHERE id = $1`, userID)
	if err != nil {
		return fmt.Errorf("sign out everywhere: %w", err)
	}
	return nil
}

// SetDisplayName renames an account.
func (s *Store) SetDisplayName(ctx context.Context, userID, name string) (User, error) {
	if _, err := s.db.ExecContext(ctx, `UPDATE learners SET display_name = $2 WHERE id = $1`, userID, name); err != nil {
		return User{}, fmt.Errorf("set display name: %w", err)
	}
	return s.GetUser(ctx, userID)
}

// Password links live this long: a reset link a day, an invite's setup link a week.
const (
	ResetLinkTTL = 24 * time.Hour
	SetupLinkTTL = 7 * 24 * time.Hour
)

// CreatePasswordLink stores a link that lets its holder set userID's
// password once before it expires; it returns the token to put in the link.
func (s *Store) CreatePasswordLink(ctx context.Context, userID string, ttl time.Duration) (token string, expires time.Time, err error) {
	err = s.tx(ctx, "create password link", func(ctx context.Context, tx *sql.Tx) error {
		token, expires, err = createPasswordLink(ctx, tx, userID, s.Now(), ttl)
		return err
	})
	return token, expires, err
}

func createPasswordLink(ctx context.Context, tx *sql.Tx, userID string, now time.Time, ttl time.Duration) (string, time.Time, error) {
	token, hash := identity.NewSecret()
	expires := now.Add(ttl).UTC()
	_, err := tx.ExecContext(ctx, `INSERT INTO password_links (token_hash, learner_id, expires_at, created_at) VALUES ($1, $2, $3, $4)`,
		hash, userID, expires, now)
	return token, expires, err
}

var errBadLink = apperr.NotFound("this link is invalid or has expired")

// PasswordLinkUser returns the account a valid password link is for.
func (s *Store) PasswordLinkUser(ctx context.Context, token string) (User, error) {
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT learner_id FROM password_links WHERE token_hash = $1 AND NOT used AND expires_at > $2`,
		identity.HashSecret(token), s.Now()).Scan(&id)
	if isNoRows(err) {
		return User{}, errBadLink
	}
	if err != nil {
		return User{}, fmt.Errorf("password link: %w", err)
	}
	return s.GetUser(ctx, id)
}

// UsePasswordLink sets the password of a valid link's account, uses the link
// up and signs out the account's other sessions.
func (s *Store) UsePasswordLink(ctx context.Context, token, passwordHash string) (User, error) {
	var u User
	err := s.tx(ctx, "use password link", func(ctx context.Context, tx *sql.Tx) error {
		var id string
		err := tx.QueryRowContext(ctx, `UPDATE password_links SET used = TRUE
			WHERE token_hash = $1 AND NOT used AND expires_at > $2 RETURNING learner_id`, identity.HashSecret(token), s.Now()).Scan(&id)
		if isNoRows(err) {
			return errBadLink
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE learners SET password_hash = $2, auth_epoch = auth_epoch + 1 WHERE id = $1`, id, passwordHash); err != nil {
			return err
		}
		u, err = getUser(ctx, tx, `l.id = $1`, id)
		return err
	})
	return u, err
}

// Organisation is a training centre or employer.
type Organisation struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	CreatedAt time.Time `json:"createdAt"`
}

// GetOrganisation returns an organisation, or ENOTFOUND.
func (s *Store) GetOrganisation(ctx context.Context, id string) (Organisation, error) {
	var o Organisation
	err := s.db.QueryRowContext(ctx, `SELECT id, name, created_at FROM organisations WHERE id = $1`, id).Scan(&o.ID, &o.Name, &o.CreatedAt)
	if isNoRows(err) {
		return o, apperr.NotFound("organisation %s does not exist", id)
	}
	o.CreatedAt = o.CreatedAt.UTC()
	return o, err
}

// CreateAdmin makes email an admin of the organisation named orgName, both
// created when missing (the command line's first admin of a deployment), and
// returns a password link for them. An account of another organisation is
// refused.
func (s *Store) CreateAdmin(ctx context.Context, orgName, email, displayName string) (u User, token string, expires time.Time, err error) {
	email = identity.FoldEmail(email)
	err = s.tx(ctx, "create admin", func(ctx context.Context, tx *sql.Tx) error {
		// A deployment set up from the command line is set up: the links its
		// server logged go (setup.go).
		if err := s.lockSetup(ctx, tx); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM setup_links`); err != nil {
			return err
		}
		now := s.Now()
		var orgID string
		err := tx.QueryRowContext(ctx, `SELECT id FROM organisations WHERE name = $1 ORDER BY created_at LIMIT 1`, orgName).Scan(&orgID)
		if isNoRows(err) {
			orgID = identity.NewID()
			_, err = tx.ExecContext(ctx, `INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, $3)`, orgID, orgName, now)
		}
		if err != nil {
			return err
		}
		existing, err := getUser(ctx, tx, `l.email = $1`, email)
		switch {
		case err == nil && existing.OrgID != "" && existing.OrgID != orgID:
			return apperr.Conflict("%s is a member of another organisation (%s)", email, existing.OrgName)
		case err == nil:
			_, err = tx.ExecContext(ctx, `UPDATE learners SET org_id = $2, role = 'admin', joined_at = COALESCE(joined_at, $3) WHERE id = $1`, existing.ID, orgID, now)
			u.ID = existing.ID
		case apperr.Code(err) == apperr.ENOTFOUND:
			u.ID, err = insertAccount(ctx, tx, NewAccount{Email: email, DisplayName: displayName, OrgID: orgID, Role: identity.Admin}, now)
		}
		if err != nil {
			return err
		}
		if token, expires, err = createPasswordLink(ctx, tx, u.ID, now, ResetLinkTTL); err != nil {
			return err
		}
		u, err = getUser(ctx, tx, `l.id = $1`, u.ID)
		return err
	})
	return u, token, expires, err
}

// isUniqueViolation reports a unique-constraint error of either database.
func isUniqueViolation(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "UNIQUE constraint failed") || strings.Contains(msg, "SQLSTATE 23505")
}

// DeleteExpiredSessions removes signed-in sessions past their expiry.
func (s *Store) DeleteExpiredSessions(ctx context.Context) error {
	q := `DELETE FROM sessions WHERE expiry < julianday('now')`
	if s.dialect == Postgres {
		q = `DELETE FROM sessions WHERE expiry < current_timestamp`
	}
	if _, err := s.db.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("delete expired sessions: %w", err)
	}
	return nil
}
