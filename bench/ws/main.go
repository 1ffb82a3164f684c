// Command ws is the load generator of bench/ws/run.sh: it connects -clients
// WebSocket clients (each a different guest learner), reports the server's
// memory per idle connection, then has one client after another raise
// -alerts safety alerts and measures how long each takes to reach every
// client. It asserts nothing.
//
// The clients are deliberately lean: a raw TCP connection, a hand-written
// upgrade request, and a reader that only looks for frame boundaries, answers
// pings and searches text frames for the alert's marker. With tens of
// thousands of clients on one core, a full WebSocket client library's
// per-message work would be a large share of the latency measured, and this
// program measures the server.
package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	server := flag.String("url", "http://127.0.0.1:8080", "server URL")
	clients := flag.Int("clients", 5000, "WebSocket clients to connect")
	pid := flag.Int("pid", 0, "server process id, to read its RSS from /proc")
	dialers := flag.Int("dialers", 50, "concurrent dials")
	sources := flag.Int("sources", 0, "source addresses 127.0.0.1, 127.0.0.2, … to spread the clients over (one per 10,000 clients when 0): one address has about 28,000 local ports, and an earlier run's ports stay taken for a minute (TIME_WAIT)")
	alerts := flag.Int("alerts", 5, "safety alerts to send, one after another")
	settle := flag.Duration("settle", 3*time.Second, "wait after the last connection before measuring memory")
	pprofURL := flag.String("pprof", "", "the server's profile endpoint (http://…/debug/pprof); with -profile-dir, profiles of the server are saved")
	profileDir := flag.String("profile-dir", "", "folder for heap.pprof (idle connections) and cpu.pprof (during the alerts)")
	flag.Parse()

	u, err := url.Parse(*server)
	if err != nil {
		fail("-url: %v", err)
	}
	if *sources <= 0 {
		*sources = (*clients + 9_999) / 10_000
	}
	if *sources > 254 {
		fail("-sources %d: at most 254 source addresses, 127.0.0.1 to 127.0.0.254", *sources)
	}
	before := sample(*server, *pid)

	b := &bench{host: u.Host, origin: *server, received: make([][]atomic.Int64, *alerts), start: time.Now()}
	for i := range b.received {
		b.received[i] = make([]atomic.Int64, *clients)
	}
	conns := make([]*wsConn, *clients)
	var next, failed atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range *dialers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= *clients {
					return
				}
				src := &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(1+i%*sources))} //nolint:gosec // G115: sources is at most 254, checked above
				c, err := b.dial(src, i)
				if err != nil {
					if failed.Add(1) <= 3 {
						fmt.Fprintln(os.Stderr, "dial:", err)
					}
					continue
				}
				conns[i] = c
				go c.readLoop()
			}
		})
	}
	wg.Wait()
	connected := *clients - int(failed.Load())
	b.connected.Store(int64(connected))
	fmt.Printf("connected %d clients (%d failed) from %d source addresses in %.2f s\n", connected, failed.Load(), *sources, time.Since(start).Seconds())
	if connected == 0 {
		os.Exit(1)
	}
	time.Sleep(*settle) // let the server settle: handshake garbage, writer goroutines
	after := sample(*server, *pid)
	n := float64(connected)
	fmt.Printf("server RSS: %.1f MiB idle, %.1f MiB with %d connections: %.1f KB per connection\n",
		mib(before.rss), mib(after.rss), connected, float64(after.rss-before.rss)/n/1024)
	fmt.Printf("server Go heap in use + stacks: %.1f MiB → %.1f MiB: %.1f KB per connection (stacks %.1f KB)\n",
		mib(before.heap+before.stack), mib(after.heap+after.stack), float64(after.heap+after.stack-before.heap-before.stack)/n/1024,
		float64(after.stack-before.stack)/n/1024)

	profiling := *pprofURL != "" && *profileDir != ""
	var cpuDone chan struct{}
	if profiling {
		saveProfile(*pprofURL+"/heap", *profileDir+"/heap.pprof")
		cpuDone = make(chan struct{})
		go func() {
			defer close(cpuDone)
			saveProfile(fmt.Sprintf("%s/profile?seconds=%d", *pprofURL, max(1, *alerts)), *profileDir+"/cpu.pprof")
		}()
	}

	live := slices.DeleteFunc(slices.Clone(conns), func(c *wsConn) bool { return c == nil })
	var p99s []float64
	for round := range *alerts {
		marker := fmt.Sprintf("bench alert %d %d", round, time.Now().UnixNano())
		done := make(chan struct{})
		b.arm(round, []byte(marker), done)
		msg, _ := json.Marshal(map[string]any{"type": "safety_alert", "payload": map[string]string{"alertType": "emergency", "description": marker}})
		sender := live[round*7919%len(live)]
		cpuBefore := cpuTime(*pid)
		sent := time.Since(b.start)
		if err := sender.writeText(msg); err != nil {
			fail("send alert: %v", err)
		}
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			fmt.Printf("alert %d: after 30 s only %d of %d clients had it\n", round+1, b.got.Load(), b.connected.Load())
		}
		cpu := cpuTime(*pid) - cpuBefore
		b.disarm()
		var lat []time.Duration
		for i := range b.received[round] {
			if t := time.Duration(b.received[round][i].Load()); t != 0 {
				lat = append(lat, t-sent)
			}
		}
		slices.Sort(lat)
		p99s = append(p99s, pct(lat, 0.99))
		fmt.Printf("alert %d to %d of %d clients: p50 %.1f ms, p99 %.1f ms, max %.1f ms (stored, NOTIFY, fan-out); server CPU %.0f ms, %.1f µs per client\n",
			round+1, len(lat), b.connected.Load(), pct(lat, 0.5), pct(lat, 0.99), pct(lat, 1),
			float64(cpu.Microseconds())/1000, float64(cpu.Nanoseconds())/1000/float64(max(1, len(lat))))
		time.Sleep(500 * time.Millisecond)
	}
	slices.Sort(p99s)
	fmt.Printf("delivery to %d clients: median p99 of %d alerts %.1f ms\n", connected, len(p99s), p99s[len(p99s)/2])
	if profiling {
		<-cpuDone
		fmt.Printf("server profiles: %s/heap.pprof (idle), %s/cpu.pprof (alerts)\n", *profileDir, *profileDir)
	}
	for _, c := range live {
		c.conn.Close()
	}
}

