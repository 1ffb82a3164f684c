package fieldbus

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// echoGuard is a guard with short limits in front of an echo server that
// speaks frames of one length byte and that many bytes.
func echoGuard(t *testing.T, maxConns int) *guard {
	t.Helper()
	backend, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { backend.Close() })
	go func() {
		for {
			c, err := backend.Accept()
			if err != nil {
				return
			}
			go func() { defer c.Close(); _, _ = io.Copy(c, c) }()
		}
	}()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := newGuard(ln, dialTCP(backend.Addr().String()), func(b []byte) int {
		if len(b) < 1 {
			return 0
		}
		return 1 + int(b[0])
	})
	g.maxConns, g.firstFrame, g.idle = maxConns, 300*time.Millisecond, 600*time.Millisecond
	g.start()
	t.Cleanup(func() { g.close() })
	return g
}

// closedWithin says whether the guard closed c within d: a read ends
// with EOF or a reset rather than the test's own deadline.
func closedWithin(t *testing.T, c net.Conn, d time.Duration) bool {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(d))
	_, err := io.ReadAll(c)
	return !errors.Is(err, os.ErrDeadlineExceeded)
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestGuard(t *testing.T) {
	tests := []struct {
		name   string
		send   []byte
		echo   bool          // the frame comes back
		closed time.Duration // closed by then…
		open   time.Duration // …but not before
	}{
		{"ClosesSilentClient", nil, false, 2 * time.Second, 150 * time.Millisecond},
		{"ClosesHalfFrame", []byte{4, 'a', 'b'}, false, 2 * time.Second, 150 * time.Millisecond},
		{"RelaysThenClosesIdle", []byte{3, 'a', 'b', 'c'}, true, 3 * time.Second, 350 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := echoGuard(t, 3)
			c := dial(t, g.addr())
			if _, err := c.Write(tt.send); err != nil {
				t.Fatal(err)
			}
			if tt.echo {
				got := make([]byte, len(tt.send))
				_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
				if _, err := io.ReadFull(c, got); err != nil || !bytes.Equal(got, tt.send) {
					t.Fatalf("echo = %q, %v", got, err)
				}
			}
			if closedWithin(t, c, tt.open) {
				t.Fatalf("closed within %s", tt.open)
			}
			if !closedWithin(t, c, tt.closed) {
				t.Fatalf("still open after %s", tt.closed)
			}
		})
	}
	t.Run("RefusesOverCap", func(t *testing.T) {
		g := echoGuard(t, 3)
		// Two clients, relayed to the server: the cap counts clients,
		// not the guard's own connections to the server.
		for range 2 {
			c := dial(t, g.addr())
			if _, err := c.Write([]byte{1, 'x'}); err != nil {
				t.Fatal(err)
			}
			got := make([]byte, 2)
			_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
			if _, err := io.ReadFull(c, got); err != nil {
				t.Fatal(err)
			}
		}
		// Quickly: the third, silent, is closed after firstFrame.
		if closedWithin(t, dial(t, g.addr()), 50*time.Millisecond) {
			t.Fatal("a third client was closed under a cap of 3")
		}
		if !closedWithin(t, dial(t, g.addr()), 200*time.Millisecond) {
			t.Fatal("a fourth client was kept past the cap of 3")
		}
	})
	t.Run("CloseCutsConnections", func(t *testing.T) {
		g := echoGuard(t, 3)
		c := dial(t, g.addr())
		if _, err := c.Write([]byte{1, 'x', 2}); err != nil { // a frame and half of the next
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
		done := make(chan struct{})
		go func() { g.close(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			t.Fatal("close waited on a connection")
		}
	})
}
