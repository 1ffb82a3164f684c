package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/xapi"
)

// XAPIWrite is a batch of statements for one organisation's LRS.
type XAPIWrite struct {
	OrgID string
	// LearnerID names the Journeyman learner the statements are about, when
	// Journeyman wrote them; it lets that learner read them.
	LearnerID  string
	Authority  json.RawMessage
	Version    xapi.Version
	Statements []xapi.Incoming
	// Parts are the attachments' contents, by SHA-256.
	Parts map[string]xapi.Part
}

// StoreXAPIStatements stores a batch all or nothing and returns the ids of
// its statements in order. A statement whose id is already stored is
// accepted when it is the same statement (xapi.Equivalent) and refused
// with ECONFLICT otherwise: statements are immutable.
func (s *Store) StoreXAPIStatements(ctx context.Context, w XAPIWrite) ([]string, error) {
	var ids []string
	write := func(ctx context.Context, tx *sql.Tx) error {
		var err error
		ids, err = s.storeXAPI(ctx, tx, w)
		return err
	}
	var err error
	if s.dialect == Postgres {
		if err = runWrite(ctx, s.xapiWrites.of(w.OrgID), groupTx{db: s.db}, write); err != nil {
			err = fmt.Errorf("store xAPI statements: %w", err)
		}
	} else {
		err = s.tx(ctx, "store xAPI statements", write)
	}
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// xapiQueues gathers the LRS writes of each organisation on PostgreSQL,
// which take turns under its advisory lock (storeXAPI), into groups of one
// transaction: a turn's fixed costs, the lock's hand-over and the commit's
// wait for its log flush, are paid once per group rather than per batch.
type xapiQueues struct {
	mu    sync.Mutex
	byOrg map[string]*writeQueue
}

func (x *xapiQueues) of(orgID string) *writeQueue {
	x.mu.Lock()
	defer x.mu.Unlock()
	q, ok := x.byOrg[orgID]
	if !ok {
		if x.byOrg == nil {
			x.byOrg = map[string]*writeQueue{}
		}
		q = newWriteQueue()
		x.byOrg[orgID] = q
	}
	return q
}

// xapiInsertRows bounds the rows of one multi-row INSERT, far below both
// databases' limits on placeholders.
const xapiInsertRows = 200

// storeXAPI writes a batch inside tx. Each organisation's writes take
// turns (SQLite has one writer; PostgreSQL takes an advisory lock), and
// stored is read off the clock only once the turn is ours, so the order of
// seq is the order of stored and everything stored up to the newest
// visible statement is visible (the consistent-through promise).
func (s *Store) storeXAPI(ctx context.Context, tx *sql.Tx, w XAPIWrite) ([]string, error) {
	if s.dialect == Postgres {
		// Plans are made for each query: a generic plan cached while the
		// tables were small (a new deployment, before autovacuum has
		// analyzed them) would scan them whole for the rest of the
		// connection's life.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('xapi:' || $1, 0)), set_config('plan_cache_mode', 'force_custom_plan', true)`, w.OrgID); err != nil {
			return nil, err
		}
	}
	stored := s.Now().UTC().Truncate(time.Millisecond)
	stmts := make([]xapi.Statement, 0, len(w.Statements))
	ids := make([]string, 0, len(w.Statements))
	seen := make(map[string]bool, len(w.Statements))
	for i, in := range w.Statements {
		st, err := in.Complete(stored, w.Authority, w.Version)
		if err != nil {
			return nil, err
		}
		if seen[st.ID] {
			return nil, apperr.Invalid("statements[%d]: id %s appears twice in the batch", i, st.ID)
		}
		seen[st.ID] = true
		stmts = append(stmts, st)
		ids = append(ids, st.ID)
	}
	known, voidedBefore, err := s.knownXAPI(ctx, tx, w.OrgID, ids)
	if err != nil {
		return nil, err
	}
	fresh := stmts[:0:0]
	for i, st := range stmts {
		old, ok := known[st.ID]
		switch {
		case !ok:
			fresh = append(fresh, st)
		// As sent, not as completed: what the LRS filled in is no difference.
		case !xapi.Equivalent(old.body, w.Statements[i].JSON()):
			return nil, apperr.Conflict("statement %s is already stored with different content; statements cannot change", st.ID)
		}
	}
	if err := s.checkVoiding(ctx, tx, w.OrgID, fresh); err != nil {
		return nil, err
	}
	for start := 0; start < len(fresh); start += xapiInsertRows {
		chunk := fresh[start:min(start+xapiInsertRows, len(fresh))]
		insert := s.insertXAPI
		if s.dialect == Postgres {
			insert = s.insertXAPIPostgres
		}
		if err := insert(ctx, tx, w.OrgID, w.LearnerID, chunk, stored, voidedBefore); err != nil {
			return nil, err
		}
	}
	if err := s.storeXAPIParts(ctx, tx, w.OrgID, fresh, w.Parts); err != nil {
		return nil, err
	}
	return ids, s.applyVoiding(ctx, tx, w.OrgID, fresh)
}

