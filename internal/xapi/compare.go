package xapi

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Equivalent implements the specification's Statement Comparison
// Requirements: a and b are the same statement when they differ only where
// the exceptions to statement immutability allow. Ignored: authority, stored,
// version and attachments (set or kept apart by the LRS); id and timestamp
// when only one side has them (the LRS fills them in); activity definitions
// and verb display (not part of the statement); the serialisation of
// timestamps (compared as instants); the order of a Group's members (an
// unordered list); the case of case-insensitive values (UUIDs, an mbox's
// domain, an mbox_sha1sum's hex); a single context activity against an array
// of it (the LRS's normalisation); property order and number spelling. Not
// ignored: everything else, result duration included (a string here).
func Equivalent(a, b json.RawMessage) bool {
	na, err := parseJSON(a)
	if err != nil || na.kind != kObject {
		return false
	}
	nb, err := parseJSON(b)
	if err != nil || nb.kind != kObject {
		return false
	}
	for _, k := range [...]string{"authority", "stored", "version", "attachments"} {
		na.del(k)
		nb.del(k)
	}
	for _, k := range [...]string{"id", "timestamp"} {
		if na.get(k) == nil || nb.get(k) == nil {
			na.del(k)
			nb.del(k)
		}
	}
	normalize(na, "")
	normalize(nb, "")
	return string(canonicalJSON(nil, na)) == string(canonicalJSON(nil, nb))
}

// normalize rewrites n in place into its comparison form; key is the
// property n is the value of.
func normalize(n *node, key string) {
	switch n.kind {
	case kString:
		switch key {
		case "mbox":
			n.s = normalizeMbox(n.s)
		case "mbox_sha1sum", "registration", "id":
			if key != "id" || isUUID(n.s) {
				n.s = strings.ToLower(n.s)
			}
		case "timestamp":
			if t, err := parseTimestamp(n.s); err == nil {
				n.s = t.UTC().Format(time.RFC3339Nano)
			}
		}
	case kNumber:
		if f, err := strconv.ParseFloat(n.s, 64); err == nil {
			n.s = strconv.FormatFloat(f, 'g', -1, 64)
		}
	case kArray:
		for _, v := range n.vals {
			normalize(v, "")
		}
	case kObject:
		switch key {
		case "object":
			if n.get("objectType") == nil {
				n.set("objectType", strNode("Activity"))
			}
		case "verb":
			n.del("display")
		case "contextActivities":
			for i, v := range n.vals {
				if v.kind == kObject {
					n.vals[i] = &node{kind: kArray, vals: []*node{v}}
				}
			}
		}
		if ot := n.get("objectType").str(); (ot == "" || ot == "Activity") && n.get("id") != nil && key != "verb" {
			n.del("definition")
		}
		for i, k := range n.keys {
			if k != "extensions" {
				normalize(n.vals[i], k)
			}
		}
		if m := n.get("member"); m != nil && m.kind == kArray {
			slices.SortFunc(m.vals, func(x, y *node) int {
				return strings.Compare(string(canonicalJSON(nil, x)), string(canonicalJSON(nil, y)))
			})
		}
	}
}

// canonicalJSON writes n with object keys sorted.
func canonicalJSON(b []byte, n *node) []byte {
	switch n.kind {
	case kArray:
		b = append(b, '[')
		for i, v := range n.vals {
			if i > 0 {
				b = append(b, ',')
			}
			b = canonicalJSON(b, v)
		}
		return append(b, ']')
	case kObject:
		idx := make([]int, len(n.keys))
		for i := range idx {
			idx[i] = i
		}
		slices.SortFunc(idx, func(x, y int) int { return strings.Compare(n.keys[x], n.keys[y]) })
		b = append(b, '{')
		for j, i := range idx {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendString(b, n.keys[i])
			b = append(b, ':')
			b = canonicalJSON(b, n.vals[i])
		}
		return append(b, '}')
	}
	return appendJSON(b, n)
}
