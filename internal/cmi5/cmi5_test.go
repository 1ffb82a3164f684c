package cmi5

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"

	"journeyman/internal/apperr"
)

const ns = `xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd"`

// structure is a cmi5.xml around body, after a valid course element.
func structure(body string) string {
	return `<?xml version="1.0" encoding="utf-8"?>
<courseStructure ` + ns + `>
  <course id="https://example.com/course/1">
    <title><langstring lang="en-US">Welding basics</langstring></title>
    <description><langstring lang="en-US">Two lessons</langstring></description>
  </course>
` + body + `
</courseStructure>`
}

const au1 = `<au id="https://example.com/au/1" moveOn="CompletedAndPassed" masteryScore="0.8" launchMethod="OwnWindow" activityType="http://adlnet.gov/expapi/activities/lesson">
  <title><langstring lang="en-US">Lesson 1</langstring></title>
  <description><langstring lang="en-US">First</langstring></description>
  <objectives><objective idref="https://example.com/obj/1"/></objectives>
  <url>index.html?x=1</url>
  <launchParameters>{"level":1}</launchParameters>
  <entitlementKey>key-1</entitlementKey>
</au>`

const objectives = `<objectives><objective id="https://example.com/obj/1"><title><langstring lang="en-US">Tack</langstring></title></objective></objectives>`

func TestParse(t *testing.T) {
	c, err := Parse([]byte(structure(objectives + au1 + `
<block id="https://example.com/block/1">
  <title><langstring lang="en-US">Block</langstring></title><description><langstring lang="en-US">B</langstring></description>
  <au id="https://example.com/au/2"><title><langstring lang="en-US">Lesson 2</langstring></title><description><langstring>2</langstring></description><url>https://cdn.example.com/l2.html</url></au>
</block>`)))
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != "https://example.com/course/1" || c.Title.Text() != "Welding basics" || len(c.AUs) != 2 || len(c.Blocks) != 1 || len(c.Objectives) != 1 {
		t.Fatalf("course = %+v", c)
	}
	a := c.AUs[0]
	if a.MoveOn != MoveOnCompletedAndPassed || a.MasteryScore == nil || *a.MasteryScore != 0.8 || a.LaunchMethod != LaunchOwnWindow ||
		a.URL != "index.html?x=1" || a.LaunchParameters != `{"level":1}` || a.EntitlementKey != "key-1" ||
		a.ActivityType != "http://adlnet.gov/expapi/activities/lesson" || len(a.Objectives) != 1 || len(a.Blocks) != 0 {
		t.Fatalf("au[0] = %+v", a)
	}
	b := c.AUs[1]
	// The XSD's defaults.
	if b.MoveOn != MoveOnNotApplicable || b.LaunchMethod != LaunchAnyWindow || b.MasteryScore != nil ||
		len(b.Blocks) != 1 || b.Blocks[0] != "https://example.com/block/1" {
		t.Fatalf("au[1] = %+v", b)
	}
}

