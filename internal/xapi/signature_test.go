package xapi

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"journeyman/internal/apperr"
)

var (
	keyOnce           sync.Once
	signKey, otherKey *rsa.PrivateKey
	signCert          []byte
)

func testKeys(t *testing.T) {
	t.Helper()
	keyOnce.Do(func() {
		var err error
		if signKey, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
		if otherKey, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
			panic(err)
		}
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "xAPI test signer"},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
		if signCert, err = x509.CreateCertificate(rand.Reader, tmpl, tmpl, &signKey.PublicKey, signKey); err != nil {
			panic(err)
		}
	})
}

// jws signs payload as a compact JWS with key; x5c adds the certificate.
func jws(t *testing.T, alg string, payload []byte, key *rsa.PrivateKey, x5c bool) []byte {
	t.Helper()
	header := map[string]any{"alg": alg}
	if x5c {
		header["x5c"] = []string{base64.StdEncoding.EncodeToString(signCert)}
	}
	h, _ := json.Marshal(header)
	signed := base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(payload)
	var hash crypto.Hash
	var digest []byte
	switch alg {
	case "RS384":
		d := sha512.Sum384([]byte(signed))
		hash, digest = crypto.SHA384, d[:]
	case "RS512":
		d := sha512.Sum512([]byte(signed))
		hash, digest = crypto.SHA512, d[:]
	default:
		d := sha256.Sum256([]byte(signed))
		hash, digest = crypto.SHA256, d[:]
	}
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, hash, digest)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(signed + "." + base64.RawURLEncoding.EncodeToString(sig))
}

// signedStatement returns the statement with its signature attachment and
// the JWS part, as a Learning Record Provider sends them.
func signedStatement(t *testing.T, sig []byte, contentType string) (string, map[string]Part) {
	t.Helper()
	sum := sha256.Sum256(sig)
	sha := hex.EncodeToString(sum[:])
	att := fmt.Sprintf(`[{"usageType": %q, "display": {"en-US": "Signature"}, "contentType": %q, "length": %d, "sha2": %q}]`,
		SignatureUsage, contentType, len(sig), sha)
	return with(t, "attachments", att), map[string]Part{sha: {ContentType: contentType, Content: sig}}
}

func TestVerifySignature(t *testing.T) {
	testKeys(t)
	stmt := []byte(typical)
	cases := []struct {
		name  string
		sig   []byte
		valid bool
	}{
		{"RS256", jws(t, "RS256", stmt, signKey, false), true},
		{"RS384WithCertificate", jws(t, "RS384", stmt, signKey, true), true},
		{"RS512WithCertificate", jws(t, "RS512", stmt, signKey, true), true},
		{"PayloadWithoutLRSFields", jws(t, "RS256", []byte(with(t, "id", "-")), signKey, true), true},
		{"ErrWrongKeyForCertificate", jws(t, "RS256", stmt, otherKey, true), false},
		{"ErrPayloadDiffers", jws(t, "RS256", []byte(with(t, "verb.id", `"http://adlnet.gov/expapi/verbs/failed"`)), signKey, false), false},
		{"ErrPayloadNotJSON", jws(t, "RS256", []byte(strings.Replace(typical, `"`, `'`, 1)), signKey, false), false},
		{"ErrHS256", []byte(strings.Replace(string(jws(t, "RS256", stmt, signKey, false)), base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"RS256"}`)), base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256"}`)), 1)), false},
		{"ErrNone", []byte(base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none"}`)) + "." + base64.RawURLEncoding.EncodeToString(stmt) + "."), false},
		{"ErrTwoParts", []byte("abc.def"), false},
		{"ErrNotBase64", []byte("a!b.c.d"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := VerifySignature(stmt, c.sig)
			if c.valid && err != nil {
				t.Fatalf("rejected: %v", err)
			}
			if !c.valid && apperr.Code(err) != apperr.EINVALID {
				t.Fatalf("got %v, want EINVALID", err)
			}
		})
	}
}

