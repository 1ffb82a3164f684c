package store

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/xapi"
)

// Forwarding limits.
const (
	MaxXAPIForwardingEndpoint = 2000
	MaxXAPIForwardingKey      = 200
	MaxXAPIForwardingSecret   = 200
)

// XAPIForwardingConfig is what an organisation's admin sets to forward its
// statements to an external LRS. An empty Secret keeps the stored one, which
// is allowed only while the endpoint and key stay the same: a secret is
// never sent to an address or key it was not given for.
type XAPIForwardingConfig struct {
	Endpoint string
	Key      string
	Secret   string
	Version  xapi.Version
}

// XAPIForwardingStatus is what the admin sees of the forwarding: its
// configuration (never the secret) and the queue's figures.
type XAPIForwardingStatus struct {
	Configured bool   `json:"configured"`
	Endpoint   string `json:"endpoint"`
	Key        string `json:"key"`
	Version    string `json:"version"`
	Paused     bool   `json:"paused"`
	// QueueLength counts the statements not yet acknowledged.
	QueueLength int64 `json:"queueLength"`
	// ForwardedThrough is the stored time of the last statement the
	// external LRS acknowledged.
	ForwardedThrough *time.Time `json:"forwardedThrough"`
	LastError        string     `json:"lastError"`
	LastErrorAt      *time.Time `json:"lastErrorAt"`
	LastSuccessAt    *time.Time `json:"lastSuccessAt"`
	NextAttemptAt    *time.Time `json:"nextAttemptAt"`
}

// XAPIForwardTarget is an organisation a forwarder holds the lease of,
// with what it needs to send the next batch.
type XAPIForwardTarget struct {
	OrgID    string
	ConfigID string
	Endpoint string
	Key      string
	Secret   string
	Version  xapi.Version
	// ForwardedSeq is the cursor: the seq of the last statement acknowledged.
	ForwardedSeq int64
	// Failures counts the attempts that failed since the last success.
	Failures     int
	LeaseExpires time.Time
}

// XAPIQueued is a statement waiting to be forwarded.
type XAPIQueued struct {
	Seq  int64
	Body json.RawMessage
}

// forwardingKeyName names the server secret that seals the external LRS
// secrets.
const forwardingKeyName = "xapi_forwarding_key"

