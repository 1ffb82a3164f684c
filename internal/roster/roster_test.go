package roster_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/roster"
)

func TestParse(t *testing.T) {
	ada := roster.Row{Line: 2, Email: "ada@example.com", Name: "Ada Lovelace", Role: identity.Learner, Cohort: "Welding A"}
	for _, tc := range []struct {
		name, csv string
		want      []roster.Row
	}{
		{"OK", "email,name,role,cohort\nada@example.com,Ada Lovelace,learner,Welding A\n", []roster.Row{ada}},
		{"AnyColumnOrder", "cohort,role,name,email\nWelding A,learner,Ada Lovelace,ada@example.com\n", []roster.Row{ada}},
		{"HeaderCaseAndSpaces", " Email , NAME,Role ,  Cohort\n ada@example.com , Ada Lovelace , Learner , Welding A \n", []roster.Row{ada}},
		{"CohortOptional", "email,name,role\nada@example.com,Ada Lovelace,learner\n",
			[]roster.Row{{Line: 2, Email: "ada@example.com", Name: "Ada Lovelace", Role: identity.Learner}}},
		{"EmptyCohort", "email,name,role,cohort\nada@example.com,Ada Lovelace,learner,\n",
			[]roster.Row{{Line: 2, Email: "ada@example.com", Name: "Ada Lovelace", Role: identity.Learner}}},
		{"ExtraColumnsIgnored", "id,email,name,role,cohort,notes\n7,ada@example.com,Ada Lovelace,learner,Welding A,likes arcs\n", []roster.Row{ada}},
		{"ByteOrderMark", "\ufeffemail,name,role,cohort\nada@example.com,Ada Lovelace,learner,Welding A\n", []roster.Row{ada}},
		// Some spreadsheets quote every field, the header too.
		{"ByteOrderMarkQuotedHeader", "\ufeff\"email\",\"name\",\"role\",\"cohort\"\n\"ada@example.com\",\"Ada Lovelace\",\"learner\",\"Welding A\"\n", []roster.Row{ada}},
		{"CRLF", "email,name,role,cohort\r\nada@example.com,Ada Lovelace,learner,Welding A\r\n", []roster.Row{ada}},
		{"NoFinalNewline", "email,name,role,cohort\nada@example.com,Ada Lovelace,learner,Welding A", []roster.Row{ada}},
		{"QuotedComma", "email,name,role,cohort\nada@example.com,\"Lovelace, Ada\",learner,\"Welding A\"\n",
			[]roster.Row{{Line: 2, Email: "ada@example.com", Name: "Lovelace, Ada", Role: identity.Learner, Cohort: "Welding A"}}},
		{"EmailNormalized", "email,name,role\nAda@Example.COM,Ada,ADMIN\n",
			[]roster.Row{{Line: 2, Email: "ada@example.com", Name: "Ada", Role: identity.Admin}}},
		{"BlankLinesSkippedLinesCounted", "email,name,role\n\nada@example.com,Ada,learner\n   \n\nbob@example.com,Bob,instructor\n,,\n\n",
			[]roster.Row{
				{Line: 3, Email: "ada@example.com", Name: "Ada", Role: identity.Learner},
				{Line: 6, Email: "bob@example.com", Name: "Bob", Role: identity.Instructor},
			}},
		{"SpreadsheetEmptyRowsSkipped", "email,name,role,cohort\nada@example.com,Ada Lovelace,learner,Welding A\n,,,\n , , , \n", []roster.Row{ada}},
		{"BadRowsKeepTheirProblem", "email,name,role,cohort\n" +
			"not-an-email,Ada,learner,\n" + // 2
			"bob@example.com,,learner,\n" + // 3
			"cy@example.com,Cy,boss,\n" + // 4
			"di@example.com,Di,guest,\n" + // 5
			"ed@example.com,Ed,learner," + strings.Repeat("c", identity.MaxOrgName+1) + "\n" + // 6
			"fay@example.com,Fay\n" + // 7: short row, no role
			",Gus,learner,\n" + // 8
			"hal@example.com," + strings.Repeat("h", identity.MaxDisplayName+1) + ",learner,\n" + // 9
			"ida@example.com,Ida,learner,A\n" + // 10
			"jo@,,boss,\n", // 11: every problem at once
			[]roster.Row{
				{Line: 2, Email: "not-an-email", Name: "Ada", Role: identity.Learner, Problem: "email must be an email address like name@example.com"},
				{Line: 3, Email: "bob@example.com", Name: "", Role: identity.Learner, Problem: "name must be 1 to 80 characters"},
				{Line: 4, Email: "cy@example.com", Name: "Cy", Role: "boss", Problem: `role must be learner, instructor or admin, not "boss"`},
				{Line: 5, Email: "di@example.com", Name: "Di", Role: "guest", Problem: `role must be learner, instructor or admin, not "guest"`},
				{Line: 6, Email: "ed@example.com", Name: "Ed", Role: identity.Learner, Cohort: strings.Repeat("c", identity.MaxOrgName+1), Problem: "cohort must be 1 to 120 characters"},
				{Line: 7, Email: "fay@example.com", Name: "Fay", Role: "", Problem: `role must be learner, instructor or admin, not ""`},
				{Line: 8, Email: "", Name: "Gus", Role: identity.Learner, Problem: "email is required"},
				{Line: 9, Email: "hal@example.com", Name: strings.Repeat("h", identity.MaxDisplayName+1), Role: identity.Learner, Problem: "name must be 1 to 80 characters"},
				{Line: 10, Email: "ida@example.com", Name: "Ida", Role: identity.Learner, Cohort: "A"},
				{Line: 11, Email: "jo@", Name: "", Role: "boss", Problem: "email must be an email address like name@example.com; " +
					`name must be 1 to 80 characters; role must be learner, instructor or admin, not "boss"`},
			}},
		{"QuotedFieldsSpanningLines", "email,name,role,cohort\n" +
			"ada@example.com,\"Ada\nLovelace\",learner,\n" + // lines 2-3
			"bob@example.com,Bob,learner,\"Welding\n\nA\"\n" + // lines 4-6
			"cy@example.com,Cy,learner,\n", // line 7
			[]roster.Row{
				{Line: 2, Email: "ada@example.com", Name: "Ada\nLovelace", Role: identity.Learner, Problem: "name must not contain control characters"},
				{Line: 4, Email: "bob@example.com", Name: "Bob", Role: identity.Learner, Cohort: "Welding\n\nA", Problem: "cohort must not contain control characters"},
				{Line: 7, Email: "cy@example.com", Name: "Cy", Role: identity.Learner},
			}},
		{"DuplicateEmails", "email,name,role\nada@example.com,Ada,learner\nbob@example.com,Bob,learner\n ADA@example.com ,Ada again,admin\nada@example.com,Ada thrice,learner\n",
			[]roster.Row{
				{Line: 2, Email: "ada@example.com", Name: "Ada", Role: identity.Learner},
				{Line: 3, Email: "bob@example.com", Name: "Bob", Role: identity.Learner},
				{Line: 4, Email: "ada@example.com", Name: "Ada again", Role: identity.Admin, Problem: "ada@example.com is already on line 2"},
				{Line: 5, Email: "ada@example.com", Name: "Ada thrice", Role: identity.Learner, Problem: "ada@example.com is already on line 2"},
			}},
		// A roster saved as Latin-1 rather than UTF-8.
		{"NotUTF8", "email,name,role\njose@example.com,Jos\xe9,learner\n",
			[]roster.Row{{Line: 2, Email: "jose@example.com", Name: "Jos\xe9", Role: identity.Learner, Problem: "name must be UTF-8 text"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := roster.Parse(strings.NewReader(tc.csv))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("rows:\n%s\nwant:\n%s", show(got), show(tc.want))
			}
		})
	}
}

