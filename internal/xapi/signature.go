package xapi

import (
	"bytes"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"

	"journeyman/internal/apperr"
)

// VerifySignature checks a signed statement against the JWS (compact
// serialisation) of its signature attachment: the algorithm must be RS256,
// RS384 or RS512, the payload must be a statement Equivalent to the one
// received (the signature attachment itself, id, authority, stored,
// timestamp and version being what the LRS may add or change), and when the
// header carries an x5c chain the signature must verify with its first
// certificate's key. Anything else is EINVALID (400).
func VerifySignature(statement json.RawMessage, jws []byte) error {
	parts := strings.Split(string(bytes.TrimSpace(jws)), ".")
	if len(parts) != 3 {
		return apperr.Invalid("signature: not a JWS in compact serialisation (three base64url parts separated by dots)")
	}
	headerJSON, err := b64url(parts[0])
	if err != nil {
		return apperr.Invalid("signature: the JWS header is not base64url: %v", err)
	}
	payload, err := b64url(parts[1])
	if err != nil {
		return apperr.Invalid("signature: the JWS payload is not base64url: %v", err)
	}
	sig, err := b64url(parts[2])
	if err != nil {
		return apperr.Invalid("signature: the JWS signature is not base64url: %v", err)
	}
	var header struct {
		Alg string   `json:"alg"`
		X5C []string `json:"x5c"`
	}
	if err := json.Unmarshal(headerJSON, &header); err != nil {
		return apperr.Invalid("signature: the JWS header is not a JSON object: %v", err)
	}
	var hash crypto.Hash
	switch header.Alg {
	case "RS256":
		hash = crypto.SHA256
	case "RS384":
		hash = crypto.SHA384
	case "RS512":
		hash = crypto.SHA512
	default:
		return apperr.Invalid("signature: algorithm %q is not allowed; use RS256, RS384 or RS512", header.Alg)
	}
	if !json.Valid(payload) {
		return apperr.Invalid("signature: the JWS payload is not a JSON statement")
	}
	if !Equivalent(payload, statement) {
		return apperr.Invalid("signature: the signed statement (the JWS payload) does not match the statement received")
	}
	if len(header.X5C) == 0 {
		return nil
	}
	der, err := base64.StdEncoding.DecodeString(header.X5C[0])
	if err != nil {
		return apperr.Invalid("signature: x5c[0] is not base64: %v", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return apperr.Invalid("signature: x5c[0] is not an X.509 certificate: %v", err)
	}
	pub, ok := cert.PublicKey.(*rsa.PublicKey)
	if !ok {
		return apperr.Invalid("signature: the x5c certificate's key is not an RSA key")
	}
	var digest []byte
	signed := []byte(parts[0] + "." + parts[1])
	switch hash {
	case crypto.SHA256:
		d := sha256.Sum256(signed)
		digest = d[:]
	case crypto.SHA384:
		d := sha512.Sum384(signed)
		digest = d[:]
	default:
		d := sha512.Sum512(signed)
		digest = d[:]
	}
	if err := rsa.VerifyPKCS1v15(pub, hash, digest, sig); err != nil {
		return apperr.Invalid("signature: the JWS does not verify with the x5c certificate's key")
	}
	return nil
}

// b64url decodes base64url with or without padding.
func b64url(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// CheckParts checks a multipart request's attachment parts against its
// statements: every attachment without a fileUrl needs a part with its sha2,
// every part must belong to an attachment, and each signature attachment
// (usageType SignatureUsage) must be application/octet-stream and hold a JWS
// that VerifySignature accepts.
func CheckParts(stmts []Incoming, parts map[string]Part) error {
	used := make(map[string]bool, len(parts))
	for i, in := range stmts {
		path := "statement"
		if len(stmts) > 1 {
			path = "statements[" + strconv.Itoa(i) + "]"
		}
		at := in.root.get("attachments")
		if at == nil {
			continue
		}
		for j, a := range at.vals {
			p := path + ".attachments[" + strconv.Itoa(j) + "]"
			sha := strings.ToLower(a.get("sha2").str())
			part, has := parts[sha]
			if has {
				used[sha] = true
			}
			if a.get("usageType").str() == SignatureUsage {
				if ct := a.get("contentType").str(); ct != "application/octet-stream" {
					return apperr.Invalid("%s.contentType: a signature's content type must be application/octet-stream, not %q", p, ct)
				}
				if !has {
					return apperr.Invalid("%s: the signature's JWS (sha2 %s) is not among the request's parts", p, sha)
				}
				if err := VerifySignature(in.root.json(), part.Content); err != nil {
					return apperr.Invalid("%s: %s", p, apperr.Message(err))
				}
				continue
			}
			if !has && a.get("fileUrl") == nil {
				return apperr.Invalid("%s: no fileUrl and no part with sha2 %s in the request", p, sha)
			}
		}
	}
	for sha := range parts {
		if !used[sha] {
			return apperr.Invalid("the part with X-Experience-API-Hash %s belongs to no attachment of the statements", sha)
		}
	}
	return nil
}
