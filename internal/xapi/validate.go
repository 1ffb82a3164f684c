package xapi

import (
	"strconv"
	"strings"
	"time"

	"journeyman/internal/apperr"
)

// Incoming is one statement as a client sent it, valid for the version it was
// decoded under. Its context activities are already arrays.
type Incoming struct {
	root *node
	id   string
	size int // about how many bytes the client sent, to size the body once
}

// ID is the statement's id in lower case (the store's key; the body keeps the
// client's spelling), "" when the client gave none.
func (in Incoming) ID() string { return in.id }

// JSON is the statement as the client sent it (after normalisation of the
// context activities), compact.
func (in Incoming) JSON() []byte { return in.root.json() }

// Decode reads a single statement object or an array of them (a batch) and
// applies every validation rule of version v. The error names the path of
// the first offending value, e.g. `statements[2].context.registration`.
func Decode(body []byte, v Version) ([]Incoming, error) {
	root, err := parseJSON(body)
	if err != nil {
		return nil, apperr.Invalid("the statements are not valid JSON: %v", err)
	}
	val := validator{v: v}
	switch root.kind {
	case kObject:
		if err := val.statement(root, &pth{key: "statement"}); err != nil {
			return nil, err
		}
		return []Incoming{{root: root, id: strings.ToLower(root.get("id").str()), size: len(body)}}, nil
	case kArray:
		out := make([]Incoming, len(root.vals))
		seen := make(map[string]int, len(root.vals))
		for i, s := range root.vals {
			path := &pth{key: "statements", idx: i, hasIdx: true}
			if s.kind != kObject {
				return nil, apperr.Invalid("%s: a statement must be an object, not %s", path, s.kind)
			}
			if err := val.statement(s, path); err != nil {
				return nil, err
			}
			id := strings.ToLower(s.get("id").str())
			if id != "" {
				if j, dup := seen[id]; dup {
					return nil, apperr.Invalid("%s.id: %q is also the id of statements[%d] in the same batch", path, id, j)
				}
				seen[id] = i
			}
			out[i] = Incoming{root: s, id: id, size: len(body) / len(root.vals)}
		}
		return out, nil
	}
	return nil, apperr.Invalid("the request must hold a statement object or an array of statements, not %s", root.kind)
}

type validator struct {
	v     Version
	steps []pth
}

func bad(path *pth, format string, args ...any) error {
	return apperr.Invalid("%s: "+format, append([]any{path.String()}, args...)...)
}

// pth is where a value sits in the request, built only when an error names
// it: validation walks every value, and a string per step would cost an
// allocation each.
type pth struct {
	parent *pth
	key    string
	idx    int
	hasIdx bool
}

// k and i hand out path steps from a block, so that walking a statement
// allocates a few blocks rather than a step per value.
func (val *validator) k(p *pth, key string) *pth {
	n := val.step()
	n.parent, n.key = p, key
	return n
}

func (val *validator) i(p *pth, i int) *pth {
	n := val.step()
	n.parent, n.idx, n.hasIdx = p, i, true
	return n
}

func (val *validator) step() *pth {
	if len(val.steps) == 0 {
		val.steps = make([]pth, 32)
	}
	n := &val.steps[0]
	val.steps = val.steps[1:]
	return n
}

func (p *pth) String() string {
	if p == nil {
		return ""
	}
	s := p.parent.String()
	switch {
	case p.hasIdx:
		s += p.key + "[" + strconv.Itoa(p.idx) + "]"
	case s == "":
		s = p.key
	default:
		s += "." + p.key
	}
	return s
}

// object checks that n is an object holding only the allowed properties, none
// of them null.
func (val *validator) object(n *node, path *pth, allowed ...string) error {
	if n.kind != kObject {
		return bad(path, "must be an object, not %s", n.kind)
	}
	if n.dupAt != "" {
		return bad(val.k(path, n.dupAt), "the property appears twice")
	}
next:
	for i, k := range n.keys {
		for _, a := range allowed {
			if k == a {
				if n.vals[i].kind == kNull {
					return bad(val.k(path, k), "must not be null")
				}
				continue next
			}
		}
		return bad(path, "unknown property %q (allowed: %s)", k, strings.Join(allowed, ", "))
	}
	return nil
}

func (val *validator) str(n *node, path *pth) error {
	if n.kind != kString {
		return bad(path, "must be a string, not %s", n.kind)
	}
	return nil
}

func (val *validator) boolean(n *node, path *pth) error {
	if n.kind != kBool {
		return bad(path, "must be a boolean, not %s", n.kind)
	}
	return nil
}

