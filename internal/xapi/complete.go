package xapi

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"journeyman/internal/apperr"
)

// storedLayout is how the LRS writes stored (and a missing timestamp): UTC,
// milliseconds, as the suite compares them.
const storedLayout = "2006-01-02T15:04:05.000Z07:00"

// Complete makes the statement the LRS stores: id (NewUUID when absent),
// stored, timestamp (= stored when absent), authority (always the given one,
// naming the credential), version (the request's version when absent), and
// the index fields of Statement. The client's timestamp is kept as written.
func (in Incoming) Complete(stored time.Time, authority json.RawMessage, v Version) (Statement, error) {
	if in.root == nil {
		return Statement{}, apperr.Invalid("no statement to complete")
	}
	// A shallow copy: only top-level properties change, so Complete can run
	// twice on one Incoming (a retried transaction) and give the same answer.
	root := &node{kind: kObject, keys: append([]string(nil), in.root.keys...), vals: append([]*node(nil), in.root.vals...)}
	// The body keeps the client's spelling of its id; ID, the store's key,
	// is lower case, as UUIDs compare without regard to case.
	id := in.id
	if id == "" {
		id = NewUUID()
	}
	if root.get("id") == nil {
		root.set("id", strNode(id))
	}
	storedStr := stored.UTC().Format(storedLayout)
	if root.get("timestamp") == nil {
		root.set("timestamp", strNode(storedStr))
	}
	root.set("stored", strNode(storedStr))
	if len(authority) > 0 {
		a, err := parseJSON(authority)
		if err != nil {
			return Statement{}, apperr.Invalid("authority: %v", err)
		}
		root.set("authority", a)
	}
	if root.get("version") == nil {
		if v == V200 {
			root.set("version", strNode("2.0.0"))
		} else {
			root.set("version", strNode("1.0.0"))
		}
	}
	st := Statement{
		ID:     id,
		Stored: stored,
		VerbID: root.get("verb").get("id").str(),
	}
	ix := indexer{st: &st}
	if ctx := root.get("context"); ctx != nil {
		st.Registration = strings.ToLower(ctx.get("registration").str())
	}
	obj := root.get("object")
	if obj.get("objectType").str() == "StatementRef" {
		st.TargetID = strings.ToLower(obj.get("id").str())
		if st.VerbID == VoidedVerb {
			st.Voids = st.TargetID
		}
	}
	ix.actor(root.get("actor"), true)
	ix.object(obj, true)
	ix.context(root.get("context"))
	if a := root.get("authority"); a != nil {
		ix.actor(a, false)
	}
	if at := root.get("attachments"); at != nil {
		for _, a := range at.vals {
			l, _ := strconv.ParseFloat(a.get("length").s, 64)
			st.Attachments = append(st.Attachments, Attachment{
				UsageType:   a.get("usageType").str(),
				ContentType: a.get("contentType").str(),
				Length:      int64(l),
				SHA2:        strings.ToLower(a.get("sha2").str()),
				FileURL:     a.get("fileUrl").str(),
			})
		}
	}
	st.Body = appendJSON(make([]byte, 0, in.size+len(authority)+128), root)
	return st, nil
}

type indexer struct {
	st *Statement
}

func addRef(refs []Ref, key string, direct bool) []Ref {
	for i := range refs {
		if refs[i].Key == key {
			refs[i].Direct = refs[i].Direct || direct
			return refs
		}
	}
	return append(refs, Ref{Key: key, Direct: direct})
}

// actor indexes an Agent or Group; a Group's members count as related.
func (ix indexer) actor(n *node, direct bool) {
	if n == nil {
		return
	}
	if k, err := agentKey(n); err == nil {
		ix.st.Agents = addRef(ix.st.Agents, k, direct)
	}
	if m := n.get("member"); m != nil {
		for _, a := range m.vals {
			ix.actor(a, false)
		}
	}
}

