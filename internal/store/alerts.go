package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/realtime"
)

// Sizes of safety alert lists.
const (
	DefaultAlertPage = 50
	MaxAlertPage     = 200
)

const alertColumns = `a.id, a.user_id, l.display_name, COALESCE(a.org_id, ''), a.session_id, a.alert_type, a.description, a.created_at,
	COALESCE(a.acknowledged_by, ''), COALESCE(k.display_name, ''), a.acknowledged_at`

const alertFrom = ` FROM safety_alerts a JOIN learners l ON l.id = a.user_id LEFT JOIN learners k ON k.id = a.acknowledged_by `

func scanAlert(row interface{ Scan(...any) error }) (realtime.SafetyAlert, error) {
	var a realtime.SafetyAlert
	var org string
	var ack realtime.Acknowledgement
	var ackAt sql.NullTime
	err := row.Scan(&a.ID, &a.UserID, &a.DisplayName, &org, &a.SessionID, &a.AlertType, &a.Description, &a.CreatedAt,
		&ack.UserID, &ack.DisplayName, &ackAt)
	a.CreatedAt = a.CreatedAt.UTC()
	a.Channel = identity.ChannelOf(org)
	if ackAt.Valid {
		ack.At = ackAt.Time.UTC()
		a.Acknowledgement = &ack
	}
	return a, err
}

// CreateSafetyAlert stores a validated safety alert raised by a user, in
// the channel of the user's organisation at that moment, and returns it.
func (s *Store) CreateSafetyAlert(ctx context.Context, userID, sessionID string, p realtime.SafetyAlertPayload) (realtime.SafetyAlert, error) {
	var id int64
	err := s.tx(ctx, "create safety alert", func(ctx context.Context, tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `
			INSERT INTO safety_alerts (user_id, org_id, session_id, alert_type, description, created_at)
			SELECT id, org_id, $2, $3, $4, $5 FROM learners WHERE id = $1 RETURNING id`,
			userID, sessionID, p.AlertType, p.Description, s.Now().UTC()).Scan(&id)
	})
	if err != nil {
		return realtime.SafetyAlert{}, err
	}
	return s.GetSafetyAlert(ctx, id)
}

// GetSafetyAlert returns one alert, or ENOTFOUND.
func (s *Store) GetSafetyAlert(ctx context.Context, id int64) (realtime.SafetyAlert, error) {
	a, err := scanAlert(s.db.QueryRowContext(ctx, `SELECT `+alertColumns+alertFrom+`WHERE a.id = $1`, id))
	if isNoRows(err) {
		return a, apperr.NotFound("safety alert %d does not exist", id)
	}
	if err != nil {
		return a, fmt.Errorf("get safety alert: %w", err)
	}
	return a, nil
}

// AcknowledgeSafetyAlert records that user by took alert id of organisation
// orgID in hand, once: an alert of another organisation is not found, and
// one already acknowledged is a conflict naming who did it and when.
func (s *Store) AcknowledgeSafetyAlert(ctx context.Context, orgID string, id int64, by string) (realtime.SafetyAlert, error) {
	var n int64
	err := s.tx(ctx, "acknowledge safety alert", func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE safety_alerts SET acknowledged_by = $3, acknowledged_at = $4
			WHERE id = $1 AND org_id = $2 AND acknowledged_at IS NULL`, id, orgID, by, s.Now().UTC())
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return realtime.SafetyAlert{}, err
	}
	a, err := s.GetSafetyAlert(ctx, id)
	switch {
	case err == nil && a.Channel != identity.ChannelOf(orgID):
		return realtime.SafetyAlert{}, apperr.NotFound("safety alert %d does not exist in your organisation", id)
	case err != nil || n == 1 || a.Acknowledgement == nil:
		return a, err
	}
	return a, apperr.Conflict("safety alert %d was already acknowledged by %s at %s", id,
		a.Acknowledgement.DisplayName, a.Acknowledgement.At.Format(time.RFC3339))
}

// ListSafetyAlerts returns the most recent alerts of one organisation (""
// for the demo channel of everyone outside one), newest first; limit is
// clamped to 1..MaxAlertPage.
func (s *Store) ListSafetyAlerts(ctx context.Context, orgID string, limit int) ([]realtime.SafetyAlert, error) {
	limit = min(max(limit, 1), MaxAlertPage)
	// orgIs is one of two fixed conditions; orgID is bound as $1.
	rows, err := s.db.QueryContext(ctx, `SELECT `+alertColumns+alertFrom+`WHERE `+orgIs("a.org_id", orgID)+ //nolint:gosec // G202: fixed SQL, see above
		` ORDER BY a.created_at DESC, a.id DESC LIMIT $2`, orgID, limit)
	if err != nil {
		return nil, fmt.Errorf("list safety alerts: %w", err)
	}
	defer rows.Close()
	out := []realtime.SafetyAlert{}
	for rows.Next() {
		a, err := scanAlert(rows)
		if err != nil {
			return nil, fmt.Errorf("list safety alerts: %w", err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list safety alerts: %w", err)
	}
	return out, nil
}

// orgIs is the condition that column holds the organisation $1, where ""
// means none; the two forms keep each usable by an index.
func orgIs(column, orgID string) string {
	if orgID == "" {
		return "(" + column + " IS NULL AND $1 = '')"
	}
	return column + " = $1"
}
