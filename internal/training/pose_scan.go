package training

import (
	"slices"
	"strconv"
)

// poseFields is a rotation's or position's JSON object as scanPose read it.
type poseFields struct {
	v       [4]float64 // x, y, z, w
	has     [4]bool
	form    string
	hasForm bool
}

// poseKeys are the number fields scanPose knows, in poseFields.v's order.
var poseKeys = [4]string{"x", "y", "z", "w"}

// scanPose reads a flat JSON object of the number fields x, y, z and w and
// the string field form, without encoding/json's maps and reflection: it
// is on the path of every periodic PATCH and every session read, where
// numberFields took an eighth of the server's time. Whatever else it meets
// (another key, a key twice, another kind of value, an escape in form, a
// number out of range) it leaves to numberFields, which says what is wrong.
func scanPose(b []byte) (p poseFields, ok bool) {
	ok = true
	err := eachMember(b, func(key string, v []byte) {
		switch k := slices.Index(poseKeys[:], key); {
		case !ok:
		case key == "form":
			form, end, plain := scanPlainString(v, 0)
			ok = plain && end == len(v) && !p.hasForm
			p.form, p.hasForm = form, true
		case k < 0 || p.has[k] || scanNumber(v, 0) != len(v):
			ok = false
		default:
			f, err := strconv.ParseFloat(string(v), 64)
			ok = err == nil
			p.v[k], p.has[k] = f, true
		}
	})
	return p, ok && err == nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanPlainString reads a JSON string at b[i] of printable ASCII without
// escapes, and returns it and the index after it.
func scanPlainString(b []byte, i int) (string, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return "", i, false
	}
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return string(b[i+1 : j]), j + 1, true
		case c == '\\' || c < 0x20 || c >= 0x80:
			return "", i, false
		}
	}
	return "", i, false
}

// scanNumber returns the end of the JSON number at b[i], or i when there
// is none: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func scanNumber(b []byte, i int) int {
	start := i
	digits := func(j int) int {
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		return j
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(i)
	default:
		return start
	}
	if i < len(b) && b[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return start
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		j := i + 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		k := digits(j)
		if k == j {
			return start
		}
		i = k
	}
	return i
}