// forwardingAEAD returns the cipher that seals the stored secrets.
func (s *Store) forwardingAEAD(ctx context.Context) (cipher.AEAD, error) {
	key, err := s.ServerSecret(ctx, forwardingKeyName, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// sealSecret encrypts secret for orgID: nonce || ciphertext. The
// organisation's id is the additional data, so a sealed secret copied to
// another organisation's row does not open.
func sealSecret(aead cipher.AEAD, orgID, secret string) []byte {
	nonce := make([]byte, aead.NonceSize())
	rand.Read(nonce)
	return aead.Seal(nonce, nonce, []byte(secret), []byte(orgID))
}

func openSecret(aead cipher.AEAD, orgID string, sealed []byte) (string, error) {
	n := aead.NonceSize()
	if len(sealed) < n {
		return "", errors.New("sealed secret too short")
	}
	plain, err := aead.Open(nil, sealed[:n], sealed[n:], []byte(orgID))
	if err != nil {
		return "", fmt.Errorf("open the external LRS secret of organisation %s: %w", orgID, err)
	}
	return string(plain), nil
}

// NormalizeXAPIEndpoint checks an external LRS endpoint and returns it with
// one trailing slash, so that "statements" can be appended. Only http and
// https are accepted; addresses on the local network are allowed, since a
// training centre's LRS may live there.
func NormalizeXAPIEndpoint(endpoint string) (string, error) {
	endpoint = strings.TrimSpace(endpoint)
	if endpoint == "" {
		return "", apperr.Invalid("endpoint is required: the external LRS's address, like https://lrs.example.org/xapi/")
	}
	if len(endpoint) > MaxXAPIForwardingEndpoint {
		return "", apperr.Invalid("endpoint must be at most %d characters", MaxXAPIForwardingEndpoint)
	}
	u, err := url.Parse(endpoint)
	if err != nil || !u.IsAbs() {
		return "", apperr.Invalid("endpoint %q is not an absolute http(s) URL", endpoint)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", apperr.Invalid("endpoint %q must use http or https, not %s", endpoint, u.Scheme)
	}
	if u.Host == "" || u.Hostname() == "" {
		return "", apperr.Invalid("endpoint %q names no host", endpoint)
	}
	if u.User != nil {
		return "", apperr.Invalid("endpoint must not carry a user name or password: give them as key and secret")
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return "", apperr.Invalid("endpoint %q must not have a query or fragment", endpoint)
	}
	u.Path = strings.TrimRight(u.Path, "/") + "/"
	u.RawPath = ""
	return u.String(), nil
}

func checkForwardingCredential(field, v string, most int) error {
	if strings.TrimSpace(v) == "" {
		return apperr.Invalid("%s is required", field)
	}
	if utf8.RuneCountInString(v) > most {
		return apperr.Invalid("%s must be at most %d characters", field, most)
	}
	for _, r := range v {
		if r < 0x20 || r == 0x7f {
			return apperr.Invalid("%s must not contain control characters", field)
		}
	}
	return nil
}

// validate normalises c and reports the first field that is wrong.
func (c *XAPIForwardingConfig) validate() error {
	var err error
	if c.Endpoint, err = NormalizeXAPIEndpoint(c.Endpoint); err != nil {
		return err
	}
	if err := checkForwardingCredential("key", c.Key, MaxXAPIForwardingKey); err != nil {
		return err
	}
	// HTTP Basic separates the user id from the password with the first colon.
	if strings.Contains(c.Key, ":") {
		return apperr.Invalid("key must not contain a colon (HTTP Basic cannot send it)")
	}
	if c.Secret != "" {
		if err := checkForwardingCredential("secret", c.Secret, MaxXAPIForwardingSecret); err != nil {
			return err
		}
	}
	if c.Version != xapi.V103 && c.Version != xapi.V200 {
		return apperr.Invalid("version %q must be 1.0.3 or 2.0.0", c.Version)
	}
	return nil
}

// GetXAPIForwarding returns an organisation's forwarding status;
// Configured is false when it forwards nowhere.
func (s *Store) GetXAPIForwarding(ctx context.Context, orgID string) (XAPIForwardingStatus, error) {
	st, err := s.xapiForwardingStatus(ctx, s.db, orgID)
	if err != nil {
		return XAPIForwardingStatus{}, fmt.Errorf("get xAPI forwarding: %w", err)
	}
	return st, nil
}

func (s *Store) xapiForwardingStatus(ctx context.Context, q querier, orgID string) (XAPIForwardingStatus, error) {
	var st XAPIForwardingStatus
	var seq int64
	var lastErrorAt, lastSuccessAt, nextAttempt sql.NullTime
	err := q.QueryRowContext(ctx, `SELECT endpoint, key, version, paused, forwarded_seq, last_error, last_error_at, last_success_at, next_attempt_at
		FROM xapi_forwarding WHERE org_id = $1`, orgID).Scan(&st.Endpoint, &st.Key, &st.Version, &st.Paused, &seq, &st.LastError, &lastErrorAt, &lastSuccessAt, &nextAttempt)
	if isNoRows(err) {
		return XAPIForwardingStatus{}, nil
	}
	if err != nil {
		return XAPIForwardingStatus{}, err
	}
	st.Configured = true
	st.LastErrorAt, st.LastSuccessAt, st.NextAttemptAt = nullTimePtr(lastErrorAt), nullTimePtr(lastSuccessAt), nullTimePtr(nextAttempt)
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM xapi_statements WHERE org_id = $1 AND seq > $2`, orgID, seq).Scan(&st.QueueLength); err != nil {
		return XAPIForwardingStatus{}, err
	}
	if seq > 0 {
		var stored int64
		err := q.QueryRowContext(ctx, `SELECT stored FROM xapi_statements WHERE seq = $1`, seq).Scan(&stored)
		if err != nil && !isNoRows(err) {
			return XAPIForwardingStatus{}, err
		}
		if err == nil {
			t := time.UnixMicro(stored).UTC()
			st.ForwardedThrough = &t
		}
	}
	return st, nil
}

func nullTimePtr(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	u := t.Time.UTC()
	return &u
}

// SetXAPIForwarding configures (or reconfigures) the forwarding of an
// organisation's statements. A first configuration forwards the
// organisation's records from the beginning; a new one keeps the cursor
// and the paused state, and tries at once. It returns the new status.
func (s *Store) SetXAPIForwarding(ctx context.Context, orgID string, c XAPIForwardingConfig) (XAPIForwardingStatus, error) {
	if err := c.validate(); err != nil {
		return XAPIForwardingStatus{}, err
	}
	aead, err := s.forwardingAEAD(ctx)
	if err != nil {
		return XAPIForwardingStatus{}, fmt.Errorf("set xAPI forwarding: %w", err)
	}
	now := s.Now().UTC()
	var st XAPIForwardingStatus
	err = s.tx(ctx, "set xAPI forwarding", func(ctx context.Context, tx *sql.Tx) error {
		var endpoint, key string
		var sealed []byte
		err := tx.QueryRowContext(ctx, `SELECT endpoint, key, secret_sealed FROM xapi_forwarding WHERE org_id = $1`, orgID).Scan(&endpoint, &key, &sealed)
		switch {
		case isNoRows(err):
			if c.Secret == "" {
				return apperr.Invalid("secret is required")
			}
		case err != nil:
			return err
		case c.Secret == "" && (endpoint != c.Endpoint || key != c.Key):
			return apperr.Invalid("secret is required when the endpoint or key changes")
		}
		if c.Secret != "" {
			sealed = sealSecret(aead, orgID, c.Secret)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO xapi_forwarding (org_id, config_id, endpoint, key, secret_sealed, version, next_attempt_at, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7)
			ON CONFLICT (org_id) DO UPDATE SET config_id = excluded.config_id, endpoint = excluded.endpoint, key = excluded.key,
				secret_sealed = excluded.secret_sealed, version = excluded.version, failures = 0,
				next_attempt_at = excluded.next_attempt_at, updated_at = excluded.updated_at`,
			orgID, identity.NewID(), c.Endpoint, c.Key, sealed, string(c.Version), now); err != nil {
			return err
		}
		st, err = s.xapiForwardingStatus(ctx, tx, orgID)
		return err
	})
	return st, err
}

