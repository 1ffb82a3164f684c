package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"journeyman/internal/learning"
	"journeyman/internal/records"
)

// History bounds per learner: older rows are deleted when a new one is added,
// so one learner cannot grow the database without limit.
const (
	MaxAssessmentsKept        = 100
	MaxRecommendationSetsKept = 20
)

// SavedPreferences is a learner's learning preferences: the saved ones, or
// the AI screen's initial values with Saved false.
type SavedPreferences struct {
	learning.LearningPreferences
	Saved     bool       `json:"saved"`
	UpdatedAt *time.Time `json:"updatedAt"` // nil until saved
}

// GetLearningPreferences returns the learner's saved preferences, or the
// defaults when they have saved none.
func (s *Store) GetLearningPreferences(ctx context.Context, learnerID string) (SavedPreferences, error) {
	p, err := getLearningPreferences(ctx, s.db, learnerID)
	if err != nil {
		return p, fmt.Errorf("get learning preferences: %w", err)
	}
	return p, nil
}

func getLearningPreferences(ctx context.Context, q learningQuerier, learnerID string) (SavedPreferences, error) {
	var p SavedPreferences
	var focus, slots, certs string
	var updated time.Time
	err := q.QueryRowContext(ctx, `
		SELECT preferred_learning_style, xr_comfort_level, session_duration, industry_experience, learning_goals,
			difficulty_progression, focus_areas, available_time_slots, certification_goals, updated_at
		FROM learning_preferences WHERE learner_id = $1`, learnerID).Scan(
		&p.PreferredLearningStyle, &p.XRComfortLevel, &p.SessionDuration, &p.IndustryExperience, &p.LearningGoals,
		&p.DifficultyProgression, &focus, &slots, &certs, &updated)
	if isNoRows(err) {
		return SavedPreferences{LearningPreferences: learning.DefaultPreferences()}, nil
	}
	if err != nil {
		return p, err
	}
	if err := decodeListColumns(listColumn{focus, &p.FocusAreas}, listColumn{slots, &p.AvailableTimeSlots}, listColumn{certs, &p.CertificationGoals}); err != nil {
		return p, err
	}
	updated = updated.UTC()
	p.Saved, p.UpdatedAt = true, &updated
	return p, nil
}

