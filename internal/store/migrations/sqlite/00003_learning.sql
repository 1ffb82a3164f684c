-- +goose Up
-- A learner's AI-learning-paths preferences; one row once they have saved.
CREATE TABLE learning_preferences (
    learner_id               TEXT PRIMARY KEY REFERENCES learners (id),
    preferred_learning_style TEXT NOT NULL,
    xr_comfort_level         TEXT NOT NULL,
    session_duration         INTEGER NOT NULL, -- minutes
    industry_experience      INTEGER NOT NULL, -- years
    learning_goals           TEXT NOT NULL,
    difficulty_progression   TEXT NOT NULL,
    focus_areas              TEXT NOT NULL, -- JSON array of strings
    available_time_slots     TEXT NOT NULL, -- JSON array of strings
    certification_goals      TEXT NOT NULL, -- JSON array of strings
    updated_at               TIMESTAMP NOT NULL
);

CREATE TABLE skill_assessments (
    id                INTEGER PRIMARY KEY,
    learner_id        TEXT NOT NULL REFERENCES learners (id),
    trade_category    TEXT NOT NULL,
    skill_areas       TEXT NOT NULL, -- JSON array of strings
    current_levels    TEXT NOT NULL, -- JSON array of strings
    strengths         TEXT NOT NULL, -- JSON array of strings
    improvement_areas TEXT NOT NULL, -- JSON array of strings
    overall_score     INTEGER NOT NULL, -- percent
    assessment_type   TEXT NOT NULL,
    created_at        TIMESTAMP NOT NULL
);
CREATE INDEX skill_assessments_learner ON skill_assessments (learner_id, id DESC);

-- Each generated set of recommendations: the request and the §3 response.
CREATE TABLE recommendation_sets (
    id              INTEGER PRIMARY KEY,
    learner_id      TEXT NOT NULL REFERENCES learners (id),
    request         TEXT NOT NULL, -- JSON RecommendationRequest
    recommendations TEXT NOT NULL, -- JSON Recommendations
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX recommendation_sets_learner ON recommendation_sets (learner_id, id DESC);

-- The FSRS card of each module a learner has completed. last_session_at and
-- last_session_id are the newest xr_sessions row folded into the card, so
-- each completed session is applied exactly once.
CREATE TABLE refresher_cards (
    learner_id      TEXT NOT NULL REFERENCES learners (id),
    module_id       TEXT NOT NULL REFERENCES training_modules (id),
    due             TIMESTAMP NOT NULL,
    stability       REAL NOT NULL,
    difficulty      REAL NOT NULL,
    elapsed_days    INTEGER NOT NULL,
    scheduled_days  INTEGER NOT NULL,
    reps            INTEGER NOT NULL,
    lapses          INTEGER NOT NULL,
    state           TEXT NOT NULL,
    last_review     TIMESTAMP NOT NULL,
    last_session_at TIMESTAMP NOT NULL,
    last_session_id TEXT NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    PRIMARY KEY (learner_id, module_id)
);

-- The personalization wizard's profile; one row once the learner has saved.
CREATE TABLE personalization_profiles (
    learner_id               TEXT PRIMARY KEY REFERENCES learners (id),
    experience_level         TEXT NOT NULL,
    primary_trade            TEXT NOT NULL,
    learning_style           TEXT NOT NULL,
    xr_comfort_level         INTEGER NOT NULL,
    preferred_session_length INTEGER NOT NULL,
    motion_sensitivity       TEXT NOT NULL,
    difficulty_progression   TEXT NOT NULL,
    safety_emphasis          INTEGER NOT NULL,
    feedback_frequency       TEXT NOT NULL,
    visual_assistance        TEXT NOT NULL, -- JSON array of option ids
    audio_assistance         TEXT NOT NULL, -- JSON array of option ids
    motor_assistance         TEXT NOT NULL, -- JSON array of option ids
    color_scheme             TEXT NOT NULL,
    font_size                TEXT NOT NULL,
    ui_complexity            TEXT NOT NULL,
    updated_at               TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE personalization_profiles;
DROP TABLE refresher_cards;
DROP TABLE recommendation_sets;
DROP TABLE skill_assessments;
DROP TABLE learning_preferences;
