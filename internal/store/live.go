package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"journeyman/internal/portal"
	"journeyman/internal/training"
)

const liveColumns = `SELECT x.id, x.user_id, l.display_name, COALESCE(l.org_id, ''), x.module_id, m.title, m.trade_id,
	x.session_type, x.started_at, x.updated_at, x.ended_at IS NOT NULL, x.outcome
	FROM xr_sessions x JOIN learners l ON l.id = x.user_id JOIN training_modules m ON m.id = x.module_id `

// LiveSessions returns the running sessions of an organisation's learners
// (not ended, updated since since), most recently updated first, at most
// portal.MaxLive, each with its interactions.
func (s *Store) LiveSessions(ctx context.Context, orgID string, since time.Time) ([]portal.LiveRecord, error) {
	return s.liveRecords(ctx, liveColumns+`WHERE l.org_id = $1 AND x.ended_at IS NULL AND x.updated_minute >= $4 AND x.updated_at >= $2
		ORDER BY x.updated_at DESC, x.id DESC LIMIT $3`, orgID, since.UTC(), portal.MaxLive, minuteOf(since))
}

// LiveSessionsByID returns the sessions of ids that exist (ended or not),
// each with its interactions, in no particular order.
func (s *Store) LiveSessionsByID(ctx context.Context, ids []string) ([]portal.LiveRecord, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return s.liveRecords(ctx, liveColumns+`WHERE x.id IN (`+placeholders(1, len(ids))+`)`, anys(ids)...)
}

func (s *Store) liveRecords(ctx context.Context, query string, args ...any) ([]portal.LiveRecord, error) {
	var out []portal.LiveRecord
	err := func() error {
		rows, err := s.db.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var r portal.LiveRecord
			if err := rows.Scan(&r.SessionID, &r.UserID, &r.LearnerName, &r.OrgID, &r.ModuleID, &r.ModuleTitle, &r.TradeID,
				&r.SessionType, &r.StartedAt, &r.UpdatedAt, &r.Ended, &r.Outcome); err != nil {
				return err
			}
			out = append(out, r)
		}
		return rows.Err()
	}()
	if err == nil {
		err = s.liveInteractions(ctx, out)
	}
	if err != nil {
		return nil, fmt.Errorf("live sessions: %w", err)
	}
	return out, nil
}

// liveInteractions reads the interactions of every record in one query.
func (s *Store) liveInteractions(ctx context.Context, records []portal.LiveRecord) error {
	if len(records) == 0 {
		return nil
	}
	at := make(map[string]int, len(records))
	ids := make([]string, len(records))
	for i, r := range records {
		at[r.SessionID], ids[i] = i, r.SessionID
	}
	// The IN list is placeholders only; every id is bound.
	rows, err := s.db.QueryContext(ctx, `SELECT session_id, data FROM xr_session_interactions WHERE session_id IN (`+ //nolint:gosec // G202: placeholders, see above
		placeholders(1, len(ids))+`) ORDER BY session_id, seq`, anys(ids)...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var data []byte
		if err := rows.Scan(&id, &data); err != nil {
			return err
		}
		var in training.Interaction
		if err := json.Unmarshal(data, &in); err != nil {
			return fmt.Errorf("session %s: %w", id, err)
		}
		r := &records[at[id]]
		r.Interactions = append(r.Interactions, in)
	}
	return rows.Err()
}

// placeholders returns n numbered placeholders from $first, comma-separated.
func placeholders(first, n int) string {
	marks := make([]string, n)
	for i := range marks {
		marks[i] = fmt.Sprintf("$%d", first+i)
	}
	return strings.Join(marks, ",")
}

func anys(ids []string) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}