// SaveLearningPreferences replaces the learner's preferences with p, which
// must be valid, and returns what is stored.
func (s *Store) SaveLearningPreferences(ctx context.Context, learnerID string, p learning.LearningPreferences) (SavedPreferences, error) {
	p.Normalize()
	var out SavedPreferences
	err := s.tx(ctx, "save learning preferences", func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO learning_preferences (learner_id, preferred_learning_style, xr_comfort_level, session_duration,
				industry_experience, learning_goals, difficulty_progression, focus_areas, available_time_slots,
				certification_goals, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
			ON CONFLICT (learner_id) DO UPDATE SET
				preferred_learning_style = excluded.preferred_learning_style,
				xr_comfort_level = excluded.xr_comfort_level,
				session_duration = excluded.session_duration,
				industry_experience = excluded.industry_experience,
				learning_goals = excluded.learning_goals,
				difficulty_progression = excluded.difficulty_progression,
				focus_areas = excluded.focus_areas,
				available_time_slots = excluded.available_time_slots,
				certification_goals = excluded.certification_goals,
				updated_at = excluded.updated_at`,
			learnerID, p.PreferredLearningStyle, p.XRComfortLevel, p.SessionDuration, p.IndustryExperience,
			p.LearningGoals, p.DifficultyProgression, jsonText(p.FocusAreas), jsonText(p.AvailableTimeSlots),
			jsonText(p.CertificationGoals), s.Now().UTC()); err != nil {
			return err
		}
		var err error
		out, err = getLearningPreferences(ctx, tx, learnerID)
		return err
	})
	return out, err
}

// StoredAssessment is one saved skill assessment.
type StoredAssessment struct {
	ID int64 `json:"id"`
	learning.SkillAssessment
	Level     string    `json:"level"` // the skill level the overall score places the learner at
	CreatedAt time.Time `json:"createdAt"`
}

// AddSkillAssessment stores a, which must be valid, as the learner's newest
// assessment, keeping their latest MaxAssessmentsKept. A non-nil rec records
// it as an xAPI statement in the same transaction; the statement stays when
// the assessment is later pruned, as a learning record should.
func (s *Store) AddSkillAssessment(ctx context.Context, learnerID string, a learning.SkillAssessment, rec *Recorder) (StoredAssessment, error) {
	a.Normalize()
	out := StoredAssessment{SkillAssessment: a, Level: a.Level(), CreatedAt: s.Now().UTC()}
	err := s.tx(ctx, "add skill assessment", func(ctx context.Context, tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `
			INSERT INTO skill_assessments (learner_id, trade_category, skill_areas, current_levels, strengths,
				improvement_areas, overall_score, assessment_type, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
			learnerID, a.TradeCategory, jsonText(a.SkillAreas), jsonText(a.CurrentLevels), jsonText(a.Strengths),
			jsonText(a.ImprovementAreas), a.OverallScore, a.AssessmentType, out.CreatedAt).Scan(&out.ID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `
			DELETE FROM skill_assessments WHERE learner_id = $1 AND id NOT IN (
				SELECT id FROM skill_assessments WHERE learner_id = $1 ORDER BY id DESC LIMIT $2)`,
			learnerID, MaxAssessmentsKept)
		if err != nil || rec == nil {
			return err
		}
		return s.recordAssessment(ctx, tx, rec, out)
	})
	return out, err
}

func (s *Store) recordAssessment(ctx context.Context, tx *sql.Tx, rec *Recorder, a StoredAssessment) error {
	l, err := recordLearner(ctx, tx, rec)
	if err != nil {
		return fmt.Errorf("record skill assessment %d: %w", a.ID, err)
	}
	name, err := tradeName(ctx, tx, a.TradeCategory)
	if err != nil {
		return fmt.Errorf("record skill assessment %d: %w", a.ID, err)
	}
	body := l.AssessmentStatements(records.Assessment{ID: a.ID, TradeID: a.TradeCategory, TradeName: name,
		AssessmentType: a.AssessmentType, OverallScore: a.OverallScore, Level: a.Level, At: a.CreatedAt})
	return s.storeRecords(ctx, tx, l, fmt.Sprintf("skill assessment %d", a.ID), body)
}

// ListSkillAssessments returns the learner's assessments, newest first.
func (s *Store) ListSkillAssessments(ctx context.Context, learnerID string) ([]StoredAssessment, error) {
	rows, err := s.db.QueryContext(ctx, `
		SELECT id, trade_category, skill_areas, current_levels, strengths, improvement_areas, overall_score,
			assessment_type, created_at
		FROM skill_assessments WHERE learner_id = $1 ORDER BY id DESC`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("list skill assessments: %w", err)
	}
	defer rows.Close()
	out := []StoredAssessment{}
	for rows.Next() {
		var a StoredAssessment
		var areas, levels, strengths, improve string
		if err := rows.Scan(&a.ID, &a.TradeCategory, &areas, &levels, &strengths, &improve, &a.OverallScore,
			&a.AssessmentType, &a.CreatedAt); err != nil {
			return nil, fmt.Errorf("list skill assessments: %w", err)
		}
		if err := decodeListColumns(listColumn{areas, &a.SkillAreas}, listColumn{levels, &a.CurrentLevels}, listColumn{strengths, &a.Strengths}, listColumn{improve, &a.ImprovementAreas}); err != nil {
			return nil, fmt.Errorf("list skill assessments: %d: %w", a.ID, err)
		}
		a.Level = a.SkillAssessment.Level()
		a.CreatedAt = a.CreatedAt.UTC()
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list skill assessments: %w", err)
	}
	return out, nil
}