// DeleteXAPIForwarding stops forwarding an organisation's statements and
// forgets the cursor: configured again, it starts from the beginning.
func (s *Store) DeleteXAPIForwarding(ctx context.Context, orgID string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM xapi_forwarding WHERE org_id = $1`, orgID); err != nil {
		return fmt.Errorf("delete xAPI forwarding: %w", err)
	}
	return nil
}

// PauseXAPIForwarding pauses or resumes an organisation's forwarding. A
// batch already on its way completes; nothing is sent after it. Resuming
// tries at once, whatever the back-off said.
func (s *Store) PauseXAPIForwarding(ctx context.Context, orgID string, paused bool) (XAPIForwardingStatus, error) {
	var st XAPIForwardingStatus
	err := s.tx(ctx, "pause xAPI forwarding", func(ctx context.Context, tx *sql.Tx) error {
		q := `UPDATE xapi_forwarding SET paused = $2 WHERE org_id = $1`
		args := []any{orgID, paused}
		if !paused {
			q = `UPDATE xapi_forwarding SET paused = $2, next_attempt_at = $3 WHERE org_id = $1`
			args = append(args, s.Now().UTC())
		}
		res, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return apperr.NotFound("your organisation forwards to no external LRS; configure one first")
		}
		st, err = s.xapiForwardingStatus(ctx, tx, orgID)
		return err
	})
	return st, err
}

// xapiForwardDue selects the organisations a forwarder may take: not
// paused, due, with statements waiting, and not held by another live
// process.
const xapiForwardDue = `paused = FALSE AND next_attempt_at <= $2
	AND (lease_holder = $1 OR lease_expires_at IS NULL OR lease_expires_at < $2)
	AND EXISTS (SELECT 1 FROM xapi_statements s WHERE s.org_id = xapi_forwarding.org_id AND s.seq > xapi_forwarding.forwarded_seq)`

// ClaimXAPIForwarding takes (or renews) holder's lease, until now+ttl, on
// every organisation due to forward, and returns them. When none is due it
// only reads, so an idle forwarder costs one query a poll.
func (s *Store) ClaimXAPIForwarding(ctx context.Context, holder string, now time.Time, ttl time.Duration) ([]XAPIForwardTarget, error) {
	now = now.UTC()
	var due bool
	if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM xapi_forwarding WHERE `+xapiForwardDue+`)`, holder, now).Scan(&due); err != nil {
		return nil, fmt.Errorf("claim xAPI forwarding: %w", err)
	}
	if !due {
		return nil, nil
	}
	aead, err := s.forwardingAEAD(ctx)
	if err != nil {
		return nil, fmt.Errorf("claim xAPI forwarding: %w", err)
	}
	var targets []XAPIForwardTarget
	err = s.tx(ctx, "claim xAPI forwarding", func(ctx context.Context, tx *sql.Tx) error {
		targets = nil // a write may run again (runWrite)
		// On PostgreSQL, a row another process claimed meanwhile is
		// re-checked against the WHERE after its lock: one holder wins.
		rows, err := tx.QueryContext(ctx, `UPDATE xapi_forwarding SET lease_holder = $1, lease_expires_at = $3 WHERE `+xapiForwardDue+`
			RETURNING org_id, config_id, endpoint, key, secret_sealed, version, forwarded_seq, failures`, holder, now, now.Add(ttl))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var t XAPIForwardTarget
			var sealed []byte
			var version string
			if err := rows.Scan(&t.OrgID, &t.ConfigID, &t.Endpoint, &t.Key, &sealed, &version, &t.ForwardedSeq, &t.Failures); err != nil {
				return err
			}
			if t.Secret, err = openSecret(aead, t.OrgID, sealed); err != nil {
				return err
			}
			t.Version = xapi.Version(version)
			t.LeaseExpires = now.Add(ttl)
			targets = append(targets, t)
		}
		return rows.Err()
	})
	return targets, err
}