type knownStatement struct {
	body     json.RawMessage
	verbID   string
	targetID string
}

// knownXAPI returns the statements of ids already stored for org, and
// which of ids a stored voiding statement targets: a statement voided
// before it arrived.
func (s *Store) knownXAPI(ctx context.Context, q querier, orgID string, ids []string) (map[string]knownStatement, map[string]bool, error) {
	known := map[string]knownStatement{}
	voided := map[string]bool{}
	for start := 0; start < len(ids); start += xapiInsertRows {
		chunk := ids[start:min(start+xapiInsertRows, len(ids))]
		in := placeholders(3, len(chunk))
		err := eachRow(ctx, q, `SELECT FALSE, id, body, verb_id, COALESCE(target_id, '') FROM xapi_statements WHERE org_id = $1 AND id IN (`+in+`)
			UNION ALL
			SELECT TRUE, target_id, '', '', '' FROM xapi_statements WHERE org_id = $1 AND verb_id = $2 AND target_id IN (`+in+`)`,
			append([]any{orgID, xapi.VoidedVerb}, anys(chunk)...), func(rows *sql.Rows) error {
				var isVoiding bool
				var id, body string
				var k knownStatement
				if err := rows.Scan(&isVoiding, &id, &body, &k.verbID, &k.targetID); err != nil {
					return err
				}
				if isVoiding {
					voided[id] = true
				} else {
					k.body = json.RawMessage(body)
					known[id] = k
				}
				return nil
			})
		if err != nil {
			return nil, nil, err
		}
	}
	return known, voided, nil
}

// eachRow runs query and calls fn on each row.
func eachRow(ctx context.Context, q querier, query string, args []any, fn func(*sql.Rows) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// checkVoiding refuses a voiding statement whose target is itself a
// voiding statement, stored or in the same batch: a voiding statement
// cannot be voided. A target not yet stored is accepted; it is voided
// when it arrives (applyVoiding).
func (s *Store) checkVoiding(ctx context.Context, tx *sql.Tx, orgID string, stmts []xapi.Statement) error {
	var targets []string
	voiding := map[string]bool{}
	for _, st := range stmts {
		if st.Voids != "" {
			targets = append(targets, st.Voids)
			voiding[st.ID] = true
		}
	}
	if len(targets) == 0 {
		return nil
	}
	known, _, err := s.knownXAPI(ctx, tx, orgID, targets)
	if err != nil {
		return err
	}
	for _, t := range targets {
		if voiding[t] || known[t].verbID == xapi.VoidedVerb {
			return apperr.Invalid("statement %s is itself a voiding statement, which cannot be voided", t)
		}
	}
	return nil
}

// insertXAPI inserts statements and their index rows (SQLite: in
// process, statement by statement costs no round trips). Its multi-row
// INSERTs say OR IGNORE and count the rows stored instead: a multi-row
// statement that may fail part-way has SQLite copy every page it changes
// into a statement journal first, to undo it alone. Nothing here can
// conflict (the batch's ids are new, and each lists a key once), so a
// missing row is an error of ours.
func (s *Store) insertXAPI(ctx context.Context, tx *sql.Tx, orgID, learnerID string, stmts []xapi.Statement, stored time.Time, voided map[string]bool) error {
	var sb strings.Builder
	sb.WriteString(`INSERT OR IGNORE INTO xapi_statements (org_id, id, stored, verb_id, registration, target_id, learner_id, voided, body) VALUES `)
	args := make([]any, 0, len(stmts)*9)
	for i, st := range stmts {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, "(%s)", s.rowMarks(len(args)+1, 9))
		args = append(args, orgID, st.ID, stored.UnixMicro(), st.VerbID, nullText(st.Registration), nullText(st.TargetID), nullText(learnerID),
			voided[st.ID], string(st.Body))
	}
	sb.WriteString(` RETURNING seq, id`)
	seqOf := make(map[string]int64, len(stmts))
	err := eachRow(ctx, tx, sb.String(), args, func(rows *sql.Rows) error {
		var seq int64
		var id string
		err := rows.Scan(&seq, &id)
		seqOf[id] = seq
		return err
	})
	if err != nil {
		return err
	}
	if len(seqOf) != len(stmts) {
		return fmt.Errorf("stored %d of %d statements", len(seqOf), len(stmts))
	}
	if err := s.insertXAPIRefs(ctx, tx, "xapi_statement_agents", "agent_key", orgID, stmts, seqOf, func(st xapi.Statement) []xapi.Ref { return st.Agents }); err != nil {
		return err
	}
	if err := s.insertXAPIRefs(ctx, tx, "xapi_statement_activities", "activity_id", orgID, stmts, seqOf, func(st xapi.Statement) []xapi.Ref { return st.Activities }); err != nil {
		return err
	}
	return s.storeXAPIActivities(ctx, tx, orgID, stmts)
}

