// Package cmi5 reads cmi5 course packages (AICC cmi5, "quartz"): the
// course structure of a cmi5.xml, bare or at the root of a zip, checked
// against the rules of the course structure XSD and the specification's
// section 13, within limits on sizes and counts. It also holds the
// vocabulary (verbs, extensions, moveOn) an LMS writes with. No HTTP, no SQL.
package cmi5

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"journeyman/internal/apperr"
)

// Limits on a package: generous for real courses, small enough that one
// import cannot exhaust the server.
const (
	MaxStructureBytes = 4 << 20   // cmi5.xml
	MaxPackageBytes   = 64 << 20  // the zip as uploaded
	MaxContentBytes   = 128 << 20 // every file of the zip, uncompressed
	MaxFileBytes      = 32 << 20  // one file of the zip, uncompressed
	MaxFiles          = 2000
	MaxAUs            = 2000 // section 6.1: an LMS takes courses of more than 1000 AUs
	MaxBlocks         = 1000
	MaxObjectives     = 500
	MaxDepth          = 8 // blocks within blocks
	MaxText           = 2000
	MaxLaunchParams   = 8000
)

// moveOn values (section 13.1.4).
const (
	MoveOnPassed             = "Passed"
	MoveOnCompleted          = "Completed"
	MoveOnCompletedAndPassed = "CompletedAndPassed"
	MoveOnCompletedOrPassed  = "CompletedOrPassed"
	MoveOnNotApplicable      = "NotApplicable"
)

// launchMethod values.
const (
	LaunchAnyWindow = "AnyWindow"
	LaunchOwnWindow = "OwnWindow"
)

// LangString is a title or description: text by language tag.
type LangString map[string]string

// Objective is an objective the course structure declares.
type Objective struct {
	ID          string     `json:"id"`
	Title       LangString `json:"title"`
	Description LangString `json:"description,omitempty"`
}

// Block groups AUs and blocks; Parent is "" for a block of the course.
type Block struct {
	ID          string     `json:"id"`
	Parent      string     `json:"parent,omitempty"`
	Title       LangString `json:"title"`
	Description LangString `json:"description,omitempty"`
	Objectives  []string   `json:"objectives,omitempty"`
}

// AU is an assignable unit. ID is its publisher id, as in cmi5.xml.
type AU struct {
	ID               string     `json:"id"`
	Title            LangString `json:"title"`
	Description      LangString `json:"description,omitempty"`
	URL              string     `json:"url"`
	LaunchMethod     string     `json:"launchMethod"`
	MoveOn           string     `json:"moveOn"`
	MasteryScore     *float64   `json:"masteryScore,omitempty"`
	LaunchParameters string     `json:"launchParameters,omitempty"`
	EntitlementKey   string     `json:"entitlementKey,omitempty"`
	ActivityType     string     `json:"activityType,omitempty"`
	Objectives       []string   `json:"objectives,omitempty"`
	// Blocks are the blocks the AU is in, outermost first.
	Blocks []string `json:"blocks,omitempty"`
}

// Course is a parsed course structure: its AUs and blocks in document order.
type Course struct {
	ID          string      `json:"id"`
	Title       LangString  `json:"title"`
	Description LangString  `json:"description,omitempty"`
	Objectives  []Objective `json:"objectives,omitempty"`
	Blocks      []Block     `json:"blocks,omitempty"`
	AUs         []AU        `json:"aus"`
}

// Package is an imported course: its structure and, for a zip, its files
// by their path in the zip (AU urls relative to it point at them).
type Package struct {
	Course Course
	Files  map[string][]byte
}

// Text is s in English when there is one, else in any language.
func (s LangString) Text() string {
	for _, tag := range []string{"en-US", "en-GB", "en", "und"} {
		if t, ok := s[tag]; ok {
			return t
		}
	}
	best := ""
	for tag := range s {
		if best == "" || tag < best {
			best = tag
		}
	}
	return s[best]
}