func TestParseInvalid(t *testing.T) {
	title := `<title><langstring lang="en-US">T</langstring></title><description><langstring lang="en-US">D</langstring></description>`
	for name, tc := range map[string]struct{ doc, want string }{
		"NotXML":              {"hello", "no root element"},
		"WrongRoot":           {`<course id="a:b"/>`, "root element must be courseStructure"},
		"NoCourse":            {`<courseStructure><au id="a:b">` + title + `<url>https://x.org/</url></au></courseStructure>`, "course element must come first"},
		"NoAU":                {structure(""), "has no au"},
		"CourseNoTitle":       {`<courseStructure><course id="a:c"/></courseStructure>`, "course: a title is required"},
		"IDWhitespaceTrimmed": {structure(`<au id="  a:1  ">` + title + `<url>a.html</url></au><au id="a:1">` + title + `<url>b.html</url></au>`), `id "a:1" is already`},
		"AUNoID":              {structure(`<au>` + title + `<url>a.html</url></au>`), "au[0]: the id attribute is required"},
		"AUIDNotIRI":          {structure(`<au id="not an iri">` + title + `<url>a.html</url></au>`), "is not an IRI"},
		"DuplicateID":         {structure(`<au id="https://example.com/course/1">` + title + `<url>a.html</url></au>`), "already the id of course"},
		"AUNoURL":             {structure(`<au id="a:1">` + title + `</au>`), "a url is required"},
		"AUNoTitle":           {structure(`<au id="a:1"><url>a.html</url></au>`), "a title is required"},
		"AUNoDescription":     {structure(`<au id="a:1"><title><langstring>T</langstring></title><url>a.html</url></au>`), "a description is required"},
		"CourseNoDesc":        {`<courseStructure><course id="a:c"><title><langstring>T</langstring></title></course></courseStructure>`, "course: a description is required"},
		"BadMoveOn":           {structure(`<au id="a:1" moveOn="Done">` + title + `<url>a.html</url></au>`), `moveOn "Done"`},
		"BadLaunchMethod":     {structure(`<au id="a:1" launchMethod="Popup">` + title + `<url>a.html</url></au>`), `launchMethod "Popup"`},
		"MasteryAboveOne":     {structure(`<au id="a:1" masteryScore="1.5">` + title + `<url>a.html</url></au>`), "masteryScore"},
		"MasteryNotNumber":    {structure(`<au id="a:1" masteryScore="high">` + title + `<url>a.html</url></au>`), "masteryScore"},
		"URLLeavesPackage":    {structure(`<au id="a:1">` + title + `<url>../x.html</url></au>`), "inside the package"},
		"URLRootPath":         {structure(`<au id="a:1">` + title + `<url>/x.html</url></au>`), "inside the package"},
		"URLScheme":           {structure(`<au id="a:1">` + title + `<url>javascript:alert(1)</url></au>`), "http or https"},
		"UnknownObjective":    {structure(`<au id="a:1">` + title + `<objectives><objective idref="a:o"/></objectives><url>a.html</url></au>`), `idref "a:o"`},
		"EmptyBlock":          {structure(`<block id="a:b">` + title + `</block><au id="a:1">` + title + `<url>a.html</url></au>`), "needs at least one au or block"},
		"UnknownElement":      {structure(`<lesson/>`), "unexpected element <lesson>"},
		"TwoCourses":          {structure(`<course id="a:z">` + title + `</course>`), "more than one course"},
		"EmptyTitle":          {structure(`<au id="a:1"><title/><url>a.html</url></au>`), "needs at least one langstring"},
		"StrayText":           {structure(`hello <au id="a:1">` + title + `<url>a.html</url></au>`), "unexpected text"},
		"LaunchParamsLarge":   {structure(`<au id="a:1">` + title + `<url>a.html</url><launchParameters>` + strings.Repeat("x", MaxLaunchParams+1) + `</launchParameters></au>`), "launchParameters: longer"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(tc.doc))
			if err == nil || apperr.Code(err) != apperr.EINVALID || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v; want EINVALID with %q", err, tc.want)
			}
		})
	}
}

