package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/catalog"
	"journeyman/internal/identity"
	"journeyman/internal/portal"
)

// SignOffRecord is one sign-off of a competency, current or revoked: a line
// of a learner's competency history.
type SignOffRecord struct {
	ID         string     `json:"id"`
	ModuleID   string     `json:"moduleId"`
	Competency int        `json:"competency"`
	Objective  string     `json:"objective"`
	Evidence   string     `json:"evidenceSessionId"`
	Practical  bool       `json:"practical"`
	Note       string     `json:"note"`
	SignedBy   Ref        `json:"signedBy"`
	SignedAt   time.Time  `json:"signedAt"`
	RevokedBy  *Ref       `json:"revokedBy"`
	RevokedAt  *time.Time `json:"revokedAt"`
	RevokeNote string     `json:"revokeNote"`
}

// SignOffs returns a learner's sign-offs, current and revoked, oldest first.
func (s *Store) SignOffs(ctx context.Context, learnerID string) ([]SignOffRecord, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.module_id, c.competency, c.objective, c.evidence, c.practical, c.note,
			c.signed_by, sb.display_name, c.signed_at, c.revoked_by, COALESCE(rb.display_name, ''), c.revoked_at, c.revoke_note
		FROM competency_signoffs c JOIN learners sb ON sb.id = c.signed_by LEFT JOIN learners rb ON rb.id = c.revoked_by
		WHERE c.learner_id = $1 ORDER BY c.signed_at, c.id LIMIT 10000`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("sign-offs: %w", err)
	}
	defer rows.Close()
	out := []SignOffRecord{}
	for rows.Next() {
		var r SignOffRecord
		var revokedBy sql.NullString
		var revokedName string
		var revokedAt sql.NullTime
		if err := rows.Scan(&r.ID, &r.ModuleID, &r.Competency, &r.Objective, &r.Evidence, &r.Practical, &r.Note,
			&r.SignedBy.ID, &r.SignedBy.Name, &r.SignedAt, &revokedBy, &revokedName, &revokedAt, &r.RevokeNote); err != nil {
			return nil, fmt.Errorf("sign-offs: %w", err)
		}
		r.SignedAt = r.SignedAt.UTC()
		if revokedBy.Valid {
			r.RevokedBy = &Ref{ID: revokedBy.String, Name: revokedName}
		}
		if revokedAt.Valid {
			t := revokedAt.Time.UTC()
			r.RevokedAt = &t
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Evidence is the session a module's sign-offs rest on: the learner's best
// verified, passed session of it.
type Evidence struct {
	SessionID   string    `json:"sessionId"`
	SafetyScore float64   `json:"safetyScore"`
	EndedAt     time.Time `json:"endedAt"`
}

// A module's evidence is the learner's best session of it among those
// verified, passed and ended: the highest score, then the latest.
const (
	evidenceWhere = `verified AND outcome = 'passed' AND ended_at IS NOT NULL`
	evidenceOrder = `safety_score DESC, ended_at DESC, id`
)

// ModuleEvidence returns, per module, the learner's evidence for it; a
// module without a verified pass is absent.
func (s *Store) ModuleEvidence(ctx context.Context, learnerID string) (map[string]Evidence, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT module_id, id, COALESCE(safety_score, 0), ended_at FROM xr_sessions
		WHERE user_id = $1 AND `+evidenceWhere+` ORDER BY module_id, `+evidenceOrder, learnerID)
	if err != nil {
		return nil, fmt.Errorf("module evidence: %w", err)
	}
	defer rows.Close()
	out := map[string]Evidence{}
	for rows.Next() {
		var module string
		var e Evidence
		if err := rows.Scan(&module, &e.SessionID, &e.SafetyScore, &e.EndedAt); err != nil {
			return nil, fmt.Errorf("module evidence: %w", err)
		}
		if _, seen := out[module]; !seen {
			e.EndedAt = e.EndedAt.UTC()
			out[module] = e
		}
	}
	return out, rows.Err()
}

