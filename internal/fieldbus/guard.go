package fieldbus

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"
)

// Limits of the guard in front of every device.
const (
	// MaxDeviceConns is how many clients one device serves at once; one
	// more is accepted and closed at once, so it fails fast instead of
	// waiting in the kernel's backlog.
	MaxDeviceConns = 64
	// FirstFrameTimeout is how long a new client has to send its first
	// whole frame. Plant scanners send at once; a socket that stays silent
	// or stops half-way is a fault, not a client.
	FirstFrameTimeout = 5 * time.Second
	// IdleTimeout closes a connection whose client sent nothing for this
	// long (a scanner polls every few seconds at most).
	IdleTimeout = 2 * time.Minute
	// maxFirstFrame bounds what the guard buffers before the device sees
	// anything: an OPC UA Hello is under 4 KiB, a Modbus ADU 260 bytes.
	maxFirstFrame = 64 << 10
)

// guard stands between a device's clients and its protocol server. The
// libraries' servers trust their clients: gopcua answers the Hello of each
// new connection in its accept loop, so one silent socket stalls every
// later client, and simonvetter/modbus holds a slot per idle socket until
// its cap turns everyone away. The guard holds a new connection until its
// first frame has arrived whole, and only then connects it to the server
// and hands the frame over in one write; so the server never waits on a
// client, each connection runs on its own goroutines, and silent ones are
// closed on the guard's clock.
type guard struct {
	ln    net.Listener
	dial  func(context.Context) (net.Conn, error) // a connection to the protocol server
	split func([]byte) int                        // length of the first frame in b; 0 while incomplete
	// wrap, when set, stands between the guard and each connection to the
	// server (the OPC UA device's opening of secure channels).
	wrap func(net.Conn) net.Conn

	maxConns   int
	firstFrame time.Duration
	idle       time.Duration

	mu       sync.Mutex
	conns    map[net.Conn]struct{} // clients, which the cap counts
	backends map[net.Conn]struct{} // their connections to the server
	lastDial time.Time             // when a connection to the server was last opened
	closed   bool
	wg       sync.WaitGroup
}

func newGuard(ln net.Listener, dial func(context.Context) (net.Conn, error), split func([]byte) int) *guard {
	g := &guard{ln: ln, dial: dial, split: split,
		maxConns: MaxDeviceConns, firstFrame: FirstFrameTimeout, idle: IdleTimeout,
		conns: map[net.Conn]struct{}{}, backends: map[net.Conn]struct{}{}}
	return g
}

// dialTCP is a guard's dial to a server listening at addr.
func dialTCP(addr string) func(context.Context) (net.Conn, error) {
	return func(ctx context.Context) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "tcp", addr)
	}
}

func (g *guard) start() {
	g.wg.Add(1)
	go g.serve()
}

func (g *guard) addr() string { return g.ln.Addr().String() }

// lastServerDial is when the guard last opened a connection to the server
// (zero if never).
func (g *guard) lastServerDial() time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.lastDial
}

// close stops accepting, cuts every connection and waits for their
// goroutines.
func (g *guard) close() error {
	g.mu.Lock()
	g.closed = true
	err := g.ln.Close()
	for c := range g.conns {
		c.Close()
	}
	for c := range g.backends {
		c.Close()
	}
	g.mu.Unlock()
	g.wg.Wait()
	return err
}

func (g *guard) serve() {
	defer g.wg.Done()
	for {
		conn, err := g.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			// Out of file descriptors and the like: wait rather than spin.
			time.Sleep(50 * time.Millisecond)
			continue
		}
		g.mu.Lock()
		if g.closed || len(g.conns) >= g.maxConns {
			g.mu.Unlock()
			conn.Close()
			continue
		}
		g.conns[conn] = struct{}{}
		g.wg.Add(1)
		g.mu.Unlock()
		go func() {
			defer g.wg.Done()
			g.relay(conn)
			g.mu.Lock()
			delete(g.conns, conn)
			g.mu.Unlock()
		}()
	}
}

// relay serves one client: its first frame, then both directions until
// either side closes or the client falls silent.
func (g *guard) relay(client net.Conn) {
	defer client.Close()
	first, err := g.readFirstFrame(client)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), g.firstFrame)
	server, err := g.dial(ctx)
	cancel()
	if err != nil {
		return
	}
	defer server.Close()
	if g.wrap != nil {
		server = g.wrap(server)
	}
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return
	}
	g.backends[server] = struct{}{} // so close cuts it too
	g.lastDial = time.Now()
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		delete(g.backends, server)
		g.mu.Unlock()
	}()
	if _, err := server.Write(first); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() { g.copy(server, client, true); done <- struct{}{} }()
	go func() { g.copy(client, server, false); done <- struct{}{} }()
	<-done
	// Either side ended: end the other, so neither goroutine lingers.
	client.Close()
	server.Close()
	<-done
}

// readFirstFrame reads until split finds a whole frame, within firstFrame.
// Bytes past the frame (a client may pipeline) are kept with it.
func (g *guard) readFirstFrame(c net.Conn) ([]byte, error) {
	if err := c.SetReadDeadline(time.Now().Add(g.firstFrame)); err != nil {
		return nil, err
	}
	buf := make([]byte, 0, 512)
	tmp := make([]byte, 4096)
	for {
		if n := g.split(buf); n > 0 && n <= len(buf) {
			return buf, nil
		} else if n > maxFirstFrame {
			return nil, errors.New("first frame too large")
		}
		if len(buf) >= maxFirstFrame {
			return nil, errors.New("first frame too large")
		}
		n, err := c.Read(tmp)
		buf = append(buf, tmp[:n]...)
		if err != nil {
			return nil, err
		}
	}
}

// copy moves bytes from src to dst. From the client, every read must come
// within the idle timeout; towards the client, every write too, so a
// client that stops reading is cut off rather than holding the relay.
func (g *guard) copy(dst, src net.Conn, fromClient bool) {
	buf := make([]byte, 32<<10)
	for {
		if fromClient {
			if err := src.SetReadDeadline(time.Now().Add(g.idle)); err != nil {
				return
			}
		}
		n, err := src.Read(buf)
		if n > 0 {
			if !fromClient {
				if err := dst.SetWriteDeadline(time.Now().Add(g.idle)); err != nil {
					return
				}
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