// ParseZip reads a zipped package: cmi5.xml at its root, and every file,
// whose names must be relative paths without "..".
func ParseZip(data []byte) (Package, error) {
	if len(data) > MaxPackageBytes {
		return Package{}, apperr.Invalid("the package is larger than %d bytes", MaxPackageBytes)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return Package{}, apperr.Invalid("the package is not a zip file: %v", err)
	}
	if len(zr.File) > MaxFiles {
		return Package{}, apperr.Invalid("the package has %d files; at most %d are allowed", len(zr.File), MaxFiles)
	}
	files := make(map[string][]byte, len(zr.File))
	total := 0
	for _, f := range zr.File {
		if strings.HasSuffix(f.Name, "/") {
			continue // a directory entry
		}
		name, err := cleanZipName(f.Name)
		if err != nil {
			return Package{}, err
		}
		if _, dup := files[name]; dup {
			return Package{}, apperr.Invalid("zip entry %q appears twice", f.Name)
		}
		body, err := readZipFile(f)
		if err != nil {
			return Package{}, err
		}
		total += len(body)
		if total > MaxContentBytes {
			return Package{}, apperr.Invalid("the package's files are larger than %d bytes uncompressed", MaxContentBytes)
		}
		files[name] = body
	}
	xmlBody, ok := files["cmi5.xml"]
	if !ok {
		return Package{}, apperr.Invalid("the package has no cmi5.xml at its root")
	}
	c, err := Parse(xmlBody)
	if err != nil {
		return Package{}, err
	}
	for i, au := range c.AUs {
		if isAbsolute(au.URL) {
			continue
		}
		if _, ok := files[stripQuery(au.URL)]; !ok {
			return Package{}, apperr.Invalid("cmi5.xml: au[%d] (%s): url %q names no file of the package", i, au.ID, au.URL)
		}
	}
	return Package{Course: c, Files: files}, nil
}

// ParseBare reads a cmi5.xml sent alone: its AUs must live elsewhere, so
// their urls must be absolute.
func ParseBare(data []byte) (Course, error) {
	c, err := Parse(data)
	if err != nil {
		return Course{}, err
	}
	for i, au := range c.AUs {
		if !isAbsolute(au.URL) {
			return Course{}, apperr.Invalid("cmi5.xml: au[%d] (%s): url %q is relative, but a cmi5.xml sent without a zip has no files for it; send the zipped package or absolute urls", i, au.ID, au.URL)
		}
	}
	return c, nil
}

func readZipFile(f *zip.File) ([]byte, error) {
	if f.UncompressedSize64 > MaxFileBytes {
		return nil, apperr.Invalid("zip entry %q is larger than %d bytes", f.Name, MaxFileBytes)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, apperr.Invalid("zip entry %q cannot be read: %v", f.Name, err)
	}
	defer rc.Close()
	// The header's size is the zip's claim; the reader is bounded anyway.
	body, err := io.ReadAll(io.LimitReader(rc, MaxFileBytes+1))
	if err != nil {
		return nil, apperr.Invalid("zip entry %q cannot be read: %v", f.Name, err)
	}
	if len(body) > MaxFileBytes {
		return nil, apperr.Invalid("zip entry %q is larger than %d bytes", f.Name, MaxFileBytes)
	}
	return body, nil
}

