package fieldbus

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/url"
	"os"
	"sync"
	"time"
)

// OPCUAApplicationURI names the OPC UA devices as one application: the URI
// their certificate carries and their endpoints announce.
const OPCUAApplicationURI = "urn:journeyman:devices"

// opcuaIdentity is the certificate and key every OPC UA device of a fleet
// presents: the configured ones, or one self-signed pair made on first use.
type opcuaIdentity struct {
	once sync.Once
	cert []byte
	key  *rsa.PrivateKey
	err  error
}

// opcuaCertificate returns the fleet's OPC UA certificate (DER) and key,
// making a self-signed pair for host the first time when none was set.
func (f *Fleet) opcuaCertificate() ([]byte, *rsa.PrivateKey, error) {
	f.mu.Lock()
	host := f.host
	f.mu.Unlock()
	id := &f.opcuaIdentity
	id.once.Do(func() {
		if f.Certificate != nil || f.PrivateKey != nil {
			id.cert, id.key, id.err = f.Certificate, f.PrivateKey, checkIdentity(f.Certificate, f.PrivateKey)
			return
		}
		id.cert, id.key, id.err = NewOPCUACertificate(host)
	})
	return id.cert, id.key, id.err
}

// NewOPCUACertificate makes a self-signed certificate and RSA key for the OPC
// UA devices, valid for localhost, 127.0.0.1, this machine's name and host
// (the address the devices listen on), carrying OPCUAApplicationURI.
func NewOPCUACertificate(host string) ([]byte, *rsa.PrivateKey, error) {
	return NewApplicationCertificate(OPCUAApplicationURI, "Journeyman XR field devices", host)
}

// NewApplicationCertificate makes a self-signed OPC UA application instance
// certificate and RSA key for the application named uri and commonName,
// valid for localhost, 127.0.0.1, this machine's name and host: the
// devices' as a server, the gateway's as a client.
func NewApplicationCertificate(uri, commonName, host string) ([]byte, *rsa.PrivateKey, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, nil, fmt.Errorf("OPC UA certificate: %w", err)
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, nil, fmt.Errorf("OPC UA certificate: %w", err)
	}
	appURI, err := url.Parse(uri)
	if err != nil {
		return nil, nil, fmt.Errorf("OPC UA certificate: application URI %q: %w", uri, err)
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: commonName, Organization: []string{"Journeyman XR"}},
		NotBefore:    now.Add(-time.Hour),
		// Long-lived, as clients are told to trust this very certificate:
		// a new one would need trusting again.
		NotAfter: now.AddDate(20, 0, 0),
		// What OPC UA asks of a self-signed application instance
		// certificate: it signs, encrypts keys and data, and is its own CA.
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment | x509.KeyUsageKeyEncipherment |
			x509.KeyUsageDataEncipherment | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		URIs:                  []*url.URL{appURI},
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	if name, err := os.Hostname(); err == nil && name != "" && name != "localhost" {
		tmpl.DNSNames = append(tmpl.DNSNames, name)
	}
	if ip := net.ParseIP(host); ip != nil {
		if !ip.IsLoopback() && !ip.IsUnspecified() {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		}
	} else if host != "" && host != "localhost" {
		tmpl.DNSNames = append(tmpl.DNSNames, host)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("OPC UA certificate: %w", err)
	}
	return der, key, nil
}

// EncodeOPCUACertificate writes a certificate (DER) and its key as PEM,
// certificate first, for keeping.
func EncodeOPCUACertificate(cert []byte, key *rsa.PrivateKey) []byte {
	out := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert})
	return append(out, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})...)
}

// DecodeOPCUACertificate reads what EncodeOPCUACertificate wrote (or any PEM
// holding one certificate and its RSA key, PKCS #1 or #8) and checks that
// the two belong together.
func DecodeOPCUACertificate(b []byte) ([]byte, *rsa.PrivateKey, error) {
	var cert []byte
	var key *rsa.PrivateKey
	for {
		var block *pem.Block
		block, b = pem.Decode(b)
		if block == nil {
			break
		}
		switch block.Type {
		case "CERTIFICATE":
			if cert == nil {
				cert = block.Bytes
			}
		case "RSA PRIVATE KEY":
			k, err := x509.ParsePKCS1PrivateKey(block.Bytes)
			if err != nil {
				return nil, nil, fmt.Errorf("OPC UA key: %w", err)
			}
			key = k
		case "PRIVATE KEY":
			k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
			if err != nil {
				return nil, nil, fmt.Errorf("OPC UA key: %w", err)
			}
			rk, ok := k.(*rsa.PrivateKey)
			if !ok {
				return nil, nil, errors.New("OPC UA key: OPC UA security policies need an RSA key")
			}
			key = rk
		}
	}
	if err := checkIdentity(cert, key); err != nil {
		return nil, nil, err
	}
	return cert, key, nil
}

// checkIdentity says whether cert (DER) is an RSA certificate for key.
func checkIdentity(cert []byte, key *rsa.PrivateKey) error {
	if cert == nil || key == nil {
		return errors.New("OPC UA certificate: a certificate and its RSA key are needed, not one without the other")
	}
	c, err := x509.ParseCertificate(cert)
	if err != nil {
		return fmt.Errorf("OPC UA certificate: %w", err)
	}
	pub, ok := c.PublicKey.(*rsa.PublicKey)
	if !ok || !pub.Equal(&key.PublicKey) {
		return errors.New("OPC UA certificate: the key is not the certificate's")
	}
	if n := pub.Size(); n < 256 || n > 512 {
		return fmt.Errorf("OPC UA certificate: Basic256Sha256 needs a 2048 to 4096-bit key, not %d bits", n*8)
	}
	return nil
}
