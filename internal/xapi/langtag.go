package xapi

import "strings"

// isLanguageTag reports whether s is a well-formed RFC 5646 language tag
// (the grammar, not the registry: a tag with an unregistered but well-formed
// subtag passes, as the specification only asks for RFC 5646 tags).
func isLanguageTag(s string) bool {
	if s == "" || len(s) > 255 {
		return false
	}
	if irregular[strings.ToLower(s)] {
		return true
	}
	var buf [16]string
	sub := buf[:0]
	for part := range strings.SplitSeq(s, "-") {
		sub = append(sub, part)
	}
	for _, p := range sub {
		if p == "" || len(p) > 8 || !isAlnum(p) {
			return false
		}
	}
	if strings.EqualFold(sub[0], "x") {
		return privateUse(sub[1:])
	}
	// language: 2-3 letters (+ up to three extlangs), 4 letters, or 5-8 letters
	lang := sub[0]
	if !isAlphaStr(lang) || len(lang) < 2 {
		return false
	}
	i := 1
	if len(lang) <= 3 {
		for n := 0; n < 3 && i < len(sub) && len(sub[i]) == 3 && isAlphaStr(sub[i]); n++ {
			i++
		}
	}
	if i < len(sub) && len(sub[i]) == 4 && isAlphaStr(sub[i]) { // script
		i++
	}
	if i < len(sub) && (len(sub[i]) == 2 && isAlphaStr(sub[i]) || len(sub[i]) == 3 && isDigits(sub[i])) { // region
		i++
	}
	firstVariant := i
	for i < len(sub) && (len(sub[i]) >= 5 || len(sub[i]) == 4 && sub[i][0] >= '0' && sub[i][0] <= '9') {
		for _, v := range sub[firstVariant:i] {
			if strings.EqualFold(v, sub[i]) {
				return false
			}
		}
		i++
	}
	var seenExt [36]bool
	for i < len(sub) && len(sub[i]) == 1 && !strings.EqualFold(sub[i], "x") {
		c := sub[i][0] | 0x20
		idx := int(c - 'a')
		if c <= '9' {
			idx = 26 + int(sub[i][0]-'0')
		}
		if seenExt[idx] {
			return false
		}
		seenExt[idx] = true
		i++
		n := 0
		for i < len(sub) && len(sub[i]) >= 2 {
			i++
			n++
		}
		if n == 0 {
			return false
		}
	}
	if i < len(sub) && strings.EqualFold(sub[i], "x") {
		return privateUse(sub[i+1:])
	}
	return i == len(sub)
}

func privateUse(sub []string) bool { return len(sub) > 0 }

func isAlnum(s string) bool {
	for i := range len(s) {
		if !isAlpha(s[i]) && (s[i] < '0' || s[i] > '9') {
			return false
		}
	}
	return true
}

func isAlphaStr(s string) bool {
	for i := range len(s) {
		if !isAlpha(s[i]) {
			return false
		}
	}
	return true
}

// irregular holds RFC 5646's grandfathered tags that the grammar above does
// not produce.
var irregular = map[string]bool{
	"en-gb-oed": true, "i-ami": true, "i-bnn": true, "i-default": true, "i-enochian": true, "i-hak": true,
	"i-klingon": true, "i-lux": true, "i-mingo": true, "i-navajo": true, "i-pwn": true, "i-tao": true,
	"i-tay": true, "i-tsu": true, "sgn-be-fr": true, "sgn-be-nl": true, "sgn-ch-de": true,
}
