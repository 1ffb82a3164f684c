package fieldbus

import (
	"bytes"
	"crypto/rsa"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/gopcua/opcua/ua"
	"github.com/gopcua/opcua/uapolicy"
)

// openingConn is the guard's connection to the OPC UA server. It carries
// the asymmetric part of each secure channel (the OpenSecureChannel
// messages) itself, because gopcua v0.8.0's server gets it wrong both
// ways: it reads the first request while its channel is still in mode
// None, so it takes the ciphertext for the request (fixed upstream after
// v0.8.0, gopcua/opcua#817), and it answers without the client
// certificate's thumbprint, by which clients such as node-opcua tell an
// encrypted answer from a plain one.
//
// So the client's request is decrypted here and its signature checked;
// the server gets it as if the server's own certificate had sent it —
// plain the first time, as it reads it, and signed and encrypted for
// itself on renewals. Its answer, encrypted for its own certificate, is
// decrypted here and signed and encrypted again for the client, with the
// thumbprint. The channel's symmetric keys come from the two nonces
// alone, which pass unchanged, so every later message goes through as it
// is.
type openingConn struct {
	net.Conn
	cert       []byte // the server's
	key        *rsa.PrivateKey
	thumbprint []byte // of cert

	toServer []byte // the start of a message from the client
	opened   bool   // the server has read a first OpenSecureChannel

	fromServer, ready, buf []byte

	mu               sync.Mutex
	client           *rsa.PublicKey // the client's key and thumbprint, from its request
	clientThumbprint []byte
}

func newOpeningConn(c net.Conn, cert []byte, key *rsa.PrivateKey) *openingConn {
	return &openingConn{Conn: c, cert: cert, key: key, thumbprint: uapolicy.Thumbprint(cert), buf: make([]byte, 32<<10)}
}