// cleanZipName is a zip entry's name as a path under the course's content,
// refusing one that would leave it.
func cleanZipName(name string) (string, error) {
	bad := name == "" || strings.Contains(name, `\`) || strings.HasPrefix(name, "/") ||
		!utf8.ValidString(name) || strings.ContainsAny(name, "\x00") || len(name) > 500
	if !bad {
		for _, part := range strings.Split(name, "/") {
			if part == ".." || part == "." {
				bad = true
			}
		}
	}
	if bad {
		return "", apperr.Invalid("zip entry %q is not a relative path inside the package", name)
	}
	return path.Clean(name), nil
}

// CleanContentPath is a requested content path, "" when it is not one a
// package can hold.
func CleanContentPath(p string) string {
	name, err := cleanZipName(p)
	if err != nil {
		return ""
	}
	return name
}

func isAbsolute(u string) bool {
	pu, err := url.Parse(u)
	return err == nil && (pu.Scheme == "http" || pu.Scheme == "https") && pu.Host != ""
}

func stripQuery(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		return u[:i]
	}
	return u
}

// Parse reads a course structure document.
func Parse(data []byte) (Course, error) {
	if len(data) > MaxStructureBytes {
		return Course{}, apperr.Invalid("cmi5.xml is larger than %d bytes", MaxStructureBytes)
	}
	p := &parser{dec: xml.NewDecoder(bytes.NewReader(data)), objectives: map[string]bool{}, ids: map[string]string{}}
	c, err := p.document()
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) {
			return Course{}, err
		}
		return Course{}, apperr.Invalid("cmi5.xml: %v", err)
	}
	return c, nil
}

type parser struct {
	dec        *xml.Decoder
	course     Course
	objectives map[string]bool
	// ids are the ids of course, blocks and AUs, which must differ.
	ids map[string]string
}

// next is the next start or end element, skipping text, comments and
// processing instructions between elements.
func (p *parser) next() (xml.Token, error) {
	for {
		tok, err := p.dec.Token()
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return t, nil
		case xml.EndElement:
			return t, nil
		case xml.CharData:
			if strings.TrimSpace(string(t)) != "" {
				return nil, fmt.Errorf("unexpected text %q", truncate(strings.TrimSpace(string(t))))
			}
		}
	}
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func (p *parser) document() (Course, error) {
	tok, err := p.next()
	if err != nil {
		return Course{}, fmt.Errorf("no root element: %w", err)
	}
	root, ok := tok.(xml.StartElement)
	if !ok || root.Name.Local != "courseStructure" {
		return Course{}, errors.New("the root element must be courseStructure")
	}
	sawCourse := false
	err = p.children("courseStructure", func(el xml.StartElement) error {
		switch el.Name.Local {
		case "course":
			if sawCourse {
				return errors.New("courseStructure: more than one course element")
			}
			sawCourse = true
			return p.courseElement(el)
		case "objectives":
			return p.objectiveList(el)
		case "au":
			if !sawCourse {
				return errors.New("courseStructure: the course element must come first")
			}
			return p.au(el, nil, "courseStructure")
		case "block":
			if !sawCourse {
				return errors.New("courseStructure: the course element must come first")
			}
			return p.block(el, nil, "courseStructure")
		}
		return fmt.Errorf("courseStructure: unexpected element <%s>", el.Name.Local)
	})
	if err != nil {
		return Course{}, err
	}
	if !sawCourse {
		return Course{}, errors.New("courseStructure: has no course element")
	}
	if len(p.course.AUs) == 0 {
		return Course{}, errors.New("courseStructure: has no au; a course needs at least one")
	}
	// Objective references may precede the objectives they name.
	for _, au := range p.course.AUs {
		for _, ref := range au.Objectives {
			if !p.objectives[ref] {
				return Course{}, fmt.Errorf("au %s: objective idref %q names no objective of the course", au.ID, ref)
			}
		}
	}
	for _, b := range p.course.Blocks {
		for _, ref := range b.Objectives {
			if !p.objectives[ref] {
				return Course{}, fmt.Errorf("block %s: objective idref %q names no objective of the course", b.ID, ref)
			}
		}
	}
	return p.course, nil
}

// children calls fn for each child element of the element named parent,
// until its end.
func (p *parser) children(parent string, fn func(xml.StartElement) error) error {
	for {
		tok, err := p.next()
		if err != nil {
			return fmt.Errorf("%s: %w", parent, err)
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return nil
		case xml.StartElement:
			if err := fn(t); err != nil {
				return err
			}
		}
	}
}

// attr is an attribute's value, trimmed (section 13.1: the LMS removes
// leading and trailing whitespace of every data element).
func attr(el xml.StartElement, name string) (string, bool) {
	for _, a := range el.Attr {
		if a.Name.Local == name && a.Name.Space == "" {
			return strings.TrimSpace(a.Value), true
		}
	}
	return "", false
}

// checkID reads an element's id attribute: an IRI, unique in the course.
func (p *parser) checkID(el xml.StartElement, where string) (string, error) {
	id, ok := attr(el, "id")
	if !ok || strings.TrimSpace(id) == "" {
		return "", fmt.Errorf("%s: the id attribute is required", where)
	}
	if !isIRI(id) {
		return "", fmt.Errorf("%s: id %q is not an IRI", where, id)
	}
	if prev, dup := p.ids[id]; dup {
		return "", fmt.Errorf("%s: id %q is already the id of %s", where, id, prev)
	}
	p.ids[id] = where
	return id, nil
}

// isIRI accepts an absolute IRI: a scheme, a colon and no spaces.
func isIRI(s string) bool {
	if len(s) > MaxText || !utf8.ValidString(s) || strings.ContainsAny(s, " \t\n<>\"{}|\\^`") {
		return false
	}
	i := strings.IndexByte(s, ':')
	if i < 1 || i == len(s)-1 {
		return false
	}
	for j, r := range s[:i] {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		later := r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.'
		if !letter && (j == 0 || !later) {
			return false
		}
	}
	return true
}

