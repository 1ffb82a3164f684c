package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"time"
	"unicode/utf8"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
)

// xAPI credential limits.
const (
	MaxXAPICredentialName = 80
	// MaxXAPICredentials is how many live credentials an organisation may
	// hold: enough for every tool it connects, few enough to review.
	MaxXAPICredentials = 100
)

// XAPICredential is a key an organisation gives an xAPI client (a course
// player, an LMS) to read or write its statements over HTTP Basic auth.
// Its secret is not part of it: only a hash is kept.
type XAPICredential struct {
	ID        string     `json:"id"`
	OrgID     string     `json:"-"`
	Name      string     `json:"name"`
	Key       string     `json:"key"`
	CanRead   bool       `json:"canRead"`
	CanWrite  bool       `json:"canWrite"`
	CreatedBy string     `json:"-"`
	CreatedAt time.Time  `json:"createdAt"`
	RevokedAt *time.Time `json:"revokedAt"`
}

// errBadXAPICredential is the one answer to every failed check, so that a
// caller cannot tell a known key from an unknown one.
var errBadXAPICredential = apperr.Errorf(apperr.EUNAUTHORIZED, "the xAPI key or secret is wrong")

// randomText returns n random bytes in URL-safe base64 without padding.
func randomText(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashXAPISecret is the stored form of a secret. A secret is 32 random
// bytes, out of reach of guessing, so a fast hash suffices: a slow one
// would only slow every statement request.
func hashXAPISecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// CreateXAPICredential returns the new credential and its secret, shown
// this once (only its SHA-256 is stored). The key is 20 URL-safe
// characters; name is 1..80 characters; at least one of read and write is
// required; an organisation holds at most MaxXAPICredentials live ones.
func (s *Store) CreateXAPICredential(ctx context.Context, orgID, createdBy, name string, canRead, canWrite bool) (XAPICredential, string, error) {
	name, err := identity.CheckName("name", name, MaxXAPICredentialName)
	if err != nil {
		return XAPICredential{}, "", err
	}
	if !canRead && !canWrite {
		return XAPICredential{}, "", apperr.Invalid("canRead or canWrite must be true: a credential reads, writes or both")
	}
	c := XAPICredential{ID: identity.NewID(), OrgID: orgID, Name: name, Key: randomText(15),
		CanRead: canRead, CanWrite: canWrite, CreatedBy: createdBy, CreatedAt: s.Now().UTC()}
	secret := randomText(32)
	err = s.tx(ctx, "create xAPI credential", func(ctx context.Context, tx *sql.Tx) error {
		// Two admins creating the hundredth credential at once must not
		// both pass the count: on PostgreSQL the organisation's row
		// serializes them; SQLite's transactions already take turns.
		if s.dialect == Postgres {
			if _, err := tx.ExecContext(ctx, `SELECT id FROM organisations WHERE id = $1 FOR UPDATE`, orgID); err != nil {
				return err
			}
		}
		var live int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM xapi_credentials WHERE org_id = $1 AND revoked_at IS NULL`, orgID).Scan(&live); err != nil {
			return err
		}
		if live >= MaxXAPICredentials {
			return apperr.Invalid("your organisation already has %d live xAPI credentials, the most it may have; revoke one first", MaxXAPICredentials)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO xapi_credentials (id, org_id, name, key, secret_hash, can_read, can_write, created_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
			c.ID, orgID, c.Name, c.Key, hashXAPISecret(secret), canRead, canWrite, createdBy, c.CreatedAt)
		return err
	})
	if err != nil {
		return XAPICredential{}, "", err
	}
	return c, secret, nil
}

const xapiCredentialColumns = `SELECT id, org_id, name, key, can_read, can_write, created_by, created_at, revoked_at FROM xapi_credentials ` //nolint:gosec // G101: the column list of the table, not a credential

func scanXAPICredential(row interface{ Scan(...any) error }) (XAPICredential, error) {
	var c XAPICredential
	var revoked sql.NullTime
	err := row.Scan(&c.ID, &c.OrgID, &c.Name, &c.Key, &c.CanRead, &c.CanWrite, &c.CreatedBy, &c.CreatedAt, &revoked)
	c.CreatedAt = c.CreatedAt.UTC()
	if revoked.Valid {
		t := revoked.Time.UTC()
		c.RevokedAt = &t
	}
	return c, err
}

// ListXAPICredentials returns an organisation's credentials, newest first,
// revoked ones included.
func (s *Store) ListXAPICredentials(ctx context.Context, orgID string) ([]XAPICredential, error) {
	rows, err := s.db.QueryContext(ctx, xapiCredentialColumns+`WHERE org_id = $1 ORDER BY created_at DESC, id`, orgID)
	if err != nil {
		return nil, fmt.Errorf("list xAPI credentials: %w", err)
	}
	defer rows.Close()
	out := []XAPICredential{}
	for rows.Next() {
		c, err := scanXAPICredential(rows)
		if err != nil {
			return nil, fmt.Errorf("list xAPI credentials: %w", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list xAPI credentials: %w", err)
	}
	return out, nil
}

// RevokeXAPICredential ends a credential of orgID for good. Revoking a
// revoked credential keeps its first revocation time.
func (s *Store) RevokeXAPICredential(ctx context.Context, orgID, id string) error {
	res, err := s.db.ExecContext(ctx, `UPDATE xapi_credentials SET revoked_at = COALESCE(revoked_at, $3) WHERE id = $1 AND org_id = $2`,
		id, orgID, s.Now().UTC())
	if err != nil {
		return fmt.Errorf("revoke xAPI credential: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.NotFound("xAPI credential %s does not exist", id)
	}
	return nil
}

// CheckXAPICredential returns the live credential of key whose secret
// matches; an unknown key, a wrong secret and a revoked credential all
// answer EUNAUTHORIZED alike.
func (s *Store) CheckXAPICredential(ctx context.Context, key, secret string) (XAPICredential, error) {
	// A key is 20 URL-safe characters; anything else (PostgreSQL refuses
	// text that is not UTF-8) is not worth a query.
	if len(key) == 0 || len(key) > 64 || !utf8.ValidString(key) {
		subtle.ConstantTimeCompare([]byte(hashXAPISecret(secret)), []byte(hashXAPISecret("")))
		return XAPICredential{}, errBadXAPICredential
	}
	var hash string
	var revoked sql.NullTime
	var c XAPICredential
	err := s.db.QueryRowContext(ctx, `SELECT id, org_id, name, key, can_read, can_write, created_by, created_at, revoked_at, secret_hash
		FROM xapi_credentials WHERE key = $1`, key).
		Scan(&c.ID, &c.OrgID, &c.Name, &c.Key, &c.CanRead, &c.CanWrite, &c.CreatedBy, &c.CreatedAt, &revoked, &hash)
	if isNoRows(err) {
		// Hash anyway, so that an unknown key takes as long as a known one.
		subtle.ConstantTimeCompare([]byte(hashXAPISecret(secret)), []byte(hashXAPISecret("")))
		return XAPICredential{}, errBadXAPICredential
	}
	if err != nil {
		return XAPICredential{}, fmt.Errorf("check xAPI credential: %w", err)
	}
	if subtle.ConstantTimeCompare([]byte(hashXAPISecret(secret)), []byte(hash)) != 1 || revoked.Valid {
		return XAPICredential{}, errBadXAPICredential
	}
	c.CreatedAt = c.CreatedAt.UTC()
	return c, nil
}
