// Package gather lets an HTTP/1 answer from memory leave in one system call.
//
// net/http buffers an answer's header in its connection's 4 KB writer, so a
// body larger than that leaves in two writes: the buffer (header and the
// body's first bytes), then the rest. On loopback and in a VM each write is
// a trip through the TCP stack and a wake-up of the reader; joining the two
// with writev took a fifth of the server's CPU per catalog request off
// (the 57 KB catalog, pinned as bench/compare pins it, medians of four
// alternating runs: 48–52 → 40 µs).
//
// Listener wraps the accepted connections; ConnContext, set as the
// http.Server's, makes each reachable from its requests; Write gathers what
// net/http writes for one body into a single writev.
package gather

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"
)

// Listener wraps l's connections so that Write can gather their writes.
func Listener(l net.Listener) net.Listener { return listener{l} }

type listener struct{ net.Listener }

func (l listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &conn{Conn: c}, nil
}

// conn holds writes while fewer than want bytes have come, then writes
// them and the one that completes them together.
type conn struct {
	net.Conn
	want int
	held net.Buffers
	n    int // bytes in held
}

func (c *conn) Write(p []byte) (int, error) {
	if c.want == 0 {
		return c.Conn.Write(p)
	}
	// The caller may reuse p once Write returns (net/http's buffer is
	// reused), so what is held is a copy.
	if c.n+len(p) < c.want {
		c.held = append(c.held, append([]byte(nil), p...))
		c.n += len(p)
		return len(p), nil
	}
	c.held = append(c.held, p)
	err := c.flush()
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// flush writes what is held and stops holding.
func (c *conn) flush() error {
	c.want = 0
	if len(c.held) == 0 {
		return nil
	}
	bufs := c.held
	c.held, c.n = nil, 0
	_, err := bufs.WriteTo(c.Conn) // writev on a TCP connection
	return err
}

// CloseWrite keeps net/http's half-close (FIN before close on an error
// answer), which it finds by asserting its connection's type.
func (c *conn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// SyscallConn keeps the socket reachable once a connection is hijacked:
// the realtime hub writes to it without waiting and parks its idle readers
// on it, and without it falls back to a goroutine per write and a reader
// deep in the WebSocket library, twice the stack per idle connection.
// Nothing is held then: a hijacked connection writes nothing through Write.
func (c *conn) SyscallConn() (syscall.RawConn, error) {
	if sc, ok := c.Conn.(syscall.Conn); ok {
		return sc.SyscallConn()
	}
	return nil, errors.ErrUnsupported
}

type connKey struct{}

// ConnContext is an http.Server's ConnContext that lets Write find a
// request's connection.
func ConnContext(ctx context.Context, c net.Conn) context.Context {
	if gc, ok := c.(*conn); ok {
		return context.WithValue(ctx, connKey{}, gc)
	}
	return ctx
}

// Write writes body with w, net/http's pending header and all, in one
// system call when r came over HTTP/1 on a Listener's connection; otherwise
// it is w.Write. The answer must have its Content-Length set (else net/http
// frames the body in chunks, which still arrive whole, in several writes).
func Write(w io.Writer, r *http.Request, body []byte) (int, error) {
	// HTTP/2 writes frames from its own goroutine, not the handler's.
	c, _ := r.Context().Value(connKey{}).(*conn)
	if c == nil || r.ProtoMajor != 1 {
		return w.Write(body)
	}
	// What net/http writes for this body is at least the body. Whatever
	// is still held when w.Write returns (a HEAD answer has no body to
	// follow its header) leaves then, so nothing waits for a next request.
	c.want = len(body)
	n, err := w.Write(body)
	if ferr := c.flush(); err == nil {
		err = ferr
	}
	return n, err
}
