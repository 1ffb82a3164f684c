package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
)

// Ref names a record by id and name, as lists show it.
type Ref struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Member is an organisation's member as its staff see them.
type Member struct {
	ID          string        `json:"id"`
	DisplayName string        `json:"displayName"`
	Email       string        `json:"email"`
	Role        identity.Role `json:"role"`
	Cohorts     []Ref         `json:"cohorts"`
	Teaches     []Ref         `json:"teaches"` // the cohorts whose instructor they are
	JoinedAt    *time.Time    `json:"joinedAt"`
}

// Page sizes of member lists.
const (
	DefaultMemberPage = 50
	MaxMemberPage     = 200
)

// containsPattern is a LIKE pattern (with ESCAPE '\') matching text that
// contains q, case folded, its wildcards taken as text.
func containsPattern(q string) string {
	return "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(q)) + "%"
}

// ListMembers returns one page of an organisation's members by name; q, when
// set, keeps those whose name or email contains it.
func (s *Store) ListMembers(ctx context.Context, orgID, q string, limit, offset int) ([]Member, int, error) {
	limit = min(max(limit, 1), MaxMemberPage)
	like := containsPattern(q)
	const where = ` FROM learners WHERE org_id = $1 AND (LOWER(display_name) LIKE $2 ESCAPE '\' OR email LIKE $2 ESCAPE '\')`
	var total int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*)`+where, orgID, like).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("list members: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT id, display_name, email, role, joined_at`+where+`
		ORDER BY LOWER(display_name), id LIMIT $3 OFFSET $4`, orgID, like, limit, max(offset, 0))
	if err != nil {
		return nil, 0, fmt.Errorf("list members: %w", err)
	}
	defer rows.Close()
	out := []Member{}
	for rows.Next() {
		m, err := scanMember(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("list members: %w", err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("list members: %w", err)
	}
	if err := s.fillCohorts(ctx, orgID, out); err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

func scanMember(row interface{ Scan(...any) error }) (Member, error) {
	var m Member
	var joined sql.NullTime
	if err := row.Scan(&m.ID, &m.DisplayName, &m.Email, &m.Role, &joined); err != nil {
		return m, err
	}
	if joined.Valid {
		t := joined.Time.UTC()
		m.JoinedAt = &t
	}
	m.Cohorts, m.Teaches = []Ref{}, []Ref{}
	return m, nil
}

func (s *Store) fillCohorts(ctx context.Context, orgID string, members []Member) error {
	if len(members) == 0 {
		return nil
	}
	at := map[string]int{}
	args := []any{orgID}
	for i, m := range members {
		at[m.ID] = i
		args = append(args, m.ID)
	}
	// The IN list is placeholders only; every id is bound.
	in := placeholders(2, len(members))
	rows, err := s.db.QueryContext(ctx, `SELECT cm.learner_id, c.id, c.name, FALSE FROM cohort_members cm JOIN cohorts c ON c.id = cm.cohort_id `+ //nolint:gosec // G202: placeholders, see above
		`WHERE c.org_id = $1 AND cm.learner_id IN (`+in+`)
		UNION ALL SELECT c.instructor_id, c.id, c.name, TRUE FROM cohorts c WHERE c.org_id = $1 AND c.instructor_id IN (`+in+`)
		ORDER BY 3, 2`, args...)
	if err != nil {
		return fmt.Errorf("member cohorts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var uid string
		var c Ref
		var teaches bool
		if err := rows.Scan(&uid, &c.ID, &c.Name, &teaches); err != nil {
			return fmt.Errorf("member cohorts: %w", err)
		}
		m := &members[at[uid]]
		if teaches {
			m.Teaches = append(m.Teaches, c)
		} else {
			m.Cohorts = append(m.Cohorts, c)
		}
	}
	return rows.Err()
}

// GetMember returns a member of orgID, or ENOTFOUND (also for members of
// other organisations, whose existence is not the caller's business).
func (s *Store) GetMember(ctx context.Context, orgID, userID string) (Member, error) {
	m, err := scanMember(s.db.QueryRowContext(ctx, `SELECT id, display_name, email, role, joined_at FROM learners WHERE id = $1 AND org_id = $2`, userID, orgID))
	if isNoRows(err) {
		return m, apperr.NotFound("user %s is not a member of your organisation", userID)
	}
	if err != nil {
		return m, fmt.Errorf("get member: %w", err)
	}
	ms := []Member{m}
	err = s.fillCohorts(ctx, orgID, ms)
	return ms[0], err
}

// SetMemberRole changes a member's role; an organisation keeps at least one
// admin, and a cohort's instructor stays staff.
func (s *Store) SetMemberRole(ctx context.Context, orgID, userID string, role identity.Role) (Member, error) {
	err := s.tx(ctx, "set member role", func(ctx context.Context, tx *sql.Tx) error {
		if err := keepAnAdmin(ctx, tx, orgID, userID, role); err != nil {
			return err
		}
		if role == identity.Learner {
			if err := keepCohortTeachers(ctx, tx, userID); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `UPDATE learners SET role = $3 WHERE id = $1 AND org_id = $2`, userID, orgID, role)
		return err
	})
	if err != nil {
		return Member{}, err
	}
	return s.GetMember(ctx, orgID, userID)
}

// RemoveMember takes a member out of the organisation and its cohorts; the
// account stays, as an individual learner. A member who still teaches
// cohorts must hand them over first.
func (s *Store) RemoveMember(ctx context.Context, orgID, userID string) error {
	return s.tx(ctx, "remove member", func(ctx context.Context, tx *sql.Tx) error {
		if err := keepAnAdmin(ctx, tx, orgID, userID, identity.Learner); err != nil {
			return err
		}
		if err := keepCohortTeachers(ctx, tx, userID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM cohort_members WHERE learner_id = $1`, userID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE learners SET org_id = NULL, role = 'learner', joined_at = NULL WHERE id = $1`, userID)
		return err
	})
}

// keepAnAdmin refuses to take the last admin's role away, and checks that
// userID is a member.
func keepAnAdmin(ctx context.Context, tx *sql.Tx, orgID, userID string, newRole identity.Role) error {
	var role identity.Role
	err := tx.QueryRowContext(ctx, `SELECT role FROM learners WHERE id = $1 AND org_id = $2`, userID, orgID).Scan(&role)
	if isNoRows(err) {
		return apperr.NotFound("user %s is not a member of your organisation", userID)
	}
	if err != nil || role != identity.Admin || newRole == identity.Admin {
		return err
	}
	var admins int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM learners WHERE org_id = $1 AND role = 'admin'`, orgID).Scan(&admins); err != nil {
		return err
	}
	if admins <= 1 {
		return apperr.Conflict("an organisation needs at least one admin; make someone else admin first")
	}
	return nil
}

// keepCohortTeachers refuses to take a cohort's instructor out of the staff:
// the cohort would be left with a teacher who cannot open it.
func keepCohortTeachers(ctx context.Context, tx *sql.Tx, userID string) error {
	var teaching int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM cohorts WHERE instructor_id = $1`, userID).Scan(&teaching); err != nil {
		return err
	}
	if teaching > 0 {
		return apperr.Conflict("this member is the instructor of %d cohort(s); assign them another instructor first", teaching)
	}
	return nil
}