func (p *parser) courseElement(el xml.StartElement) error {
	id, err := p.checkID(el, "course")
	if err != nil {
		return err
	}
	p.course.ID = id
	err = p.children("course", func(child xml.StartElement) error {
		switch child.Name.Local {
		case "title":
			return p.langString(child, &p.course.Title, "course.title")
		case "description":
			return p.langString(child, &p.course.Description, "course.description")
		}
		return p.dec.Skip() // extensions of other namespaces
	})
	if err != nil {
		return err
	}
	if len(p.course.Title) == 0 {
		return errors.New("course: a title is required")
	}
	if len(p.course.Description) == 0 {
		return errors.New("course: a description is required")
	}
	return nil
}

// langString reads <title> or <description>: langstring elements.
func (p *parser) langString(el xml.StartElement, dst *LangString, where string) error {
	if *dst != nil {
		return fmt.Errorf("%s: given twice", where)
	}
	out := LangString{}
	err := p.children(where, func(ls xml.StartElement) error {
		if ls.Name.Local != "langstring" {
			return fmt.Errorf("%s: unexpected element <%s>; expected langstring", where, ls.Name.Local)
		}
		lang, _ := attr(ls, "lang")
		if lang == "" {
			for _, a := range ls.Attr {
				if a.Name.Local == "lang" {
					lang = a.Value
				}
			}
		}
		if lang == "" {
			lang = "und"
		}
		var text string
		if err := p.dec.DecodeElement(&text, &ls); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		text = strings.TrimSpace(text)
		if len(text) > MaxText {
			return fmt.Errorf("%s: longer than %d bytes", where, MaxText)
		}
		out[lang] = text
		return nil
	})
	if err != nil {
		return err
	}
	if len(out) == 0 {
		return fmt.Errorf("%s: needs at least one langstring", where)
	}
	*dst = out
	return nil
}