// insertXAPIPostgres inserts statements, their index rows and their
// activity definitions in one statement: one round trip, whatever the
// batch's size, where the steps of insertXAPI would each cost one.
func (s *Store) insertXAPIPostgres(ctx context.Context, tx *sql.Tx, orgID, learnerID string, stmts []xapi.Statement, stored time.Time, voided map[string]bool) error {
	var ids, verbs, regs, targets, bodies []string
	var voids []bool
	var agentIDs, agentKeys, actIDs, actKeys, defIDs, defs []string
	var agentDirect, actDirect []bool
	seenDef := map[string]int{}
	for _, st := range stmts {
		ids, verbs, regs, targets = append(ids, st.ID), append(verbs, st.VerbID), append(regs, st.Registration), append(targets, st.TargetID)
		bodies, voids = append(bodies, string(st.Body)), append(voids, voided[st.ID])
		for _, r := range st.Agents {
			agentIDs, agentKeys, agentDirect = append(agentIDs, st.ID), append(agentKeys, r.Key), append(agentDirect, r.Direct)
		}
		for _, r := range st.Activities {
			actIDs, actKeys, actDirect = append(actIDs, st.ID), append(actKeys, r.Key), append(actDirect, r.Direct)
		}
		for id, def := range st.ActivityDefs {
			// The latest definition of each activity, once: PostgreSQL
			// refuses to update a row twice in one statement.
			if i, ok := seenDef[id]; ok {
				defs[i] = string(def)
				continue
			}
			seenDef[id] = len(defIDs)
			defIDs, defs = append(defIDs, id), append(defs, string(def))
		}
	}
	var n int
	err := tx.QueryRowContext(ctx, `WITH ins AS (
			INSERT INTO xapi_statements (org_id, id, stored, verb_id, registration, target_id, learner_id, voided, body)
			SELECT $1, u.id, $2, u.verb, NULLIF(u.reg, ''), NULLIF(u.target, ''), NULLIF($3, ''), u.voided, u.body
			FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::bool[], $9::text[]) WITH ORDINALITY AS u (id, verb, reg, target, voided, body, n)
			ORDER BY u.n
			RETURNING seq, id, verb_id
		), agents AS (
			INSERT INTO xapi_statement_agents (org_id, agent_key, seq, direct, verb_id)
			SELECT $1, r.key, ins.seq, r.direct, ins.verb_id FROM unnest($10::text[], $11::text[], $12::bool[]) AS r (id, key, direct) JOIN ins ON ins.id = r.id
		), activities AS (
			INSERT INTO xapi_statement_activities (org_id, activity_id, seq, direct, verb_id)
			SELECT $1, r.key, ins.seq, r.direct, ins.verb_id FROM unnest($13::text[], $14::text[], $15::bool[]) AS r (id, key, direct) JOIN ins ON ins.id = r.id
		), definitions AS (
			INSERT INTO xapi_activities (org_id, id, definition)
			SELECT $1, d.id, d.definition FROM unnest($16::text[], $17::text[]) AS d (id, definition)
			ON CONFLICT (org_id, id) DO UPDATE SET definition = excluded.definition `+xapiDefinitionChanged+`
		)
		SELECT count(*) FROM ins`,
		orgID, stored.UnixMicro(), learnerID, ids, verbs, regs, targets, voids, bodies,
		agentIDs, agentKeys, agentDirect, actIDs, actKeys, actDirect, defIDs, defs).Scan(&n)
	if err == nil && n != len(stmts) {
		err = fmt.Errorf("stored %d of %d statements", n, len(stmts))
	}
	return err
}

