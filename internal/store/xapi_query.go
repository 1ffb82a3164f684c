package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/xapi"
)

// MaxXAPIPage is the most statements one GET returns; the rest come
// through the answer's more link.
const MaxXAPIPage = 500

// XAPIQuery selects statements of one organisation, as the Statement
// Resource's query parameters do. Empty fields do not filter.
type XAPIQuery struct {
	OrgID string
	// LearnerID keeps to the statements Journeyman wrote about one learner:
	// what a learner reading their own records may see.
	LearnerID         string
	Agent             string // an xapi.AgentKey
	Verb              string
	Activity          string
	Registration      string
	RelatedAgents     bool
	RelatedActivities bool
	Since, Until      time.Time
	Limit             int // 0 or beyond MaxXAPIPage: MaxXAPIPage
	Ascending         bool
	// After continues a query past the statement of this seq (XAPIPage.Next).
	After int64
}

// XAPIPage is one page of a query's statements, in the query's order.
type XAPIPage struct {
	Statements []json.RawMessage
	// Next is the After of the next page, 0 when this page is the last.
	Next int64
}

// QueryXAPIStatements returns the page of statements q selects. Voided
// statements are left out; a statement whose object is a StatementRef
// matches the filters when its target does, as the specification asks.
func (s *Store) QueryXAPIStatements(ctx context.Context, q XAPIQuery) (XAPIPage, error) {
	limit := q.Limit
	if limit <= 0 || limit > MaxXAPIPage {
		limit = MaxXAPIPage
	}
	var refs bool
	err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM xapi_statements WHERE org_id = $1 AND target_id IS NOT NULL)`, q.OrgID).Scan(&refs)
	if err != nil {
		return XAPIPage{}, fmt.Errorf("query xAPI statements: %w", err)
	}

	args := []any{q.OrgID}
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	// match: the statements the agent, verb, activity and registration
	// filters select, over the driving table whose index suits them best.
	// The agent and activity index rows carry their statement's verb:
	// checked there, it spares reading the statements of other verbs.
	var from, seq, verb string
	var match []string
	switch {
	case q.Agent != "":
		from, seq, verb = `xapi_statement_agents x JOIN xapi_statements s ON s.seq = x.seq`, "x.seq", "x.verb_id"
		match = append(match, "x.org_id = $1", "x.agent_key = "+arg(q.Agent))
		if !q.RelatedAgents {
			match = append(match, "x.direct")
		}
	case q.Activity != "":
		from, seq, verb = `xapi_statement_activities x JOIN xapi_statements s ON s.seq = x.seq`, "x.seq", "x.verb_id"
		match = append(match, "x.org_id = $1", "x.activity_id = "+arg(q.Activity))
		if !q.RelatedActivities {
			match = append(match, "x.direct")
		}
	default:
		from, seq, verb = `xapi_statements s`, "s.seq", "s.verb_id"
		match = append(match, "s.org_id = $1")
	}
	if q.Agent != "" && q.Activity != "" {
		c := "EXISTS (SELECT 1 FROM xapi_statement_activities y WHERE y.org_id = $1 AND y.activity_id = " + arg(q.Activity) + " AND y.seq = s.seq"
		if !q.RelatedActivities {
			c += " AND y.direct"
		}
		match = append(match, c+")")
	}
	if q.Verb != "" {
		match = append(match, verb+" = "+arg(q.Verb))
	}
	if q.Registration != "" {
		match = append(match, "s.registration = "+arg(q.Registration))
	}

	// page: what the answer keeps of the matches, in order.
	page := []string{"NOT s.voided"}
	if q.LearnerID != "" {
		page = append(page, "s.learner_id = "+arg(q.LearnerID))
	}
	if !q.Since.IsZero() {
		page = append(page, "s.stored > "+arg(q.Since.UnixMicro()))
	}
	if !q.Until.IsZero() {
		page = append(page, "s.stored <= "+arg(q.Until.UnixMicro()))
	}
	order, after := "DESC", "<"
	if q.Ascending {
		order, after = "ASC", ">"
	}
	cursor := func(string) string { return "TRUE" }
	if q.After > 0 {
		mark := arg(q.After)
		cursor = func(col string) string { return col + " " + after + " " + mark }
	}

	var query string
	if refs {
		// The statements targeting a match match too, and so on down the
		// chain; only organisations that ever stored a StatementRef pay
		// for the walk.
		query = `WITH RECURSIVE m (seq, id) AS (
				SELECT s.seq, s.id FROM ` + from + ` WHERE ` + strings.Join(match, " AND ") + `
				UNION
				SELECT t.seq, t.id FROM xapi_statements t JOIN m ON t.org_id = $1 AND t.target_id = m.id)
			SELECT s.seq, s.body FROM xapi_statements s WHERE s.seq IN (SELECT seq FROM m) AND ` +
			strings.Join(page, " AND ") + ` AND ` + cursor("s.seq") + ` ORDER BY s.seq ` + order
	} else {
		// An organisation's statements are stored in seq order, so stored
		// orders them too; with a time window and no agent or activity,
		// ordering by it lets the stored index serve both the window and
		// the order, where seq's would walk every statement outside it.
		by := seq + " " + order
		if from == "xapi_statements s" && (!q.Since.IsZero() || !q.Until.IsZero()) {
			by = "s.stored " + order + ", s.seq " + order
		}
		query = `SELECT ` + seq + `, s.body FROM ` + from + ` WHERE ` + strings.Join(append(match, page...), " AND ") +
			` AND ` + cursor(seq) + ` ORDER BY ` + by
	}
	query += fmt.Sprintf(" LIMIT %d", limit+1)

	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return XAPIPage{}, fmt.Errorf("query xAPI statements: %w", err)
	}
	defer rows.Close()
	var p XAPIPage
	var last int64
	for rows.Next() {
		if len(p.Statements) == limit {
			p.Next = last
			break
		}
		var body string
		if err := rows.Scan(&last, &body); err != nil {
			return XAPIPage{}, fmt.Errorf("query xAPI statements: %w", err)
		}
		p.Statements = append(p.Statements, json.RawMessage(body))
	}
	if err := rows.Err(); err != nil {
		return XAPIPage{}, fmt.Errorf("query xAPI statements: %w", err)
	}
	return p, nil
}

// GetXAPIStatement returns one statement of org: with voided false a
// statement that is not voided, with voided true one that is (the
// Statement Resource's statementId and voidedStatementId). learnerID,
// when set, keeps to that learner's statements.
func (s *Store) GetXAPIStatement(ctx context.Context, orgID, learnerID, id string, voided bool) (json.RawMessage, error) {
	var body string
	var isVoided bool
	query := `SELECT body, voided FROM xapi_statements WHERE org_id = $1 AND id = $2`
	args := []any{orgID, id}
	if learnerID != "" {
		query += ` AND learner_id = $3`
		args = append(args, learnerID)
	}
	err := s.db.QueryRowContext(ctx, query, args...).Scan(&body, &isVoided)
	switch {
	case isNoRows(err) || err == nil && isVoided != voided:
		if voided {
			return nil, apperr.NotFound("no voided statement %s", id)
		}
		return nil, apperr.NotFound("no statement %s (a voided statement is read with voidedStatementId)", id)
	case err != nil:
		return nil, fmt.Errorf("get xAPI statement: %w", err)
	}
	return json.RawMessage(body), nil
}

// XAPIConsistentThrough is the stored time up to which every statement of
// org is visible: the newest stored, since writes take turns (storeXAPI);
// now when there are none.
func (s *Store) XAPIConsistentThrough(ctx context.Context, orgID string) (time.Time, error) {
	var newest sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT MAX(stored) FROM xapi_statements WHERE org_id = $1`, orgID).Scan(&newest); err != nil {
		return time.Time{}, fmt.Errorf("xAPI consistent-through: %w", err)
	}
	if !newest.Valid {
		return s.Now().UTC(), nil
	}
	return time.UnixMicro(newest.Int64).UTC(), nil
}

// XAPIAttachments returns the stored contents of the given hashes of org.
func (s *Store) XAPIAttachments(ctx context.Context, orgID string, sha2s []string) (map[string]xapi.Part, error) {
	parts := map[string]xapi.Part{}
	for start := 0; start < len(sha2s); start += xapiInsertRows {
		chunk := sha2s[start:min(start+xapiInsertRows, len(sha2s))]
		err := eachRow(ctx, s.db, `SELECT sha2, content_type, content FROM xapi_attachments
			WHERE org_id = $1 AND sha2 IN (`+placeholders(2, len(chunk))+`)`, append([]any{orgID}, anys(chunk)...), func(rows *sql.Rows) error {
			var sha2 string
			var p xapi.Part
			err := rows.Scan(&sha2, &p.ContentType, &p.Content)
			parts[sha2] = p
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("xAPI attachments: %w", err)
		}
	}
	return parts, nil
}
