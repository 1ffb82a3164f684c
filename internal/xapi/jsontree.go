package xapi

import (
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A statement is parsed once into this ordered tree: it keeps the client's
// property order for the "exact" format, tells null from absent and a number
// from a string, and costs far less than encoding/json's reflection into
// map[string]any followed by a second pass for validation.
type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

func (k kind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

type node struct {
	kind  kind
	b     bool
	s     string // a string's value, or a number's text
	keys  []string
	vals  []*node // object values (parallel to keys) or array elements
	dupAt string  // first duplicated key of an object
}

func (n *node) get(key string) *node {
	if n == nil || n.kind != kObject {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

func (n *node) set(key string, v *node) {
	for i, k := range n.keys {
		if k == key {
			n.vals[i] = v
			return
		}
	}
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, v)
}

func (n *node) del(key string) {
	for i, k := range n.keys {
		if k == key {
			n.keys = append(n.keys[:i:i], n.keys[i+1:]...)
			n.vals = append(n.vals[:i:i], n.vals[i+1:]...)
			return
		}
	}
}

// str is the value of a string node, "" for anything else.
func (n *node) str() string {
	if n == nil || n.kind != kString {
		return ""
	}
	return n.s
}

func strNode(s string) *node { return &node{kind: kString, s: s} }

type parser struct {
	b     []byte
	src   string // b as one string: values without escapes are slices of it
	i     int
	depth int
	// arena hands out nodes in blocks, and keys/vals collect an object's
	// members before one exact-size copy: a statement then costs a handful
	// of allocations rather than one per value and per append.
	arena []node
	keys  []string
	vals  []*node
	// keyBlock and valBlock hand out the exact-size member slices.
	keyBlock []string
	valBlock []*node
}

func (p *parser) takeKeys(src []string) []string {
	if len(src) > len(p.keyBlock) {
		p.keyBlock = make([]string, max(48, len(src)))
	}
	out := p.keyBlock[:len(src):len(src)]
	p.keyBlock = p.keyBlock[len(src):]
	copy(out, src)
	return out
}

func (p *parser) takeVals(src []*node) []*node {
	if len(src) > len(p.valBlock) {
		p.valBlock = make([]*node, max(48, len(src)))
	}
	out := p.valBlock[:len(src):len(src)]
	p.valBlock = p.valBlock[len(src):]
	copy(out, src)
	return out
}

func (p *parser) node(k kind) *node {
	if len(p.arena) == 0 {
		p.arena = make([]node, 32)
	}
	n := &p.arena[0]
	p.arena = p.arena[1:]
	n.kind = k
	return n
}

// knownKeys are the property names of the xAPI data model; a key found here
// costs no allocation.
var knownKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range []string{"id", "actor", "verb", "object", "result", "context", "timestamp", "stored", "authority",
		"version", "attachments", "objectType", "name", "mbox", "mbox_sha1sum", "openid", "account", "homePage",
		"member", "display", "definition", "description", "type", "moreInfo", "extensions", "interactionType",
		"correctResponsesPattern", "choices", "scale", "source", "target", "steps", "score", "scaled", "raw", "min",
		"max", "success", "completion", "response", "duration", "registration", "instructor", "team",
		"contextActivities", "parent", "grouping", "category", "other", "revision", "platform", "language",
		"statement", "contextAgents", "contextGroups", "agent", "group", "relevantTypes", "usageType",
		"contentType", "length", "sha2", "fileUrl", "en", "en-US", "en-GB", "de", "fr", "es"} {
		m[k] = k
	}
	return m
}()

// parseJSON parses one JSON value filling the whole of b.
func parseJSON(b []byte) (*node, error) {
	// A statement has about one value per 16 bytes of JSON: one first block
	// of that size holds most statements whole.
	p := parser{b: b, src: string(b), keys: make([]string, 0, 32), vals: make([]*node, 0, 64),
		arena: make([]node, max(16, len(b)/16))}
	p.ws()
	n, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i != len(b) {
		return nil, p.fail("unexpected data after the JSON value")
	}
	return n, nil
}

type syntaxError struct {
	msg string
	off int
}

func (e *syntaxError) Error() string {
	return "invalid JSON at byte " + strconv.Itoa(e.off) + ": " + e.msg
}

func (p *parser) fail(msg string) error { return &syntaxError{msg: msg, off: p.i} }

func (p *parser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) value() (*node, error) {
	if p.i >= len(p.b) {
		return nil, p.fail("unexpected end of input")
	}
	switch c := p.b[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		n := p.node(kString)
		n.s = s
		return n, nil
	case c == 't':
		n := p.node(kBool)
		n.b = true
		return p.literal("true", n)
	case c == 'f':
		return p.literal("false", p.node(kBool))
	case c == 'n':
		return p.literal("null", p.node(kNull))
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, p.fail("unexpected character " + strconv.QuoteRune(rune(p.b[p.i])))
}

func (p *parser) literal(word string, n *node) (*node, error) {
	if len(p.b)-p.i < len(word) || string(p.b[p.i:p.i+len(word)]) != word {
		return nil, p.fail("invalid literal")
	}
	p.i += len(word)
	return n, nil
}

func (p *parser) number() (*node, error) {
	start := p.i
	if p.b[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		s := p.i
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
		}
		return p.i - s
	}
	if p.i < len(p.b) && p.b[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, p.fail("invalid number")
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, p.fail("invalid number")
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.fail("invalid number")
		}
	}
	n := p.node(kNumber)
	n.s = p.src[start:p.i]
	return n, nil
}

func (p *parser) string() (string, error) {
	p.i++ // opening quote
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			s := p.src[start:p.i]
			p.i++
			if !utf8.ValidString(s) {
				return "", p.fail("invalid UTF-8 in a string")
			}
			return s, nil
		}
		if c == '\\' {
			return p.slowString(start)
		}
		if c < 0x20 {
			return "", p.fail("control character in a string")
		}
		p.i++
	}
	return "", p.fail("unterminated string")
}