// Write passes the client's bytes to the server, a whole message at a time.
func (c *openingConn) Write(p []byte) (int, error) {
	c.toServer = append(c.toServer, p...)
	var out []byte
	for {
		n := splitOPCUA(c.toServer)
		if len(c.toServer) >= 8 && (n < 8 || n > maxOPCUAChunk) {
			return 0, fmt.Errorf("OPC UA: a message of %d bytes", n)
		}
		if n < 8 || n > len(c.toServer) {
			break
		}
		msg := c.toServer[:n]
		if string(msg[:3]) == "OPN" {
			var err error
			if msg, err = c.request(msg); err != nil {
				return 0, err
			}
		}
		out = append(out, msg...)
		c.toServer = c.toServer[n:]
	}
	c.toServer = bytes.Clone(c.toServer)
	if len(out) > 0 {
		if _, err := c.Conn.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Read returns the server's bytes for the client, whole messages.
func (c *openingConn) Read(p []byte) (int, error) {
	for len(c.ready) == 0 {
		n, err := c.Conn.Read(c.buf)
		c.fromServer = append(c.fromServer, c.buf[:n]...)
		for {
			size := splitOPCUA(c.fromServer)
			if len(c.fromServer) >= 8 && (size < 8 || size > maxOPCUAChunk) {
				return 0, fmt.Errorf("OPC UA: the server sent a message of %d bytes", size)
			}
			if size < 8 || size > len(c.fromServer) {
				break
			}
			msg := c.fromServer[:size]
			if string(msg[:3]) == "OPN" {
				var rerr error
				if msg, rerr = c.response(msg); rerr != nil {
					return 0, rerr
				}
			}
			c.ready = append(c.ready, msg...)
			c.fromServer = c.fromServer[size:]
		}
		c.fromServer = bytes.Clone(c.fromServer)
		if err != nil && len(c.ready) == 0 {
			return 0, err
		}
	}
	n := copy(p, c.ready)
	c.ready = c.ready[n:]
	return n, nil
}

// maxOPCUAChunk bounds a message the connection holds whole: a chunk is
// at most the buffer sizes the two sides agreed in Hello and Acknowledge,
// 64 KiB with gopcua.
const maxOPCUAChunk = 1 << 20

// asymmetricMessage is an OpenSecureChannel message taken apart.
type asymmetricMessage struct {
	header     []byte // message header and security header, as signed
	policy     string
	sender     []byte // certificate
	thumbprint []byte // of the receiver's certificate
	body       []byte // encrypted: sequence header, request or response, padding, signature
}

func parseAsymmetric(msg []byte) (asymmetricMessage, bool) {
	if len(msg) < 12 || msg[3] != 'F' {
		return asymmetricMessage{}, false
	}
	var m asymmetricMessage
	var ok bool
	rest := msg[12:]
	if m.policy, rest, ok = uaString(rest); !ok {
		return m, false
	}
	if m.sender, rest, ok = uaBytes(rest); !ok {
		return m, false
	}
	if m.thumbprint, rest, ok = uaBytes(rest); !ok {
		return m, false
	}
	m.header, m.body = msg[:len(msg)-len(rest)], rest
	return m, true
}

// open decrypts an OpenSecureChannel message with the server's key and
// checks it was signed with sender's; it returns the sequence header and
// the request or response, without padding or signature.
func (c *openingConn) open(m asymmetricMessage, sender *rsa.PublicKey) ([]byte, error) {
	alg, err := uapolicy.Asymmetric(m.policy, c.key, sender)
	if err != nil {
		return nil, err
	}
	plain, err := alg.Decrypt(m.body)
	if err != nil {
		return nil, fmt.Errorf("decrypt: %w", err)
	}
	sigLen := alg.RemoteSignatureLength()
	if len(plain) < sigLen+2 {
		return nil, errors.New("too short")
	}
	body := plain[:len(plain)-sigLen]
	if err := alg.VerifySignature(append(bytes.Clone(m.header), body...), plain[len(plain)-sigLen:]); err != nil {
		return nil, errors.New("the signature does not verify")
	}
	// Padding: its length in each byte, and for a receiver's key over
	// 2048 bits an extra last byte with the length's high byte.
	padding := int(body[len(body)-1])
	if c.key.Size() > 256 {
		padding = padding<<8 + int(body[len(body)-2]) + 1
	}
	padding++
	if padding > len(body) {
		return nil, errors.New("bad padding")
	}
	return body[:len(body)-padding], nil
}

// seal builds an OpenSecureChannel message from the server: the message
// header of like, a security header naming the receiver's certificate,
// and body padded, signed with the server's key and encrypted for
// receiver, as OPC UA Part 6, 6.7.2 lays out.
func (c *openingConn) seal(like []byte, policy string, receiver *rsa.PublicKey, receiverThumbprint, body []byte) ([]byte, error) {
	alg, err := uapolicy.Asymmetric(policy, c.key, receiver)
	if err != nil {
		return nil, err
	}
	b := append([]byte(nil), like[:12]...)
	b = appendUAString(b, []byte(policy))
	b = appendUAString(b, c.cert)
	b = appendUAString(b, receiverThumbprint)
	headerLength := len(b)
	b = append(b, body...)
	blockSize := alg.PlaintextBlockSize()
	extra := alg.RemoteSignatureLength() > 256
	paddingBytes := 1
	if extra {
		paddingBytes = 2
	}
	padding := blockSize - (len(body)+alg.SignatureLength()+paddingBytes)%blockSize
	for range padding + 1 {
		b = append(b, byte(padding)) //nolint:gosec // G115: the low byte, by definition
	}
	if extra {
		b = append(b, byte(padding>>8)) //nolint:gosec // G115: the high byte, under a block of at most 4096 bits
	}
	encrypted := (len(b) - headerLength + alg.SignatureLength()) / blockSize * alg.BlockSize()
	binary.LittleEndian.PutUint32(b[4:8], uint32(headerLength+encrypted)) //nolint:gosec // G115: a few kilobytes
	sig, err := alg.Signature(b)
	if err != nil {
		return nil, err
	}
	sealed, err := alg.Encrypt(append(b[headerLength:], sig...))
	if err != nil {
		return nil, err
	}
	return append(b[:headerLength], sealed...), nil
}

// request turns a client's OpenSecureChannel into the server's own.
func (c *openingConn) request(msg []byte) ([]byte, error) {
	m, ok := parseAsymmetric(msg)
	if !ok || m.policy == ua.SecurityPolicyURINone || m.policy == "(null)" {
		c.opened = true
		return msg, nil // the server refuses what it cannot read
	}
	if m.policy != ua.SecurityPolicyURIBasic256Sha256 {
		return nil, fmt.Errorf("OPC UA: security policy %s is not offered", m.policy)
	}
	if !bytes.Equal(m.thumbprint, c.thumbprint) {
		return nil, errors.New("OPC UA: OpenSecureChannel encrypted for another certificate")
	}
	cert, err := x509.ParseCertificate(m.sender)
	if err != nil {
		return nil, fmt.Errorf("OPC UA: client certificate: %w", err)
	}
	client, ok := cert.PublicKey.(*rsa.PublicKey)
	if !ok {
		return nil, errors.New("OPC UA: the client certificate's key is not RSA")
	}
	body, err := c.open(m, client)
	if err != nil {
		return nil, fmt.Errorf("OPC UA: OpenSecureChannel: %w", err)
	}
	c.mu.Lock()
	c.client, c.clientThumbprint = client, uapolicy.Thumbprint(m.sender)
	c.mu.Unlock()
	if c.opened { // a renewal, which the server decrypts itself
		return c.seal(msg, m.policy, &c.key.PublicKey, c.thumbprint, body)
	}
	c.opened = true
	b := append([]byte(nil), msg[:12]...)
	b = appendUAString(b, []byte(m.policy))
	b = appendUAString(b, c.cert)
	b = appendUAString(b, c.thumbprint)
	b = append(b, body...)
	binary.LittleEndian.PutUint32(b[4:8], uint32(len(b))) //nolint:gosec // G115: a few kilobytes
	return b, nil
}

// response turns the server's answer, sealed for its own certificate, into
// one sealed for the client.
func (c *openingConn) response(msg []byte) ([]byte, error) {
	m, ok := parseAsymmetric(msg)
	if !ok || m.policy == ua.SecurityPolicyURINone || m.policy == "(null)" {
		return msg, nil
	}
	body, err := c.open(m, &c.key.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("OPC UA: the server's OpenSecureChannel answer: %w", err)
	}
	c.mu.Lock()
	client, thumbprint := c.client, c.clientThumbprint
	c.mu.Unlock()
	if client == nil {
		return nil, errors.New("OPC UA: an OpenSecureChannel answer before any request")
	}
	return c.seal(msg, m.policy, client, thumbprint, body)
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

// appendUAString writes an OPC UA String or ByteString.
func appendUAString(b, s []byte) []byte {
	return append(appendInt32LE(b, int32(len(s))), s...) //nolint:gosec // G115: certificates and URIs
}
