package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// selfSignedCert writes a certificate for 127.0.0.1 and its key as PEM
// files, and returns their paths and a pool that trusts the certificate.
func selfSignedCert(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "journeyman test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestRunServesTLS serves natively over TLS: answers carry HSTS and the
// wss:// source, the learner cookie is Secure, and the realtime channel
// works over wss:// (the server speaks HTTP/2 too, WebSockets stay on 1.1).
func TestRunServesTLS(t *testing.T) {
	certFile, keyFile, pool := selfSignedCert(t)
	url := startRun(t, "-tls-cert", certFile, "-tls-key", keyFile)
	if !strings.HasPrefix(url, "https://") {
		t.Fatalf("listening at %s, want https://", url)
	}
	transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, ForceAttemptHTTP2: true}
	client := &http.Client{Transport: transport}
	res, err := client.Get(url + "/api/me")
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || res.ProtoMajor != 2 {
		t.Fatalf("GET /api/me: %d over HTTP/%d, want 200 over HTTP/2", res.StatusCode, res.ProtoMajor)
	}
	if hsts := res.Header.Get("Strict-Transport-Security"); !strings.HasPrefix(hsts, "max-age=") {
		t.Errorf("Strict-Transport-Security = %q", hsts)
	}
	host := strings.TrimPrefix(url, "https://")
	// The app's page names the realtime channel's wss:// source.
	page, err := client.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	page.Body.Close()
	if csp := page.Header.Get("Content-Security-Policy"); !strings.HasSuffix(csp, "connect-src 'self' wss://"+host) {
		t.Errorf("Content-Security-Policy %q lacks wss://%s", csp, host)
	}
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		cookie = c
	}
	if cookie == nil || !cookie.Secure {
		t.Fatalf("learner cookie %v is not Secure over TLS", cookie)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "wss://"+host+"/ws", &websocket.DialOptions{
		HTTPClient: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}},
		HTTPHeader: http.Header{"Cookie": {cookie.Name + "=" + cookie.Value}, "Origin": {url}},
	})
	if err != nil {
		t.Fatalf("wss:// dial: %v", err)
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, []byte(`{"type":"leave","payload":{}}`)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Read(ctx); err != nil {
		t.Fatalf("read over wss://: %v", err)
	}
}

func TestRunRefusesBadCertificate(t *testing.T) {
	certFile, _, _ := selfSignedCert(t)
	_, otherKey, _ := selfSignedCert(t)
	tests := []struct {
		name, cert, key string
		want            string
	}{
		{"ErrMissingFile", filepath.Join(t.TempDir(), "none.pem"), otherKey, "no such file"},
		{"ErrKeyOfAnotherCertificate", certFile, otherKey, "private key does not match public key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := run(context.Background(), []string{"-addr", "127.0.0.1:0", "-db", filepath.Join(t.TempDir(), "j.db"), "-tls-cert", tt.cert, "-tls-key", tt.key},
				func(string) string { return "" }, io.Discard)
			if err == nil || !strings.Contains(err.Error(), "TLS certificate") || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("run = %v, want a TLS certificate error saying %q", err, tt.want)
			}
		})
	}
}

func TestTransportConfig(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		cert     string
		proxies  int
		errorHas string
	}{
		{"PlainByDefault", nil, nil, "", 0, ""},
		{"TLSFlags", []string{"-tls-cert", "c.pem", "-tls-key", "k.pem"}, nil, "c.pem", 0, ""},
		{"TLSEnvironment", nil, map[string]string{"JOURNEYMAN_TLS_CERT": "c.pem", "JOURNEYMAN_TLS_KEY": "k.pem"}, "c.pem", 0, ""},
		{"ErrCertWithoutKey", []string{"-tls-cert", "c.pem"}, nil, "", 0, "-tls-cert and -tls-key go together"},
		{"ErrKeyWithoutCert", nil, map[string]string{"JOURNEYMAN_TLS_KEY": "k.pem"}, "", 0, "-tls-cert and -tls-key go together"},
		{"TrustedProxiesFlag", []string{"-trusted-proxies", "127.0.0.1, 10.0.0.0/8"}, nil, "", 2, ""},
		{"TrustedProxiesEnvironment", nil, map[string]string{"JOURNEYMAN_TRUSTED_PROXIES": "::1"}, "", 1, ""},
		{"ErrTrustedProxyHostname", []string{"-trusted-proxies", "proxy.local"}, nil, "", 0, `"proxy.local" is not an address or CIDR prefix`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseConfig(tt.args, func(k string) string { return tt.env[k] })
			if tt.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errorHas) {
					t.Fatalf("parseConfig = %v, want an error saying %q", err, tt.errorHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.tlsCert != tt.cert || len(c.trustedProxies) != tt.proxies {
				t.Fatalf("config = %+v, want cert %q and %d trusted proxies", c, tt.cert, tt.proxies)
			}
		})
	}
}

// The HTTP server bounds the time headers may take and idle connections
// may stay; bodies are bounded per request by the server package.
func TestHTTPServerTimeouts(t *testing.T) {
	s := newHTTPServer(http.NotFoundHandler(), nil)
	if s.ReadHeaderTimeout <= 0 || s.IdleTimeout <= 0 {
		t.Fatalf("ReadHeaderTimeout %v, IdleTimeout %v: want both set", s.ReadHeaderTimeout, s.IdleTimeout)
	}
	// A WebSocket keeps the write deadline of the request that opened it.
	if s.WriteTimeout != 0 {
		t.Fatalf("WriteTimeout %v would cut the WebSockets", s.WriteTimeout)
	}
}
