package training

import (
	"bytes"
	"encoding/json"
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

// appendString appends s as a JSON string, as encoding/json writes it.
func appendString(dst []byte, s string) []byte {
	for i := range len(s) {
		if c := s[i]; c < ' ' || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= utf8.RuneSelf {
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
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return false
	}
	inner := v[1 : len(v)-1]
	for _, c := range inner {
		if c < ' ' || c == '\\' || c == '"' || c >= utf8.RuneSelf {
			return json.Unmarshal(v, dst) == nil
		}
	}
	*dst = string(inner)
	return true
}

// timeField encodes t as JSON, as encoding/json writes a time.Time.
func timeField(key string, t time.Time) (field, error) {
	b, err := t.MarshalJSON()
	return field{key: key, value: b}, err
}