// XAPIForwardBatch returns up to limit statements of an organisation after
// seq after, in seq order: the head of its queue.
func (s *Store) XAPIForwardBatch(ctx context.Context, orgID string, after int64, limit int) ([]XAPIQueued, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT seq, body FROM xapi_statements WHERE org_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`, orgID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("xAPI forward batch: %w", err)
	}
	defer rows.Close()
	var out []XAPIQueued
	for rows.Next() {
		var q XAPIQueued
		var body string
		if err := rows.Scan(&q.Seq, &body); err != nil {
			return nil, fmt.Errorf("xAPI forward batch: %w", err)
		}
		q.Body = json.RawMessage(body)
		out = append(out, q)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("xAPI forward batch: %w", err)
	}
	return out, nil
}

// AckXAPIForwarding records that the external LRS acknowledged the
// statements after t.ForwardedSeq up to seq to: the cursor moves only from
// where holder read it, under the configuration it sent with and while it
// holds the lease, so a late or stale forwarder never skips a statement.
// The lease is renewed until now+ttl. It reports whether holder may send
// the next batch (false: the cursor or configuration moved, the lease was
// lost, or the forwarding was paused).
func (s *Store) AckXAPIForwarding(ctx context.Context, t XAPIForwardTarget, holder string, to int64, now time.Time, ttl time.Duration) (bool, error) {
	now = now.UTC()
	var paused, moved bool
	err := s.tx(ctx, "acknowledge xAPI forwarding", func(ctx context.Context, tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `UPDATE xapi_forwarding SET forwarded_seq = $5, last_success_at = $6, failures = 0,
				next_attempt_at = $6, lease_expires_at = $7
			WHERE org_id = $1 AND config_id = $2 AND forwarded_seq = $3 AND lease_holder = $4
			RETURNING paused`, t.OrgID, t.ConfigID, t.ForwardedSeq, holder, to, now, now.Add(ttl)).Scan(&paused)
		if isNoRows(err) {
			return nil
		}
		moved = err == nil
		return err
	})
	return moved && !paused, err
}

// FailXAPIForwarding records a failed attempt: the error the admin sees,
// one more failure, the time of the next attempt; and gives the lease up.
// Nothing leaves the queue.
func (s *Store) FailXAPIForwarding(ctx context.Context, t XAPIForwardTarget, holder, message string, now, next time.Time) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE xapi_forwarding SET last_error = $4, last_error_at = $5, failures = failures + 1,
			next_attempt_at = $6, lease_holder = '', lease_expires_at = NULL
		WHERE org_id = $1 AND config_id = $2 AND lease_holder = $3`,
		t.OrgID, t.ConfigID, holder, message, now.UTC(), next.UTC()); err != nil {
		return fmt.Errorf("record xAPI forwarding failure: %w", err)
	}
	return nil
}

// ReleaseXAPIForwarding gives up holder's leases, so that another process
// takes its organisations over at once rather than when they expire.
func (s *Store) ReleaseXAPIForwarding(ctx context.Context, holder string) error {
	if _, err := s.db.ExecContext(ctx, `UPDATE xapi_forwarding SET lease_holder = '', lease_expires_at = NULL WHERE lease_holder = $1`, holder); err != nil {
		return fmt.Errorf("release xAPI forwarding: %w", err)
	}
	return nil
}
