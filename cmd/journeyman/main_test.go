package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"journeyman/internal/server"
)

// TestRunServesAndShutsDown starts the real process entry point on a free
// port, checks it answers, then stops it as a signal would. Without
// -public-url, the public URL is where it listens: the port it was given,
// not -addr's 0.
func TestRunServesAndShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	logs, logWriter := io.Pipe()
	dbPath := filepath.Join(t.TempDir(), "sub", "journeyman.db")
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-db", dbPath}, func(string) string { return "" }, logWriter)
		logWriter.Close()
	}()

	url, publicURL, setupURL := "", "", ""
	lines := bufio.NewScanner(logs)
	for url == "" && lines.Scan() {
		var line struct {
			Msg, URL  string
			PublicURL string `json:"public_url"`
		}
		if json.Unmarshal(lines.Bytes(), &line) == nil {
			switch {
			case line.Msg == "listening":
				url, publicURL = line.URL, line.PublicURL
			case strings.HasPrefix(line.Msg, "no organisation yet"):
				setupURL = line.URL
			}
		}
	}
	if url == "" {
		t.Fatalf("no listening line; run returned %v", <-done)
	}
	if publicURL != url || strings.HasSuffix(url, ":0") {
		t.Errorf("listening on %s with public URL %s; want the public URL where it listens", url, publicURL)
	}
	go func() { _, _ = io.Copy(io.Discard, logs) }() // drained so the server never blocks on its log

	// A new database has no organisation: the log gives the link that sets one up.
	token, ok := strings.CutPrefix(setupURL, publicURL+"/setup/")
	if !ok || token == "" {
		t.Fatalf("setup link %q; want one under %s/setup/", setupURL, publicURL)
	}
	for _, path := range []string{"/healthz", "/readyz", "/api/training-modules", "/api/setup/" + token} {
		res, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("GET %s = %d", path, res.StatusCode)
		}
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run after shutdown: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run did not return within the shutdown grace period")
	}
}

func TestConfig(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		addr, db string
	}{
		{"Defaults", nil, nil, "127.0.0.1:8080", "./data/journeyman.db"},
		{"Environment", nil, map[string]string{"JOURNEYMAN_ADDR": ":9000", "JOURNEYMAN_DB": "postgres://db/j"}, ":9000", "postgres://db/j"},
		{"FlagsWin", []string{"-addr", ":7000", "-db", "/tmp/x.db"}, map[string]string{"JOURNEYMAN_ADDR": ":9000"}, ":7000", "/tmp/x.db"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseConfig(tt.args, func(k string) string { return tt.env[k] })
			if err != nil {
				t.Fatal(err)
			}
			if c.addr != tt.addr || c.db != tt.db {
				t.Fatalf("config = %+v, want addr %s db %s", c, tt.addr, tt.db)
			}
		})
	}
}

func TestConfigPublicURL(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		want     string
		errorHas string
	}{
		{"FromTheListenAddress", nil, nil, "http://127.0.0.1:8080", ""},
		{"EveryInterfaceIsLocalhost", []string{"-addr", ":9000"}, nil, "http://localhost:9000", ""},
		{"HTTPSWithTLS", []string{"-addr", "0.0.0.0:8443", "-tls-cert", "c.pem", "-tls-key", "k.pem"}, nil, "https://localhost:8443", ""},
		{"Environment", nil, map[string]string{"JOURNEYMAN_PUBLIC_URL": "https://training.example.org/"}, "https://training.example.org", ""},
		{"FlagWins", []string{"-public-url", "https://a.example"}, map[string]string{"JOURNEYMAN_PUBLIC_URL": "https://b.example"}, "https://a.example", ""},
		{"ErrRelative", []string{"-public-url", "training.example.org"}, nil, "", "-public-url"},
		{"ErrQuery", []string{"-public-url", "https://a.example/?x=1"}, nil, "", "without login, query or fragment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseConfig(tt.args, func(k string) string { return tt.env[k] })
			if tt.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errorHas) {
					t.Fatalf("parseConfig = %v, want an error saying %s", err, tt.errorHas)
				}
				return
			}
			if err != nil || c.publicURL != tt.want {
				t.Fatalf("publicURL = %q, %v; want %q", c.publicURL, err, tt.want)
			}
		})
	}
}

func TestListenedAddr(t *testing.T) {
	got := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 41000}
	tests := []struct{ name, addr, want string }{
		{"PortZeroTakesThePortGot", "127.0.0.1:0", "127.0.0.1:41000"},
		{"EveryInterfaceOnPortZero", ":0", ":41000"},
		{"HostAsWritten", "localhost:0", "localhost:41000"},
		{"GivenPortUnchanged", "localhost:8080", "localhost:8080"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if a := listenedAddr(tt.addr, got); a != tt.want {
				t.Fatalf("listenedAddr(%q) = %q; want %q", tt.addr, a, tt.want)
			}
		})
	}
}

func TestConfigSocketsPerAddress(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		env      map[string]string
		want     int
		errorHas string
	}{
		{"Default", nil, nil, server.DefaultSocketsPerAddr, ""},
		{"Environment", nil, map[string]string{"JOURNEYMAN_WS_PER_ADDRESS": "500"}, 500, ""},
		{"FlagWins", []string{"-ws-per-address", "300"}, map[string]string{"JOURNEYMAN_WS_PER_ADDRESS": "500"}, 300, ""},
		{"ErrZero", []string{"-ws-per-address", "0"}, nil, 0, `not "0"`},
		{"ErrNotANumber", nil, map[string]string{"JOURNEYMAN_WS_PER_ADDRESS": "lots"}, 0, `not "lots"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseConfig(tt.args, func(k string) string { return tt.env[k] })
			if tt.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errorHas) {
					t.Fatalf("parseConfig = %v, want an error saying %s", err, tt.errorHas)
				}
				return
			}
			if err != nil || c.socketsPerAddr != tt.want {
				t.Fatalf("socketsPerAddr = %d, %v; want %d", c.socketsPerAddr, err, tt.want)
			}
		})
	}
}
