package xapi

import (
	"encoding/json"
	"strings"

	"journeyman/internal/apperr"
)

// Format renders a stored statement (or any JSON holding statements, such as
// a StatementResult's list) for GET: "exact" as stored; "ids" with agents and
// identified groups reduced to objectType and IFI, anonymous groups to their
// reduced members, activities and verbs to their id; "canonical"
// with each language map reduced to the one language that best matches
// acceptLanguage (in order of preference, "*" for any).
func Format(body json.RawMessage, format string, acceptLanguage []string) (json.RawMessage, error) {
	switch format {
	case "", "exact":
		return body, nil
	case "ids", "canonical":
	default:
		return nil, apperr.Invalid("format: %q is not one of exact, ids, canonical", format)
	}
	n, err := parseJSON(body)
	if err != nil {
		return nil, apperr.Invalid("format: the statement is not JSON: %v", err)
	}
	if format == "ids" {
		n = idsValue(n)
	} else {
		canonicalLanguages(n, "", prefs(acceptLanguage))
	}
	return n.json(), nil
}

// idsValue reduces a statement, or an array of them.
func idsValue(n *node) *node {
	if n.kind == kArray {
		for i, v := range n.vals {
			n.vals[i] = idsValue(v)
		}
		return n
	}
	if n.kind == kObject {
		idsStatement(n)
	}
	return n
}

func idsStatement(n *node) {
	for i, k := range n.keys {
		v := n.vals[i]
		switch k {
		case "actor", "authority":
			n.vals[i] = idsAgent(v)
		case "verb":
			n.vals[i] = &node{kind: kObject, keys: []string{"id"}, vals: []*node{orNull(v.get("id"))}}
		case "object":
			n.vals[i] = idsObject(v)
		case "context":
			idsContext(v)
		}
	}
}

func idsObject(n *node) *node {
	switch n.get("objectType").str() {
	case "", "Activity":
		return idsActivity(n)
	case "Agent", "Group":
		return idsAgent(n)
	case "SubStatement":
		idsStatement(n)
	}
	return n
}

// idsActivity keeps only the id: the conformance suite counts the keys of
// an ids-format Activity and wants exactly one.
func idsActivity(n *node) *node {
	return &node{kind: kObject, keys: []string{"id"}, vals: []*node{orNull(n.get("id"))}}
}

// orNull keeps Format total on bodies that are not what Decode makes.
func orNull(n *node) *node {
	if n == nil {
		return &node{kind: kNull}
	}
	return n
}

func idsAgent(n *node) *node {
	if n == nil || n.kind != kObject {
		return n
	}
	ot := n.get("objectType")
	out := &node{kind: kObject}
	if ot != nil {
		out.set("objectType", ot)
	} else {
		out.set("objectType", strNode("Agent"))
	}
	for _, k := range [...]string{"mbox", "mbox_sha1sum", "openid", "account"} {
		if x := n.get(k); x != nil {
			out.set(k, x)
			return out
		}
	}
	if m := n.get("member"); m != nil {
		members := &node{kind: kArray, vals: make([]*node, len(m.vals))}
		for i, a := range m.vals {
			members.vals[i] = idsAgent(a)
		}
		out.set("member", members)
	}
	return out
}

func idsContext(n *node) {
	for i, k := range n.keys {
		v := n.vals[i]
		switch k {
		case "instructor", "team":
			n.vals[i] = idsAgent(v)
		case "contextActivities":
			for k, l := range v.vals {
				if l.kind == kObject {
					v.vals[k] = idsActivity(l)
					continue
				}
				for j, a := range l.vals {
					l.vals[j] = idsActivity(a)
				}
			}
		case "contextAgents", "contextGroups":
			for _, c := range v.vals {
				for j, ck := range c.keys {
					if ck == "agent" || ck == "group" {
						c.vals[j] = idsAgent(c.vals[j])
					}
				}
			}
		}
	}
}

// prefs turns Accept-Language entries into tags, dropping quality values.
func prefs(accept []string) []string {
	out := make([]string, 0, len(accept))
	for _, a := range accept {
		for part := range strings.SplitSeq(a, ",") {
			tag, _, _ := strings.Cut(part, ";")
			if tag = strings.TrimSpace(tag); tag != "" {
				out = append(out, tag)
			}
		}
	}
	return out
}

// canonicalLanguages reduces every language map of verbs and activities
// (verb display, activity name and description, interaction component
// descriptions) below n; extensions and attachments are left alone.
func canonicalLanguages(n *node, key string, accept []string) {
	switch n.kind {
	case kArray:
		for _, v := range n.vals {
			canonicalLanguages(v, "", accept)
		}
	case kObject:
		if key == "display" || key == "name" || key == "description" {
			if len(n.keys) > 1 {
				i := bestLanguage(n.keys, accept)
				n.keys = []string{n.keys[i]}
				n.vals = []*node{n.vals[i]}
			}
			return
		}
		for i, k := range n.keys {
			// Attachments are the client's files, not activities or verbs,
			// which are all the canonical format speaks of.
			if k != "extensions" && k != "attachments" {
				canonicalLanguages(n.vals[i], k, accept)
			}
		}
	}
}

// bestLanguage picks the index of the language that best matches the
// preferences: an exact tag, then the same primary language; failing those
// "und", then English (the language most xAPI vocabularies are written in),
// then the first the client gave.
func bestLanguage(tags []string, accept []string) int {
	for _, want := range accept {
		if want == "*" {
			return 0
		}
		for i, t := range tags {
			if strings.EqualFold(t, want) {
				return i
			}
		}
		primary, _, _ := strings.Cut(want, "-")
		for i, t := range tags {
			tp, _, _ := strings.Cut(t, "-")
			if strings.EqualFold(tp, primary) {
				return i
			}
		}
	}
	for _, fallback := range [...]string{"und", "en-US", "en"} {
		for i, t := range tags {
			if strings.EqualFold(t, fallback) {
				return i
			}
		}
	}
	for i, t := range tags {
		if p, _, _ := strings.Cut(t, "-"); strings.EqualFold(p, "en") {
			return i
		}
	}
	return 0
}