func (val *validator) number(n *node, path *pth) (float64, error) {
	if n.kind != kNumber {
		return 0, bad(path, "must be a number, not %s", n.kind)
	}
	f, err := strconv.ParseFloat(n.s, 64)
	if err != nil {
		return 0, bad(path, "%s is not a representable number", n.s)
	}
	return f, nil
}

func (val *validator) uuid(n *node, path *pth) error {
	if err := val.str(n, path); err != nil {
		return err
	}
	if !isUUID(n.s) {
		return bad(path, "%q is not a UUID", n.s)
	}
	return nil
}

func (val *validator) iri(n *node, path *pth) error {
	if err := val.str(n, path); err != nil {
		return err
	}
	if !isIRI(n.s) {
		return bad(path, "%q is not an IRI (it needs a scheme, such as http:)", n.s)
	}
	return nil
}

func (val *validator) langMap(n *node, path *pth) error {
	if n.kind != kObject {
		return bad(path, "must be a language map (an object), not %s", n.kind)
	}
	if n.dupAt != "" {
		return bad(val.k(path, n.dupAt), "the language appears twice")
	}
	if len(n.keys) == 0 {
		return bad(path, "a language map needs at least one language")
	}
	for i, k := range n.keys {
		if !isLanguageTag(k) {
			return bad(path, "%q is not a valid RFC 5646 language tag", k)
		}
		if n.vals[i].kind != kString {
			return bad(val.k(path, k), "must be a string, not %s", n.vals[i].kind)
		}
	}
	return nil
}

func (val *validator) extensions(n *node, path *pth) error {
	if n.kind != kObject {
		return bad(path, "must be an object, not %s", n.kind)
	}
	if n.dupAt != "" {
		return bad(val.k(path, n.dupAt), "the extension appears twice")
	}
	for _, k := range n.keys {
		if !isIRI(k) {
			return bad(path, "extension key %q is not an IRI", k)
		}
	}
	return nil
}

func (val *validator) timestamp(n *node, path *pth) error {
	if err := val.str(n, path); err != nil {
		return err
	}
	if _, err := parseTimestamp(n.s); err != nil {
		return bad(path, "%q is not an ISO 8601 timestamp with a time zone: %v", n.s, err)
	}
	return nil
}

var statementKeys = []string{"id", "actor", "verb", "object", "result", "context", "timestamp", "stored", "authority", "version", "attachments"}
var subStatementKeys = []string{"objectType", "actor", "verb", "object", "result", "context", "timestamp", "attachments"}

func (val *validator) statement(n *node, path *pth) error {
	if err := val.object(n, path, statementKeys...); err != nil {
		return err
	}
	if id := n.get("id"); id != nil {
		if err := val.uuid(id, val.k(path, "id")); err != nil {
			return err
		}
	}
	if err := val.statementBody(n, path, false); err != nil {
		return err
	}
	if s := n.get("stored"); s != nil {
		if err := val.timestamp(s, val.k(path, "stored")); err != nil {
			return err
		}
	}
	if a := n.get("authority"); a != nil {
		if err := val.authority(a, val.k(path, "authority")); err != nil {
			return err
		}
	}
	if ver := n.get("version"); ver != nil {
		if err := val.str(ver, val.k(path, "version")); err != nil {
			return err
		}
		prefix := "1.0"
		if val.v == V200 {
			prefix = "2.0"
		}
		if ver.s != prefix && (!strings.HasPrefix(ver.s, prefix+".") || !isDigits(ver.s[4:])) {
			return bad(val.k(path, "version"), "%q is not a %s.x version (the request speaks %s)", ver.s, prefix, val.v)
		}
	}
	return nil
}

