package store

import (
	"context"
	"crypto/sha1" //nolint:gosec // G505: xAPI defines a document's ETag as the SHA-1 of its content; it guards no secret
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"mime"
	"strings"
	"time"

	"journeyman/internal/apperr"
)

// MaxXAPIDocument is the largest State, Activity Profile or Agent Profile
// document the LRS keeps, merged documents included.
const MaxXAPIDocument = 1 << 20

// XAPIDocKind names one of the three xAPI Document Resources.
type XAPIDocKind string

// The Document Resources, as xapi_documents.kind stores them.
const (
	XAPIState           XAPIDocKind = "state"
	XAPIActivityProfile XAPIDocKind = "activity_profile"
	XAPIAgentProfile    XAPIDocKind = "agent_profile"
)

// XAPIDocKey names a document of an organisation. The parts a kind does not
// use are "": a state has all of them (Registration "" when the client gave
// none), an activity profile has no AgentKey or Registration, an agent
// profile no ActivityID or Registration.
type XAPIDocKey struct {
	Kind         XAPIDocKind
	ActivityID   string
	AgentKey     string // xapi.AgentKey of the agent parameter
	Registration string
	ID           string // stateId or profileId
}

// XAPIDocument is a stored document as GET answers it.
type XAPIDocument struct {
	ContentType string
	Content     []byte
	ETag        string // quoted, strong: "<hex SHA-1 of Content>"
	Updated     time.Time
}

// XAPIPrecondition is what a write's If-Match and If-None-Match headers
// ask for ("" for a header the request does not have).
type XAPIPrecondition struct {
	IfMatch     string
	IfNoneMatch string
	// Required makes a write without either header over an existing
	// document a conflict (409): the Activity and Agent Profile Resources
	// require it of PUT (Communication 3.1). A new document needs no
	// header: the specification asks nothing of the LRS there, and the
	// 1.0.3 suite creates activity profiles with bare PUTs.
	Required bool
}

// xapiETag is the quoted hex SHA-1 of content, as xAPI defines a
// document's ETag.
func xapiETag(content []byte) string {
	sum := sha1.Sum(content) //nolint:gosec // see the import
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

// etagListMatches reports whether an If-Match or If-None-Match value ("*"
// or a comma-separated list of entity tags) names etag. If-Match compares
// strongly (a weak tag never matches); If-None-Match weakly (RFC 9110 13.1).
func etagListMatches(header, etag string, weak bool) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" {
			return true
		}
		if strings.HasPrefix(t, "W/") {
			if !weak {
				continue
			}
			t = t[2:]
		}
		if t == etag {
			return true
		}
	}
	return false
}

// check decides a write's preconditions against the document as it is:
// exists, with etag. It runs inside the write's transaction.
func (p XAPIPrecondition) check(exists bool, etag string) error {
	if p.IfMatch != "" && (!exists || !etagListMatches(p.IfMatch, etag, false)) {
		if !exists {
			return apperr.Errorf(apperr.EPRECONDITION, "If-Match: the document does not exist")
		}
		return apperr.Errorf(apperr.EPRECONDITION, "If-Match: the document has changed; its ETag is now %s", etag)
	}
	if p.IfNoneMatch != "" && exists && etagListMatches(p.IfNoneMatch, etag, true) {
		return apperr.Errorf(apperr.EPRECONDITION, "If-None-Match: the document already exists with ETag %s", etag)
	}
	if p.Required && p.IfMatch == "" && p.IfNoneMatch == "" && exists {
		return apperr.Conflict("the document already exists: check its current state, then send its ETag in If-Match to replace it")
	}
	return nil
}

// isJSONType reports whether a Content-Type names application/json,
// whatever its parameters.
func isJSONType(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && mt == "application/json"
}

func checkXAPIDocSize(n int) error {
	if n > MaxXAPIDocument {
		return apperr.Errorf(apperr.ETOOLARGE, "the document is %d bytes, more than the %d this LRS keeps", n, MaxXAPIDocument)
	}
	return nil
}

// GetXAPIDocument returns one document, ENOTFOUND when there is none.
func (s *Store) GetXAPIDocument(ctx context.Context, orgID string, key XAPIDocKey) (XAPIDocument, error) {
	d, ok, err := getXAPIDocument(ctx, s.db, orgID, key)
	if err != nil {
		return XAPIDocument{}, fmt.Errorf("get xAPI document: %w", err)
	}
	if !ok {
		return XAPIDocument{}, apperr.NotFound("no %s document %q", strings.ReplaceAll(string(key.Kind), "_", " "), key.ID)
	}
	return d, nil
}

