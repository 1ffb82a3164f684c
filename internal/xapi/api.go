package xapi

import (
	"crypto/rand"
	"fmt"
	"strings"
	"time"

	"journeyman/internal/apperr"
)

// SignatureUsage is the usageType of the attachment that signs a statement.
const SignatureUsage = "http://adlnet.gov/expapi/attachments/signature"

// ParseVersion reads an X-Experience-API-Version header: "1.0", "1.0.0".."1.0.x"
// → V103; "2.0", "2.0.x" → V200; anything else is EINVALID.
func ParseVersion(header string) (Version, error) {
	h := strings.TrimSpace(header)
	switch {
	case h == "1.0" || (strings.HasPrefix(h, "1.0.") && isDigits(h[4:])):
		return V103, nil
	case h == "2.0" || (strings.HasPrefix(h, "2.0.") && isDigits(h[4:])):
		return V200, nil
	case h == "":
		return "", apperr.Invalid("the X-Experience-API-Version header is missing; this LRS speaks 1.0.3 and 2.0.0")
	}
	return "", apperr.Invalid("X-Experience-API-Version %q is not supported; this LRS speaks 1.0.3 and 2.0.0", header)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// NewUUID returns a random version-4 UUID in lower case.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

// Part is one attachment's raw data in a multipart/mixed request or answer.
type Part struct {
	ContentType string
	Content     []byte
}

// IsUUID reports whether s is a UUID in its standard string form (any
// case), for the statementId, voidedStatementId and registration parameters.
func IsUUID(s string) bool { return isUUID(s) }

// IsIRI reports whether s is an absolute IRI, for the verb and activity
// parameters.
func IsIRI(s string) bool { return isIRI(s) }

// ParseTimestamp reads an ISO 8601 timestamp with a time zone (as statements
// carry them), for the since and until parameters; anything else is EINVALID.
func ParseTimestamp(s string) (time.Time, error) {
	t, err := parseTimestamp(s)
	if err != nil {
		return time.Time{}, apperr.Invalid("%q is not an ISO 8601 timestamp with a time zone: %v", s, err)
	}
	return t, nil
}
