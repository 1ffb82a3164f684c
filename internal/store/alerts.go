package store

import (
	"context"
	"database/sql"
	"fmt"

	"journeyman/internal/apperr"
	"journeyman/internal/realtime"
)

// Sizes of safety alert lists.
const (
	DefaultAlertPage = 50
	MaxAlertPage     = 200
)

const alertColumns = `id, user_id, session_id, alert_type, description, created_at`

// CreateSafetyAlert stores a validated safety alert raised by a learner and
// returns it with its id and time.
func (s *Store) CreateSafetyAlert(ctx context.Context, userID, sessionID string, p realtime.SafetyAlertPayload) (realtime.SafetyAlert, error) {
	a := realtime.SafetyAlert{UserID: userID, SessionID: sessionID, AlertType: p.AlertType, Description: p.Description, CreatedAt: s.Now().UTC()}
	err := s.tx(ctx, "create safety alert", func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `
			INSERT INTO safety_alerts (user_id, session_id, alert_type, description, created_at)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			a.UserID, a.SessionID, a.AlertType, a.Description, a.CreatedAt).Scan(&a.ID)
	})
	if err != nil {
		return realtime.SafetyAlert{}, err
	}
	return a, nil
}

// GetSafetyAlert returns one alert, or ENOTFOUND.
func (s *Store) GetSafetyAlert(ctx context.Context, id int64) (realtime.SafetyAlert, error) {
	var a realtime.SafetyAlert
	err := s.db.QueryRowContext(ctx, `SELECT `+alertColumns+` FROM safety_alerts WHERE id = $1`, id).
		Scan(&a.ID, &a.UserID, &a.SessionID, &a.AlertType, &a.Description, &a.CreatedAt)
	if isNoRows(err) {
		return a, apperr.NotFound("safety alert %d does not exist", id)
	}
	if err != nil {
		return a, fmt.Errorf("get safety alert: %w", err)
	}
	a.CreatedAt = a.CreatedAt.UTC()
	return a, nil
}

// ListSafetyAlerts returns the most recent alerts, newest first; limit is
// clamped to 1..MaxAlertPage.
func (s *Store) ListSafetyAlerts(ctx context.Context, limit int) ([]realtime.SafetyAlert, error) {
	limit = min(max(limit, 1), MaxAlertPage)
	rows, err := s.db.QueryContext(ctx, `SELECT `+alertColumns+` FROM safety_alerts
		ORDER BY created_at DESC, id DESC LIMIT $1`, limit)
	if err != nil {
		return nil, fmt.Errorf("list safety alerts: %w", err)
	}
	defer rows.Close()
	out := []realtime.SafetyAlert{}
	for rows.Next() {
		var a realtime.SafetyAlert
		if err := rows.Scan(&a.ID, &a.UserID, &a.SessionID, &a.AlertType, &a.Description, &a.CreatedAt); err != nil {
			return nil, fmt.Errorf("list safety alerts: %w", err)
		}
		a.CreatedAt = a.CreatedAt.UTC()
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list safety alerts: %w", err)
	}
	return out, nil
}
