package store

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"journeyman/internal/apperr"
	"journeyman/internal/cmi5"
	"journeyman/internal/identity"
	"journeyman/internal/records"
	"journeyman/internal/xapi"
)

// cmi5 limits and lifetimes.
const (
	// MaxCmi5Courses is how many courses an organisation may hold.
	MaxCmi5Courses = 200
	// Cmi5FetchTTL is how long a launch's fetch URL works: the AU calls it
	// as soon as it loads.
	Cmi5FetchTTL = 10 * time.Minute
	// Cmi5SessionTTL bounds a session's credential when the AU never says
	// terminated.
	Cmi5SessionTTL = 12 * time.Hour
	// cmi5Grace lets an AU's last requests after terminated through (the
	// specification's "wait a specified period", 9.3.8).
	cmi5Grace = 30 * time.Second
	// Cmi5KeyPrefix starts every session credential's key, which tells the
	// LRS where to check it.
	Cmi5KeyPrefix = "cmi5-"
)

// Cmi5Course is an imported course with its AUs.
type Cmi5Course struct {
	ID          string      `json:"id"`
	CourseIRI   string      `json:"courseId"`
	Title       string      `json:"title"`
	Description string      `json:"description"`
	HasContent  bool        `json:"hasContent"`
	CreatedAt   time.Time   `json:"createdAt"`
	AUs         []Cmi5AU    `json:"aus"`
	Structure   cmi5.Course `json:"-"`
}

// Cmi5AU is an AU as the catalog lists it.
type Cmi5AU struct {
	ID           string   `json:"id"`
	PublisherID  string   `json:"publisherId"`
	Title        string   `json:"title"`
	Description  string   `json:"description"`
	LaunchMethod string   `json:"launchMethod"`
	MoveOn       string   `json:"moveOn"`
	MasteryScore *float64 `json:"masteryScore"`
}