// insertXAPIRefs writes the agent or activity index rows of stmts
// (xapi.Complete lists each key of a statement once, direct when any
// mention of it is), with the statement's verb.
func (s *Store) insertXAPIRefs(ctx context.Context, tx *sql.Tx, table, column, orgID string, stmts []xapi.Statement, seqOf map[string]int64, refs func(xapi.Statement) []xapi.Ref) error {
	type row struct {
		key    string
		seq    int64
		direct bool
		verb   string
	}
	var all []row
	for _, st := range stmts {
		for _, ref := range refs(st) {
			all = append(all, row{ref.Key, seqOf[st.ID], ref.Direct, st.VerbID})
		}
	}
	for start := 0; start < len(all); start += xapiInsertRows {
		chunk := all[start:min(start+xapiInsertRows, len(all))]
		var sb strings.Builder
		fmt.Fprintf(&sb, `INSERT OR IGNORE INTO %s (org_id, %s, seq, direct, verb_id) VALUES `, table, column)
		args := make([]any, 0, len(chunk)*5)
		for i, r := range chunk {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "(%s)", s.rowMarks(len(args)+1, 5))
			args = append(args, orgID, r.key, r.seq, r.direct, r.verb)
		}
		res, err := tx.ExecContext(ctx, sb.String(), args...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n != int64(len(chunk)) {
			return fmt.Errorf("%s: stored %d of %d rows", table, n, len(chunk))
		}
	}
	return nil
}

// xapiDefinitionChanged limits an activity definition's upsert to a
// change: most statements repeat the definition stored, and rewriting the
// row for nothing costs a page write (SQLite) or a dead row version
// (PostgreSQL).
const xapiDefinitionChanged = `WHERE xapi_activities.definition <> excluded.definition`

// storeXAPIActivities keeps the latest definition given of each activity
// for the Activities Resource, in one statement per chunk.
func (s *Store) storeXAPIActivities(ctx context.Context, tx *sql.Tx, orgID string, stmts []xapi.Statement) error {
	defs := map[string]json.RawMessage{}
	var order []string
	for _, st := range stmts {
		for id, def := range st.ActivityDefs {
			if _, ok := defs[id]; !ok {
				order = append(order, id)
			}
			defs[id] = def
		}
	}
	for start := 0; start < len(order); start += xapiInsertRows {
		chunk := order[start:min(start+xapiInsertRows, len(order))]
		var sb strings.Builder
		sb.WriteString(`INSERT INTO xapi_activities (org_id, id, definition) VALUES `)
		args := make([]any, 0, len(chunk)*3)
		for i, id := range chunk {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "(%s)", s.rowMarks(len(args)+1, 3))
			args = append(args, orgID, id, string(defs[id]))
		}
		// Each id once per statement: PostgreSQL refuses to update a row twice in one.
		sb.WriteString(` ON CONFLICT (org_id, id) DO UPDATE SET definition = excluded.definition ` + xapiDefinitionChanged)
		if _, err := tx.ExecContext(ctx, sb.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

// storeXAPIParts keeps the contents of the batch's attachments, once per
// hash.
func (s *Store) storeXAPIParts(ctx context.Context, tx *sql.Tx, orgID string, stmts []xapi.Statement, parts map[string]xapi.Part) error {
	done := map[string]bool{}
	for _, st := range stmts {
		for _, a := range st.Attachments {
			p, ok := parts[a.SHA2]
			if !ok || done[a.SHA2] {
				continue
			}
			done[a.SHA2] = true
			if _, err := tx.ExecContext(ctx, `INSERT INTO xapi_attachments (org_id, sha2, content_type, content) VALUES ($1, $2, $3, $4)
				ON CONFLICT (org_id, sha2) DO NOTHING`, orgID, a.SHA2, p.ContentType, p.Content); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyVoiding marks the stored targets of the batch's voiding statements
// voided (a batch's statement an earlier voiding statement targets was
// inserted voided).
func (s *Store) applyVoiding(ctx context.Context, tx *sql.Tx, orgID string, stmts []xapi.Statement) error {
	var targets []string
	for _, st := range stmts {
		if st.Voids != "" {
			targets = append(targets, st.Voids)
		}
	}
	for start := 0; start < len(targets); start += xapiInsertRows {
		chunk := targets[start:min(start+xapiInsertRows, len(targets))]
		if _, err := tx.ExecContext(ctx, `UPDATE xapi_statements SET voided = TRUE WHERE org_id = $1 AND verb_id <> $2 AND id IN (`+ //nolint:gosec // G202: placeholders only
			placeholders(3, len(chunk))+`)`,
			append([]any{orgID, xapi.VoidedVerb}, anys(chunk)...)...); err != nil {
			return err
		}
	}
	return nil
}

// rowMarks are the placeholders of one row of a multi-row INSERT whose
// placeholders are all such rows. SQLite gets anonymous ones: the driver
// binds a numbered one by looking its name up in a list, which costs a
// batch of hundreds of them time in the square of their number.
func (s *Store) rowMarks(first, n int) string {
	if s.dialect == SQLite {
		return strings.TrimSuffix(strings.Repeat("?,", n), ",")
	}
	return placeholders(first, n)
}

func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}
