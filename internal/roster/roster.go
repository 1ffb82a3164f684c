// Package roster reads the CSV roster an organisation's admin imports:
// one row per person with email, name, role and an optional cohort.
package roster

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
)

// MaxRows is the most people one import may hold.
const MaxRows = 2000

// Row is one person of the roster, checked; Problem says what is wrong
// with the row, if anything.
type Row struct {
	Line    int // the CSV line, the header being line 1
	Email   string
	Name    string
	Role    identity.Role
	Cohort  string
	Problem string
}

var columns = []string{"email", "name", "role", "cohort"}

// Parse reads a roster. A file that is not a roster at all (no header, too
// many rows, broken CSV) is an error; a row with a bad value is returned
// with its Problem, so that the report can name every bad row at once.
func Parse(r io.Reader) ([]Row, error) {
	// Excel's "CSV UTF-8" starts with a byte order mark. Dropped before the
	// CSV reader sees it, or a quoted first header is a "bare quote" error.
	br := bufio.NewReader(r)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\ufeff")) {
		if _, err := br.Discard(3); err != nil {
			return nil, err
		}
	}
	cr := csv.NewReader(br)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, apperr.Invalid("the roster is empty; the first line must be the header email,name,role,cohort")
	}
	if err != nil {
		return nil, csvError(err)
	}
	at := map[string]int{}
	for i, h := range header {
		at[strings.ToLower(strings.TrimSpace(h))] = i
	}
	for _, c := range columns[:3] {
		if _, ok := at[c]; !ok {
			return nil, apperr.Invalid("line 1: the header must name the columns email, name, role and optionally cohort; %q is missing", c)
		}
	}
	field := func(rec []string, name string) string {
		if i, ok := at[name]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	var rows []Row
	seen := map[string]int{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(err)
		}
		line, _ := cr.FieldPos(0)
		// A spreadsheet saves its empty rows as ",,,": blank like an empty line.
		if !slices.ContainsFunc(rec, func(f string) bool { return strings.TrimSpace(f) != "" }) {
			continue
		}
		if len(rows) == MaxRows {
			return nil, apperr.Invalid("the roster has more than %d people; split it into several files", MaxRows)
		}
		row := Row{Line: line, Cohort: field(rec, "cohort")}
		row.Problem = check(&row, rec, field)
		if row.Problem == "" {
			if first, dup := seen[row.Email]; dup {
				row.Problem = fmt.Sprintf("%s is already on line %d", row.Email, first)
			} else {
				seen[row.Email] = line
			}
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, apperr.Invalid("the roster has a header but no people")
	}
	return rows, nil
}

// check fills row from rec and says everything wrong with it, so that one
// round of corrections fixes the row.
func check(row *Row, rec []string, field func([]string, string) string) string {
	// A bad row still shows every field as written, so that the report
	// lets the admin recognise it.
	row.Email, row.Name, row.Role = field(rec, "email"), field(rec, "name"), identity.Role(field(rec, "role"))
	var problems []string
	if email, err := identity.NormalizeEmail("email", row.Email); err != nil {
		problems = append(problems, apperr.Message(err))
	} else {
		row.Email = email
	}
	if name, err := identity.CheckName("name", row.Name, identity.MaxDisplayName); err != nil {
		problems = append(problems, apperr.Message(err))
	} else {
		row.Name = name
	}
	if role, err := identity.ParseMemberRole("role", string(row.Role)); err != nil {
		problems = append(problems, apperr.Message(err))
	} else {
		row.Role = role
	}
	if row.Cohort != "" {
		if _, err := identity.CheckName("cohort", row.Cohort, identity.MaxOrgName); err != nil {
			problems = append(problems, apperr.Message(err))
		}
	}
	return strings.Join(problems, "; ")
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return apperr.Invalid("line %d: the file is not valid CSV: %v", pe.Line, pe.Err)
	}
	return apperr.Invalid("the roster could not be read: %v", err)
}
