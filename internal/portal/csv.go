package portal

import (
	"encoding/csv"
	"io"
	"strings"
)

// CSVWriter writes a CSV file that spreadsheets open correctly: UTF-8 with a
// byte order mark (or Excel reads it as the local code page), RFC 4180
// quoting with CRLF line ends, and no cell a spreadsheet would run as a
// formula.
type CSVWriter struct {
	w       *csv.Writer
	started bool
	out     io.Writer
}

// NewCSVWriter writes to w; nothing is written before the first row.
func NewCSVWriter(w io.Writer) *CSVWriter {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	return &CSVWriter{w: cw, out: w}
}

// Write writes one row. Rows are buffered; Flush sends them.
func (c *CSVWriter) Write(cells ...string) error {
	if !c.started {
		c.started = true
		if _, err := io.WriteString(c.out, "\ufeff"); err != nil {
			return err
		}
	}
	for i, v := range cells {
		cells[i] = Neutralise(v)
	}
	return c.w.Write(cells)
}

// Flush sends the buffered rows and reports any write error.
func (c *CSVWriter) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

// Neutralise keeps a cell from being read as a formula (OWASP's "CSV
// injection"): a cell starting with =, +, -, @, a tab or a carriage return
// is prefixed with a single quote, which spreadsheets show as text and do
// not display. The cells this package writes that are numbers are never
// negative, so no number is changed.
func Neutralise(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}