// get fetches url; nothing cancels the benchmark's requests but the
// server's answer.
func get(url string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

// saveProfile fetches a profile from the server into file.
func saveProfile(url, file string) {
	res, err := get(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		return
	}
	defer res.Body.Close()
	f, err := os.Create(file) //nolint:gosec // G304: the operator names the profile directory (-profile-dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
		return
	}
	defer f.Close()
	if _, err := io.Copy(f, res.Body); err != nil {
		fmt.Fprintln(os.Stderr, "profile:", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

func pct(lat []time.Duration, p float64) float64 {
	if len(lat) == 0 {
		return 0
	}
	return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
}

// bench is what the clients share: the alert being waited for, and when
// each client received each alert.
type bench struct {
	host, origin string
	start        time.Time
	received     [][]atomic.Int64 // [alert][client]: time since start; 0: not received
	connected    atomic.Int64

	mu     sync.Mutex // guards the fields below, read on every text frame
	marker []byte
	round  int
	done   chan struct{}
	got    atomic.Int64
}

func (b *bench) arm(round int, marker []byte, done chan struct{}) {
	b.mu.Lock()
	b.round, b.marker, b.done = round, marker, done
	b.got.Store(0)
	b.mu.Unlock()
}

func (b *bench) disarm() {
	b.mu.Lock()
	b.marker, b.done = nil, nil
	b.mu.Unlock()
}

// seen records that client i received a text frame holding payload.
func (b *bench) seen(i int, payload []byte) {
	now := time.Since(b.start)
	b.mu.Lock()
	marker, round, done := b.marker, b.round, b.done
	b.mu.Unlock()
	if marker == nil || !bytes.Contains(payload, marker) {
		return
	}
	b.received[round][i].Store(int64(now))
	if b.got.Add(1) == b.connected.Load() {
		close(done)
	}
}

// wsConn is one client connection.
type wsConn struct {
	b    *bench
	i    int
	conn net.Conn
	br   *bufio.Reader
	wmu  sync.Mutex
}

func (b *bench) dial(src *net.TCPAddr, i int) (*wsConn, error) {
	d := net.Dialer{LocalAddr: src, Timeout: 30 * time.Second}
	conn, err := d.Dial("tcp", b.host)
	if err != nil {
		return nil, err
	}
	if err := conn.SetDeadline(time.Now().Add(30 * time.Second)); err != nil {
		conn.Close()
		return nil, err
	}
	br := bufio.NewReaderSize(conn, 512)
	// The server issues every identity: each client takes the guest token
	// GET /api/me hands out, on the connection it then upgrades.
	if _, err := io.WriteString(conn, "GET /api/me HTTP/1.1\r\nHost: "+b.host+"\r\n\r\n"); err != nil {
		conn.Close()
		return nil, err
	}
	me, err := http.ReadResponse(br, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	_, _ = io.Copy(io.Discard, me.Body)
	me.Body.Close()
	cookie := ""
	for _, c := range me.Cookies() {
		if c.Name == "journeyman_guest" {
			cookie = c.Name + "=" + c.Value
		}
	}
	if cookie == "" {
		conn.Close()
		return nil, fmt.Errorf("GET /api/me answered %s without a guest token", me.Status)
	}
	key := make([]byte, 16)
	rand.Read(key)
	req := "GET /ws HTTP/1.1\r\nHost: " + b.host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + base64.StdEncoding.EncodeToString(key) + "\r\n" +
		"Origin: " + b.origin + "\r\nCookie: " + cookie + "\r\n\r\n"
	if _, err := io.WriteString(conn, req); err != nil {
		conn.Close()
		return nil, err
	}
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		conn.Close()
		return nil, err
	}
	res.Body.Close() // empty: the connection is the WebSocket's from here
	if res.StatusCode != http.StatusSwitchingProtocols {
		conn.Close()
		return nil, fmt.Errorf("upgrade answered %s", res.Status)
	}
	if err := conn.SetDeadline(time.Time{}); err != nil {
		conn.Close()
		return nil, err
	}
	return &wsConn{b: b, i: i, conn: conn, br: br}, nil
}

// readLoop reads server frames (never masked) until the connection ends,
// answering pings so that the server's keepalive keeps the client.
func (c *wsConn) readLoop() {
	var hdr [8]byte
	payload := make([]byte, 0, 1024)
	for {
		b0, err := c.br.ReadByte()
		if err != nil {
			return
		}
		b1, err := c.br.ReadByte()
		if err != nil {
			return
		}
		n := uint64(b1 & 0x7f)
		switch n {
		case 126:
			if _, err := io.ReadFull(c.br, hdr[:2]); err != nil {
				return
			}
			n = uint64(binary.BigEndian.Uint16(hdr[:2]))
		case 127:
			if _, err := io.ReadFull(c.br, hdr[:8]); err != nil {
				return
			}
			n = binary.BigEndian.Uint64(hdr[:8])
		}
		if n > 1<<20 {
			return
		}
		payload = slices.Grow(payload[:0], int(n))[:n]
		if _, err := io.ReadFull(c.br, payload); err != nil {
			return
		}
		switch b0 & 0x0f {
		case 0x1: // text
			c.b.seen(c.i, payload)
		case 0x9: // ping
			if c.writeFrame(0xA, payload) != nil {
				return
			}
		case 0x8: // close
			return
		}
	}
}

func (c *wsConn) writeText(p []byte) error { return c.writeFrame(0x1, p) }

// writeFrame writes one final frame, masked as a client must (the zero key
// leaves the payload as it is).
func (c *wsConn) writeFrame(opcode byte, p []byte) error {
	n := len(p)
	if n > 0xffff {
		return errors.New("frame too long for this client")
	}
	frame := []byte{0x80 | opcode}
	if n < 126 {
		frame = append(frame, 0x80|byte(n))
	} else {
		frame = binary.BigEndian.AppendUint16(append(frame, 0x80|126), uint16(n))
	}
	frame = append(frame, 0, 0, 0, 0)
	frame = append(frame, p...)
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.conn.Write(frame)
	return err
}

// cpuTime returns the CPU time the server process has used (user and
// system), from /proc; it shows what a delivery costs the server however
// busy the machine is.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses: utime
	// and stime are the 12th and 13th, in clock ticks (100 a second on
	// Linux).
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	user, _ := strconv.ParseInt(f[11], 10, 64)
	sys, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(user+sys) * 10 * time.Millisecond
}

type memory struct{ rss, heap, stack int64 }

// sample reads the server's RSS from /proc and its Go heap and stack use
// from /metrics.
func sample(server string, pid int) memory {
	var m memory
	if f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid)); err == nil {
		s := bufio.NewScanner(f)
		for s.Scan() {
			if f := strings.Fields(s.Text()); len(f) >= 2 && f[0] == "VmRSS:" {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				m.rss = kb * 1024
			}
		}
		f.Close()
	}
	res, err := get(server + "/metrics")
	if err != nil {
		return m
	}
	defer res.Body.Close()
	s := bufio.NewScanner(res.Body)
	for s.Scan() {
		line := s.Text()
		if v, ok := strings.CutPrefix(line, "go_memstats_heap_inuse_bytes "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			m.heap = int64(f)
		}
		if v, ok := strings.CutPrefix(line, "go_memstats_stack_inuse_bytes "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			m.stack = int64(f)
		}
	}
	return m
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