func (p *parser) slowString(start int) (string, error) {
	buf := append([]byte(nil), p.b[start:p.i]...)
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			if !utf8.Valid(buf) {
				return "", p.fail("invalid UTF-8 in a string")
			}
			return string(buf), nil
		case c < 0x20:
			return "", p.fail("control character in a string")
		case c != '\\':
			buf = append(buf, c)
			p.i++
			continue
		}
		p.i++
		if p.i >= len(p.b) {
			break
		}
		e := p.b[p.i]
		p.i++
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.fail("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if p.i+1 < len(p.b) && p.b[p.i] == '\\' && p.b[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					var ok2 bool
					if r2, ok2 = p.hex4(); !ok2 {
						p.i = save
						r2 = -1
					}
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r = d
				} else {
					r = utf8.RuneError
				}
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", p.fail("invalid escape")
		}
	}
	return "", p.fail("unterminated string")
}

func (p *parser) hex4() (rune, bool) {
	if len(p.b)-p.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range p.b[p.i : p.i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.i += 4
	return r, true
}

const maxDepth = 64

func (p *parser) object() (*node, error) {
	if p.depth++; p.depth > maxDepth {
		return nil, p.fail("nested too deeply")
	}
	defer func() { p.depth-- }()
	p.i++
	n := p.node(kObject)
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return n, nil
	}
	kbase, vbase := len(p.keys), len(p.vals)
	for {
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != '"' {
			return nil, p.fail("expected a property name")
		}
		k, err := p.key()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return nil, p.fail("expected ':'")
		}
		p.i++
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		if n.dupAt == "" && slices.Contains(p.keys[kbase:], k) {
			n.dupAt = k
		}
		p.keys = append(p.keys, k)
		p.vals = append(p.vals, v)
		p.ws()
		if p.i >= len(p.b) {
			return nil, p.fail("unterminated object")
		}
		if p.b[p.i] == ',' {
			p.i++
			continue
		}
		if p.b[p.i] == '}' {
			p.i++
			n.keys = p.takeKeys(p.keys[kbase:])
			n.vals = p.takeVals(p.vals[vbase:])
			p.keys = p.keys[:kbase]
			p.vals = p.vals[:vbase]
			return n, nil
		}
		return nil, p.fail("expected ',' or '}'")
	}
}

// key reads a property name, sharing the strings of known names.
func (p *parser) key() (string, error) {
	end := p.i + 1
	for end < len(p.b) && p.b[end] != '"' && p.b[end] != '\\' {
		end++
	}
	if end < len(p.b) && p.b[end] == '"' {
		if k, ok := knownKeys[string(p.b[p.i+1:end])]; ok {
			p.i = end + 1
			return k, nil
		}
	}
	return p.string()
}

func (p *parser) array() (*node, error) {
	if p.depth++; p.depth > maxDepth {
		return nil, p.fail("nested too deeply")
	}
	defer func() { p.depth-- }()
	p.i++
	n := p.node(kArray)
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
		n.vals = []*node{}
		return n, nil
	}
	base := len(p.vals)
	for {
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		p.vals = append(p.vals, v)
		p.ws()
		if p.i >= len(p.b) {
			return nil, p.fail("unterminated array")
		}
		if p.b[p.i] == ',' {
			p.i++
			continue
		}
		if p.b[p.i] == ']' {
			p.i++
			n.vals = p.takeVals(p.vals[base:])
			p.vals = p.vals[:base]
			return n, nil
		}
		return nil, p.fail("expected ',' or ']'")
	}
}

// appendJSON writes n as compact JSON.
func appendJSON(b []byte, n *node) []byte {
	switch n.kind {
	case kNull:
		return append(b, "null"...)
	case kBool:
		if n.b {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case kNumber:
		return append(b, n.s...)
	case kString:
		return appendString(b, n.s)
	case kArray:
		b = append(b, '[')
		for i, v := range n.vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, v)
		}
		return append(b, ']')
	default:
		b = append(b, '{')
		for i, k := range n.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = appendJSON(b, n.vals[i])
		}
		return append(b, '}')
	}
}

const hexDigits = "0123456789abcdef"

func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := range len(s) {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

func (n *node) json() []byte { return appendJSON(nil, n) }
