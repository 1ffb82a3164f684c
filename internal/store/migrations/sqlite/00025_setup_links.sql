-- +goose Up
-- One-time links that set up a deployment with no organisation yet: the
-- server makes one at start while none exists and logs it, so whoever runs
-- it creates the first organisation and its admin in the browser. Using
-- one deletes them all.
CREATE TABLE setup_links (
    token_hash TEXT PRIMARY KEY,
    expires_at TIMESTAMP NOT NULL,
    created_at TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE setup_links;
