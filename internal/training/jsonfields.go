package training

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// An interaction is decoded and encoded on every periodic PATCH, where
// encoding/json's maps and reflection were a tenth of the server's time.
// These write the same bytes encoding/json writes for a map of the same
// fields: keys in byte order, values compact, <, > and & escaped.

// field is one member of a JSON object: its key and its value as JSON.
type field struct {
	key   string
	value []byte
	sent  bool // the client's bytes, which may need compacting and escaping
}

// encodeObject writes fields as one JSON object. A key given twice keeps
// its last value, as a map would.
func encodeObject(fields []field) ([]byte, error) {
	slices.SortStableFunc(fields, func(a, b field) int { return strings.Compare(a.key, b.key) })
	size := 2
	for _, f := range fields {
		size += len(f.key) + len(f.value) + 4
	}
	out := make([]byte, 0, size)
	out = append(out, '{')
	for i, f := range fields {
		if i+1 < len(fields) && fields[i+1].key == f.key {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = appendString(out, f.key)
		out = append(out, ':')
		switch {
		case len(f.value) == 0:
			out = append(out, "null"...)
		case f.sent:
			var err error
			if out, err = appendCompact(out, f.value); err != nil {
				return nil, err
			}
		default:
			out = append(out, f.value...)
		}
	}
	return append(out, '}'), nil
}

// appendCompact appends the JSON value v without insignificant space and
// with <, > and & escaped, as encoding/json writes a json.RawMessage. It
// fails if v is not JSON.
func appendCompact(dst, v []byte) ([]byte, error) {
	if plainJSON(v) && json.Valid(v) {
		return append(dst, v...), nil
	}
	// Compact says what is wrong with v if it is not JSON.
	var compact, escaped bytes.Buffer
	if err := json.Compact(&compact, v); err != nil {
		return nil, err
	}
	json.HTMLEscape(&escaped, compact.Bytes())
	return append(dst, escaped.Bytes()...), nil
}

// plainJSON reports whether v holds no space, <, > or & and no byte of a
// multi-byte character: nothing compacting or escaping would change.
func plainJSON(v []byte) bool {
	for _, c := range v {
		if c <= ' ' || c == '<' || c == '>' || c == '&' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// plainByte says which bytes encoding/json writes in a string as they are:
// printable ASCII but for ", \, <, > and &.
var plainByte = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendString appends s as a JSON string, as encoding/json writes it.
func appendString(dst []byte, s string) []byte {
	for i := range len(s) {
		if !plainByte[s[i]] {
			b, _ := json.Marshal(s) // a string always encodes
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// decodeString decodes the JSON value v into *dst if it is a string.
func decodeString(v []byte, dst *string) bool {
	s, ok := unquote(v)
	if ok {
		*dst = s
	}
	return ok
}

// unquote decodes the JSON value v if it is a string.
func unquote(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	inner := v[1 : len(v)-1]
	for _, c := range inner {
		if c < ' ' || c == '\\' || c == '"' || c >= utf8.RuneSelf {
			var s string // only here: its address escapes into encoding/json
			err := json.Unmarshal(v, &s)
			return s, err == nil
		}
	}
	return string(inner), true
}

// timeField encodes t as JSON, as encoding/json writes a time.Time.
func timeField(key string, t time.Time) (field, error) {
	b, err := t.MarshalJSON()
	return field{key: key, value: b}, err
}

// eachMember calls fn with the key and the value of each member of the JSON
// object b, in order: what json.Unmarshal into a map[string]json.RawMessage
// reads, without the map, the copies and a second pass over b to check it.
// b must be valid JSON, as encoding/json gives every UnmarshalJSON; it
// fails on what it notices is not (fn's values are b's own bytes).
func eachMember(b []byte, fn func(key string, value []byte)) error {
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return errNotObject
	}
	if i = skipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return trailing(b, i+1)
	}
	for {
		if i == len(b) || b[i] != '"' {
			return errNotObject
		}
		end := stringEnd(b, i)
		if end < 0 {
			return errNotObject
		}
		key, ok := unquote(b[i:end])
		if !ok {
			return errNotObject
		}
		if i = skipSpace(b, end); i == len(b) || b[i] != ':' {
			return errNotObject
		}
		i = skipSpace(b, i+1)
		if end = valueEnd(b, i); end < 0 {
			return errNotObject
		}
		fn(key, b[i:end])
		i = skipSpace(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			return trailing(b, i+1)
		default:
			return errNotObject
		}
	}
}

var errNotObject = errors.New("malformed JSON object")

// trailing fails if b holds more than space from i.
func trailing(b []byte, i int) error {
	if skipSpace(b, i) != len(b) {
		return errNotObject
	}
	return nil
}

// stringEnd returns the index after the JSON string starting at b[i], or
// -1 if it does not end.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// valueEnd returns the index after the JSON value starting at b[i], or -1
// if it does not end.
func valueEnd(b []byte, i int) int {
	if i == len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				if j = stringEnd(b, j); j < 0 {
					return -1
				}
				j-- // the loop steps past the closing quote
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default: // a number, true, false or null
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}
