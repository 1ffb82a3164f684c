package fieldbus

import (
	"bytes"
	"crypto/rsa"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"fmt"
	"net"

	"github.com/gopcua/opcua/ua"
	"github.com/gopcua/opcua/uapolicy"
)

// openingConn is the guard's connection to the OPC UA server. On the way
// it decrypts the client's first OpenSecureChannel request, and checks its
// signature, as the server should: gopcua v0.8.0's server reads that
// request while its channel is still in security mode None, which it only
// leaves once the request says otherwise, so it takes the ciphertext for
// the request and no secured channel ever opens (fixed upstream after
// v0.8.0, gopcua/opcua#817). The request goes on in plain text with its
// security header, from which the server takes the client's certificate
// and encrypts its answer; renewals on an open channel it decrypts itself.
type openingConn struct {
	net.Conn
	key        *rsa.PrivateKey
	thumbprint []byte // of the server's certificate, which the client encrypts for
	pending    []byte
	opened     bool
}

func newOpeningConn(c net.Conn, cert []byte, key *rsa.PrivateKey) *openingConn {
	return &openingConn{Conn: c, key: key, thumbprint: uapolicy.Thumbprint(cert)}
}

// Write passes the client's bytes on, a message at a time until the first
// OpenSecureChannel, then as they come.
func (c *openingConn) Write(p []byte) (int, error) {
	if c.opened {
		return c.Conn.Write(p)
	}
	c.pending = append(c.pending, p...)
	for !c.opened {
		n := splitOPCUA(c.pending)
		if n == 0 || n > len(c.pending) {
			if len(c.pending) > maxFirstFrame {
				return 0, errors.New("OPC UA: message too large before the secure channel opened")
			}
			return len(p), nil
		}
		msg := c.pending[:n]
		if string(msg[:3]) == "OPN" {
			var err error
			if msg, err = c.decryptOpen(msg); err != nil {
				return 0, err
			}
			c.opened = true
		}
		if _, err := c.Conn.Write(msg); err != nil {
			return 0, err
		}
		c.pending = c.pending[n:]
	}
	if len(c.pending) > 0 {
		rest := c.pending
		c.pending = nil
		if _, err := c.Conn.Write(rest); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// decryptOpen returns an OpenSecureChannel request as the server can read
// it: decrypted, its signature checked, padding and signature removed. A
// request under security policy None goes on as it is.
func (c *openingConn) decryptOpen(msg []byte) ([]byte, error) {
	if len(msg) < 12 || msg[3] != 'F' {
		return msg, nil // the server refuses what it cannot read
	}
	policy, rest, ok := uaString(msg[12:])
	if !ok || policy == ua.SecurityPolicyURINone || policy == "(null)" {
		return msg, nil
	}
	if policy != ua.SecurityPolicyURIBasic256Sha256 {
		return nil, fmt.Errorf("OPC UA: security policy %s is not offered", policy)
	}
	cert, rest, ok := uaBytes(rest)
	if !ok {
		return nil, errors.New("OPC UA: OpenSecureChannel without a sender certificate")
	}
	thumbprint, rest, ok := uaBytes(rest)
	if !ok || !bytes.Equal(thumbprint, c.thumbprint) {
		return nil, errors.New("OPC UA: OpenSecureChannel encrypted for another certificate")
	}
	header := msg[:len(msg)-len(rest)]
	clientCert, err := x509.ParseCertificate(cert)
	if err != nil {
		return nil, fmt.Errorf("OPC UA: client certificate: %w", err)
	}
	clientKey, ok := clientCert.PublicKey.(*rsa.PublicKey)
	if !ok {
		return nil, errors.New("OPC UA: the client certificate's key is not RSA")
	}
	alg, err := uapolicy.Asymmetric(policy, c.key, clientKey)
	if err != nil {
		return nil, fmt.Errorf("OPC UA: %w", err)
	}
	plain, err := alg.Decrypt(rest)
	if err != nil {
		return nil, fmt.Errorf("OPC UA: decrypt OpenSecureChannel: %w", err)
	}
	sigLen := alg.RemoteSignatureLength()
	if len(plain) < sigLen+1 {
		return nil, errors.New("OPC UA: OpenSecureChannel too short")
	}
	signed := append(bytes.Clone(header), plain[:len(plain)-sigLen]...)
	if err := alg.VerifySignature(signed, plain[len(plain)-sigLen:]); err != nil {
		return nil, errors.New("OPC UA: OpenSecureChannel signature does not verify")
	}
	body := plain[:len(plain)-sigLen]
	// Padding: its length in each byte, and over 2048-bit keys an extra
	// last byte holding the length's high byte.
	padding := int(body[len(body)-1])
	if c.key.Size() > 256 {
		if len(body) < 2 {
			return nil, errors.New("OPC UA: OpenSecureChannel padding")
		}
		padding = padding<<8 + int(body[len(body)-2]) + 1
	}
	padding++
	if padding > len(body) {
		return nil, errors.New("OPC UA: OpenSecureChannel padding")
	}
	body = body[:len(body)-padding]
	out := append(bytes.Clone(header), body...)
	binary.LittleEndian.PutUint32(out[4:8], uint32(len(out))) //nolint:gosec // G115: at most maxFirstFrame
	return out, nil
}

// uaBytes reads an OPC UA ByteString; null reads as empty.
func uaBytes(b []byte) ([]byte, []byte, bool) {
	if len(b) < 4 {
		return nil, b, false
	}
	n := int32LE(b[0:4])
	b = b[4:]
	if n < 0 {
		return nil, b, true
	}
	if int(n) > len(b) {
		return nil, b, false
	}
	return b[:n], b[n:], true
}
