package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/outreach"
)

// CreateDemoRequest stores a validated demo request from a learner, unless
// they already sent outreach.DemoRequestLimit within
// outreach.DemoRequestWindow: then it fails with apperr.ERATELIMIT. Counting
// stored rows, not an in-memory bucket, keeps the limit across restarts and
// across processes that share a PostgreSQL database.
func (s *Store) CreateDemoRequest(ctx context.Context, learnerID string, in outreach.DemoRequestInput) (outreach.DemoRequest, error) {
	// PostgreSQL keeps microseconds; the answer must equal what is stored.
	now := s.Now().Truncate(time.Microsecond)
	r := outreach.DemoRequest{
		ID: newDemoRequestID(), LearnerID: learnerID, Name: in.Name, Email: in.Email,
		Organisation: in.Organisation, Message: in.Message, Interest: in.Interest, CreatedAt: now,
	}
	err := s.tx(ctx, "create demo request", func(ctx context.Context, tx *sql.Tx) error {
		if s.dialect == Postgres {
			// Serialize one learner's requests so that concurrent ones cannot
			// all pass the count below. SQLite transactions here are already
			// immediate, so one writer at a time.
			if _, err := tx.ExecContext(ctx, `SELECT id FROM learners WHERE id = $1 FOR UPDATE`, learnerID); err != nil {
				return err
			}
		}
		var recent int
		if err := tx.QueryRowContext(ctx, `
			SELECT COUNT(*) FROM demo_requests WHERE learner_id = $1 AND created_at > $2`,
			learnerID, now.Add(-outreach.DemoRequestWindow)).Scan(&recent); err != nil {
			return err
		}
		if recent >= outreach.DemoRequestLimit {
			return apperr.Errorf(apperr.ERATELIMIT, "you have sent %d demo requests in the last hour, the most we accept; we will be in touch, or try again later",
				recent)
		}
		_, err := tx.ExecContext(ctx, `
			INSERT INTO demo_requests (id, learner_id, name, email, organisation, message, interest, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
			r.ID, r.LearnerID, r.Name, r.Email, r.Organisation, r.Message, r.Interest, r.CreatedAt)
		return err
	})
	if err != nil {
		return outreach.DemoRequest{}, err
	}
	return r, nil
}

// MaxListedDemoRequests bounds ListDemoRequests.
const MaxListedDemoRequests = 50

// ListDemoRequests returns a learner's demo requests, newest first, at most
// MaxListedDemoRequests.
func (s *Store) ListDemoRequests(ctx context.Context, learnerID string) ([]outreach.DemoRequest, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT id, learner_id, name, email, organisation, message, interest, created_at
		FROM demo_requests WHERE learner_id = $1 ORDER BY created_at DESC, id LIMIT $2`, learnerID, MaxListedDemoRequests)
	if err != nil {
		return nil, fmt.Errorf("list demo requests: %w", err)
	}
	defer rows.Close()
	list := []outreach.DemoRequest{}
	for rows.Next() {
		var r outreach.DemoRequest
		if err := rows.Scan(&r.ID, &r.LearnerID, &r.Name, &r.Email, &r.Organisation, &r.Message, &r.Interest, &r.CreatedAt); err != nil {
			return nil, fmt.Errorf("list demo requests: %w", err)
		}
		r.CreatedAt = r.CreatedAt.UTC()
		list = append(list, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list demo requests: %w", err)
	}
	return list, nil
}

// newDemoRequestID returns 128 random bits in hex.
func newDemoRequestID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
