package gather

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// countingListener counts the plain writes its connections make. Being
// a *net.TCPConn, such a connection still takes net.Buffers' writev, which
// is not counted: an answer that leaves in one gathered write makes none.
type countingListener struct {
	*net.TCPListener
	writes *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.AcceptTCP()
	if err != nil {
		return nil, err
	}
	return countingConn{c, l.writes}, nil
}

type countingConn struct {
	*net.TCPConn
	writes *atomic.Int64
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.TCPConn.Write(p)
}

// serve starts a server whose handler answers ?size=n with n bytes, through
// Write when gathered is true, and returns its URL and write counter.
func serve(t *testing.T, gathered bool) (string, *atomic.Int64) {
	t.Helper()
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	writes := new(atomic.Int64)
	srv := &http.Server{
		ConnContext: ConnContext,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n, _ := strconv.Atoi(r.URL.Query().Get("size"))
			body := bytes.Repeat([]byte("0123456789"), n/10+1)[:n]
			if r.URL.Query().Get("chunked") == "" {
				w.Header().Set("Content-Length", strconv.Itoa(n))
			}
			if gathered {
				_, _ = Write(w, r, body)
			} else {
				_, _ = w.Write(body)
			}
		}),
	}
	go func() { _ = srv.Serve(Listener(countingListener{tcp.(*net.TCPListener), writes})) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + tcp.Addr().String(), writes
}

func TestWrite(t *testing.T) {
	url, writes := serve(t, true)
	// One client, one connection: a request that left bytes held would
	// stall the next one on it.
	client := &http.Client{Timeout: 5 * time.Second}
	tests := []struct {
		name, method, query string
		size                int
		plainWrites         int64 // -1: not counted
	}{
		// What fits net/http's buffer leaves in one plain write, as before.
		{"Small", http.MethodGet, "", 100, 1},
		// The body's tail stays in net/http's buffer until the answer
		// ends: the buffer leaves when Write returns, the tail after, as
		// without gathering.
		{"JustOverTheBuffer", http.MethodGet, "", 4097, 1},
		{"Catalog", http.MethodGet, "", 57_000, 0},
		{"Head", http.MethodHead, "", 57_000, 1},
		{"AfterHead", http.MethodGet, "", 57_000, 0},
		{"Large", http.MethodGet, "", 1 << 20, 0},
		{"Chunked", http.MethodGet, "&chunked=1", 57_000, -1},
		{"AfterChunked", http.MethodGet, "", 20_000, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := writes.Load()
			req, _ := http.NewRequest(tt.method, url+"/?size="+strconv.Itoa(tt.size)+tt.query, nil)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			want := bytes.Repeat([]byte("0123456789"), tt.size/10+1)[:tt.size]
			if tt.method == http.MethodHead {
				want = nil
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("body: got %d bytes, want %d (%q…)", len(got), len(want), got[:min(len(got), 20)])
			}
			if n := writes.Load() - before; tt.plainWrites >= 0 && n != tt.plainWrites {
				t.Errorf("answer took %d plain writes, want %d", n, tt.plainWrites)
			}
		})
	}
}

// TestWriteUngathered shows what Write saves: net/http alone writes a body
// larger than its buffer in two plain writes.
func TestWriteUngathered(t *testing.T) {
	url, writes := serve(t, false)
	resp, err := http.Get(url + "/?size=57000")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if n := writes.Load(); n != 2 {
		t.Errorf("ungathered answer took %d writes, want 2", n)
	}
}

// TestWriteTLS: under TLS a gathered answer holds records until the body's
// size is reached, and arrives whole; over HTTP/2 (Write leaves it alone)
// too.
func TestWriteTLS(t *testing.T) {
	body := bytes.Repeat([]byte("abcdefghij"), 5_700)
	for _, h2 := range []bool{false, true} {
		t.Run("HTTP2="+strconv.FormatBool(h2), func(t *testing.T) {
			ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", strconv.Itoa(len(body)))
				_, _ = Write(w, r, body)
			}))
			ts.Listener = Listener(ts.Listener)
			ts.Config.ConnContext = ConnContext
			ts.EnableHTTP2 = h2
			ts.StartTLS()
			defer ts.Close()
			for range 3 {
				resp, err := ts.Client().Get(ts.URL)
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || !bytes.Equal(got, body) {
					t.Fatalf("got %d bytes (err %v), want %d", len(got), err, len(body))
				}
				if want := map[bool]int{false: 1, true: 2}[h2]; resp.ProtoMajor != want {
					t.Fatalf("answered over HTTP/%d, want %d", resp.ProtoMajor, want)
				}
			}
		})
	}
}