// SignOffCompetencies signs off competencies of module m for a learner of
// orgID on signerID's word, resting them on the learner's best verified
// pass of the module. When that completes the module's programme, a
// certificate is issued in the same transaction and returned. Nobody signs
// off their own work; a competency already signed off is a conflict.
func (s *Store) SignOffCompetencies(ctx context.Context, orgID, learnerID, signerID string, m catalog.Module, r portal.SignOff) (*StoredCertificate, error) {
	if signerID == learnerID {
		return nil, apperr.Forbidden("you cannot sign off your own competencies")
	}
	var issued *StoredCertificate
	err := s.tx(ctx, "sign off competencies", func(ctx context.Context, tx *sql.Tx) error {
		if err := s.lockLearner(ctx, tx, orgID, learnerID); err != nil {
			return err
		}
		staff, err := isStaffOf(ctx, tx, orgID, signerID)
		if err != nil {
			return err
		}
		if !staff {
			return apperr.Forbidden("only instructors and admins of the learner's organisation sign off competencies")
		}
		var evidence string
		err = tx.QueryRowContext(ctx, `SELECT id FROM xr_sessions WHERE user_id = $1 AND module_id = $2 AND `+evidenceWhere+`
			ORDER BY `+evidenceOrder+` LIMIT 1`, learnerID, m.ID).Scan(&evidence)
		if isNoRows(err) {
			return apperr.Conflict("%s cannot be signed off yet: the learner has no verified, passed session of it", m.Title)
		}
		if err != nil {
			return err
		}
		now := s.Now().UTC()
		for _, i := range r.Competencies {
			var held int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM competency_signoffs
				WHERE learner_id = $1 AND module_id = $2 AND competency = $3 AND revoked_at IS NULL`, learnerID, m.ID, i).Scan(&held); err != nil {
				return err
			}
			if held > 0 {
				return apperr.Conflict("“%s” is already signed off; revoke it first to sign it off again", m.LearningObjectives[i])
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO competency_signoffs (id, org_id, learner_id, module_id, competency, objective,
				evidence, practical, note, signed_by, signed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
				identity.NewID(), orgID, learnerID, m.ID, i, m.LearningObjectives[i], evidence, r.Practical, r.Note, signerID, now); err != nil {
				return err
			}
		}
		issued, err = s.issueIfComplete(ctx, tx, orgID, learnerID, signerID, m.TradeID, now)
		return err
	})
	return issued, err
}

// RevokeCompetencies revokes current sign-offs of module m for a learner of
// orgID, keeping them in the history, and revokes the learner's valid
// certificate of the module's programme, which no longer holds. It returns
// that certificate, if there was one.
func (s *Store) RevokeCompetencies(ctx context.Context, orgID, learnerID, revokerID string, m catalog.Module, r portal.SignOff) (*StoredCertificate, error) {
	var revoked *StoredCertificate
	err := s.tx(ctx, "revoke competencies", func(ctx context.Context, tx *sql.Tx) error {
		if err := s.lockLearner(ctx, tx, orgID, learnerID); err != nil {
			return err
		}
		now := s.Now().UTC()
		for _, i := range r.Competencies {
			res, err := tx.ExecContext(ctx, `UPDATE competency_signoffs SET revoked_by = $1, revoked_at = $2, revoke_note = $3
				WHERE learner_id = $4 AND module_id = $5 AND competency = $6 AND revoked_at IS NULL`,
				revokerID, now, r.Note, learnerID, m.ID, i)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil || n == 0 {
				return apperr.Conflict("“%s” is not signed off, so there is nothing to revoke", m.LearningObjectives[i])
			}
		}
		var id string
		err := tx.QueryRowContext(ctx, `SELECT id FROM certificates WHERE learner_id = $1 AND programme = $2 AND revoked_at IS NULL`,
			learnerID, m.TradeID).Scan(&id)
		if isNoRows(err) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE certificates SET revoked_at = $1, revoked_reason = $2 WHERE id = $3`,
			now, "A competency it certifies was revoked: "+r.Note, id); err != nil {
			return err
		}
		c, err := getCertificate(ctx, tx, `c.id = $1`, id)
		revoked = &c
		return err
	})
	return revoked, err
}