func TestCheckParts(t *testing.T) {
	testKeys(t)
	text := []byte("here is a simple attachment")
	sum := sha256.Sum256(text)
	textSHA := hex.EncodeToString(sum[:])
	textAtt := fmt.Sprintf(`{"usageType": "http://example.com/attachment-usage/test", "display": {"en-US": "A test attachment"},
		"contentType": "text/plain; charset=ascii", "length": %d, "sha2": %q}`, len(text), textSHA)
	decode := func(t *testing.T, body string) []Incoming {
		t.Helper()
		ins, err := Decode([]byte(body), V103)
		if err != nil {
			t.Fatal(err)
		}
		return ins
	}
	t.Run("OK", func(t *testing.T) {
		ins := decode(t, with(t, "attachments", "["+textAtt+"]"))
		if err := CheckParts(ins, map[string]Part{textSHA: {ContentType: "text/plain", Content: text}}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("FileURLNeedsNoPart", func(t *testing.T) {
		if err := CheckParts(decode(t, with(t, "attachments", "["+validAttachment+"]")), nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrMissingPart", func(t *testing.T) {
		err := CheckParts(decode(t, with(t, "attachments", "["+textAtt+"]")), nil)
		if apperr.Code(err) != apperr.EINVALID || !strings.Contains(apperr.Message(err), "statement.attachments[0]") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("ErrExtraPart", func(t *testing.T) {
		err := CheckParts(decode(t, typical), map[string]Part{textSHA: {Content: text}})
		if apperr.Code(err) != apperr.EINVALID {
			t.Fatalf("got %v, want EINVALID for a part no attachment names", err)
		}
	})
	t.Run("SignedStatement", func(t *testing.T) {
		body, parts := signedStatement(t, jws(t, "RS256", []byte(typical), signKey, true), "application/octet-stream")
		if err := CheckParts(decode(t, body), parts); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ErrSignatureContentType", func(t *testing.T) {
		body, parts := signedStatement(t, jws(t, "RS256", []byte(typical), signKey, false), "text/plain; charset=ascii")
		if err := CheckParts(decode(t, body), parts); apperr.Code(err) != apperr.EINVALID {
			t.Fatalf("got %v, want EINVALID", err)
		}
	})
	t.Run("ErrSignatureMismatch", func(t *testing.T) {
		body, parts := signedStatement(t, jws(t, "RS256", []byte(with(t, "result.success", "false")), signKey, false), "application/octet-stream")
		err := CheckParts(decode(t, body), parts)
		if apperr.Code(err) != apperr.EINVALID || !strings.Contains(apperr.Message(err), "does not match") {
			t.Fatalf("got %v", err)
		}
	})
}

func TestMultipart(t *testing.T) {
	text := []byte("here is a simple attachment")
	sum := sha256.Sum256(text)
	sha := hex.EncodeToString(sum[:])
	statement := []byte(`{"actor":{"mbox":"mailto:a@b.c"}}`)

	t.Run("RoundTrip", func(t *testing.T) {
		var buf bytes.Buffer
		ct, err := WriteMultipart(&buf, statement, map[string]Part{sha: {ContentType: "text/plain", Content: text}})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(ct, "multipart/mixed; boundary=") {
			t.Fatalf("content type %q", ct)
		}
		gotStmt, parts, err := ReadMultipart(ct, &buf)
		if err != nil {
			t.Fatal(err)
		}
		if string(gotStmt) != string(statement) || len(parts) != 1 || string(parts[sha].Content) != string(text) || parts[sha].ContentType != "text/plain" {
			t.Fatalf("statement %s, parts %v", gotStmt, parts)
		}
	})
	// The conformance suite writes headers without a space after the colon
	// and ends without a final line break.
	raw := func(firstType string, partHeaders ...string) string {
		return "\r\n--xyz\r\nContent-Type:" + firstType + "\r\n\r\n" + string(statement) +
			"\r\n--xyz\r\n" + strings.Join(partHeaders, "\r\n") + "\r\n\r\n" + string(text) + "\r\n--xyz--"
	}
	cases := []struct {
		name string
		ct   string
		body string
		ok   bool
	}{
		{"SuiteShape", "multipart/mixed; boundary=xyz", raw("application/json", "Content-Type:text/plain", "Content-Transfer-Encoding:binary", "X-Experience-API-Hash:"+sha), true},
		{"ErrNoHash", "multipart/mixed; boundary=xyz", raw("application/json", "Content-Type:text/plain", "Content-Transfer-Encoding:binary"), false},
		{"ErrNoTransferEncoding", "multipart/mixed; boundary=xyz", raw("application/json", "Content-Type:text/plain", "X-Experience-API-Hash:"+sha), false},
		{"ErrHashNotHex", "multipart/mixed; boundary=xyz", raw("application/json", "Content-Type:text/plain", "Content-Transfer-Encoding:binary", "X-Experience-API-Hash:not-a-hash"), false},
		{"ErrFirstPartNotJSON", "multipart/mixed; boundary=xyz", raw("text/plain", "Content-Type:text/plain", "Content-Transfer-Encoding:binary", "X-Experience-API-Hash:"+sha), false},
		{"ErrNotMultipart", "application/json", raw("application/json"), false},
		{"ErrNoBoundary", "multipart/mixed", raw("application/json"), false},
		{"ErrWrongBoundary", "multipart/mixed; boundary=abc", raw("application/json", "Content-Type:text/plain", "Content-Transfer-Encoding:binary", "X-Experience-API-Hash:"+sha), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stmts, parts, err := ReadMultipart(c.ct, strings.NewReader(c.body))
			if c.ok {
				if err != nil {
					t.Fatal(err)
				}
				if string(stmts) != string(statement) || string(parts[sha].Content) != string(text) {
					t.Fatalf("statement %q parts %v", stmts, parts)
				}
				return
			}
			if apperr.Code(err) != apperr.EINVALID {
				t.Fatalf("got %v, want EINVALID", err)
			}
		})
	}
}

// The suite posts binary parts read as Latin-1 strings, which its HTTP
// client re-encodes as UTF-8, and still expects 200: a part is filed under
// the hash it declares, not one recomputed from what arrived.
func TestReadMultipartTrustsDeclaredHash(t *testing.T) {
	declared := strings.Repeat("ab", 32)
	body := "--xyz\r\nContent-Type: application/json\r\n\r\n{}\r\n--xyz\r\nContent-Type: image/png\r\n" +
		"Content-Transfer-Encoding: binary\r\nX-Experience-API-Hash: " + strings.ToUpper(declared) + "\r\n\r\n\xc3\xbf\xc3\x98\r\n--xyz--\r\n"
	_, parts, err := ReadMultipart("multipart/mixed; boundary=xyz", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := parts[declared]; !ok || string(p.Content) != "\xc3\xbf\xc3\x98" || p.ContentType != "image/png" {
		t.Fatalf("parts %v: want the content under the declared hash, lower-cased", parts)
	}
}
