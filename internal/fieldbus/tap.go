package fieldbus

import (
	"context"
	"encoding/hex"
	"net"
	"sync"
	"time"
)

// Directions of a frame.
const (
	ToDevice   = "request"  // client → device (or broker)
	FromDevice = "response" // device (or broker) → client
)

// Frame is one protocol message as it crossed the wire.
type Frame struct {
	Direction string  `json:"direction"`
	Length    int     `json:"length"`
	Hex       string  `json:"hex"`
	Summary   string  `json:"summary"`
	Fields    []Field `json:"fields"`
}

// Field is one decoded field of a frame, in wire order.
type Field struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type chunk struct {
	dir  string
	data []byte
}

// tap is a loopback relay between a protocol client and a device that
// records every byte in both directions. Client libraries dial their own
// sockets, so standing between them is the one way to capture the frames
// of any of them unchanged.
type tap struct {
	ln     net.Listener
	target string

	mu     sync.Mutex
	chunks []chunk
	conns  []net.Conn
	done   chan struct{}
}

// newTap starts a relay to target for one exchange, which ctx bounds.
func newTap(ctx context.Context, target string) (*tap, error) {
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	t := &tap{ln: ln, target: target, done: make(chan struct{})}
	go t.serve(ctx)
	return t, nil
}

// Addr is where the client should connect.
func (t *tap) Addr() string { return t.ln.Addr().String() }

func (t *tap) serve(ctx context.Context) {
	defer close(t.done)
	client, err := t.ln.Accept()
	t.ln.Close() // one exchange, one connection
	if err != nil {
		return
	}
	defer client.Close()
	dialer := net.Dialer{Timeout: exchangeTimeout}
	device, err := dialer.DialContext(ctx, "tcp", t.target)
	if err != nil {
		return
	}
	defer device.Close()
	t.mu.Lock()
	t.conns = []net.Conn{client, device}
	t.mu.Unlock()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); t.pipe(device, client, ToDevice) }()
	go func() { defer wg.Done(); t.pipe(client, device, FromDevice) }()
	wg.Wait()
}

func (t *tap) pipe(dst, src net.Conn, dir string) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			t.mu.Lock()
			t.chunks = append(t.chunks, chunk{dir, append([]byte(nil), buf[:n]...)})
			t.mu.Unlock()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	// Pass the close on so the other side's read ends too.
	if c, ok := dst.(*net.TCPConn); !ok || c.CloseWrite() != nil {
		dst.Close()
	}
}

// Close stops the relay once it has drained. The client has finished by
// now, so its last bytes are in flight for a moment at most; a device that
// keeps its end open after the client left is cut off.
func (t *tap) Close() {
	t.ln.Close()
	select {
	case <-t.done:
		return
	case <-time.After(100 * time.Millisecond):
	}
	t.mu.Lock()
	for _, c := range t.conns {
		c.Close()
	}
	t.mu.Unlock()
	<-t.done
}

// Frames splits what was recorded into protocol frames with split, which
// returns the length of the first frame in b (0 when b holds no whole
// frame), and decodes each with decode.
func (t *tap) Frames(split func(b []byte) int, decode func(dir string, b []byte) (string, []Field)) []Frame {
	t.mu.Lock()
	defer t.mu.Unlock()
	// Merge consecutive reads in one direction: TCP may cut a frame anywhere.
	var runs []chunk
	for _, c := range t.chunks {
		if len(runs) > 0 && runs[len(runs)-1].dir == c.dir {
			runs[len(runs)-1].data = append(runs[len(runs)-1].data, c.data...)
			continue
		}
		runs = append(runs, chunk{c.dir, append([]byte(nil), c.data...)})
	}
	var frames []Frame
	for _, r := range runs {
		b := r.data
		for len(b) > 0 {
			n := split(b)
			if n <= 0 || n > len(b) {
				n = len(b) // a partial frame: show what arrived
			}
			summary, fields := decode(r.dir, b[:n])
			frames = append(frames, Frame{Direction: r.dir, Length: n, Hex: hex.EncodeToString(b[:n]), Summary: summary, Fields: fields})
			b = b[n:]
		}
	}
	return frames
}