// lockLearner checks that the learner is a member of orgID and, on
// PostgreSQL, makes sign-offs of one learner take turns, so that two
// instructors completing a programme at once issue one certificate. SQLite's
// transactions already take turns.
func (s *Store) lockLearner(ctx context.Context, tx *sql.Tx, orgID, learnerID string) error {
	lock := ""
	if s.dialect == Postgres {
		lock = " FOR UPDATE"
	}
	var id string
	err := tx.QueryRowContext(ctx, `SELECT id FROM learners WHERE id = $1 AND org_id = $2`+lock, learnerID, orgID).Scan(&id)
	if isNoRows(err) {
		return apperr.NotFound("user %s is not a member of your organisation", learnerID)
	}
	return err
}

// issueIfComplete issues the learner's certificate of programme when every
// competency of it is signed off and no valid certificate of it exists.
func (s *Store) issueIfComplete(ctx context.Context, tx *sql.Tx, orgID, learnerID, signerID, programme string, now time.Time) (*StoredCertificate, error) {
	total, err := programmeSize(ctx, tx, programme)
	if err != nil {
		return nil, err
	}
	var held, valid int
	err = tx.QueryRowContext(ctx, `SELECT
			(SELECT COUNT(*) FROM competency_signoffs c JOIN training_modules m ON m.id = c.module_id
				WHERE c.learner_id = $1 AND m.trade_id = $2 AND c.revoked_at IS NULL),
			(SELECT COUNT(*) FROM certificates WHERE learner_id = $1 AND programme = $2 AND revoked_at IS NULL)`,
		learnerID, programme).Scan(&held, &valid)
	if err != nil || total == 0 || held < total || valid > 0 {
		return nil, err
	}
	content := portal.Certificate{Code: portal.NewCode(), IssuedAt: now}
	var trade string
	err = tx.QueryRowContext(ctx, `SELECT l.display_name, o.name, t.name, s.display_name
		FROM learners l JOIN organisations o ON o.id = $2 JOIN trades t ON t.id = $3 JOIN learners s ON s.id = $4 WHERE l.id = $1`,
		learnerID, orgID, programme, signerID).Scan(&content.Learner, &content.Organisation, &trade, &content.SignedBy)
	if err != nil {
		return nil, err
	}
	content.Programme = portal.ProgrammeName(trade)
	if content.Competencies, err = certifiedCompetencies(ctx, tx, learnerID, programme); err != nil {
		return nil, err
	}
	body, err := json.Marshal(content)
	if err != nil {
		return nil, err
	}
	id := identity.NewID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO certificates (id, code, org_id, learner_id, programme, content, issued_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, id, content.Code, orgID, learnerID, programme, string(body), now); err != nil {
		return nil, err
	}
	c, err := getCertificate(ctx, tx, `c.id = $1`, id)
	return &c, err
}