func show(rows []roster.Row) string {
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %+v\n", r)
	}
	return b.String()
}

func TestParseErrors(t *testing.T) {
	rows := func(n int) string {
		var b strings.Builder
		b.WriteString("email,name,role\n")
		for i := range n {
			fmt.Fprintf(&b, "p%d@example.com,Person %d,learner\n", i, i)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, csv string
		says      []string // parts of the message
	}{
		{"Empty", "", []string{"empty", "email,name,role,cohort"}},
		{"OnlyBlankLines", "\n\n\n", []string{"empty"}},
		{"HeaderOnly", "email,name,role,cohort\n", []string{"no people"}},
		{"HeaderAndBlankRows", "email,name,role,cohort\n\n,,,\n", []string{"no people"}},
		{"MissingEmail", "name,role,cohort\nAda,learner,\n", []string{"line 1", `"email" is missing`}},
		{"MissingName", "email,role\nada@example.com,learner\n", []string{"line 1", `"name" is missing`}},
		{"MissingRole", "\ufeffemail,name,cohort\nada@example.com,Ada,\n", []string{"line 1", `"role" is missing`}},
		{"NoHeader", "ada@example.com,Ada,learner\n", []string{"line 1", `"email" is missing`}},
		{"TooManyRows", rows(roster.MaxRows + 1), []string{fmt.Sprint(roster.MaxRows)}},
		{"UnterminatedQuote", "email,name,role\nada@example.com,\"Ada,learner\n", []string{"line 2", "not valid CSV"}},
		{"BareQuote", "email,name,role\nada@example.com,Ada,learner\nbob@example.com,Bo\"b,learner\n", []string{"line 3", "not valid CSV"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := roster.Parse(strings.NewReader(tc.csv))
			if apperr.Code(err) != apperr.EINVALID {
				t.Fatalf("Parse = %d rows, %v; want an invalid error", len(got), err)
			}
			for _, s := range tc.says {
				if !strings.Contains(apperr.Message(err), s) {
					t.Errorf("message %q does not say %q", apperr.Message(err), s)
				}
			}
		})
	}
	t.Run("MaxRowsAccepted", func(t *testing.T) {
		got, err := roster.Parse(strings.NewReader(rows(roster.MaxRows) + "\n,,\n\n"))
		if err != nil || len(got) != roster.MaxRows || got[roster.MaxRows-1].Line != roster.MaxRows+1 {
			t.Fatalf("Parse(%d rows) = %d rows, %v", roster.MaxRows, len(got), err)
		}
		for _, r := range got {
			if r.Problem != "" {
				t.Fatalf("row %+v has a problem", r)
			}
		}
	})
}
