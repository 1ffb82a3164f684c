package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
)

// Cohort is a group of learners an instructor teaches.
type Cohort struct {
	ID          string    `json:"id"`
	OrgID       string    `json:"-"`
	Name        string    `json:"name"`
	Instructor  Ref       `json:"instructor"`
	MemberCount int       `json:"memberCount"`
	CreatedAt   time.Time `json:"createdAt"`
}

// CohortMember is a learner in a cohort.
type CohortMember struct {
	ID          string        `json:"id"`
	DisplayName string        `json:"displayName"`
	Email       string        `json:"email"`
	Role        identity.Role `json:"role"`
}

const cohortColumns = `SELECT c.id, c.org_id, c.name, c.instructor_id, i.display_name, c.created_at,
	(SELECT COUNT(*) FROM cohort_members m WHERE m.cohort_id = c.id)
	FROM cohorts c JOIN learners i ON i.id = c.instructor_id `

func scanCohort(row interface{ Scan(...any) error }) (Cohort, error) {
	var c Cohort
	err := row.Scan(&c.ID, &c.OrgID, &c.Name, &c.Instructor.ID, &c.Instructor.Name, &c.CreatedAt, &c.MemberCount)
	c.CreatedAt = c.CreatedAt.UTC()
	return c, err
}

// ListCohorts returns an organisation's cohorts by name; instructorID, when
// set, keeps that instructor's own.
func (s *Store) ListCohorts(ctx context.Context, orgID, instructorID string) ([]Cohort, error) {
	rows, err := s.db.QueryContext(ctx, cohortColumns+`WHERE c.org_id = $1 AND ($2 = '' OR c.instructor_id = $2) ORDER BY c.name LIMIT 1000`, orgID, instructorID)
	if err != nil {
		return nil, fmt.Errorf("list cohorts: %w", err)
	}
	defer rows.Close()
	out := []Cohort{}
	for rows.Next() {
		c, err := scanCohort(rows)
		if err != nil {
			return nil, fmt.Errorf("list cohorts: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// GetCohort returns a cohort of orgID, or ENOTFOUND.
func (s *Store) GetCohort(ctx context.Context, orgID, id string) (Cohort, error) {
	c, err := scanCohort(s.db.QueryRowContext(ctx, cohortColumns+`WHERE c.id = $1 AND c.org_id = $2`, id, orgID))
	if isNoRows(err) {
		return c, apperr.NotFound("cohort %s does not exist", id)
	}
	if err != nil {
		return c, fmt.Errorf("get cohort: %w", err)
	}
	return c, nil
}

// CohortMembers lists a cohort's learners by name.
func (s *Store) CohortMembers(ctx context.Context, cohortID string) ([]CohortMember, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT l.id, l.display_name, COALESCE(l.email, ''), l.role FROM cohort_members m
		JOIN learners l ON l.id = m.learner_id WHERE m.cohort_id = $1 ORDER BY LOWER(l.display_name), l.id LIMIT 5000`, cohortID)
	if err != nil {
		return nil, fmt.Errorf("cohort members: %w", err)
	}
	defer rows.Close()
	out := []CohortMember{}
	for rows.Next() {
		var m CohortMember
		if err := rows.Scan(&m.ID, &m.DisplayName, &m.Email, &m.Role); err != nil {
			return nil, fmt.Errorf("cohort members: %w", err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// CreateCohort stores a cohort taught by instructorID, a member of orgID
// who is an instructor or admin.
func (s *Store) CreateCohort(ctx context.Context, orgID, name, instructorID string) (Cohort, error) {
	id := identity.NewID()
	err := s.tx(ctx, "create cohort", func(ctx context.Context, tx *sql.Tx) error {
		return insertCohort(ctx, tx, id, orgID, name, instructorID, s.Now())
	})
	if err != nil {
		return Cohort{}, err
	}
	return s.GetCohort(ctx, orgID, id)
}

func insertCohort(ctx context.Context, tx *sql.Tx, id, orgID, name, instructorID string, now time.Time) error {
	if err := staffInOrg(ctx, tx, orgID, instructorID); err != nil {
		return err
	}
	if err := cohortNameFree(ctx, tx, orgID, "", name); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO cohorts (id, org_id, name, instructor_id, created_at) VALUES ($1, $2, $3, $4, $5)`,
		id, orgID, name, instructorID, now)
	if isUniqueViolation(err) {
		return apperr.Conflict("a cohort named %q already exists", name)
	}
	return err
}

// cohortNameFree refuses a name another cohort of the organisation has in
// other capitals ("Spring intake" and "spring intake" would split one
// group's learners between two cohorts); the table's unique key refuses the
// same spelling.
func cohortNameFree(ctx context.Context, tx *sql.Tx, orgID, id, name string) error {
	var taken string
	err := tx.QueryRowContext(ctx, `SELECT name FROM cohorts WHERE org_id = $1 AND id <> $2 AND LOWER(name) = LOWER($3) AND name <> $3`,
		orgID, id, name).Scan(&taken)
	if isNoRows(err) {
		return nil
	}
	if err != nil {
		return err
	}
	return apperr.Conflict("a cohort named %q already exists", taken)
}

// UpdateCohort renames a cohort or gives it another instructor ("" keeps each).
func (s *Store) UpdateCohort(ctx context.Context, orgID, id, name, instructorID string) (Cohort, error) {
	err := s.tx(ctx, "update cohort", func(ctx context.Context, tx *sql.Tx) error {
		if err := cohortInOrg(ctx, tx, orgID, id); err != nil {
			return err
		}
		if instructorID != "" {
			if err := staffInOrg(ctx, tx, orgID, instructorID); err != nil {
				return err
			}
		}
		if name != "" {
			if err := cohortNameFree(ctx, tx, orgID, id, name); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE cohorts SET name = COALESCE(NULLIF($2, ''), name),
			instructor_id = COALESCE(NULLIF($3, ''), instructor_id) WHERE id = $1`, id, name, instructorID)
		if isUniqueViolation(err) {
			return apperr.Conflict("a cohort named %q already exists", name)
		}
		return err
	})
	if err != nil {
		return Cohort{}, err
	}
	return s.GetCohort(ctx, orgID, id)
}

// AddCohortMember puts a member of the cohort's organisation in it.
func (s *Store) AddCohortMember(ctx context.Context, orgID, cohortID, userID string) error {
	return s.tx(ctx, "add cohort member", func(ctx context.Context, tx *sql.Tx) error {
		if err := cohortInOrg(ctx, tx, orgID, cohortID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM learners WHERE id = $1 AND org_id = $2`, userID, orgID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return apperr.Invalid("userId %s is not a member of your organisation", userID)
		}
		return addCohortMember(ctx, tx, cohortID, userID, s.Now())
	})
}

func addCohortMember(ctx context.Context, tx *sql.Tx, cohortID, userID string, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO cohort_members (cohort_id, learner_id, added_at) VALUES ($1, $2, $3)
		ON CONFLICT (cohort_id, learner_id) DO NOTHING`, cohortID, userID, now)
	return err
}

// RemoveCohortMember takes a learner out of a cohort.
func (s *Store) RemoveCohortMember(ctx context.Context, orgID, cohortID, userID string) error {
	return s.tx(ctx, "remove cohort member", func(ctx context.Context, tx *sql.Tx) error {
		if err := cohortInOrg(ctx, tx, orgID, cohortID); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM cohort_members WHERE cohort_id = $1 AND learner_id = $2`, cohortID, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apperr.NotFound("user %s is not in this cohort", userID)
		}
		return nil
	})
}

