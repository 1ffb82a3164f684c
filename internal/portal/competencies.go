package portal

import (
	"crypto/rand"
	"slices"
	"strings"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/catalog"
)

// Competency is one learning objective of a module: what a sign-off holds a
// learner competent in. Index is the objective's place in the module's
// learning objectives.
type Competency struct {
	ModuleID  string `json:"moduleId"`
	Index     int    `json:"index"`
	Objective string `json:"objective"`
}

// ModuleCompetencies are the competencies a module evidences.
func ModuleCompetencies(m catalog.Module) []Competency {
	out := make([]Competency, len(m.LearningObjectives))
	for i, o := range m.LearningObjectives {
		out[i] = Competency{ModuleID: m.ID, Index: i, Objective: o}
	}
	return out
}

// Programme is what a certificate certifies: every competency of every
// module of one trade. The catalog's trades are the industry programmes its
// modules prepare for, so a programme is named and identified by its trade.
type Programme struct {
	ID           string       `json:"id"` // the trade's id
	Name         string       `json:"name"`
	Competencies []Competency `json:"competencies"`
}

// Programmes returns every programme of the catalog, in its order.
func Programmes(trades []catalog.Trade, modules []catalog.Module) []Programme {
	out := make([]Programme, 0, len(trades))
	for _, t := range trades {
		p := Programme{ID: t.ID, Name: t.Name + " programme", Competencies: []Competency{}}
		for _, m := range modules {
			if m.TradeID == t.ID {
				p.Competencies = append(p.Competencies, ModuleCompetencies(m)...)
			}
		}
		out = append(out, p)
	}
	return out
}

// MaxNote bounds a sign-off's or a revocation's note.
const MaxNote = 1000

// SignOff is a request to sign off (or revoke) competencies of one module.
type SignOff struct {
	ModuleID string `json:"moduleId"`
	// Competencies are indexes into the module's learning objectives; none
	// means all of them.
	Competencies []int `json:"competencies"`
	// Practical records that the instructor also checked the learner in
	// practice on the shop floor; the note then says what was checked.
	Practical bool   `json:"practical"`
	Note      string `json:"note"`
}

// Validate checks a sign-off of module m, or a revocation, which must give
// its reason in the note, and fills in "all competencies".
func (r *SignOff) Validate(m catalog.Module, revoke bool) error {
	r.Note = strings.TrimSpace(r.Note)
	if n := len([]rune(r.Note)); n > MaxNote {
		return apperr.Invalid("note must be at most %d characters, not %d", MaxNote, n)
	}
	switch {
	case revoke && r.Note == "":
		return apperr.Invalid("note is required: say why the sign-off is revoked")
	case revoke && r.Practical:
		return apperr.Invalid("practical applies to a sign-off, not a revocation")
	case r.Practical && r.Note == "":
		return apperr.Invalid("note is required with a practical check: say what was checked on the shop floor")
	}
	n := len(m.LearningObjectives)
	if len(r.Competencies) == 0 {
		r.Competencies = make([]int, n)
		for i := range n {
			r.Competencies[i] = i
		}
	}
	if len(r.Competencies) > n {
		return apperr.Invalid("competencies lists %d entries; module %s has %d", len(r.Competencies), m.ID, n)
	}
	for _, i := range r.Competencies {
		if i < 0 || i >= n {
			return apperr.Invalid("competencies: %d is not a competency of module %s (0 to %d)", i, m.ID, n-1)
		}
	}
	sorted := slices.Sorted(slices.Values(r.Competencies))
	if len(slices.Compact(sorted)) != len(r.Competencies) {
		return apperr.Invalid("competencies lists a competency twice")
	}
	r.Competencies = sorted
	return nil
}

// Certificate is a certificate as printed and as /verify shows it: nothing
// more (no ids, no email).
type Certificate struct {
	Code         string                `json:"code"`
	Learner      string                `json:"learner"`
	Programme    string                `json:"programme"`
	Organisation string                `json:"organisation"`
	SignedBy     string                `json:"signedBy"` // the instructor whose sign-off completed the programme
	IssuedAt     time.Time             `json:"issuedAt"`
	Competencies []CertifiedCompetency `json:"competencies"`
}

// CertifiedCompetency is one competency as its certificate lists it.
type CertifiedCompetency struct {
	Module     string    `json:"module"`
	Objective  string    `json:"objective"`
	AchievedAt time.Time `json:"achievedAt"` // when it was signed off
	SignedBy   string    `json:"signedBy"`
	Practical  bool      `json:"practical"`
}

// codeAlphabet is Crockford's base 32: no I, L, O or U to misread.
const codeAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// NewCode returns a verification code, JXR- and three groups of four
// characters: 60 random bits, not guessable by trying.
func NewCode() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	var sb strings.Builder
	sb.WriteString("JXR")
	for i, c := range b {
		if i%4 == 0 {
			sb.WriteByte('-')
		}
		sb.WriteByte(codeAlphabet[c&31])
	}
	return sb.String()
}

// NormalizeCode reads a code as a person may type it: any case, with or
// without dashes and spaces, O for 0, I and L for 1. ok is false for what
// cannot be a code.
func NormalizeCode(s string) (string, bool) {
	s = strings.ToUpper(strings.NewReplacer("-", "", " ", "").Replace(s))
	if len(s) == 15 {
		// The prefix, unless the code was typed without it: JXR may also
		// begin the random part.
		s = strings.TrimPrefix(s, "JXR")
	}
	s = strings.NewReplacer("O", "0", "I", "1", "L", "1").Replace(s)
	if len(s) != 12 || strings.Trim(s, codeAlphabet) != "" {
		return "", false
	}
	return "JXR-" + s[0:4] + "-" + s[4:8] + "-" + s[8:12], true
}
