package identity

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"sync"
)

// GuestTokens issues and checks guest tokens: 16 random bytes and their
// HMAC under a key every process of a deployment shares (kept in the
// database). A guest's public id is derived from the token one way, so the
// ids others see (live sessions, alerts) are not credentials, and a token
// the server did not issue is recognised as forged without a database
// lookup — the server needs to store nothing for a visitor who only reads.
type GuestTokens struct {
	key []byte
	// Every API request checks its token: keyed HMACs are reused, since
	// setting one up hashes the key, and a Reset restores that state.
	macs sync.Pool

	// valid remembers tokens found valid, and their guests' ids: a cached
	// answer cost little more than the two HMACs of its token check. It
	// starts over when it holds maxValid tokens.
	mu    sync.RWMutex
	valid map[string]string
}

const maxValid = 8192

// NewGuestTokens returns a token issuer for the deployment's key.
func NewGuestTokens(key []byte) *GuestTokens {
	g := &GuestTokens{key: key, valid: make(map[string]string)}
	g.macs.New = func() any { return hmac.New(sha256.New, g.key) }
	return g
}

const guestRandomLen = 16

// Issue returns a new guest token and the id of the guest it names.
func (g *GuestTokens) Issue() (token, id string) {
	b := make([]byte, guestRandomLen, guestRandomLen+sha256.Size)
	rand.Read(b)
	b = append(b, g.mac("token", b)...)
	return base64.RawURLEncoding.EncodeToString(b), g.id(b[:guestRandomLen])
}

// Check returns the guest id of a token this deployment issued.
func (g *GuestTokens) Check(token string) (id string, ok bool) {
	g.mu.RLock()
	id, ok = g.valid[token]
	g.mu.RUnlock()
	if ok {
		return id, true
	}
	if id, ok = g.check(token); ok {
		g.mu.Lock()
		if len(g.valid) >= maxValid {
			clear(g.valid)
		}
		g.valid[token] = id
		g.mu.Unlock()
	}
	return id, ok
}

func (g *GuestTokens) check(token string) (id string, ok bool) {
	var b [guestRandomLen + sha256.Size]byte
	if base64.RawURLEncoding.DecodedLen(len(token)) != len(b) {
		return "", false
	}
	if n, err := base64.RawURLEncoding.Decode(b[:], []byte(token)); err != nil || n != len(b) {
		return "", false
	}
	if !hmac.Equal(b[guestRandomLen:], g.mac("token", b[:guestRandomLen])) {
		return "", false
	}
	return g.id(b[:guestRandomLen]), true
}

func (g *GuestTokens) id(random []byte) string {
	return hex.EncodeToString(g.mac("id", random)[:16])
}

func (g *GuestTokens) mac(purpose string, b []byte) []byte {
	m := g.macs.Get().(hash.Hash)
	defer g.macs.Put(m)
	m.Reset()
	m.Write([]byte(purpose))
	m.Write(b)
	return m.Sum(make([]byte, 0, sha256.Size))
}

// NewSecret returns a random token for links (invites, password resets) and
// the hash under which it is stored, so a database dump holds no usable link.
func NewSecret() (token, hash string) {
	b := make([]byte, 24)
	rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, HashSecret(token)
}

// HashSecret is the stored form of a link token.
func HashSecret(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// NewID returns a random 128-bit id in hex.
func NewID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Fingerprint names the key without revealing it, so that tests and logs
// can tell deployments apart.
func (g *GuestTokens) Fingerprint() string {
	sum := sha256.Sum256(append([]byte("fingerprint"), g.key...))
	return hex.EncodeToString(sum[:8])
}