// CohortInstructor returns the instructor of a cohort of orgID.
func (s *Store) CohortInstructor(ctx context.Context, orgID, cohortID string) (string, error) {
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT instructor_id FROM cohorts WHERE id = $1 AND org_id = $2`, cohortID, orgID).Scan(&id)
	if isNoRows(err) {
		return "", apperr.NotFound("cohort %s does not exist", cohortID)
	}
	return id, err
}

func cohortInOrg(ctx context.Context, tx *sql.Tx, orgID, cohortID string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM cohorts WHERE id = $1 AND org_id = $2`, cohortID, orgID).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return apperr.NotFound("cohort %s does not exist", cohortID)
	}
	return nil
}

func staffInOrg(ctx context.Context, tx *sql.Tx, orgID, userID string) error {
	staff, err := isStaffOf(ctx, tx, orgID, userID)
	if err == nil && !staff {
		return apperr.Invalid("instructorId must be an instructor or admin of your organisation")
	}
	return err
}

// isStaffOf reports whether userID is an instructor or admin of orgID.
func isStaffOf(ctx context.Context, tx *sql.Tx, orgID, userID string) (bool, error) {
	var role identity.Role
	err := tx.QueryRowContext(ctx, `SELECT role FROM learners WHERE id = $1 AND org_id = $2`, userID, orgID).Scan(&role)
	if isNoRows(err) {
		return false, nil
	}
	return role == identity.Instructor || role == identity.Admin, err
}