// programmeSize counts the competencies of a trade's programme: the learning
// objectives of its modules.
func programmeSize(ctx context.Context, tx *sql.Tx, programme string) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT learning_objectives FROM training_modules WHERE trade_id = $1`, programme)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	total := 0
	for rows.Next() {
		var objectives string
		var list []string
		if err := rows.Scan(&objectives); err != nil {
			return 0, err
		}
		if err := json.Unmarshal([]byte(objectives), &list); err != nil {
			return 0, err
		}
		total += len(list)
	}
	return total, rows.Err()
}

// certifiedCompetencies lists a learner's current sign-offs in a programme
// as its certificate shows them, in catalog order.
func certifiedCompetencies(ctx context.Context, tx *sql.Tx, learnerID, programme string) ([]portal.CertifiedCompetency, error) {
	rows, err := tx.QueryContext(ctx, `SELECT m.title, c.objective, c.signed_at, s.display_name, c.practical
		FROM competency_signoffs c JOIN training_modules m ON m.id = c.module_id JOIN learners s ON s.id = c.signed_by
		WHERE c.learner_id = $1 AND m.trade_id = $2 AND c.revoked_at IS NULL ORDER BY m.position, c.competency`, learnerID, programme)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []portal.CertifiedCompetency{}
	for rows.Next() {
		var cc portal.CertifiedCompetency
		if err := rows.Scan(&cc.Module, &cc.Objective, &cc.AchievedAt, &cc.SignedBy, &cc.Practical); err != nil {
			return nil, err
		}
		cc.AchievedAt = cc.AchievedAt.UTC()
		out = append(out, cc)
	}
	return out, rows.Err()
}

// StoredCertificate is an issued certificate with who it belongs to and
// whether it still holds.
type StoredCertificate struct {
	ID            string             `json:"id"`
	LearnerID     string             `json:"learnerId"`
	OrgID         string             `json:"-"`
	ProgrammeID   string             `json:"programmeId"`
	Certificate   portal.Certificate `json:"certificate"`
	RevokedAt     *time.Time         `json:"revokedAt"`
	RevokedReason string             `json:"revokedReason"`
}

const certificateColumns = `SELECT c.id, c.learner_id, c.org_id, c.programme, c.content, c.revoked_at, c.revoked_reason FROM certificates c `

func scanCertificate(row interface{ Scan(...any) error }) (StoredCertificate, error) {
	var c StoredCertificate
	var content string
	var revoked sql.NullTime
	if err := row.Scan(&c.ID, &c.LearnerID, &c.OrgID, &c.ProgrammeID, &content, &revoked, &c.RevokedReason); err != nil {
		return c, err
	}
	if revoked.Valid {
		t := revoked.Time.UTC()
		c.RevokedAt = &t
	}
	if err := json.Unmarshal([]byte(content), &c.Certificate); err != nil {
		return c, fmt.Errorf("certificate %s: %w", c.ID, err)
	}
	return c, nil
}

func getCertificate(ctx context.Context, q querier, where string, arg any) (StoredCertificate, error) {
	c, err := scanCertificate(q.QueryRowContext(ctx, certificateColumns+`WHERE `+where, arg))
	if isNoRows(err) {
		return c, apperr.NotFound("no certificate has this code or id")
	}
	if err != nil {
		return c, fmt.Errorf("get certificate: %w", err)
	}
	return c, nil
}

// GetCertificate returns a certificate by id, or ENOTFOUND.
func (s *Store) GetCertificate(ctx context.Context, id string) (StoredCertificate, error) {
	return getCertificate(ctx, s.db, `c.id = $1`, id)
}

// CertificateByCode returns the certificate with a verification code, or
// ENOTFOUND.
func (s *Store) CertificateByCode(ctx context.Context, code string) (StoredCertificate, error) {
	return getCertificate(ctx, s.db, `c.code = $1`, code)
}

// LearnerCertificates returns a learner's certificates, newest first.
func (s *Store) LearnerCertificates(ctx context.Context, learnerID string) ([]StoredCertificate, error) {
	rows, err := s.db.QueryContext(ctx, certificateColumns+`WHERE c.learner_id = $1 ORDER BY c.issued_at DESC, c.id LIMIT 1000`, learnerID)
	if err != nil {
		return nil, fmt.Errorf("learner certificates: %w", err)
	}
	defer rows.Close()
	out := []StoredCertificate{}
	for rows.Next() {
		c, err := scanCertificate(rows)
		if err != nil {
			return nil, fmt.Errorf("learner certificates: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