func TestParseLimits(t *testing.T) {
	title := `<title><langstring lang="en-US">T</langstring></title><description><langstring lang="en-US">D</langstring></description>`
	var b strings.Builder
	for i := 0; i <= MaxAUs; i++ {
		b.WriteString(`<au id="a:` + itoa(i) + `">` + title + `<url>a.html</url></au>`)
	}
	var big strings.Builder
	for i := range 1001 {
		big.WriteString(`<au id="a:` + itoa(i) + `">` + title + `<url>a.html</url></au>`)
	}
	// Section 6.1: more than 1000 AUs must import.
	if c, err := Parse([]byte(structure(big.String()))); err != nil || len(c.AUs) != 1001 {
		t.Fatalf("1001 AUs: %v", err)
	}
	if _, err := Parse([]byte(structure(b.String()))); err == nil || !strings.Contains(err.Error(), "more than 2000 AUs") {
		t.Fatalf("too many AUs: err = %v", err)
	}
	var d strings.Builder
	for i := 0; i <= MaxDepth; i++ {
		d.WriteString(`<block id="a:b` + itoa(i) + `">` + title)
	}
	d.WriteString(`<au id="a:1">` + title + `<url>a.html</url></au>`)
	for i := 0; i <= MaxDepth; i++ {
		d.WriteString(`</block>`)
	}
	if _, err := Parse([]byte(structure(d.String()))); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Fatalf("too deep: err = %v", err)
	}
	if _, err := Parse(make([]byte, MaxStructureBytes+1)); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("too large: err = %v", err)
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestParseZip(t *testing.T) {
	good := structure(objectives + au1)
	t.Run("OK", func(t *testing.T) {
		p, err := ParseZip(zipOf(t, map[string]string{"cmi5.xml": good, "index.html": "<p>hi</p>", "js/app.js": "1", "img/": ""}))
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Course.AUs) != 1 || string(p.Files["index.html"]) != "<p>hi</p>" || string(p.Files["js/app.js"]) != "1" {
			t.Fatalf("package = %+v", p)
		}
	})
	for name, tc := range map[string]struct {
		files map[string]string
		want  string
	}{
		"NoStructure":  {map[string]string{"index.html": "x"}, "no cmi5.xml at its root"},
		"NestedOnly":   {map[string]string{"course/cmi5.xml": good, "index.html": "x"}, "no cmi5.xml at its root"},
		"MissingFile":  {map[string]string{"cmi5.xml": good}, `url "index.html?x=1" names no file`},
		"DotDot":       {map[string]string{"cmi5.xml": good, "index.html": "x", "../evil": "x"}, "not a relative path"},
		"Absolute":     {map[string]string{"cmi5.xml": good, "index.html": "x", "/etc/passwd": "x"}, "not a relative path"},
		"Backslash":    {map[string]string{"cmi5.xml": good, "index.html": "x", `a\..\b`: "x"}, "not a relative path"},
		"BadStructure": {map[string]string{"cmi5.xml": "<x/>"}, "courseStructure"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseZip(zipOf(t, tc.files))
			if err == nil || apperr.Code(err) != apperr.EINVALID || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v; want EINVALID with %q", err, tc.want)
			}
		})
	}
	t.Run("NotZip", func(t *testing.T) {
		if _, err := ParseZip([]byte("hello")); err == nil || !strings.Contains(err.Error(), "not a zip") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestParseBare(t *testing.T) {
	if _, err := ParseBare([]byte(structure(`<au id="a:1"><title><langstring lang="en-US">T</langstring></title><description><langstring>D</langstring></description><url>https://cdn.example.com/a.html</url></au>`))); err != nil {
		t.Fatal(err)
	}
	_, err := ParseBare([]byte(structure(objectives + au1)))
	if err == nil || !strings.Contains(err.Error(), "is relative") {
		t.Fatalf("relative url in a bare cmi5.xml: err = %v", err)
	}
}

func TestMet(t *testing.T) {
	for _, tc := range []struct {
		moveOn            string
		completed, passed bool
		want              bool
	}{
		{MoveOnNotApplicable, false, false, true},
		{MoveOnCompleted, false, true, false},
		{MoveOnCompleted, true, false, true},
		{MoveOnPassed, true, false, false},
		{MoveOnPassed, false, true, true},
		{MoveOnCompletedAndPassed, true, false, false},
		{MoveOnCompletedAndPassed, true, true, true},
		{MoveOnCompletedOrPassed, false, false, false},
		{MoveOnCompletedOrPassed, false, true, true},
	} {
		if got := Met(tc.moveOn, tc.completed, tc.passed); got != tc.want {
			t.Errorf("Met(%s, completed %v, passed %v) = %v", tc.moveOn, tc.completed, tc.passed, got)
		}
	}
}

func TestSatisfied(t *testing.T) {
	c := Course{ID: "a:c", Blocks: []Block{{ID: "a:b1"}, {ID: "a:b2", Parent: "a:b1"}},
		AUs: []AU{{ID: "a:1", Blocks: []string{"a:b1"}}, {ID: "a:2", Blocks: []string{"a:b1", "a:b2"}}, {ID: "a:3"}}}
	blocks, course := c.Satisfied(map[string]bool{"a:2": true})
	if len(blocks) != 1 || blocks[0] != "a:b2" || course {
		t.Fatalf("after a:2: blocks %v, course %v", blocks, course)
	}
	blocks, course = c.Satisfied(map[string]bool{"a:1": true, "a:2": true})
	if len(blocks) != 2 || course {
		t.Fatalf("after a:1, a:2: blocks %v, course %v", blocks, course)
	}
	if _, course = c.Satisfied(map[string]bool{"a:1": true, "a:2": true, "a:3": true}); !course {
		t.Fatal("every AU done, but the course is not satisfied")
	}
}