// objectiveList reads the course's <objectives> declarations.
func (p *parser) objectiveList(el xml.StartElement) error {
	return p.children("objectives", func(o xml.StartElement) error {
		if o.Name.Local != "objective" {
			return fmt.Errorf("objectives: unexpected element <%s>", o.Name.Local)
		}
		if len(p.course.Objectives) >= MaxObjectives {
			return fmt.Errorf("objectives: more than %d", MaxObjectives)
		}
		id, err := p.checkID(o, fmt.Sprintf("objectives[%d]", len(p.course.Objectives)))
		if err != nil {
			return err
		}
		obj := Objective{ID: id}
		err = p.children("objective", func(child xml.StartElement) error {
			switch child.Name.Local {
			case "title":
				return p.langString(child, &obj.Title, "objective.title")
			case "description":
				return p.langString(child, &obj.Description, "objective.description")
			}
			return p.dec.Skip()
		})
		if err != nil {
			return err
		}
		if len(obj.Title) == 0 {
			return fmt.Errorf("objective %s: a title is required", id)
		}
		p.objectives[id] = true
		p.course.Objectives = append(p.course.Objectives, obj)
		return nil
	})
}

// objectiveRefs reads an AU's or block's <objectives>: idref elements.
func (p *parser) objectiveRefs(where string) ([]string, error) {
	var refs []string
	err := p.children(where+".objectives", func(o xml.StartElement) error {
		if o.Name.Local != "objective" {
			return fmt.Errorf("%s.objectives: unexpected element <%s>", where, o.Name.Local)
		}
		ref, ok := attr(o, "idref")
		if !ok || ref == "" {
			return fmt.Errorf("%s.objectives: objective needs an idref", where)
		}
		refs = append(refs, ref)
		return p.dec.Skip()
	})
	return refs, err
}

func (p *parser) block(el xml.StartElement, parents []string, where string) error {
	if len(parents) >= MaxDepth {
		return fmt.Errorf("%s: blocks are nested more than %d deep", where, MaxDepth)
	}
	if len(p.course.Blocks) >= MaxBlocks {
		return fmt.Errorf("courseStructure: more than %d blocks", MaxBlocks)
	}
	where = fmt.Sprintf("block[%d]", len(p.course.Blocks))
	id, err := p.checkID(el, where)
	if err != nil {
		return err
	}
	b := Block{ID: id}
	if len(parents) > 0 {
		b.Parent = parents[len(parents)-1]
	}
	idx := len(p.course.Blocks)
	p.course.Blocks = append(p.course.Blocks, b)
	inner := append(append([]string(nil), parents...), id)
	children := 0
	err = p.children(where, func(child xml.StartElement) error {
		switch child.Name.Local {
		case "title":
			return p.langString(child, &b.Title, where+".title")
		case "description":
			return p.langString(child, &b.Description, where+".description")
		case "objectives":
			refs, err := p.objectiveRefs(where)
			b.Objectives = refs
			return err
		case "au":
			children++
			return p.au(child, inner, where)
		case "block":
			children++
			return p.block(child, inner, where)
		}
		return p.dec.Skip()
	})
	if err != nil {
		return err
	}
	if len(b.Title) == 0 {
		return fmt.Errorf("%s (%s): a title is required", where, id)
	}
	if len(b.Description) == 0 {
		return fmt.Errorf("%s (%s): a description is required", where, id)
	}
	if children == 0 {
		return fmt.Errorf("%s (%s): a block needs at least one au or block", where, id)
	}
	p.course.Blocks[idx] = b
	return nil
}

