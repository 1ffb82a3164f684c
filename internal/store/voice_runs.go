package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"journeyman/internal/records"
	"journeyman/internal/voice"
)

// MaxVoiceRunsKept bounds a learner's stored voice runs; older ones are
// deleted as new ones come (their xAPI statements stay).
const MaxVoiceRunsKept = 100

// VoiceRun is a stored voice training run: what the server replayed from
// the commands the learner gave.
type VoiceRun struct {
	ID         string    `json:"id"`
	ModuleID   string    `json:"moduleId"`
	ModuleName string    `json:"moduleName"`
	StartedAt  time.Time `json:"startedAt"`
	EndedAt    time.Time `json:"endedAt"`
	voice.Outcome
	Score     int       `json:"score"` // percent of steps walked
	Passed    bool      `json:"passed"`
	CreatedAt time.Time `json:"createdAt"`
}

func newVoiceRun(id, moduleID string, started, ended, created time.Time, o voice.Outcome) VoiceRun {
	v := VoiceRun{ID: id, ModuleID: moduleID, StartedAt: started.UTC(), EndedAt: ended.UTC(), Outcome: o, Score: o.Score(), Passed: o.Passed(), CreatedAt: created.UTC()}
	if m, ok := voice.ByID(moduleID); ok {
		v.ModuleName = m.Name
	}
	return v
}

// AddVoiceRun stores run id, which must be valid for module m, as the
// learner's, with its replayed outcome. A non-nil rec records it as an
// xAPI statement in the same transaction.
func (s *Store) AddVoiceRun(ctx context.Context, learnerID, id string, r voice.NewRun, m voice.Module, rec *Recorder) (VoiceRun, error) {
	o := r.Replay(m)
	out := newVoiceRun(id, m.ID, r.StartedAt, r.EndedAt, s.Now(), o)
	commands, err := json.Marshal(r.Commands)
	if err != nil {
		return VoiceRun{}, fmt.Errorf("add voice run: %w", err)
	}
	err = s.tx(ctx, "add voice run", func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO voice_training_runs (id, learner_id, module_id, started_at, ended_at, commands, total_steps,
				steps_walked, completed, emergency_stops, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
			out.ID, learnerID, out.ModuleID, out.StartedAt, out.EndedAt, string(commands), o.TotalSteps,
			o.StepsWalked, o.Completed, o.EmergencyStops, out.CreatedAt); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `
			DELETE FROM voice_training_runs WHERE learner_id = $1 AND id NOT IN (
				SELECT id FROM voice_training_runs WHERE learner_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)`,
			learnerID, MaxVoiceRunsKept); err != nil {
			return err
		}
		if rec == nil {
			return nil
		}
		l, err := recordLearner(ctx, tx, rec)
		if err != nil {
			return err
		}
		trade, err := tradeName(ctx, tx, m.Trade)
		if err != nil {
			return err
		}
		body := l.VoiceStatements(records.VoiceRun{ID: out.ID, ModuleID: m.ID, ModuleName: m.Name, TradeID: m.Trade, TradeName: trade,
			StartedAt: out.StartedAt, EndedAt: out.EndedAt, TotalSteps: o.TotalSteps, StepsWalked: o.StepsWalked,
			Completed: o.Completed, Passed: out.Passed, EmergencyStops: o.EmergencyStops})
		return s.storeRecords(ctx, tx, l, "voice run "+out.ID, body)
	})
	return out, err
}

// ListVoiceRuns returns the learner's voice runs, newest first.
func (s *Store) ListVoiceRuns(ctx context.Context, learnerID string) ([]VoiceRun, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT id, module_id, started_at, ended_at, total_steps, steps_walked, completed, emergency_stops, created_at
		FROM voice_training_runs WHERE learner_id = $1 ORDER BY created_at DESC, id DESC`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("list voice runs: %w", err)
	}
	defer rows.Close()
	out := []VoiceRun{}
	for rows.Next() {
		var id, module string
		var started, ended, created time.Time
		var o voice.Outcome
		if err := rows.Scan(&id, &module, &started, &ended, &o.TotalSteps, &o.StepsWalked, &o.Completed, &o.EmergencyStops, &created); err != nil {
			return nil, fmt.Errorf("list voice runs: %w", err)
		}
		out = append(out, newVoiceRun(id, module, started, ended, created, o))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list voice runs: %w", err)
	}
	return out, nil
}
