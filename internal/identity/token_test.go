package identity_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"sync"
	"testing"

	"journeyman/internal/identity"
)

func TestGuestTokens(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	g := identity.NewGuestTokens(key)
	token, id := g.Issue()

	t.Run("IssuedTokenChecks", func(t *testing.T) {
		got, ok := g.Check(token)
		if !ok || got != id {
			t.Fatalf("Check(issued) = %q, %v; want %q", got, ok, id)
		}
		if _, err := hex.DecodeString(id); err != nil || len(id) != 32 {
			t.Fatalf("id %q is not 128 bits of hex", id)
		}
		// Another process of the deployment, with the same key, agrees.
		if got, ok := identity.NewGuestTokens(append([]byte(nil), key...)).Check(token); !ok || got != id {
			t.Fatalf("another issuer with the same key: %q, %v", got, ok)
		}
	})

	t.Run("EachTokenNew", func(t *testing.T) {
		seen := map[string]bool{token: true, id: true}
		for range 50 {
			tk, i := g.Issue()
			if seen[tk] || seen[i] {
				t.Fatalf("token or id issued twice: %q %q", tk, i)
			}
			seen[tk], seen[i] = true, true
		}
	})

	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		t.Fatal(err)
	}
	flipped := func(i int) string {
		b := append([]byte(nil), raw...)
		b[i] ^= 1
		return base64.RawURLEncoding.EncodeToString(b)
	}
	otherToken, _ := identity.NewGuestTokens([]byte("another deployment's key 0123456")).Issue()
	// A token whose MAC is the public id: the id must not be a credential.
	idMAC, _ := hex.DecodeString(id)
	withID := base64.RawURLEncoding.EncodeToString(append(append([]byte(nil), raw[:16]...), append(idMAC, idMAC...)...))
	// A MAC made without the key.
	m := hmac.New(sha256.New, nil)
	m.Write([]byte("token"))
	m.Write(raw[:16])
	noKey := base64.RawURLEncoding.EncodeToString(append(append([]byte(nil), raw[:16]...), m.Sum(nil)...))

	for _, tc := range []struct{ name, token string }{
		{"Empty", ""},
		{"FlippedRandom", flipped(0)},
		{"FlippedMAC", flipped(len(raw) - 1)},
		{"FlippedMiddle", flipped(20)},
		{"TruncatedOneChar", token[:len(token)-1]},
		{"TruncatedMAC", base64.RawURLEncoding.EncodeToString(raw[:len(raw)-1])},
		{"RandomOnly", base64.RawURLEncoding.EncodeToString(raw[:16])},
		{"Extended", token + "AA"},
		{"Padded", token + "="},
		{"NotBase64", strings.Repeat("!", len(token))},
		{"OtherKey", otherToken},
		{"TheIDItself", id},
		{"IDAsMAC", withID},
		{"MACWithoutKey", noKey},
		{"Whitespace", " " + token},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, ok := g.Check(tc.token); ok || got != "" {
				t.Fatalf("Check(%q) = %q, %v; want refused", tc.token, got, ok)
			}
		})
	}

	t.Run("IDNotDerivableFromToken", func(t *testing.T) {
		// Without the key, nothing in the token gives the id.
		if strings.Contains(hex.EncodeToString(raw), id) || strings.Contains(token, id) {
			t.Fatal("the id appears in the token")
		}
		// The same random part under another key names another guest.
		other := identity.NewGuestTokens([]byte("another deployment's key 0123456"))
		b := append([]byte(nil), raw[:16]...)
		m := hmac.New(sha256.New, []byte("another deployment's key 0123456"))
		m.Write([]byte("token"))
		m.Write(b)
		forged := base64.RawURLEncoding.EncodeToString(append(b, m.Sum(nil)...))
		otherID, ok := other.Check(forged)
		if !ok || otherID == id {
			t.Fatalf("the same random part gives id %q (ok %v) under another key, want a different valid id", otherID, ok)
		}
	})
}

func TestGuestTokensFingerprint(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	fp := identity.NewGuestTokens(key).Fingerprint()
	if fp == "" || fp != identity.NewGuestTokens(append([]byte(nil), key...)).Fingerprint() {
		t.Fatalf("fingerprints of one key: %q", fp)
	}
	if fp == identity.NewGuestTokens([]byte("another deployment's key 0123456")).Fingerprint() {
		t.Fatal("two keys share a fingerprint")
	}
	if strings.Contains(fp, hex.EncodeToString(key[:4])) || strings.Contains(fp, string(key[:4])) {
		t.Fatalf("fingerprint %q shows the key", fp)
	}
}

// Checks run on every API request from many goroutines at once, sharing
// the issuer's keyed HMACs.
func TestGuestTokensConcurrentChecks(t *testing.T) {
	g := identity.NewGuestTokens([]byte("0123456789abcdef0123456789abcdef"))
	type issued struct{ token, id string }
	tokens := make([]issued, 8)
	for i := range tokens {
		tokens[i].token, tokens[i].id = g.Issue()
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 500 {
				tk := tokens[(w+i)%len(tokens)]
				if got, ok := g.Check(tk.token); !ok || got != tk.id {
					t.Errorf("Check = %q, %v; want %q", got, ok, tk.id)
					return
				}
			}
		})
	}
	wg.Wait()
}

func BenchmarkGuestCheck(b *testing.B) {
	g := identity.NewGuestTokens([]byte("0123456789abcdef0123456789abcdef"))
	token, _ := g.Issue()
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := g.Check(token); !ok {
			b.Fatal("issued token refused")
		}
	}
}

// Valid tokens are remembered, up to a bound, and the answers stay those
// of the HMACs: a refused token is refused every time, and a token forgotten
// when the memory starts over is checked again.
func TestGuestTokensRemembered(t *testing.T) {
	g := identity.NewGuestTokens([]byte("0123456789abcdef0123456789abcdef"))
	first, firstID := g.Issue()
	forged := first[:len(first)-1] + map[bool]string{true: "B", false: "A"}[strings.HasSuffix(first, "A")]
	for i := range identity.MaxValid + 10 {
		tk, id := g.Issue()
		if got, ok := g.Check(tk); !ok || got != id {
			t.Fatalf("token %d: Check = %q, %v; want %q", i, got, ok, id)
		}
		if n := identity.Remembered(g); n > identity.MaxValid {
			t.Fatalf("%d tokens remembered, more than %d", n, identity.MaxValid)
		}
	}
	for range 2 {
		if got, ok := g.Check(first); !ok || got != firstID {
			t.Fatalf("Check(first) = %q, %v; want %q", got, ok, firstID)
		}
		if got, ok := g.Check(forged); ok || got != "" {
			t.Fatalf("Check(forged) = %q, %v; want refused", got, ok)
		}
	}
}
