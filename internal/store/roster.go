package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/roster"
)

// Roster import outcomes.
const (
	RosterCreate    = "create"
	RosterUpdate    = "update"
	RosterUnchanged = "unchanged"
	RosterError     = "error"
)

// RosterResult is what an import does, or would do, with one row.
type RosterResult struct {
	Line    int           `json:"line"`
	Email   string        `json:"email"`
	Name    string        `json:"name"`
	Role    identity.Role `json:"role"`
	Cohort  string        `json:"cohort"`
	Outcome string        `json:"outcome"`
	Message string        `json:"message"`
	// SetupToken is the password-set link's token of a created account,
	// only when the import was applied.
	SetupToken string `json:"-"`
	// UserID is the member whose role or cohort an update changed.
	UserID string `json:"-"`
}

var errRosterRollback = errors.New("roster: roll back")

// ImportRoster brings the organisation's members in line with the rows:
// new people get accounts (and setup links), members get the row's role and
// cohort (a cohort that does not exist is created, taught by the importing
// admin). A dry run, or a roster with any bad row, changes nothing: the
// same transaction runs and is rolled back, so the report of a dry run is
// exactly what the import would do. applied tells whether it was kept.
func (s *Store) ImportRoster(ctx context.Context, orgID, adminID string, rows []roster.Row, dryRun bool) (out []RosterResult, applied bool, err error) {
	err = s.tx(ctx, "import roster", func(ctx context.Context, tx *sql.Tx) error {
		out = make([]RosterResult, len(rows))
		failed := false
		cohorts := map[string]rosterCohort{}
		for i, row := range rows {
			res := RosterResult{Line: row.Line, Email: row.Email, Name: row.Name, Role: row.Role, Cohort: row.Cohort}
			if row.Problem != "" {
				res.Outcome, res.Message = RosterError, row.Problem
			} else if err := s.importRow(ctx, tx, orgID, adminID, row, cohorts, &res); err != nil {
				if apperr.Code(err) == apperr.EINTERNAL {
					return err
				}
				res.Outcome, res.Message = RosterError, apperr.Message(err)
			}
			failed = failed || res.Outcome == RosterError
			out[i] = res
		}
		if dryRun || failed {
			return errRosterRollback
		}
		return nil
	})
	if errors.Is(err, errRosterRollback) {
		for i := range out {
			out[i].SetupToken = ""
		}
		return out, false, nil
	}
	return out, err == nil, err
}

// rosterCohort is a cohort an import's rows name, by its name in lower case.
type rosterCohort struct {
	id, name string
	created  bool // by this import
}

// label names the cohort in an import's report.
func (c rosterCohort) label() string {
	if c.created {
		return "new cohort " + c.name
	}
	return "cohort " + c.name
}

func (s *Store) importRow(ctx context.Context, tx *sql.Tx, orgID, adminID string, row roster.Row, cohorts map[string]rosterCohort, res *RosterResult) error {
	now := s.Now()
	var cohort rosterCohort // none: the row names no cohort
	if row.Cohort != "" {
		// A cohort is found whatever the capitals the row writes it in.
		key := strings.ToLower(row.Cohort)
		c, ok := cohorts[key]
		if !ok {
			c.name = row.Cohort
			err := tx.QueryRowContext(ctx, `SELECT id, name FROM cohorts WHERE org_id = $1 AND LOWER(name) = LOWER($2) ORDER BY name = $2 DESC LIMIT 1`,
				orgID, row.Cohort).Scan(&c.id, &c.name)
			if isNoRows(err) {
				c.id, c.created = identity.NewID(), true
				err = insertCohort(ctx, tx, c.id, orgID, row.Cohort, adminID, now)
			}
			if err != nil {
				return err
			}
			cohorts[key] = c
		}
		cohort = c
	}
	u, err := getUser(ctx, tx, `l.email = $1`, row.Email)
	switch {
	case apperr.Code(err) == apperr.ENOTFOUND:
		id, err := insertAccount(ctx, tx, NewAccount{Email: row.Email, DisplayName: row.Name, OrgID: orgID, Role: row.Role, CohortID: cohort.id}, now)
		if err != nil {
			return err
		}
		res.Outcome, res.Message = RosterCreate, "a new account; share the setup link so they can choose a password"
		if cohort.id != "" {
			res.Message += "; in " + cohort.label()
		}
		res.SetupToken, _, err = createPasswordLink(ctx, tx, id, now, SetupLinkTTL)
		return err
	case err != nil:
		return err
	case u.OrgID != orgID:
		return apperr.Conflict("%s already has an account outside your organisation; send them an invite link instead", row.Email)
	}
	var changes []string
	if u.Role != row.Role {
		if err := keepAnAdmin(ctx, tx, orgID, u.ID, row.Role); err != nil {
			return err
		}
		if row.Role == identity.Learner {
			if err := keepCohortTeachers(ctx, tx, u.ID); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE learners SET role = $2 WHERE id = $1`, u.ID, row.Role); err != nil {
			return err
		}
		changes = append(changes, fmt.Sprintf("role %s → %s", u.Role, row.Role))
	}
	if cohort.id != "" {
		var in int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM cohort_members WHERE cohort_id = $1 AND learner_id = $2`, cohort.id, u.ID).Scan(&in); err != nil {
			return err
		}
		if in == 0 {
			if err := addCohortMember(ctx, tx, cohort.id, u.ID, now); err != nil {
				return err
			}
			changes = append(changes, "added to "+cohort.label())
		}
	}
	// A member's display name is theirs to choose (PATCH /api/account): a
	// roster does not change it, and says so when it lists another.
	var kept string
	if u.DisplayName != row.Name {
		kept = fmt.Sprintf("name kept: they go by “%s”", u.DisplayName)
	}
	if len(changes) == 0 {
		res.Outcome, res.Message = RosterUnchanged, "already a member as listed"
		if kept != "" {
			res.Message = "already a member; " + kept
		}
		return nil
	}
	if kept != "" {
		changes = append(changes, kept)
	}
	res.Outcome, res.Message, res.UserID = RosterUpdate, strings.Join(changes, "; "), u.ID
	return nil
}