func (ix indexer) activity(n *node, direct bool) {
	id := n.get("id").str()
	if id == "" {
		return
	}
	ix.st.Activities = addRef(ix.st.Activities, id, direct)
	if d := n.get("definition"); d != nil {
		if ix.st.ActivityDefs == nil {
			ix.st.ActivityDefs = map[string]json.RawMessage{}
		}
		ix.st.ActivityDefs[id] = d.json()
	}
}

func (ix indexer) object(n *node, direct bool) {
	switch n.get("objectType").str() {
	case "", "Activity":
		ix.activity(n, direct)
	case "Agent", "Group":
		ix.actor(n, direct)
	case "SubStatement":
		ix.actor(n.get("actor"), false)
		ix.object(n.get("object"), false)
		ix.context(n.get("context"))
	}
}

func (ix indexer) context(n *node) {
	if n == nil {
		return
	}
	ix.actor(n.get("instructor"), false)
	ix.actor(n.get("team"), false)
	if ca := n.get("contextActivities"); ca != nil {
		for _, l := range ca.vals {
			for _, a := range l.vals {
				ix.activity(a, false)
			}
		}
	}
	if l := n.get("contextAgents"); l != nil {
		for _, c := range l.vals {
			ix.actor(c.get("agent"), false)
		}
	}
	if l := n.get("contextGroups"); l != nil {
		for _, c := range l.vals {
			ix.actor(c.get("group"), false)
		}
	}
}

// AgentKey gives one stable string for an Agent or identified Group's IFI
// ("mbox:mailto:a@b.c", "mbox_sha1sum:<hex>", "openid:<iri>",
// "account:<homePage>|<name>"); an anonymous group has none.
func AgentKey(agent json.RawMessage) (string, error) {
	n, err := parseJSON(agent)
	if err != nil {
		return "", apperr.Invalid("agent: %v", err)
	}
	return agentKey(n)
}

func agentKey(n *node) (string, error) {
	if n == nil || n.kind != kObject {
		return "", apperr.Invalid("agent: must be an object")
	}
	if m := n.get("mbox").str(); m != "" {
		return "mbox:" + normalizeMbox(m), nil
	}
	if s := n.get("mbox_sha1sum").str(); s != "" {
		return "mbox_sha1sum:" + strings.ToLower(s), nil
	}
	if o := n.get("openid").str(); o != "" {
		return "openid:" + o, nil
	}
	if a := n.get("account"); a != nil {
		return "account:" + a.get("homePage").str() + "|" + a.get("name").str(), nil
	}
	return "", apperr.Invalid("agent: has no inverse functional identifier (mbox, mbox_sha1sum, openid or account)")
}

// normalizeMbox lower-cases the domain of a mailto IRI, the part the
// specification names as case-insensitive.
func normalizeMbox(m string) string {
	at := strings.LastIndexByte(m, '@')
	if at < 0 {
		return m
	}
	return m[:at] + strings.ToLower(m[at:])
}

// ParseAgentParam validates the JSON of an `agent` query or form parameter
// (an Agent or identified Group, per version v) and returns its AgentKey.
func ParseAgentParam(s string, v Version) (string, error) {
	n, err := parseJSON([]byte(s))
	if err != nil {
		return "", apperr.Invalid("agent: not valid JSON: %v", err)
	}
	val := validator{v: v}
	if err := val.actor(n, &pth{key: "agent"}); err != nil {
		return "", err
	}
	return agentKey(n)
}

// Person builds the Agents Resource answer for an agent parameter: a Person
// object whose name, mbox, mbox_sha1sum, openid and account are arrays (we
// know of no other agents of the same person).
func Person(agent json.RawMessage) (json.RawMessage, error) {
	n, err := parseJSON(agent)
	if err != nil {
		return nil, apperr.Invalid("agent: not valid JSON: %v", err)
	}
	if _, err := agentKey(n); err != nil {
		return nil, err
	}
	p := &node{kind: kObject}
	p.set("objectType", strNode("Person"))
	for _, k := range [...]string{"name", "mbox", "mbox_sha1sum", "openid", "account"} {
		if x := n.get(k); x != nil {
			p.set(k, &node{kind: kArray, vals: []*node{x}})
		}
	}
	return p.json(), nil
}
