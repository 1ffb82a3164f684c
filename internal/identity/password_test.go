package identity_test

import (
	"fmt"
	"strings"
	"testing"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
)

func TestCheckPassword(t *testing.T) {
	for _, tc := range []struct {
		name, pw string
		problem  string // a part of the message, "" when accepted
	}{
		{"Empty", "", "at least 8 characters"},
		{"SevenCharacters", "zq7#Lm2", "at least 8 characters"},
		// Seven characters but fourteen bytes: length counts characters.
		{"SevenCharactersManyBytes", strings.Repeat("é", 7), "at least 8 characters"},
		{"EightCharacters", "zq7#Lm2x", ""},
		{"EightMultibyteCharacters", "éàüößñçø", ""},
		{"MaxCharacters", strings.Repeat("kw9", 42) + "zq", ""},
		// 128 characters but 256 bytes: still within the limit.
		{"MaxMultibyteCharacters", strings.Repeat("ü", identity.MaxPassword), ""},
		{"OneTooMany", strings.Repeat("kw9", 43), "at most 128 characters"},
		{"OneTooManyMultibyte", strings.Repeat("ü", identity.MaxPassword+1), "at most 128 characters"},
		{"Common", "password", "commonly used"},
		{"CommonOtherCase", "PassWord", "commonly used"},
		{"CommonUpperCase", "ILOVEYOU", "commonly used"},
		{"CommonDigits", "12345678", "commonly used"},
		{"CommonTrustno1", "Trustno1", "commonly used"},
		{"CommonFromTheEndOfTheList", "qwertyuiop123", "commonly used"},
		{"Passphrase", "correct horse battery staple on a sunny tuesday", ""},
		// No composition rules: all lower case letters is fine if uncommon.
		{"LowerCaseOnly", "blueberrytractorlamp", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := identity.CheckPassword("password", tc.pw)
			if tc.problem == "" {
				if err != nil {
					t.Fatalf("CheckPassword(%q) = %v, want accepted", tc.pw, err)
				}
				return
			}
			msg := apperr.Message(err)
			if apperr.Code(err) != apperr.EINVALID || !strings.HasPrefix(msg, "password ") || !strings.Contains(msg, tc.problem) {
				t.Fatalf("CheckPassword(%q) = %v; want invalid naming the field and saying %q", tc.pw, err, tc.problem)
			}
		})
	}
}

func TestHashCostDefault(t *testing.T) {
	// OWASP's minimum for argon2id: 19 MiB, two passes.
	if defaultCost.Memory != 19*1024 || defaultCost.Time != 2 {
		t.Fatalf("default cost = %+v, want m=19456 t=2", defaultCost)
	}
}

func TestHashAndVerifyPassword(t *testing.T) {
	const pw = "correct horse battery staple"
	hash := identity.HashPassword(pw)
	want := fmt.Sprintf("$argon2id$v=19$m=%d,t=%d,p=1$", identity.HashCost.Memory, identity.HashCost.Time)
	if !strings.HasPrefix(hash, want) || strings.Contains(hash, pw) {
		t.Fatalf("hash = %q, want the PHC form starting %q", hash, want)
	}
	if other := identity.HashPassword(pw); other == hash {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	for _, tc := range []struct {
		name, pw string
		want     bool
	}{
		{"Same", pw, true},
		{"Wrong", "correct horse battery stapler", false},
		{"OtherCase", strings.ToUpper(pw), false},
		{"Prefix", pw[:len(pw)-1], false},
		{"Empty", "", false},
		{"TrailingSpace", pw + " ", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := identity.VerifyPassword(hash, tc.pw); got != tc.want {
				t.Fatalf("VerifyPassword(hash, %q) = %v, want %v", tc.pw, got, tc.want)
			}
		})
	}
	t.Run("Unicode", func(t *testing.T) {
		h := identity.HashPassword("pässwörd-ünïcødé")
		if !identity.VerifyPassword(h, "pässwörd-ünïcødé") || identity.VerifyPassword(h, "passwörd-ünïcødé") {
			t.Fatal("a non-ASCII password does not round-trip")
		}
	})
}

func TestVerifyPasswordOtherCost(t *testing.T) {
	saved := identity.HashCost
	identity.HashCost.Memory, identity.HashCost.Time = 128, 3
	hash := identity.HashPassword("an older cost setting")
	identity.HashCost = saved
	if !strings.Contains(hash, "$m=128,t=3,p=1$") {
		t.Fatalf("hash %q does not carry its parameters", hash)
	}
	if !identity.VerifyPassword(hash, "an older cost setting") {
		t.Fatal("a hash made with other cost parameters no longer verifies")
	}
	if identity.VerifyPassword(hash, "another password") {
		t.Fatal("a wrong password verifies against a hash of other cost")
	}
}

func TestVerifyPasswordMalformedHash(t *testing.T) {
	const pw = "correct horse battery staple"
	good := identity.HashPassword(pw)
	parts := strings.Split(good, "$") // "", argon2id, v=19, m=..,t=..,p=1, salt, key
	join := func(p ...string) string { return strings.Join(p, "$") }
	for _, tc := range []struct{ name, hash string }{
		{"Empty", ""},
		{"Dollar", "$"},
		{"NoKey", join(parts[:5]...)},
		{"EmptyKey", join(parts[0], parts[1], parts[2], parts[3], parts[4], "")},
		{"Truncated", good[:len(good)-1]},
		{"ExtraPart", good + "$x"},
		{"Argon2i", join(parts[0], "argon2i", parts[2], parts[3], parts[4], parts[5])},
		{"Bcrypt", "$2a$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy"},
		{"OtherVersion", join(parts[0], parts[1], "v=16", parts[3], parts[4], parts[5])},
		{"TwoLanes", join(parts[0], parts[1], parts[2], strings.Replace(parts[3], "p=1", "p=2", 1), parts[4], parts[5])},
		{"ZeroMemory", join(parts[0], parts[1], parts[2], "m=0,t=1,p=1", parts[4], parts[5])},
		{"ZeroTime", join(parts[0], parts[1], parts[2], "m=64,t=0,p=1", parts[4], parts[5])},
		// A stored hash must not make a sign-in allocate gigabytes.
		{"HugeMemory", join(parts[0], parts[1], parts[2], "m=4194304,t=1,p=1", parts[4], parts[5])},
		{"NegativeMemory", join(parts[0], parts[1], parts[2], "m=-1,t=1,p=1", parts[4], parts[5])},
		{"NotNumbers", join(parts[0], parts[1], parts[2], "m=x,t=y,p=z", parts[4], parts[5])},
		{"SaltNotBase64", join(parts[0], parts[1], parts[2], parts[3], "!!!!", parts[5])},
		{"KeyNotBase64", join(parts[0], parts[1], parts[2], parts[3], parts[4], "!!!!")},
		{"KeyTooShort", join(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5][:20])},
		{"KeyOfAnotherPassword", join(parts[0], parts[1], parts[2], parts[3], parts[4], strings.Split(identity.HashPassword("x"), "$")[5])},
		{"PlainPassword", pw},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if identity.VerifyPassword(tc.hash, pw) {
				t.Fatalf("VerifyPassword(%q) = true", tc.hash)
			}
			if identity.VerifyPassword(tc.hash, "") {
				t.Fatalf("VerifyPassword(%q, \"\") = true", tc.hash)
			}
		})
	}
}
