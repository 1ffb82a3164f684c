package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"

	"journeyman/internal/apperr"
	"journeyman/internal/catalog"
)

// CatalogChannel carries catalog changes to every process sharing the
// database (ListenCatalog). Whatever writes trades or training modules
// notifies it in the same transaction, so that the processes' cached
// catalog answers reload.
const CatalogChannel = "journeyman_catalog"

// SeedCatalog inserts the trades and modules the database does not have yet.
// Rows that exist are left as they are, so a restart never overwrites edits.
// When it inserts anything, it tells every process (CatalogChannel): a new
// process with a larger catalog changes what the running ones serve.
func (s *Store) SeedCatalog(ctx context.Context, trades []catalog.Trade, modules []catalog.Module) error {
	var changed bool
	inserted := func(res sql.Result) {
		n, err := res.RowsAffected()
		changed = changed || err != nil || n > 0 // unknown counts as changed: a needless reload costs little
	}
	after, err := s.txNotify(ctx, "seed catalog", CatalogChannel, func(tx *sql.Tx) (bool, error) {
		for i, t := range trades {
			res, err := tx.ExecContext(ctx, `
				INSERT INTO trades (id, name, description, certifications, position)
				VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
				t.ID, t.Name, t.Description, jsonText(t.Certifications), i)
			if err != nil {
				return false, fmt.Errorf("trade %s: %w", t.ID, err)
			}
			inserted(res)
		}
		for i, m := range modules {
			res, err := tx.ExecContext(ctx, `
				INSERT INTO training_modules (id, trade_id, title, description, difficulty, estimated_duration,
					learning_objectives, safety_points, prerequisites, categories, position)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING`,
				m.ID, m.TradeID, m.Title, m.Description, m.Difficulty, m.EstimatedDuration,
				jsonText(m.LearningObjectives), jsonText(m.SafetyPoints), jsonText(m.Prerequisites),
				jsonText(m.Categories), i)
			if err != nil {
				return false, fmt.Errorf("module %s: %w", m.ID, err)
			}
			inserted(res)
		}
		return changed, nil
	})
	if err == nil {
		after()
	}
	return err
}

// ListenCatalog calls changed after each change to the catalog, by this
// process or another sharing the database, and after its PostgreSQL
// listening connection was re-established (changes made while it was down
// went unheard), until ctx ends.
func (s *Store) ListenCatalog(ctx context.Context, changed func(), log *slog.Logger) {
	s.listen(ctx, CatalogChannel, func(string) { changed() }, changed, log)
}

// ListTrades returns the trades in catalog order.
func (s *Store) ListTrades(ctx context.Context) ([]catalog.Trade, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, name, description, certifications FROM trades ORDER BY position, id`)
	if err != nil {
		return nil, fmt.Errorf("list trades: %w", err)
	}
	defer rows.Close()
	trades := []catalog.Trade{}
	for rows.Next() {
		var t catalog.Trade
		var certs string
		if err := rows.Scan(&t.ID, &t.Name, &t.Description, &certs); err != nil {
			return nil, fmt.Errorf("list trades: %w", err)
		}
		if err := json.Unmarshal([]byte(certs), &t.Certifications); err != nil {
			return nil, fmt.Errorf("list trades: %s certifications: %w", t.ID, err)
		}
		trades = append(trades, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list trades: %w", err)
	}
	return trades, nil
}

const moduleColumns = `m.id, m.trade_id, m.title, m.description, m.difficulty, m.estimated_duration,
	m.learning_objectives, m.safety_points, m.prerequisites, m.categories`

// ListModules returns the training modules, grouped by trade in catalog order.
func (s *Store) ListModules(ctx context.Context) ([]catalog.Module, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+moduleColumns+`
		FROM training_modules m JOIN trades t ON t.id = m.trade_id
		ORDER BY t.position, m.position, m.id`)
	if err != nil {
		return nil, fmt.Errorf("list modules: %w", err)
	}
	defer rows.Close()
	modules := []catalog.Module{}
	for rows.Next() {
		m, err := scanModule(rows)
		if err != nil {
			return nil, fmt.Errorf("list modules: %w", err)
		}
		modules = append(modules, m)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list modules: %w", err)
	}
	return modules, nil
}

// GetModule returns one training module, or an ENOTFOUND error.
func (s *Store) GetModule(ctx context.Context, id string) (catalog.Module, error) {
	row := s.db.QueryRowContext(ctx, `SELECT `+moduleColumns+` FROM training_modules m WHERE m.id = $1`, id)
	m, err := scanModule(row)
	if isNoRows(err) {
		return m, apperr.NotFound("training module %q does not exist", id)
	}
	if err != nil {
		return m, fmt.Errorf("get module: %w", err)
	}
	return m, nil
}

func scanModule(row interface{ Scan(...any) error }) (catalog.Module, error) {
	var m catalog.Module
	var objectives, safety, prereqs, categories string
	if err := row.Scan(&m.ID, &m.TradeID, &m.Title, &m.Description, &m.Difficulty, &m.EstimatedDuration,
		&objectives, &safety, &prereqs, &categories); err != nil {
		return m, err
	}
	for _, f := range []struct {
		text string
		dst  *[]string
	}{{objectives, &m.LearningObjectives}, {safety, &m.SafetyPoints}, {prereqs, &m.Prerequisites}, {categories, &m.Categories}} {
		if err := json.Unmarshal([]byte(f.text), f.dst); err != nil {
			return m, fmt.Errorf("module %s: %w", m.ID, err)
		}
	}
	return m, nil
}

// jsonText encodes v for a JSON text column; nil slices become [].
func jsonText[T any](v []T) string {
	if v == nil {
		return "[]"
	}
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("jsonText: %v", err)) // slices of plain values always encode
	}
	return string(b)
}
