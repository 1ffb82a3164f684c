package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"journeyman/internal/personalization"
)

// SavedProfile is a learner's personalization profile: the saved one, or the
// wizard's defaults with Saved false.
type SavedProfile struct {
	personalization.Profile
	Saved     bool       `json:"saved"`
	UpdatedAt *time.Time `json:"updatedAt"` // nil until saved
}

// GetPersonalization returns the learner's saved profile, or the wizard's
// defaults when they have saved none.
func (s *Store) GetPersonalization(ctx context.Context, learnerID string) (SavedProfile, error) {
	p, err := getPersonalization(ctx, s.db, learnerID)
	if err != nil {
		return p, fmt.Errorf("get personalization: %w", err)
	}
	return p, nil
}

func getPersonalization(ctx context.Context, q learningQuerier, learnerID string) (SavedProfile, error) {
	var p SavedProfile
	var visual, audio, motor string
	var updated time.Time
	err := q.QueryRowContext(ctx, `
		SELECT experience_level, primary_trade, learning_style, xr_comfort_level, preferred_session_length,
			motion_sensitivity, difficulty_progression, safety_emphasis, feedback_frequency, visual_assistance,
			audio_assistance, motor_assistance, color_scheme, font_size, ui_complexity, updated_at
		FROM personalization_profiles WHERE learner_id = $1`, learnerID).Scan(
		&p.ExperienceLevel, &p.PrimaryTrade, &p.LearningStyle, &p.XRComfortLevel, &p.PreferredSessionLength,
		&p.MotionSensitivity, &p.DifficultyProgression, &p.SafetyEmphasis, &p.FeedbackFrequency, &visual,
		&audio, &motor, &p.ColorScheme, &p.FontSize, &p.UIComplexity, &updated)
	if isNoRows(err) {
		return SavedProfile{Profile: personalization.DefaultProfile()}, nil
	}
	if err != nil {
		return p, err
	}
	if err := decodeListColumns(listColumn{visual, &p.VisualAssistance}, listColumn{audio, &p.AudioAssistance}, listColumn{motor, &p.MotorAssistance}); err != nil {
		return p, err
	}
	updated = updated.UTC()
	p.Saved, p.UpdatedAt = true, &updated
	return p, nil
}

// SavePersonalization replaces the learner's profile with p, which must be
// valid, and returns what is stored.
func (s *Store) SavePersonalization(ctx context.Context, learnerID string, p personalization.Profile) (SavedProfile, error) {
	p.Normalize()
	var out SavedProfile
	err := s.tx(ctx, "save personalization", func(ctx context.Context, tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `
			INSERT INTO personalization_profiles (learner_id, experience_level, primary_trade, learning_style,
				xr_comfort_level, preferred_session_length, motion_sensitivity, difficulty_progression,
				safety_emphasis, feedback_frequency, visual_assistance, audio_assistance, motor_assistance,
				color_scheme, font_size, ui_complexity, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
			ON CONFLICT (learner_id) DO UPDATE SET
				experience_level = excluded.experience_level,
				primary_trade = excluded.primary_trade,
				learning_style = excluded.learning_style,
				xr_comfort_level = excluded.xr_comfort_level,
				preferred_session_length = excluded.preferred_session_length,
				motion_sensitivity = excluded.motion_sensitivity,
				difficulty_progression = excluded.difficulty_progression,
				safety_emphasis = excluded.safety_emphasis,
				feedback_frequency = excluded.feedback_frequency,
				visual_assistance = excluded.visual_assistance,
				audio_assistance = excluded.audio_assistance,
				motor_assistance = excluded.motor_assistance,
				color_scheme = excluded.color_scheme,
				font_size = excluded.font_size,
				ui_complexity = excluded.ui_complexity,
				updated_at = excluded.updated_at`,
			learnerID, p.ExperienceLevel, p.PrimaryTrade, p.LearningStyle, p.XRComfortLevel, p.PreferredSessionLength,
			p.MotionSensitivity, p.DifficultyProgression, p.SafetyEmphasis, p.FeedbackFrequency,
			jsonText(p.VisualAssistance), jsonText(p.AudioAssistance), jsonText(p.MotorAssistance),
			p.ColorScheme, p.FontSize, p.UIComplexity, s.Now().UTC()); err != nil {
			return err
		}
		var err error
		out, err = getPersonalization(ctx, tx, learnerID)
		return err
	})
	return out, err
}
