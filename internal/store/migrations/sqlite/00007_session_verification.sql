-- +goose Up
-- server_started_at is when the server received the session's start: the
-- origin of training.Verify's wall-clock check (the client's started_at is
-- not trusted for it). verified and verification_issues (a JSON array of
-- reasons for the learner) are set when a session ends.
ALTER TABLE xr_sessions ADD COLUMN server_started_at TIMESTAMP;
ALTER TABLE xr_sessions ADD COLUMN verified BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE xr_sessions ADD COLUMN verification_issues TEXT NOT NULL DEFAULT '[]';
-- Sessions that ended before now kept no server times, so the check that
-- defeats a scripted score (sessionTime against the server's wall clock)
-- cannot be rerun on them: none is verified, and each says why in the words
-- of training.IssueRecordedBeforeVerification. Sessions still
-- running have no server start, so Verify gives them the same reason when
-- they end.
UPDATE xr_sessions SET verification_issues = '["This session was recorded before scores were checked, so its score cannot be confirmed."]'
WHERE completion_status = 'completed';

-- +goose Down
ALTER TABLE xr_sessions DROP COLUMN verification_issues;
ALTER TABLE xr_sessions DROP COLUMN verified;
ALTER TABLE xr_sessions DROP COLUMN server_started_at;
