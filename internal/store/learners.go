package store

import (
	"context"
	"database/sql"
	"fmt"
)

// Learner is a person using the platform; for now every learner is a guest
// known by the id in their browser's cookie.
type Learner struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName"`
}

// EnsureLearner returns the learner with this id, creating it when the
// database does not know it (a new browser, or a database that was reset).
func (s *Store) EnsureLearner(ctx context.Context, id, displayName string) (Learner, error) {
	l := Learner{ID: id}
	const get = `SELECT display_name FROM learners WHERE id = $1`
	// Most calls find the learner: read first so they take no write lock.
	err := s.db.QueryRowContext(ctx, get, id).Scan(&l.DisplayName)
	if err == nil {
		return l, nil
	}
	if !isNoRows(err) {
		return Learner{}, fmt.Errorf("ensure learner %s: %w", id, err)
	}
	err = s.tx(ctx, "ensure learner", func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO learners (id, display_name, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (id) DO NOTHING`, id, displayName, s.Now()); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, get, id).Scan(&l.DisplayName)
	})
	if err != nil {
		return Learner{}, fmt.Errorf("learner %s: %w", id, err)
	}
	return l, nil
}