// RecommendationSet is one generated set of recommendations with the request
// that produced it.
type RecommendationSet struct {
	ID              int64                          `json:"id"`
	CreatedAt       time.Time                      `json:"createdAt"`
	Request         learning.RecommendationRequest `json:"request"`
	Recommendations learning.Recommendations       `json:"recommendations"`
}

// AddRecommendationSet stores a generated set as the learner's latest,
// keeping their latest MaxRecommendationSetsKept.
func (s *Store) AddRecommendationSet(ctx context.Context, learnerID string, req learning.RecommendationRequest, recs learning.Recommendations) (RecommendationSet, error) {
	out := RecommendationSet{CreatedAt: s.Now().UTC(), Request: req, Recommendations: recs}
	reqJSON, err := json.Marshal(req)
	if err != nil {
		return out, fmt.Errorf("add recommendation set: %w", err)
	}
	recsJSON, err := json.Marshal(recs)
	if err != nil {
		return out, fmt.Errorf("add recommendation set: %w", err)
	}
	err = s.tx(ctx, "add recommendation set", func(ctx context.Context, tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `
			INSERT INTO recommendation_sets (learner_id, request, recommendations, created_at)
			VALUES ($1, $2, $3, $4) RETURNING id`,
			learnerID, string(reqJSON), string(recsJSON), out.CreatedAt).Scan(&out.ID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `
			DELETE FROM recommendation_sets WHERE learner_id = $1 AND id NOT IN (
				SELECT id FROM recommendation_sets WHERE learner_id = $1 ORDER BY id DESC LIMIT $2)`,
			learnerID, MaxRecommendationSetsKept)
		return err
	})
	return out, err
}

// LatestRecommendationSet returns the learner's newest set, or nil when they
// have generated none.
func (s *Store) LatestRecommendationSet(ctx context.Context, learnerID string) (*RecommendationSet, error) {
	var set RecommendationSet
	var reqJSON, recsJSON string
	err := s.db.QueryRowContext(ctx, `
		SELECT id, request, recommendations, created_at FROM recommendation_sets
		WHERE learner_id = $1 ORDER BY id DESC LIMIT 1`, learnerID).Scan(&set.ID, &reqJSON, &recsJSON, &set.CreatedAt)
	if isNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("latest recommendation set: %w", err)
	}
	if err := json.Unmarshal([]byte(reqJSON), &set.Request); err != nil {
		return nil, fmt.Errorf("latest recommendation set %d: request: %w", set.ID, err)
	}
	if err := json.Unmarshal([]byte(recsJSON), &set.Recommendations); err != nil {
		return nil, fmt.Errorf("latest recommendation set %d: recommendations: %w", set.ID, err)
	}
	set.CreatedAt = set.CreatedAt.UTC()
	return &set, nil
}

// CompletedSessions returns the learner's verified XR sessions with
// completion status completed, whichever endpoint recorded them. An
// unverified session (training.Verify) is left out altogether: it is neither
// a first pass that schedules refreshers and counts as a completed module,
// nor a review of a module already completed. A session counts as passed
// unless its interactionData.completionStatus says "failed"; its end time is
// ended_at, or its last update when the recorder left ended_at empty.
func (s *Store) CompletedSessions(ctx context.Context, learnerID string) ([]learning.SessionResult, error) {
	out, err := completedSessions(ctx, s.db, learnerID)
	if err != nil {
		return nil, fmt.Errorf("completed sessions: %w", err)
	}
	return out, nil
}

