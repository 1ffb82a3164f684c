package realtime

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// The hub writes its data frames itself, under the WebSocket library. A
// frame the server sends is never masked, so one broadcast is one frame,
// encoded once, whose very bytes go to every client: one write system call
// each, with no per-client encoding, copying or locking inside the library.
// The library keeps the rest: the handshake and origin check, reading and
// unmasking client frames, answering pings, and the close handshake. Its
// writes are control frames only, each at most 127 bytes, so with a write
// buffer of 128 bytes each is one whole Write on rawConn; rawConn's mutex
// keeps them and the hub's frames from interleaving.

// Buffer sizes of a connection. net/http hands a hijacked connection over
// with 4 KiB read and write buffers that it would keep for its life. Client
// messages are mostly a few hundred bytes (longer ones are read past the
// buffer); the library writes only control frames.
const (
	ReadBufferSize  = 512
	WriteBufferSize = 128 // the largest control frame is 2 + 125 bytes
)

// textFrame encodes payload as one final, unmasked text frame.
func textFrame(payload []byte) []byte {
	n := len(payload)
	var frame []byte
	switch {
	case n < 126:
		frame = append(make([]byte, 0, 2+n), 0x81, byte(n))
	case n <= 0xffff:
		frame = binary.BigEndian.AppendUint16(append(make([]byte, 0, 4+n), 0x81, 126), uint16(n))
	default:
		frame = binary.BigEndian.AppendUint64(append(make([]byte, 0, 10+n), 0x81, 127), uint64(n))
	}
	return append(frame, payload...)
}

// pingFrame is the keepalive ping: final, no payload.
var pingFrame = []byte{0x89, 0x00}

// pongFrameLen is the length of a client's answer to pingFrame: a final,
// masked pong frame without payload (two header bytes and the mask key).
const pongFrameLen = 6

// isPong reports whether b starts with a client's pong to pingFrame.
func isPong(b []byte) bool { return len(b) >= pongFrameLen && b[0] == 0x8A && b[1] == 0x80 }

// rawConn is the hijacked connection, shared by the library's writes and
// the hub's.
type rawConn struct {
	net.Conn
	// sc reaches the socket for writes that never wait and for waiting
	// until a read would not block; nil when the connection has none (TLS
	// in process, a platform without it). The hub then writes in a
	// goroutine per busy client and reads only through the library.
	sc syscall.RawConn

	mu sync.Mutex // one frame at a time
}

func newRawConn(conn net.Conn) *rawConn {
	r := &rawConn{Conn: conn}
	if c, ok := conn.(syscall.Conn); ok && pollSupported {
		if sc, err := c.SyscallConn(); err == nil {
			r.sc = sc
		}
	}
	return r
}

// Write is the library's path: one control frame per call.
func (r *rawConn) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.Conn.Write(p)
}

// writeNow writes as much of frame as the socket takes without waiting and
// returns the rest.
func (r *rawConn) writeNow(frame []byte) (rest []byte, err error) {
	if r.sc == nil {
		return frame, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	n, err := writeNonblocking(r.sc, frame)
	return frame[n:], err
}

// writeAll writes p, waiting at most timeout for the socket to take it.
func (r *rawConn) writeAll(p []byte, timeout time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.SetWriteDeadline(time.Now().Add(timeout)); err != nil {
		return err
	}
	_, err := r.Conn.Write(p)
	if derr := r.SetWriteDeadline(time.Time{}); err == nil {
		err = derr
	}
	return err
}

// hijacker hands the library the hijacked connection with small buffers
// and keeps what the hub needs of it. It must implement Unwrap, or the
// upgrade breaks.
type hijacker struct {
	http.ResponseWriter
	raw *rawConn
	br  *bufio.Reader
	// early: the client sent bytes behind its handshake, which the library
	// holds outside br until its first read.
	early bool
}

func (h *hijacker) Unwrap() http.ResponseWriter { return h.ResponseWriter }

func (h *hijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	// Bytes the client sent after its handshake are in the old buffer:
	// carry them over, and buffer them at once, since the websocket library
	// resets the reader onto the connection keeping only what is buffered.
	pending, _ := brw.Peek(brw.Reader.Buffered())
	pending = bytes.Clone(pending)
	h.raw = newRawConn(conn)
	h.early = len(pending) > 0
	h.br = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(pending), conn), max(ReadBufferSize, len(pending)))
	if len(pending) > 0 {
		if _, err := h.br.Peek(len(pending)); err != nil {
			conn.Close()
			return nil, nil, err
		}
	}
	return h.raw, bufio.NewReadWriter(h.br, bufio.NewWriterSize(h.raw, WriteBufferSize)), nil
}