func (p *parser) au(el xml.StartElement, blocks []string, parent string) error {
	if len(p.course.AUs) >= MaxAUs {
		return fmt.Errorf("courseStructure: more than %d AUs", MaxAUs)
	}
	where := fmt.Sprintf("au[%d]", len(p.course.AUs))
	id, err := p.checkID(el, where)
	if err != nil {
		return err
	}
	where += " (" + id + ")"
	au := AU{ID: id, LaunchMethod: LaunchAnyWindow, MoveOn: MoveOnNotApplicable, Blocks: blocks}
	for _, a := range el.Attr {
		if a.Name.Space != "" {
			continue
		}
		a.Value = strings.TrimSpace(a.Value)
		switch a.Name.Local {
		case "moveOn":
			switch a.Value {
			case MoveOnPassed, MoveOnCompleted, MoveOnCompletedAndPassed, MoveOnCompletedOrPassed, MoveOnNotApplicable:
				au.MoveOn = a.Value
			default:
				return fmt.Errorf("%s: moveOn %q is not one of Passed, Completed, CompletedAndPassed, CompletedOrPassed, NotApplicable", where, a.Value)
			}
		case "launchMethod":
			if a.Value != LaunchAnyWindow && a.Value != LaunchOwnWindow {
				return fmt.Errorf("%s: launchMethod %q is not AnyWindow or OwnWindow", where, a.Value)
			}
			au.LaunchMethod = a.Value
		case "masteryScore":
			f, err := strconv.ParseFloat(strings.TrimSpace(a.Value), 64)
			if err != nil || f < 0 || f > 1 {
				return fmt.Errorf("%s: masteryScore %q is not a decimal from 0 to 1", where, a.Value)
			}
			au.MasteryScore = &f
		case "activityType":
			if a.Value != "" && !isIRI(a.Value) {
				return fmt.Errorf("%s: activityType %q is not an IRI", where, a.Value)
			}
			au.ActivityType = a.Value
		}
	}
	sawURL := false
	err = p.children(where, func(child xml.StartElement) error {
		switch child.Name.Local {
		case "title":
			return p.langString(child, &au.Title, where+".title")
		case "description":
			return p.langString(child, &au.Description, where+".description")
		case "objectives":
			refs, err := p.objectiveRefs(where)
			au.Objectives = refs
			return err
		case "url", "launchParameters", "entitlementKey":
			var text string
			if err := p.dec.DecodeElement(&text, &child); err != nil {
				return fmt.Errorf("%s.%s: %w", where, child.Name.Local, err)
			}
			text = strings.TrimSpace(text)
			switch child.Name.Local {
			case "url":
				sawURL = true
				au.URL = text
			case "launchParameters":
				if len(text) > MaxLaunchParams {
					return fmt.Errorf("%s.launchParameters: longer than %d bytes", where, MaxLaunchParams)
				}
				au.LaunchParameters = text
			default:
				if len(text) > MaxText {
					return fmt.Errorf("%s.entitlementKey: longer than %d bytes", where, MaxText)
				}
				au.EntitlementKey = text
			}
			return nil
		}
		return p.dec.Skip()
	})
	if err != nil {
		return err
	}
	if len(au.Title) == 0 {
		return fmt.Errorf("%s: a title is required", where)
	}
	if len(au.Description) == 0 {
		return fmt.Errorf("%s: a description is required", where)
	}
	if !sawURL || au.URL == "" {
		return fmt.Errorf("%s: a url is required", where)
	}
	if err := checkAUURL(au.URL); err != nil {
		return fmt.Errorf("%s.url: %w", where, err)
	}
	p.course.AUs = append(p.course.AUs, au)
	return nil
}

// checkAUURL accepts an absolute http(s) URL or a path relative to the
// package's root (section 13.1.4: no scheme means relative).
func checkAUURL(u string) error {
	if len(u) > MaxText || !utf8.ValidString(u) {
		return fmt.Errorf("%q is not a usable URL", truncate(u))
	}
	pu, err := url.Parse(u)
	if err != nil {
		return fmt.Errorf("%q is not a URL: %w", truncate(u), err)
	}
	if pu.Scheme != "" {
		if (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return fmt.Errorf("%q: an absolute url must be http or https with a host", truncate(u))
		}
		return nil
	}
	if pu.Host != "" || strings.HasPrefix(u, "/") {
		return fmt.Errorf("%q: a relative url must be a path inside the package", truncate(u))
	}
	if _, err := cleanZipName(stripQuery(u)); err != nil {
		return fmt.Errorf("%q: a relative url must be a path inside the package", truncate(u))
	}
	return nil
}
