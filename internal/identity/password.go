package identity

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"

	"journeyman/internal/apperr"
)

// The password policy of NIST SP 800-63B §3.1.1.2: a length floor, a
// generous ceiling, a check against commonly used passwords, and no
// composition rules.
const (
	MinPassword = 8
	MaxPassword = 128
)

//go:embed common-passwords.txt
var commonPasswordList []byte

var commonPasswords = sync.OnceValue(func() map[string]struct{} {
	m := make(map[string]struct{}, 18_000)
	sc := bufio.NewScanner(bytes.NewReader(commonPasswordList))
	for sc.Scan() {
		m[sc.Text()] = struct{}{}
	}
	return m
})

// CheckPassword applies the password policy; field names the form field.
func CheckPassword(field, pw string) error {
	n := utf8.RuneCountInString(pw)
	switch {
	case n < MinPassword:
		return apperr.Invalid("%s must be at least %d characters", field, MinPassword)
	case n > MaxPassword:
		return apperr.Invalid("%s must be at most %d characters", field, MaxPassword)
	}
	if _, common := commonPasswords()[strings.ToLower(pw)]; common {
		return apperr.Invalid("%s is one of the most commonly used passwords; choose another", field)
	}
	return nil
}

// HashCost is argon2id's cost: OWASP's recommended minimum (19 MiB, two
// passes, one lane). Tests lower it to keep -race runs quick.
var HashCost = struct {
	Memory uint32 // KiB
	Time   uint32
}{Memory: 19 * 1024, Time: 2}

const (
	saltLen = 16
	keyLen  = 32
)

// HashPassword returns pw's argon2id hash in the PHC string format, which
// carries its own parameters so that a later cost change still verifies.
func HashPassword(pw string) string {
	salt := make([]byte, saltLen)
	rand.Read(salt)
	key := argon2.IDKey([]byte(pw), salt, HashCost.Time, HashCost.Memory, 1, keyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=1$%s$%s", argon2.Version, HashCost.Memory, HashCost.Time, b64.EncodeToString(salt), b64.EncodeToString(key))
}

// VerifyPassword reports whether pw matches hash. An empty or malformed hash
// (an account without a password yet) matches nothing, but still costs a
// hash, so that the answer's timing does not tell one case from another.
func VerifyPassword(hash, pw string) bool {
	mem, tm, salt, key, ok := parseHash(hash)
	if !ok {
		mem, tm, salt, key = HashCost.Memory, HashCost.Time, make([]byte, saltLen), nil
	}
	got := argon2.IDKey([]byte(pw), salt, tm, mem, 1, keyLen)
	return ok && subtle.ConstantTimeCompare(got, key) == 1
}

func parseHash(h string) (mem, tm uint32, salt, key []byte, ok bool) {
	parts := strings.Split(h, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return 0, 0, nil, nil, false
	}
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &tm, &p); err != nil || p != 1 || mem == 0 || tm == 0 || mem > 1<<20 || tm > 16 {
		return 0, 0, nil, nil, false
	}
	b64 := base64.RawStdEncoding
	salt, err1 := b64.DecodeString(parts[4])
	key, err2 := b64.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(key) != keyLen {
		return 0, 0, nil, nil, false
	}
	return mem, tm, salt, key, true
}