// statementBody checks what statements and sub-statements share.
func (val *validator) statementBody(n *node, path *pth, sub bool) error {
	for _, req := range [...]string{"actor", "verb", "object"} {
		if n.get(req) == nil {
			return bad(path, "the %q property is required", req)
		}
	}
	if err := val.actor(n.get("actor"), val.k(path, "actor")); err != nil {
		return err
	}
	verb := n.get("verb")
	if err := val.verb(verb, val.k(path, "verb")); err != nil {
		return err
	}
	obj := n.get("object")
	objType, err := val.statementObject(obj, val.k(path, "object"), sub)
	if err != nil {
		return err
	}
	if verb.get("id").str() == VoidedVerb && objType != "StatementRef" {
		return bad(val.k(path, "object"), "a voiding statement's object must be a StatementRef")
	}
	if r := n.get("result"); r != nil {
		if err := val.result(r, val.k(path, "result")); err != nil {
			return err
		}
	}
	if c := n.get("context"); c != nil {
		if err := val.context(c, val.k(path, "context"), objType); err != nil {
			return err
		}
	}
	if t := n.get("timestamp"); t != nil {
		if err := val.timestamp(t, val.k(path, "timestamp")); err != nil {
			return err
		}
	}
	if a := n.get("attachments"); a != nil {
		if a.kind != kArray {
			return bad(val.k(path, "attachments"), "must be an array, not %s", a.kind)
		}
		for i, at := range a.vals {
			if err := val.attachment(at, val.i(val.k(path, "attachments"), i)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (val *validator) actor(n *node, path *pth) error {
	if n.kind != kObject {
		return bad(path, "must be an Agent or Group object, not %s", n.kind)
	}
	switch ot := n.get("objectType"); {
	case ot == nil || ot.str() == "Agent":
		return val.agent(n, path)
	case ot.str() == "Group":
		return val.group(n, path)
	default:
		return bad(val.k(path, "objectType"), "must be \"Agent\" or \"Group\", not %s", describe(ot))
	}
}

func describe(n *node) string {
	if n.kind == kString {
		return strconv.Quote(n.s)
	}
	return n.kind.String()
}

var agentKeys = []string{"objectType", "name", "mbox", "mbox_sha1sum", "openid", "account"}
var groupKeys = []string{"objectType", "name", "member", "mbox", "mbox_sha1sum", "openid", "account"}

func (val *validator) agent(n *node, path *pth) error {
	if err := val.object(n, path, agentKeys...); err != nil {
		return err
	}
	if ot := n.get("objectType"); ot != nil && ot.str() != "Agent" {
		return bad(val.k(path, "objectType"), "must be \"Agent\", not %s", describe(ot))
	}
	if nm := n.get("name"); nm != nil {
		if err := val.str(nm, val.k(path, "name")); err != nil {
			return err
		}
	}
	count, err := val.ifis(n, path)
	if err != nil {
		return err
	}
	if count != 1 {
		return bad(path, "an Agent needs exactly one of mbox, mbox_sha1sum, openid and account, it has %d", count)
	}
	return nil
}

func (val *validator) group(n *node, path *pth) error {
	if err := val.object(n, path, groupKeys...); err != nil {
		return err
	}
	if nm := n.get("name"); nm != nil {
		if err := val.str(nm, val.k(path, "name")); err != nil {
			return err
		}
	}
	count, err := val.ifis(n, path)
	if err != nil {
		return err
	}
	if count > 1 {
		return bad(path, "an identified Group needs exactly one of mbox, mbox_sha1sum, openid and account, it has %d", count)
	}
	m := n.get("member")
	if m == nil {
		if count == 0 {
			return bad(path, "an anonymous Group (one without mbox, mbox_sha1sum, openid or account) needs a member list")
		}
		return nil
	}
	if m.kind != kArray {
		return bad(val.k(path, "member"), "must be an array of Agents, not %s", m.kind)
	}
	if count == 0 && len(m.vals) == 0 {
		return bad(val.k(path, "member"), "an anonymous Group needs at least one member")
	}
	for i, a := range m.vals {
		p := val.i(val.k(path, "member"), i)
		if a.kind == kObject && a.get("objectType").str() == "Group" {
			return bad(p, "a Group's members must be Agents, not Groups")
		}
		if err := val.agent(a, p); err != nil {
			return err
		}
	}
	return nil
}

// ifis checks the inverse functional identifiers present and counts them.
func (val *validator) ifis(n *node, path *pth) (int, error) {
	count := 0
	if m := n.get("mbox"); m != nil {
		count++
		if err := val.str(m, val.k(path, "mbox")); err != nil {
			return 0, err
		}
		if !isMailto(m.s) {
			return 0, bad(val.k(path, "mbox"), "%q is not a mailto IRI (mailto:name@host)", m.s)
		}
	}
	if m := n.get("mbox_sha1sum"); m != nil {
		count++
		if err := val.str(m, val.k(path, "mbox_sha1sum")); err != nil {
			return 0, err
		}
		if !isHex(m.s, 40) {
			return 0, bad(val.k(path, "mbox_sha1sum"), "%q is not a hex SHA-1 (40 hex digits)", m.s)
		}
	}
	if o := n.get("openid"); o != nil {
		count++
		if err := val.iri(o, val.k(path, "openid")); err != nil {
			return 0, err
		}
	}
	if a := n.get("account"); a != nil {
		count++
		p := val.k(path, "account")
		if err := val.object(a, p, "homePage", "name"); err != nil {
			return 0, err
		}
		hp, nm := a.get("homePage"), a.get("name")
		if hp == nil || nm == nil {
			return 0, bad(p, "an account needs both homePage and name")
		}
		if err := val.iri(hp, val.k(p, "homePage")); err != nil {
			return 0, err
		}
		if err := val.str(nm, val.k(p, "name")); err != nil {
			return 0, err
		}
		// The name is part of the agent's key, which the databases keep as
		// text: PostgreSQL refuses NUL in text.
		if strings.ContainsRune(nm.str(), 0) {
			return 0, bad(val.k(p, "name"), "an account name holds a NUL character, which this LRS cannot keep")
		}
	}
	return count, nil
}

func (val *validator) authority(n *node, path *pth) error {
	if err := val.actor(n, path); err != nil {
		return err
	}
	if n.get("objectType").str() == "Group" {
		// A Group authority is the OAuth pair of application and user: an
		// anonymous Group of exactly two Agents.
		for _, k := range [...]string{"mbox", "mbox_sha1sum", "openid", "account"} {
			if n.get(k) != nil {
				return bad(val.k(path, k), "a Group authority must be anonymous (the OAuth application and user)")
			}
		}
		if m := n.get("member"); m == nil || len(m.vals) != 2 {
			return bad(path, "a Group authority must have exactly two members (the OAuth application and user)")
		}
	}
	return nil
}

func (val *validator) verb(n *node, path *pth) error {
	if err := val.object(n, path, "id", "display"); err != nil {
		return err
	}
	id := n.get("id")
	if id == nil {
		return bad(path, "a verb needs an id")
	}
	if err := val.iri(id, val.k(path, "id")); err != nil {
		return err
	}
	if d := n.get("display"); d != nil {
		if err := val.langMap(d, val.k(path, "display")); err != nil {
			return err
		}
	}
	return nil
}

// statementObject checks a statement's object and returns its objectType.
func (val *validator) statementObject(n *node, path *pth, sub bool) (string, error) {
	if n.kind != kObject {
		return "", bad(path, "must be an object, not %s", n.kind)
	}
	ot := "Activity"
	if t := n.get("objectType"); t != nil {
		if t.kind != kString {
			return "", bad(val.k(path, "objectType"), "must be a string, not %s", t.kind)
		}
		ot = t.s
	} else if n.kind == kObject {
		// The LRS names the default objectType, as the suite expects.
		defer func() {
			n.keys, n.vals = append([]string{"objectType"}, n.keys...), append([]*node{strNode("Activity")}, n.vals...)
		}()
	}
	switch ot {
	case "Activity":
		return ot, val.activity(n, path)
	case "Agent":
		return ot, val.agent(n, path)
	case "Group":
		return ot, val.group(n, path)
	case "StatementRef":
		return ot, val.statementRef(n, path)
	case "SubStatement":
		if sub {
			return "", bad(path, "a SubStatement must not contain another SubStatement")
		}
		if err := val.object(n, path, subStatementKeys...); err != nil {
			return "", err
		}
		return ot, val.statementBody(n, path, true)
	}
	return "", bad(val.k(path, "objectType"), "%q is not one of Activity, Agent, Group, StatementRef, SubStatement", ot)
}

func (val *validator) statementRef(n *node, path *pth) error {
	if err := val.object(n, path, "objectType", "id"); err != nil {
		return err
	}
	if n.get("objectType").str() != "StatementRef" {
		return bad(val.k(path, "objectType"), "must be \"StatementRef\"")
	}
	id := n.get("id")
	if id == nil {
		return bad(path, "a StatementRef needs an id")
	}
	return val.uuid(id, val.k(path, "id"))
}

func (val *validator) activity(n *node, path *pth) error {
	if err := val.object(n, path, "objectType", "id", "definition"); err != nil {
		return err
	}
	if ot := n.get("objectType"); ot != nil && ot.str() != "Activity" {
		return bad(val.k(path, "objectType"), "must be \"Activity\", not %s", describe(ot))
	}
	id := n.get("id")
	if id == nil {
		return bad(path, "an Activity needs an id")
	}
	if err := val.iri(id, val.k(path, "id")); err != nil {
		return err
	}
	if d := n.get("definition"); d != nil {
		return val.definition(d, val.k(path, "definition"))
	}
	return nil
}

var definitionKeys = []string{"name", "description", "type", "moreInfo", "extensions", "interactionType",
	"correctResponsesPattern", "choices", "scale", "source", "target", "steps"}

// componentLists says which interaction component lists each interaction
// type may have.
var componentLists = map[string][]string{
	"true-false":   nil,
	"choice":       {"choices"},
	"fill-in":      nil,
	"long-fill-in": nil,
	"matching":     {"source", "target"},
	"performance":  {"steps"},
	"sequencing":   {"choices"},
	"likert":       {"scale"},
	"numeric":      nil,
	"other":        nil,
}

func (val *validator) definition(n *node, path *pth) error {
	if err := val.object(n, path, definitionKeys...); err != nil {
		return err
	}
	for _, k := range [...]string{"name", "description"} {
		if m := n.get(k); m != nil {
			if err := val.langMap(m, val.k(path, k)); err != nil {
				return err
			}
		}
	}
	for _, k := range [...]string{"type", "moreInfo"} {
		if m := n.get(k); m != nil {
			if err := val.iri(m, val.k(path, k)); err != nil {
				return err
			}
		}
	}
	if e := n.get("extensions"); e != nil {
		if err := val.extensions(e, val.k(path, "extensions")); err != nil {
			return err
		}
	}
	it := n.get("interactionType")
	var lists []string
	if it != nil {
		if err := val.str(it, val.k(path, "interactionType")); err != nil {
			return err
		}
		var ok bool
		if lists, ok = componentLists[it.s]; !ok {
			return bad(val.k(path, "interactionType"), "%q is not an interaction type (true-false, choice, fill-in, long-fill-in, matching, performance, sequencing, likert, numeric, other)", it.s)
		}
	}
	if c := n.get("correctResponsesPattern"); c != nil {
		p := val.k(path, "correctResponsesPattern")
		if it == nil {
			return bad(p, "needs an interactionType")
		}
		if c.kind != kArray {
			return bad(p, "must be an array of strings, not %s", c.kind)
		}
		for i, s := range c.vals {
			if err := val.str(s, val.i(p, i)); err != nil {
				return err
			}
		}
	}
	for _, k := range [...]string{"choices", "scale", "source", "target", "steps"} {
		l := n.get(k)
		if l == nil {
			continue
		}
		p := val.k(path, k)
		if it == nil {
			return bad(p, "interaction components need an interactionType")
		}
		allowed := false
		for _, a := range lists {
			allowed = allowed || a == k
		}
		if !allowed {
			return bad(p, "an interaction of type %q has no %s", it.s, k)
		}
		if err := val.components(l, p); err != nil {
			return err
		}
	}
	return nil
}

func (val *validator) components(n *node, path *pth) error {
	if n.kind != kArray {
		return bad(path, "must be an array of interaction components, not %s", n.kind)
	}
	seen := make(map[string]bool, len(n.vals))
	for i, c := range n.vals {
		p := val.i(path, i)
		if err := val.object(c, p, "id", "description"); err != nil {
			return err
		}
		id := c.get("id")
		if id == nil {
			return bad(p, "an interaction component needs an id")
		}
		if err := val.str(id, val.k(p, "id")); err != nil {
			return err
		}
		if id.s == "" {
			return bad(val.k(p, "id"), "must not be empty")
		}
		if seen[id.s] {
			return bad(val.k(p, "id"), "%q is used by another component of the list", id.s)
		}
		seen[id.s] = true
		if d := c.get("description"); d != nil {
			if err := val.langMap(d, val.k(p, "description")); err != nil {
				return err
			}
		}
	}
	return nil
}

func (val *validator) result(n *node, path *pth) error {
	if err := val.object(n, path, "score", "success", "completion", "response", "duration", "extensions"); err != nil {
		return err
	}
	if s := n.get("score"); s != nil {
		if err := val.score(s, val.k(path, "score")); err != nil {
			return err
		}
	}
	for _, k := range [...]string{"success", "completion"} {
		if b := n.get(k); b != nil {
			if err := val.boolean(b, val.k(path, k)); err != nil {
				return err
			}
		}
	}
	if r := n.get("response"); r != nil {
		if err := val.str(r, val.k(path, "response")); err != nil {
			return err
		}
	}
	if d := n.get("duration"); d != nil {
		if err := val.str(d, val.k(path, "duration")); err != nil {
			return err
		}
		if !isDuration(d.s) {
			return bad(val.k(path, "duration"), "%q is not an ISO 8601 duration", d.s)
		}
	}
	if e := n.get("extensions"); e != nil {
		return val.extensions(e, val.k(path, "extensions"))
	}
	return nil
}

func (val *validator) score(n *node, path *pth) error {
	if err := val.object(n, path, "scaled", "raw", "min", "max"); err != nil {
		return err
	}
	var f [4]float64
	var has [4]bool
	for i, k := range [...]string{"scaled", "raw", "min", "max"} {
		if x := n.get(k); x != nil {
			v, err := val.number(x, val.k(path, k))
			if err != nil {
				return err
			}
			f[i], has[i] = v, true
		}
	}
	scaled, raw, mn, mx := f[0], f[1], f[2], f[3]
	switch {
	case has[0] && (scaled < -1 || scaled > 1):
		return bad(val.k(path, "scaled"), "%v is outside -1..1", scaled)
	case has[2] && has[3] && mn > mx:
		return bad(val.k(path, "min"), "%v is greater than max %v", mn, mx)
	case has[1] && has[2] && raw < mn:
		return bad(val.k(path, "raw"), "%v is less than min %v", raw, mn)
	case has[1] && has[3] && raw > mx:
		return bad(val.k(path, "raw"), "%v is greater than max %v", raw, mx)
	}
	return nil
}

var contextKeys103 = []string{"registration", "instructor", "team", "contextActivities", "revision", "platform",
	"language", "statement", "extensions"}
var contextKeys200 = append(append([]string(nil), contextKeys103...), "contextAgents", "contextGroups")

func (val *validator) context(n *node, path *pth, objType string) error {
	keys := contextKeys103
	if val.v == V200 {
		keys = contextKeys200
	}
	if err := val.object(n, path, keys...); err != nil {
		return err
	}
	if r := n.get("registration"); r != nil {
		if err := val.uuid(r, val.k(path, "registration")); err != nil {
			return err
		}
	}
	if i := n.get("instructor"); i != nil {
		if err := val.actor(i, val.k(path, "instructor")); err != nil {
			return err
		}
	}
	if t := n.get("team"); t != nil {
		if t.kind == kObject && t.get("objectType").str() != "Group" {
			return bad(val.k(path, "team"), "must be a Group (with objectType \"Group\")")
		}
		if err := val.actor(t, val.k(path, "team")); err != nil {
			return err
		}
	}
	if ca := n.get("contextActivities"); ca != nil {
		if err := val.contextActivities(ca, val.k(path, "contextActivities")); err != nil {
			return err
		}
	}
	for _, k := range [...]string{"revision", "platform"} {
		if x := n.get(k); x != nil {
			if err := val.str(x, val.k(path, k)); err != nil {
				return err
			}
			if objType != "Activity" {
				return bad(val.k(path, k), "is only allowed when the statement's object is an Activity")
			}
		}
	}
	if l := n.get("language"); l != nil {
		if err := val.str(l, val.k(path, "language")); err != nil {
			return err
		}
		if !isLanguageTag(l.s) {
			return bad(val.k(path, "language"), "%q is not a valid RFC 5646 language tag", l.s)
		}
	}
	if s := n.get("statement"); s != nil {
		if s.kind == kObject && s.get("objectType") == nil {
			return bad(val.k(path, "statement"), "a StatementRef needs objectType \"StatementRef\"")
		}
		if err := val.statementRef(s, val.k(path, "statement")); err != nil {
			return err
		}
	}
	if e := n.get("extensions"); e != nil {
		if err := val.extensions(e, val.k(path, "extensions")); err != nil {
			return err
		}
	}
	if ca := n.get("contextAgents"); ca != nil {
		if err := val.contextAgents(ca, val.k(path, "contextAgents"), "contextAgent", "agent"); err != nil {
			return err
		}
	}
	if cg := n.get("contextGroups"); cg != nil {
		if err := val.contextAgents(cg, val.k(path, "contextGroups"), "contextGroup", "group"); err != nil {
			return err
		}
	}
	return nil
}

// contextAgents checks 2.0's contextAgents (objectType "contextAgent", an
// Agent in "agent") and contextGroups (objectType "contextGroup", a Group in
// "group"), each with optional non-empty relevantTypes.
func (val *validator) contextAgents(n *node, path *pth, objectType, prop string) error {
	if n.kind != kArray {
		return bad(path, "must be an array, not %s", n.kind)
	}
	for i, c := range n.vals {
		p := val.i(path, i)
		if err := val.object(c, p, "objectType", prop, "relevantTypes"); err != nil {
			return err
		}
		if ot := c.get("objectType"); ot == nil || ot.str() != objectType {
			return bad(val.k(p, "objectType"), "must be %q", objectType)
		}
		who := c.get(prop)
		if who == nil {
			return bad(p, "the %q property is required", prop)
		}
		if prop == "agent" {
			if err := val.agent(who, val.k(p, "agent")); err != nil {
				return err
			}
		} else {
			if who.kind == kObject && who.get("objectType").str() != "Group" {
				return bad(val.k(p, "group"), "must be a Group (with objectType \"Group\")")
			}
			if err := val.group(who, val.k(p, "group")); err != nil {
				return err
			}
		}
		if rt := c.get("relevantTypes"); rt != nil {
			if rt.kind != kArray || len(rt.vals) == 0 {
				return bad(val.k(p, "relevantTypes"), "must be a non-empty array of IRIs")
			}
			for j, t := range rt.vals {
				if err := val.iri(t, val.i(val.k(p, "relevantTypes"), j)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// contextActivities checks the four lists and turns a single Activity into an
// array of one, as the LRS must return them.
func (val *validator) contextActivities(n *node, path *pth) error {
	if err := val.object(n, path, "parent", "grouping", "category", "other"); err != nil {
		return err
	}
	if len(n.keys) == 0 {
		return bad(path, "needs at least one of parent, grouping, category and other")
	}
	for i, k := range n.keys {
		p := val.k(path, k)
		l := n.vals[i]
		if l.kind == kObject {
			l = &node{kind: kArray, vals: []*node{l}}
			n.vals[i] = l
		}
		if l.kind != kArray {
			return bad(p, "must be an Activity or an array of Activities, not %s", l.kind)
		}
		for j, a := range l.vals {
			if err := val.activity(a, val.i(p, j)); err != nil {
				return err
			}
		}
	}
	return nil
}

func (val *validator) attachment(n *node, path *pth) error {
	if err := val.object(n, path, "usageType", "display", "description", "contentType", "length", "sha2", "fileUrl"); err != nil {
		return err
	}
	for _, req := range [...]string{"usageType", "display", "contentType", "length", "sha2"} {
		if n.get(req) == nil {
			return bad(path, "an attachment needs %q", req)
		}
	}
	if err := val.iri(n.get("usageType"), val.k(path, "usageType")); err != nil {
		return err
	}
	if err := val.langMap(n.get("display"), val.k(path, "display")); err != nil {
		return err
	}
	if d := n.get("description"); d != nil {
		if err := val.langMap(d, val.k(path, "description")); err != nil {
			return err
		}
	}
	ct := n.get("contentType")
	if err := val.str(ct, val.k(path, "contentType")); err != nil {
		return err
	}
	if !isMediaType(ct.s) {
		return bad(val.k(path, "contentType"), "%q is not an Internet media type", ct.s)
	}
	l := n.get("length")
	f, err := val.number(l, val.k(path, "length"))
	if err != nil {
		return err
	}
	if f < 0 || f != float64(int64(f)) {
		return bad(val.k(path, "length"), "%s is not a whole number of octets", l.s)
	}
	sha := n.get("sha2")
	if err := val.str(sha, val.k(path, "sha2")); err != nil {
		return err
	}
	if !isHex(sha.s, 56) && !isHex(sha.s, 64) && !isHex(sha.s, 96) && !isHex(sha.s, 128) {
		return bad(val.k(path, "sha2"), "%q is not a hex SHA-2 hash", sha.s)
	}
	if u := n.get("fileUrl"); u != nil {
		if err := val.iri(u, val.k(path, "fileUrl")); err != nil {
			return err
		}
	}
	return nil
}

// Lexical rules.

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := range len(s) {
		if !isHexDigit(s[i]) {
			return false
		}
	}
	return true
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := range 36 {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return false
			}
		default:
			if !isHexDigit(s[i]) {
				return false
			}
		}
	}
	return true
}

// isIRI accepts an absolute IRI: a scheme, a colon and something after it,
// no white space or characters RFC 3987 never allows.
func isIRI(s string) bool {
	c := strings.IndexByte(s, ':')
	if c < 1 || c == len(s)-1 {
		return false
	}
	if !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < c; i++ {
		ch := s[i]
		if !isAlpha(ch) && (ch < '0' || ch > '9') && ch != '+' && ch != '-' && ch != '.' {
			return false
		}
	}
	for i := c + 1; i < len(s); i++ {
		switch ch := s[i]; {
		case ch <= ' ', ch == '"', ch == '<', ch == '>', ch == '\\', ch == '^', ch == '`', ch == '{', ch == '|', ch == '}', ch == 0x7f:
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isMailto(s string) bool {
	if !strings.HasPrefix(s, "mailto:") {
		return false
	}
	addr := s[len("mailto:"):]
	at := strings.LastIndexByte(addr, '@')
	if at < 1 || at == len(addr)-1 {
		return false
	}
	for i := range len(addr) {
		if addr[i] <= ' ' || addr[i] == '<' || addr[i] == '>' || addr[i] == '"' || addr[i] == 0x7f {
			return false
		}
	}
	return true
}

// isMediaType accepts type/subtype with optional parameters (RFC 2045
// tokens, loosely).
func isMediaType(s string) bool {
	main, _, _ := strings.Cut(s, ";")
	main = strings.TrimSpace(main)
	t, sub, ok := strings.Cut(main, "/")
	return ok && isToken(t) && isToken(sub)
}

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("()<>@,;:\\\"/[]?=", c) >= 0 {
			return false
		}
	}
	return true
}

// isDuration accepts ISO 8601 durations: PnYnMnDTnHnMnS (each part optional,
// at least one present, a fraction only on the last) or PnW.
func isDuration(s string) bool {
	if len(s) < 3 || s[0] != 'P' {
		return false
	}
	rest := s[1:]
	if strings.HasSuffix(rest, "W") {
		return isNumber(rest[:len(rest)-1])
	}
	date, tm, hasT := strings.Cut(rest, "T")
	if hasT && tm == "" {
		return false
	}
	parts := 0
	lastFraction := false
	scan := func(seg, designators string) bool {
		for seg != "" {
			i := 0
			for i < len(seg) && (seg[i] >= '0' && seg[i] <= '9' || seg[i] == '.' || seg[i] == ',') {
				i++
			}
			if i == 0 || i == len(seg) || lastFraction {
				return false
			}
			num, d := seg[:i], seg[i]
			k := strings.IndexByte(designators, d)
			if k < 0 || !isNumber(num) {
				return false
			}
			lastFraction = strings.ContainsAny(num, ".,")
			designators = designators[k+1:]
			seg = seg[i+1:]
			parts++
		}
		return true
	}
	if !scan(date, "YMD") || !scan(tm, "HMS") {
		return false
	}
	return parts > 0
}

func isNumber(s string) bool {
	intPart, frac, hasFrac := strings.Cut(strings.ReplaceAll(s, ",", "."), ".")
	return isDigits(intPart) && (!hasFrac || isDigits(frac))
}

// parseTimestamp reads an ISO 8601 / RFC 3339 date-time with a time zone
// ("T", "t" or a space between date and time), extended or basic format. The offset -00:00 (RFC 3339's
// "unknown local offset") is refused, as ISO 8601 forbids it.
func parseTimestamp(s string) (time.Time, error) {
	// ISO 8601 basic format (20080915T155300.601Z): rewrite it extended.
	if len(s) >= 16 && isDigits(s[:8]) && (s[8] == 'T' || s[8] == 't' || s[8] == ' ') && isDigits(s[9:15]) {
		s = s[0:4] + "-" + s[4:6] + "-" + s[6:8] + "T" + s[9:11] + ":" + s[11:13] + ":" + s[13:15] + s[15:]
	}
	if len(s) < 20 {
		return time.Time{}, errSyntaxTS
	}
	b := []byte(s)
	if b[10] == 't' || b[10] == ' ' {
		b[10] = 'T'
	}
	n := len(b)
	switch b[n-1] {
	case 'Z', 'z':
		b[n-1] = 'Z'
	default:
		// Offsets: +hh:mm, +hhmm or +hh.
		var off string
		switch {
		case n > 6 && (b[n-6] == '+' || b[n-6] == '-') && b[n-3] == ':':
			off = string(b[n-6:])
		case n > 5 && (b[n-5] == '+' || b[n-5] == '-') && b[n-3] != ':':
			off = string(b[n-5:n-2]) + ":" + string(b[n-2:])
			b = append(b[:n-5:n-5], off...)
		case n > 3 && (b[n-3] == '+' || b[n-3] == '-'):
			off = string(b[n-3:]) + ":00"
			b = append(b[:n-3:n-3], off...)
		default:
			return time.Time{}, errNoZone
		}
		if off == "-00:00" {
			return time.Time{}, errNegZero
		}
	}
	t, err := time.Parse(time.RFC3339Nano, string(b))
	if err != nil {
		return time.Time{}, errSyntaxTS
	}
	return t, nil
}

type tsError string

func (e tsError) Error() string { return string(e) }

const (
	errSyntaxTS tsError = "not of the form 2006-01-02T15:04:05.000Z"
	errNoZone   tsError = "no time zone (Z or an offset such as +01:00)"
	errNegZero  tsError = "the offset -00:00 is not allowed; use Z or +00:00"
)