// CreateCmi5Course stores a parsed course of orgID and, for a zipped
// package, its files.
func (s *Store) CreateCmi5Course(ctx context.Context, orgID, createdBy string, c cmi5.Course, files map[string][]byte) (Cmi5Course, error) {
	structure, err := json.Marshal(c)
	if err != nil {
		return Cmi5Course{}, fmt.Errorf("create cmi5 course: %w", err)
	}
	out := Cmi5Course{ID: identity.NewID(), CourseIRI: c.ID, Title: c.Title.Text(), Description: c.Description.Text(),
		HasContent: files != nil, CreatedAt: s.Now().UTC(), Structure: c}
	err = s.tx(ctx, "create cmi5 course", func(ctx context.Context, tx *sql.Tx) error {
		out.AUs = nil // a write may run again (runWrite)
		if s.dialect == Postgres {
			if _, err := tx.ExecContext(ctx, `SELECT id FROM organisations WHERE id = $1 FOR UPDATE`, orgID); err != nil {
				return err
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM cmi5_courses WHERE org_id = $1`, orgID).Scan(&n); err != nil {
			return err
		}
		if n >= MaxCmi5Courses {
			return apperr.Invalid("your organisation already has %d cmi5 courses, the most it may have; delete one first", MaxCmi5Courses)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO cmi5_courses (id, org_id, course_iri, title, structure, has_content, created_by, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, out.ID, orgID, c.ID, out.Title, string(structure), out.HasContent, createdBy, out.CreatedAt); err != nil {
			return err
		}
		for i, au := range c.AUs {
			id := identity.NewID()
			if _, err := tx.ExecContext(ctx, `INSERT INTO cmi5_aus (id, course_id, position, publisher_id) VALUES ($1, $2, $3, $4)`,
				id, out.ID, i, au.ID); err != nil {
				return err
			}
			out.AUs = append(out.AUs, catalogAU(id, au))
		}
		for name, body := range files {
			if _, err := tx.ExecContext(ctx, `INSERT INTO cmi5_files (course_id, path, content) VALUES ($1, $2, $3)`, out.ID, name, body); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return Cmi5Course{}, err
	}
	return out, nil
}

func catalogAU(id string, au cmi5.AU) Cmi5AU {
	return Cmi5AU{ID: id, PublisherID: au.ID, Title: au.Title.Text(), Description: au.Description.Text(),
		LaunchMethod: au.LaunchMethod, MoveOn: au.MoveOn, MasteryScore: au.MasteryScore}
}

// ListCmi5Courses returns an organisation's courses, newest first, each
// with its AUs in the order of its structure.
func (s *Store) ListCmi5Courses(ctx context.Context, orgID string) ([]Cmi5Course, error) {
	out := []Cmi5Course{}
	err := eachRow(ctx, s.db, `SELECT c.id, c.course_iri, c.title, c.structure, c.has_content, c.created_at, a.id, a.position
		FROM cmi5_courses c JOIN cmi5_aus a ON a.course_id = c.id
		WHERE c.org_id = $1 ORDER BY c.created_at DESC, c.id, a.position`, []any{orgID}, func(rows *sql.Rows) error {
		var c Cmi5Course
		var structure, auID string
		var pos int
		if err := rows.Scan(&c.ID, &c.CourseIRI, &c.Title, &structure, &c.HasContent, &c.CreatedAt, &auID, &pos); err != nil {
			return err
		}
		if len(out) == 0 || out[len(out)-1].ID != c.ID {
			if err := json.Unmarshal([]byte(structure), &c.Structure); err != nil {
				return err
			}
			c.CreatedAt = c.CreatedAt.UTC()
			c.Description = c.Structure.Description.Text()
			c.AUs = []Cmi5AU{}
			out = append(out, c)
		}
		last := &out[len(out)-1]
		if pos < len(last.Structure.AUs) {
			last.AUs = append(last.AUs, catalogAU(auID, last.Structure.AUs[pos]))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list cmi5 courses: %w", err)
	}
	return out, nil
}

// DeleteCmi5Course deletes a course of orgID with its files, registrations
// and sessions (their credentials stop working); the statements stay in
// the LRS, which never forgets.
func (s *Store) DeleteCmi5Course(ctx context.Context, orgID, id string) error {
	return s.tx(ctx, "delete cmi5 course", func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM cmi5_courses WHERE id = $1 AND org_id = $2`, id, orgID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.NotFound("cmi5 course %s does not exist", id)
		}
		return nil
	})
}

// Cmi5File returns a file of a course's package: anyone with the link
// reads it, as content on a CDN would be.
func (s *Store) Cmi5File(ctx context.Context, courseID, path string) ([]byte, error) {
	var body []byte
	if !utf8.ValidString(courseID+path) || strings.ContainsRune(courseID+path, 0) {
		return nil, apperr.NotFound("no such file")
	}
	err := s.db.QueryRowContext(ctx, `SELECT content FROM cmi5_files WHERE course_id = $1 AND path = $2`, courseID, path).Scan(&body)
	if isNoRows(err) {
		return nil, apperr.NotFound("the course has no file %s", path)
	}
	if err != nil {
		return nil, fmt.Errorf("cmi5 file: %w", err)
	}
	return body, nil
}

// Cmi5Launch asks for a launch of an AU by a learner.
type Cmi5Launch struct {
	OrgID     string
	LearnerID string
	Actor     json.RawMessage // the learner's agent
	AUID      string
	Base      string // the deployment's public URL
	ReturnURL string
}

// Cmi5Launched is what a launch made: the AU's launch URL gets the
// parameters of section 8.1 from it.
type Cmi5Launched struct {
	SessionID    string
	Registration string
	ActivityID   string
	FetchToken   string
	LaunchURL    string // without the launch parameters
	LaunchMethod string
}

// Cmi5ActivityID is the activity id the LMS makes for an AU (section 8.1:
// not the publisher's id; the same for every registration).
func Cmi5ActivityID(base, auID string) string {
	return base + "/cmi5/activities/aus/" + url.PathEscape(auID)
}

// Cmi5ContentURL is where an AU's url points: a relative one into the
// course's own files.
func Cmi5ContentURL(base, courseID, auURL string) string {
	if u, err := url.Parse(auURL); err == nil && u.Scheme != "" {
		return auURL
	}
	return base + "/cmi5/content/" + url.PathEscape(courseID) + "/" + auURL
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// cmi5AUOf reads an AU with its course, in tx.
func cmi5AUOf(ctx context.Context, q querier, orgID, auID string) (courseID string, hasContent bool, c cmi5.Course, au cmi5.AU, err error) {
	var structure string
	var pos int
	err = q.QueryRowContext(ctx, `SELECT c.id, c.has_content, c.structure, a.position FROM cmi5_aus a JOIN cmi5_courses c ON c.id = a.course_id
		WHERE a.id = $1 AND c.org_id = $2`, auID, orgID).Scan(&courseID, &hasContent, &structure, &pos)
	if isNoRows(err) {
		return "", false, c, au, apperr.NotFound("cmi5 AU %s does not exist", auID)
	}
	if err != nil {
		return "", false, c, au, err
	}
	if err := json.Unmarshal([]byte(structure), &c); err != nil {
		return "", false, c, au, err
	}
	if pos >= len(c.AUs) {
		return "", false, c, au, fmt.Errorf("AU %s: position %d beyond its course's structure", auID, pos)
	}
	return courseID, hasContent, c, c.AUs[pos], nil
}

// LaunchCmi5 launches an AU for a learner (section 8, 10): it makes or
// takes the learner's registration of the course (a new one records the
// satisfied statements of AUs that need nothing), abandons the
// registration's sessions still open, writes the LMS.LaunchData state and
// the launched statement, and makes the session with its one-time fetch
// token. All in one transaction.
func (s *Store) LaunchCmi5(ctx context.Context, l Cmi5Launch) (Cmi5Launched, error) {
	var out Cmi5Launched
	agentKey, err := xapi.AgentKey(l.Actor)
	if err != nil {
		return out, fmt.Errorf("launch cmi5: %w", err)
	}
	err = s.tx(ctx, "launch cmi5 AU", func(ctx context.Context, tx *sql.Tx) error {
		courseID, _, course, au, err := cmi5AUOf(ctx, tx, l.OrgID, l.AUID)
		if err != nil {
			return err
		}
		now := s.Now().UTC()
		// A registration's launches take turns, so that two cannot both
		// see the same session open.
		res, err := tx.ExecContext(ctx, `INSERT INTO cmi5_registrations (id, course_id, learner_id, created_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (course_id, learner_id) DO NOTHING`, xapi.NewUUID(), courseID, l.LearnerID, now)
		if err != nil {
			return err
		}
		fresh, err := res.RowsAffected()
		if err != nil {
			return err
		}
		lock := ""
		if s.dialect == Postgres {
			lock = " FOR UPDATE"
		}
		var reg string
		if err := tx.QueryRowContext(ctx, `SELECT id FROM cmi5_registrations WHERE course_id = $1 AND learner_id = $2`+lock,
			courseID, l.LearnerID).Scan(&reg); err != nil {
			return err
		}
		sess := cmi5.Session{ID: xapi.NewUUID(), Registration: reg, Actor: l.Actor, ActivityID: Cmi5ActivityID(l.Base, l.AUID), AU: au,
			LaunchURL: Cmi5ContentURL(l.Base, courseID, au.URL), ReturnURL: l.ReturnURL}
		var stmts []any
		if err := s.abandonCmi5Sessions(ctx, tx, l, reg, now, &stmts); err != nil {
			return err
		}
		if fresh == 1 {
			// Section 9.6.1: moveOn is evaluated at registration, with a
			// session of its own.
			regSess := sess
			regSess.ID = xapi.NewUUID()
			if err := s.satisfyCmi5(ctx, tx, reg, course, regSess, now, &stmts); err != nil {
				return err
			}
		}
		stmts = append(stmts, sess.Launched(xapi.NewUUID(), now))
		if err := s.storeCmi5Statements(ctx, tx, l.OrgID, l.LearnerID, l.Base, stmts); err != nil {
			return err
		}
		key := XAPIDocKey{Kind: XAPIState, ActivityID: sess.ActivityID, AgentKey: agentKey, Registration: reg, ID: cmi5.LaunchDataStateID}
		if err := s.putXAPIDocumentTx(ctx, tx, l.OrgID, key, "application/json", sess.LaunchData()); err != nil {
			return err
		}
		token := randomText(32)
		if _, err := tx.ExecContext(ctx, `INSERT INTO cmi5_sessions (id, registration_id, au_id, org_id, learner_id, actor, fetch_hash, fetch_expires, expires_at, launched_at, last_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10)`,
			sess.ID, reg, l.AUID, l.OrgID, l.LearnerID, string(l.Actor), sha256Hex(token), now.Add(Cmi5FetchTTL), now.Add(Cmi5SessionTTL), now); err != nil {
			return err
		}
		out = Cmi5Launched{SessionID: sess.ID, Registration: reg, ActivityID: sess.ActivityID, FetchToken: token,
			LaunchURL: sess.LaunchURL, LaunchMethod: au.LaunchMethod}
		return nil
	})
	return out, err
}

// abandonCmi5Sessions ends the registration's open sessions with an
// abandoned statement each (9.3.6): a new launch supersedes them.
func (s *Store) abandonCmi5Sessions(ctx context.Context, tx *sql.Tx, l Cmi5Launch, reg string, now time.Time, stmts *[]any) error {
	type open struct {
		id, auID       string
		launched, last time.Time
	}
	var opens []open
	err := eachRow(ctx, tx, `SELECT id, au_id, launched_at, last_at FROM cmi5_sessions WHERE registration_id = $1 AND ended_at IS NULL ORDER BY launched_at, id`,
		[]any{reg}, func(rows *sql.Rows) error {
			var o open
			if err := rows.Scan(&o.id, &o.auID, &o.launched, &o.last); err != nil {
				return err
			}
			opens = append(opens, o)
			return nil
		})
	if err != nil {
		return err
	}
	for _, o := range opens {
		_, _, _, au, err := cmi5AUOf(ctx, tx, l.OrgID, o.auID)
		if err != nil {
			return err
		}
		sess := cmi5.Session{ID: o.id, Registration: reg, Actor: l.Actor, ActivityID: Cmi5ActivityID(l.Base, o.auID), AU: au}
		*stmts = append(*stmts, sess.Abandoned(xapi.NewUUID(), now, o.last.Sub(o.launched)))
		if _, err := tx.ExecContext(ctx, `UPDATE cmi5_sessions SET ended_at = $2, abandoned = TRUE WHERE id = $1`, o.id, now); err != nil {
			return err
		}
	}
	return nil
}

// satisfyCmi5 records, once per registration, the satisfied statements of
// the blocks and the course whose AUs all met their moveOn (9.3.9).
func (s *Store) satisfyCmi5(ctx context.Context, tx *sql.Tx, reg string, c cmi5.Course, sess cmi5.Session, now time.Time, stmts *[]any) error {
	type progress struct{ completed, passed, satisfied bool }
	got := map[string]progress{}
	err := eachRow(ctx, tx, `SELECT object_id, completed, passed, satisfied FROM cmi5_progress WHERE registration_id = $1`, []any{reg},
		func(rows *sql.Rows) error {
			var id string
			var p progress
			if err := rows.Scan(&id, &p.completed, &p.passed, &p.satisfied); err != nil {
				return err
			}
			got[id] = p
			return nil
		})
	if err != nil {
		return err
	}
	done := map[string]bool{}
	for _, au := range c.AUs {
		p := got[au.ID]
		done[au.ID] = cmi5.Met(au.MoveOn, p.completed, p.passed)
	}
	blocks, course := c.Satisfied(done)
	type target struct {
		id, typ string
		title   cmi5.LangString
	}
	var targets []target
	titles := map[string]cmi5.LangString{}
	for _, b := range c.Blocks {
		titles[b.ID] = b.Title
	}
	for _, b := range blocks {
		targets = append(targets, target{b, cmi5.TypeBlock, titles[b]})
	}
	if course {
		targets = append(targets, target{c.ID, cmi5.TypeCourse, c.Title})
	}
	for _, t := range targets {
		if got[t.id].satisfied {
			continue
		}
		*stmts = append(*stmts, sess.Satisfied(xapi.NewUUID(), t.id, t.typ, t.title, now))
		if _, err := tx.ExecContext(ctx, `INSERT INTO cmi5_progress (registration_id, object_id, satisfied) VALUES ($1, $2, TRUE)
			ON CONFLICT (registration_id, object_id) DO UPDATE SET satisfied = TRUE`, reg, t.id); err != nil {
			return err
		}
	}
	return nil
}

// storeCmi5Statements stores the LMS's own statements about a learner.
func (s *Store) storeCmi5Statements(ctx context.Context, tx *sql.Tx, orgID, learnerID, base string, stmts []any) error {
	if len(stmts) == 0 {
		return nil
	}
	body, err := json.Marshal(stmts)
	if err != nil {
		return err
	}
	ins, err := xapi.Decode(body, xapi.V200)
	if err != nil {
		// Our own statements: one the LRS refuses is our bug.
		return fmt.Errorf("cmi5 statements the LRS refuses: %s", err.Error())
	}
	_, err = s.storeXAPI(ctx, tx, XAPIWrite{OrgID: orgID, LearnerID: learnerID, Authority: records.Authority(base), Version: xapi.V200, Statements: ins})
	return err
}

// putXAPIDocumentTx stores a document inside tx, whatever was there.
func (s *Store) putXAPIDocumentTx(ctx context.Context, tx *sql.Tx, orgID string, key XAPIDocKey, contentType string, content []byte) error {
	if err := s.lockXAPIDocument(ctx, tx, orgID, key); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO xapi_documents (org_id, kind, activity_id, agent_key, registration, doc_id, content_type, content, etag, updated)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
		ON CONFLICT (org_id, kind, activity_id, agent_key, registration, doc_id)
		DO UPDATE SET content_type = excluded.content_type, content = excluded.content, etag = excluded.etag, updated = excluded.updated`,
		orgID, string(key.Kind), key.ActivityID, key.AgentKey, key.Registration, key.ID, contentType, content, xapiETag(content),
		s.Now().UTC().Truncate(time.Microsecond).UnixMicro())
	return err
}

// Cmi5FetchError is the fetch URL's answer to a refused request (8.2.3):
// Code "1" for a token used before or expired, "2" for an unknown one.
type Cmi5FetchError struct {
	Code, Text string
}

func (e *Cmi5FetchError) Error() string { return "cmi5 fetch: " + e.Text }

// FetchCmi5 uses a launch's one-time fetch token: it answers the
// session's xAPI key and secret, made now and shown this once.
func (s *Store) FetchCmi5(ctx context.Context, token string) (key, secret string, err error) {
	err = s.tx(ctx, "fetch cmi5 token", func(ctx context.Context, tx *sql.Tx) error {
		var id string
		var expires time.Time
		var fetched, ended sql.NullTime
		err := tx.QueryRowContext(ctx, `SELECT id, fetch_expires, fetched_at, ended_at FROM cmi5_sessions WHERE fetch_hash = $1`, sha256Hex(token)).
			Scan(&id, &expires, &fetched, &ended)
		if isNoRows(err) {
			return &Cmi5FetchError{Code: "2", Text: "the fetch URL is not one this LMS made"}
		}
		if err != nil {
			return err
		}
		now := s.Now().UTC()
		switch {
		case fetched.Valid:
			return &Cmi5FetchError{Code: "1", Text: "the authorization token has already been returned"}
		case ended.Valid || !now.Before(expires):
			return &Cmi5FetchError{Code: "1", Text: "the AU session has expired; launch the AU again"}
		}
		key = Cmi5KeyPrefix + randomText(15)
		secret = randomText(32)
		// Two fetches at once: only one finds the token unused.
		res, err := tx.ExecContext(ctx, `UPDATE cmi5_sessions SET fetched_at = $2, key = $3, secret_hash = $4 WHERE id = $1 AND fetched_at IS NULL`,
			id, now, key, hashXAPISecret(secret))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			key, secret = "", ""
			if err != nil {
				return err
			}
			return &Cmi5FetchError{Code: "1", Text: "the authorization token has already been returned"}
		}
		return nil
	})
	if err != nil {
		return "", "", err
	}
	return key, secret, nil
}

// Cmi5Credential is a session's xAPI credential, checked.
type Cmi5Credential struct {
	SessionID    string
	OrgID        string
	LearnerID    string
	Registration string
	ActivityID   string // the AU's LMS-made activity id
	Key          string
	// AgentKey is the learner's (xapi.AgentKey): the actor of every
	// statement the session writes.
	AgentKey string
}

// CheckCmi5Credential returns the session of a live session credential
// (base makes the AU's activity id); any failure answers EUNAUTHORIZED.
func (s *Store) CheckCmi5Credential(ctx context.Context, base, key, secret string) (Cmi5Credential, error) {
	fail := apperr.Errorf(apperr.EUNAUTHORIZED, "the cmi5 session's credential is wrong, or the session has ended")
	if len(key) > 64 || !utf8.ValidString(key) {
		return Cmi5Credential{}, fail
	}
	var c Cmi5Credential
	var auID string
	var hash sql.NullString
	var expires time.Time
	var ended sql.NullTime
	var abandoned bool
	var actor string
	err := s.db.QueryRowContext(ctx, `SELECT s.id, s.org_id, s.learner_id, s.registration_id, s.au_id, s.actor, s.secret_hash, s.expires_at, s.ended_at, s.abandoned
		FROM cmi5_sessions s WHERE s.key = $1`, key).
		Scan(&c.SessionID, &c.OrgID, &c.LearnerID, &c.Registration, &auID, &actor, &hash, &expires, &ended, &abandoned)
	if isNoRows(err) {
		subtle.ConstantTimeCompare([]byte(hashXAPISecret(secret)), []byte(hashXAPISecret("")))
		return Cmi5Credential{}, fail
	}
	if err != nil {
		return Cmi5Credential{}, fmt.Errorf("check cmi5 credential: %w", err)
	}
	now := s.Now().UTC()
	live := now.Before(expires) && (!ended.Valid || !abandoned && now.Before(ended.Time.Add(cmi5Grace)))
	if subtle.ConstantTimeCompare([]byte(hashXAPISecret(secret)), []byte(hash.String)) != 1 || !live {
		return Cmi5Credential{}, fail
	}
	c.Key = key
	c.ActivityID = Cmi5ActivityID(base, auID)
	if c.AgentKey, err = xapi.AgentKey(json.RawMessage(actor)); err != nil {
		return Cmi5Credential{}, fmt.Errorf("check cmi5 credential: the session's actor: %w", err)
	}
	return c, nil
}

// RecordCmi5 takes note of the verbs of the statements a session's AU
// stored about its own activity: completed and passed count towards
// moveOn (and may satisfy blocks and the course: their statements are
// stored here), terminated ends the session.
func (s *Store) RecordCmi5(ctx context.Context, base string, c Cmi5Credential, verbs []string) error {
	return s.tx(ctx, "record cmi5 progress", func(ctx context.Context, tx *sql.Tx) error {
		// A registration's progress changes take turns, so that two
		// batches at once cannot both record the same satisfied.
		if s.dialect == Postgres {
			if _, err := tx.ExecContext(ctx, `SELECT id FROM cmi5_registrations WHERE id = $1 FOR UPDATE`, c.Registration); err != nil {
				return err
			}
		}
		now := s.Now().UTC()
		var auID, actor string
		if err := tx.QueryRowContext(ctx, `SELECT au_id, actor FROM cmi5_sessions WHERE id = $1`, c.SessionID).Scan(&auID, &actor); err != nil {
			if isNoRows(err) {
				return apperr.NotFound("the cmi5 session has been deleted with its course")
			}
			return err
		}
		_, course, au, err := cmi5AUOfID(ctx, tx, auID)
		if err != nil {
			return err
		}
		var completed, passed, terminated bool
		for _, v := range verbs {
			completed = completed || v == cmi5.VerbCompleted
			passed = passed || v == cmi5.VerbPassed
			terminated = terminated || v == cmi5.VerbTerminated
		}
		if completed || passed {
			if _, err := tx.ExecContext(ctx, `INSERT INTO cmi5_progress (registration_id, object_id, completed, passed) VALUES ($1, $2, $3, $4)
				ON CONFLICT (registration_id, object_id) DO UPDATE SET completed = cmi5_progress.completed OR excluded.completed,
				passed = cmi5_progress.passed OR excluded.passed`, c.Registration, au.ID, completed, passed); err != nil {
				return err
			}
			sess := cmi5.Session{ID: c.SessionID, Registration: c.Registration, Actor: json.RawMessage(actor), ActivityID: c.ActivityID, AU: au}
			var stmts []any
			if err := s.satisfyCmi5(ctx, tx, c.Registration, course, sess, now, &stmts); err != nil {
				return err
			}
			if err := s.storeCmi5Statements(ctx, tx, c.OrgID, c.LearnerID, base, stmts); err != nil {
				return err
			}
		}
		end := any(nil)
		if terminated {
			end = now
		}
		_, err = tx.ExecContext(ctx, `UPDATE cmi5_sessions SET last_at = $2, ended_at = COALESCE(ended_at, $3) WHERE id = $1`, c.SessionID, now, end)
		return err
	})
}

// cmi5AUOfID reads an AU with its course by the AU's id alone.
func cmi5AUOfID(ctx context.Context, q querier, auID string) (string, cmi5.Course, cmi5.AU, error) {
	var orgID string
	if err := q.QueryRowContext(ctx, `SELECT c.org_id FROM cmi5_aus a JOIN cmi5_courses c ON c.id = a.course_id WHERE a.id = $1`, auID).Scan(&orgID); err != nil {
		return "", cmi5.Course{}, cmi5.AU{}, err
	}
	courseID, _, c, au, err := cmi5AUOf(ctx, q, orgID, auID)
	return courseID, c, au, err
}