func completedSessions(ctx context.Context, q learningQuerier, learnerID string) ([]learning.SessionResult, error) {
	rows, err := q.QueryContext(ctx, `
		SELECT id, module_id, ended_at, updated_at, safety_score, interaction_data FROM xr_sessions
		WHERE user_id = $1 AND completion_status = 'completed' AND verified`, learnerID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []learning.SessionResult{}
	for rows.Next() {
		var r learning.SessionResult
		var ended sql.NullTime
		var updated time.Time
		var score sql.NullFloat64
		var data string
		if err := rows.Scan(&r.ID, &r.ModuleID, &ended, &updated, &score, &data); err != nil {
			return nil, err
		}
		r.EndedAt = updated.UTC()
		if ended.Valid {
			r.EndedAt = ended.Time.UTC()
		}
		if score.Valid {
			r.SafetyScore = &score.Float64
		}
		var outcome struct {
			CompletionStatus string `json:"completionStatus"`
		}
		// A record whose interaction data is not an object still counts: the
		// session was completed, nothing says it failed.
		_ = json.Unmarshal([]byte(data), &outcome)
		r.Passed = outcome.CompletionStatus != "failed"
		out = append(out, r)
	}
	return out, rows.Err()
}

// Refresher is a refresher card with the module it schedules.
type Refresher struct {
	learning.RefresherCard
	ModuleTitle string `json:"moduleTitle"`
	TradeID     string `json:"tradeId"`
}

// SyncRefreshers folds the learner's completed sessions not yet applied into
// their refresher cards, stores the changed cards, and returns every card
// ordered by due time. Deriving the schedule from the session records means it
// follows whatever endpoint recorded the sessions.
func (s *Store) SyncRefreshers(ctx context.Context, learnerID string) ([]Refresher, error) {
	// Most calls find nothing new to fold: check without taking the write
	// lock (SQLite has one for the whole database) and answer from the cards.
	changed, err := pendingRefresherChanges(ctx, s.db, learnerID)
	if err != nil {
		return nil, fmt.Errorf("sync refreshers: %w", err)
	}
	if len(changed) == 0 {
		out, err := listRefreshers(ctx, s.db, learnerID)
		if err != nil {
			return nil, fmt.Errorf("sync refreshers: %w", err)
		}
		return out, nil
	}
	var out []Refresher
	err = s.tx(ctx, "sync refreshers", func(ctx context.Context, tx *sql.Tx) error {
		// Syncs of one learner take turns: each then folds only what the
		// previous one left. SQLite's immediate transactions already do.
		if s.dialect == Postgres {
			if _, err := tx.ExecContext(ctx, `SELECT id FROM learners WHERE id = $1 FOR UPDATE`, learnerID); err != nil {
				return err
			}
		}
		changed, err := pendingRefresherChanges(ctx, tx, learnerID)
		if err != nil {
			return err
		}
		// Upsert in module order, so concurrent writers lock rows in one order.
		for _, id := range slices.Sorted(maps.Keys(changed)) {
			if err := putRefresherCard(ctx, tx, learnerID, changed[id], s.Now().UTC()); err != nil {
				return err
			}
		}
		out, err = listRefreshers(ctx, tx, learnerID)
		return err
	})
	return out, err
}

// pendingRefresherChanges folds the completed sessions not yet applied into
// the stored cards and returns the cards that would change.
func pendingRefresherChanges(ctx context.Context, q learningQuerier, learnerID string) (map[string]learning.AppliedCard, error) {
	cards, err := refresherCards(ctx, q, learnerID)
	if err != nil {
		return nil, err
	}
	sessions, err := completedSessions(ctx, q, learnerID)
	if err != nil {
		return nil, err
	}
	return learning.ApplySessions(cards, sessions)
}

func refresherCards(ctx context.Context, q learningQuerier, learnerID string) (map[string]learning.AppliedCard, error) {
	rows, err := q.QueryContext(ctx, `
		SELECT module_id, due, stability, difficulty, elapsed_days, scheduled_days, reps, lapses, state,
			last_review, last_session_at, last_session_id
		FROM refresher_cards WHERE learner_id = $1`, learnerID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cards := map[string]learning.AppliedCard{}
	for rows.Next() {
		var a learning.AppliedCard
		c := &a.Card
		if err := rows.Scan(&c.ModuleID, &c.Due, &c.Stability, &c.Difficulty, &c.ElapsedDays, &c.ScheduledDays,
			&c.Reps, &c.Lapses, &c.State, &c.LastReview, &a.LastSessionAt, &a.LastSessionID); err != nil {
			return nil, err
		}
		c.Due, c.LastReview, a.LastSessionAt = c.Due.UTC(), c.LastReview.UTC(), a.LastSessionAt.UTC()
		cards[c.ModuleID] = a
	}
	return cards, rows.Err()
}

func putRefresherCard(ctx context.Context, tx *sql.Tx, learnerID string, a learning.AppliedCard, now time.Time) error {
	c := a.Card
	_, err := tx.ExecContext(ctx, `
		INSERT INTO refresher_cards (learner_id, module_id, due, stability, difficulty, elapsed_days, scheduled_days,
			reps, lapses, state, last_review, last_session_at, last_session_id, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
		ON CONFLICT (learner_id, module_id) DO UPDATE SET
			due = excluded.due, stability = excluded.stability, difficulty = excluded.difficulty,
			elapsed_days = excluded.elapsed_days, scheduled_days = excluded.scheduled_days, reps = excluded.reps,
			lapses = excluded.lapses, state = excluded.state, last_review = excluded.last_review,
			last_session_at = excluded.last_session_at, last_session_id = excluded.last_session_id,
			updated_at = excluded.updated_at
		-- Two concurrent syncs may fold different amounts of history; the card
		-- only moves forward, so the one that saw less cannot undo the other.
		WHERE (refresher_cards.last_session_at, refresher_cards.last_session_id)
			< (excluded.last_session_at, excluded.last_session_id)`,
		learnerID, c.ModuleID, c.Due.UTC(), c.Stability, c.Difficulty, c.ElapsedDays, c.ScheduledDays,
		c.Reps, c.Lapses, c.State, c.LastReview.UTC(), a.LastSessionAt.UTC(), a.LastSessionID, now)
	if err != nil {
		return fmt.Errorf("card %s: %w", c.ModuleID, err)
	}
	return nil
}

func listRefreshers(ctx context.Context, q learningQuerier, learnerID string) ([]Refresher, error) {
	rows, err := q.QueryContext(ctx, `
		SELECT c.module_id, m.title, m.trade_id, c.due, c.stability, c.difficulty, c.elapsed_days,
			c.scheduled_days, c.reps, c.lapses, c.state, c.last_review
		FROM refresher_cards c JOIN training_modules m ON m.id = c.module_id
		WHERE c.learner_id = $1 ORDER BY c.due, c.module_id`, learnerID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Refresher{}
	for rows.Next() {
		var r Refresher
		c := &r.RefresherCard
		if err := rows.Scan(&c.ModuleID, &r.ModuleTitle, &r.TradeID, &c.Due, &c.Stability, &c.Difficulty,
			&c.ElapsedDays, &c.ScheduledDays, &c.Reps, &c.Lapses, &c.State, &c.LastReview); err != nil {
			return nil, err
		}
		c.Due, c.LastReview = c.Due.UTC(), c.LastReview.UTC()
		out = append(out, r)
	}
	return out, rows.Err()
}

// learningQuerier is what both *sql.DB and *sql.Tx offer for reading.
type learningQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// listColumn is a JSON list column's text and where to decode it.
type listColumn struct {
	text string
	dst  *[]string
}

// decodeListColumns decodes JSON list columns, null or absent as empty.
func decodeListColumns(cols ...listColumn) error {
	for _, c := range cols {
		if err := json.Unmarshal([]byte(c.text), c.dst); err != nil {
			return err
		}
		if *c.dst == nil {
			*c.dst = []string{}
		}
	}
	return nil
}