func getXAPIDocument(ctx context.Context, q querier, orgID string, key XAPIDocKey) (XAPIDocument, bool, error) {
	var d XAPIDocument
	var updated int64
	err := q.QueryRowContext(ctx, `SELECT content_type, content, etag, updated FROM xapi_documents
		WHERE org_id = $1 AND kind = $2 AND activity_id = $3 AND agent_key = $4 AND registration = $5 AND doc_id = $6`,
		orgID, string(key.Kind), key.ActivityID, key.AgentKey, key.Registration, key.ID).
		Scan(&d.ContentType, &d.Content, &d.ETag, &updated)
	if isNoRows(err) {
		return XAPIDocument{}, false, nil
	}
	if err != nil {
		return XAPIDocument{}, false, err
	}
	d.Updated = time.UnixMicro(updated).UTC()
	return d, true, nil
}

// ListXAPIDocumentIDs returns the ids of the documents of key's kind,
// activity, agent and (for states, when not "") registration, updated
// after since when since is not zero, in id order, and when the latest of
// them was updated (zero without any). key.ID is ignored. A state listed
// without a registration spans all registrations, as its DELETE does.
func (s *Store) ListXAPIDocumentIDs(ctx context.Context, orgID string, key XAPIDocKey, since time.Time) ([]string, time.Time, error) {
	q := `SELECT doc_id, MAX(updated) FROM xapi_documents WHERE org_id = $1 AND kind = $2 AND activity_id = $3 AND agent_key = $4`
	args := []any{orgID, string(key.Kind), key.ActivityID, key.AgentKey}
	if key.Registration != "" {
		args = append(args, key.Registration)
		q += fmt.Sprintf(` AND registration = $%d`, len(args))
	}
	if !since.IsZero() {
		args = append(args, since.UnixMicro())
		q += fmt.Sprintf(` AND updated > $%d`, len(args))
	}
	rows, err := s.db.QueryContext(ctx, q+` GROUP BY doc_id ORDER BY doc_id`, args...)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("list xAPI documents: %w", err)
	}
	defer rows.Close()
	ids := []string{}
	var latest int64
	for rows.Next() {
		var id string
		var updated int64
		if err := rows.Scan(&id, &updated); err != nil {
			return nil, time.Time{}, fmt.Errorf("list xAPI documents: %w", err)
		}
		ids = append(ids, id)
		latest = max(latest, updated)
	}
	if err := rows.Err(); err != nil {
		return nil, time.Time{}, fmt.Errorf("list xAPI documents: %w", err)
	}
	if latest == 0 {
		return ids, time.Time{}, nil
	}
	return ids, time.UnixMicro(latest).UTC(), nil
}

// lockXAPIDocument makes the writers of one document take turns on
// PostgreSQL, so that two of them cannot both pass the same precondition
// (the row may not exist yet, so a row lock would not do). SQLite's write
// transactions already take turns.
func (s *Store) lockXAPIDocument(ctx context.Context, tx *sql.Tx, orgID string, key XAPIDocKey) error {
	if s.dialect != Postgres {
		return nil
	}
	h := sha1.New() //nolint:gosec // a lock id, not a secret
	for _, part := range []string{orgID, string(key.Kind), key.ActivityID, key.AgentKey, key.Registration, key.ID} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	id := int64(binary.BigEndian.Uint64(h.Sum(nil))) //nolint:gosec // G115: any 64 bits will do as a lock id
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, id)
	return err
}

// PutXAPIDocument stores content as the document key names, replacing
// any, when pre allows it (EPRECONDITION, ECONFLICT or EINVALID when not).
func (s *Store) PutXAPIDocument(ctx context.Context, orgID string, key XAPIDocKey, contentType string, content []byte, pre XAPIPrecondition) (XAPIDocument, error) {
	if err := checkXAPIDocSize(len(content)); err != nil {
		return XAPIDocument{}, err
	}
	return s.writeXAPIDocument(ctx, "put xAPI document", orgID, key, pre, func(XAPIDocument, bool) (string, []byte, error) {
		return contentType, content, nil
	})
}

// PostXAPIDocument stores content as a new document, or merges it into the
// existing one: when both are JSON objects with Content-Type
// application/json, each top-level property of content replaces the stored
// one. Any other content over an existing document is EINVALID and leaves
// it unchanged.
func (s *Store) PostXAPIDocument(ctx context.Context, orgID string, key XAPIDocKey, contentType string, content []byte, pre XAPIPrecondition) (XAPIDocument, error) {
	if err := checkXAPIDocSize(len(content)); err != nil {
		return XAPIDocument{}, err
	}
	return s.writeXAPIDocument(ctx, "post xAPI document", orgID, key, pre, func(old XAPIDocument, exists bool) (string, []byte, error) {
		if !exists {
			return contentType, content, nil
		}
		merged, err := mergeXAPIDocuments(old, contentType, content)
		return "application/json", merged, err
	})
}

// mergeXAPIDocuments is the Document Resources' JSON merge.
func mergeXAPIDocuments(old XAPIDocument, contentType string, content []byte) ([]byte, error) {
	if !isJSONType(old.ContentType) {
		return nil, apperr.Invalid("the stored document is %s, not application/json: only JSON documents merge; PUT to replace it", old.ContentType)
	}
	if !isJSONType(contentType) {
		return nil, apperr.Invalid("Content-Type is %q: a POST merges only application/json into an existing document; PUT to replace it", contentType)
	}
	var stored, posted map[string]json.RawMessage
	if err := json.Unmarshal(old.Content, &stored); err != nil || stored == nil {
		return nil, apperr.Invalid("the stored document is not a JSON object, so nothing can merge into it; PUT to replace it")
	}
	if err := json.Unmarshal(content, &posted); err != nil || posted == nil {
		return nil, apperr.Invalid("the document is not a JSON object, so it cannot merge into the stored one")
	}
	for k, v := range posted {
		stored[k] = v
	}
	merged, err := json.Marshal(stored)
	if err != nil {
		return nil, err
	}
	return merged, checkXAPIDocSize(len(merged))
}

// writeXAPIDocument runs one write: in one transaction, with the
// document's writers taking turns, it reads the document, checks pre
// against it, asks next for the new content type and content and stores
// them.
func (s *Store) writeXAPIDocument(ctx context.Context, op, orgID string, key XAPIDocKey, pre XAPIPrecondition,
	next func(old XAPIDocument, exists bool) (string, []byte, error)) (XAPIDocument, error) {
	var d XAPIDocument
	err := s.tx(ctx, op, func(ctx context.Context, tx *sql.Tx) error {
		if err := s.lockXAPIDocument(ctx, tx, orgID, key); err != nil {
			return err
		}
		old, exists, err := getXAPIDocument(ctx, tx, orgID, key)
		if err != nil {
			return err
		}
		if err := pre.check(exists, old.ETag); err != nil {
			return err
		}
		contentType, content, err := next(old, exists)
		if err != nil {
			return err
		}
		if content == nil {
			content = []byte{} // content is NOT NULL; an empty document is still one
		}
		d = XAPIDocument{ContentType: contentType, Content: content, ETag: xapiETag(content), Updated: s.Now().UTC().Truncate(time.Microsecond)}
		_, err = tx.ExecContext(ctx, `INSERT INTO xapi_documents (org_id, kind, activity_id, agent_key, registration, doc_id, content_type, content, etag, updated)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
			ON CONFLICT (org_id, kind, activity_id, agent_key, registration, doc_id)
			DO UPDATE SET content_type = excluded.content_type, content = excluded.content, etag = excluded.etag, updated = excluded.updated`,
			orgID, string(key.Kind), key.ActivityID, key.AgentKey, key.Registration, key.ID, d.ContentType, d.Content, d.ETag, d.Updated.UnixMicro())
		return err
	})
	if err != nil {
		return XAPIDocument{}, err
	}
	return d, nil
}

// DeleteXAPIDocument deletes one document when pre allows it. Deleting a
// document that does not exist succeeds, unless If-Match asked for it.
func (s *Store) DeleteXAPIDocument(ctx context.Context, orgID string, key XAPIDocKey, pre XAPIPrecondition) error {
	pre.Required = false // no Document Resource requires a precondition of DELETE
	return s.tx(ctx, "delete xAPI document", func(ctx context.Context, tx *sql.Tx) error {
		if err := s.lockXAPIDocument(ctx, tx, orgID, key); err != nil {
			return err
		}
		old, exists, err := getXAPIDocument(ctx, tx, orgID, key)
		if err != nil {
			return err
		}
		if err := pre.check(exists, old.ETag); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM xapi_documents
			WHERE org_id = $1 AND kind = $2 AND activity_id = $3 AND agent_key = $4 AND registration = $5 AND doc_id = $6`,
			orgID, string(key.Kind), key.ActivityID, key.AgentKey, key.Registration, key.ID)
		return err
	})
}

// DeleteXAPIStates deletes the state documents of an activity and agent:
// of one registration, or of all of them when registration is "".
func (s *Store) DeleteXAPIStates(ctx context.Context, orgID, activityID, agentKey, registration string) error {
	q := `DELETE FROM xapi_documents WHERE org_id = $1 AND kind = $2 AND activity_id = $3 AND agent_key = $4`
	args := []any{orgID, string(XAPIState), activityID, agentKey}
	if registration != "" {
		q += ` AND registration = $5`
		args = append(args, registration)
	}
	if _, err := s.db.ExecContext(ctx, q, args...); err != nil {
		return fmt.Errorf("delete xAPI states: %w", err)
	}
	return nil
}

// XAPIActivity returns the merged definition the LRS holds of an activity
// (the Activities Resource), and false when no statement has named it.
func (s *Store) XAPIActivity(ctx context.Context, orgID, id string) (json.RawMessage, bool, error) {
	var def string
	err := s.db.QueryRowContext(ctx, `SELECT definition FROM xapi_activities WHERE org_id = $1 AND id = $2`, orgID, id).Scan(&def)
	if isNoRows(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("get xAPI activity: %w", err)
	}
	return json.RawMessage(def), true, nil
}
