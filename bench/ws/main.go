// Command ws is the load generator of bench/ws/run.sh: it connects -clients
// WebSocket clients (each a different guest learner), reports the server's
// memory per idle connection, then has one client raise a safety alert and
// measures how long it takes to reach every client. It asserts nothing.
package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8080", "server URL")
	clients := flag.Int("clients", 5000, "WebSocket clients to connect")
	pid := flag.Int("pid", 0, "server process id, to read its RSS from /proc")
	dialers := flag.Int("dialers", 50, "concurrent dials")
	flag.Parse()

	before := sample(*url, *pid)
	marker := fmt.Sprintf("bench alert %d", time.Now().UnixNano())
	received := make([]time.Time, *clients)
	var got atomic.Int64
	allGot := make(chan struct{})

	conns := make([]*websocket.Conn, *clients)
	start := time.Now()
	var wg sync.WaitGroup
	next := atomic.Int64{}
	var failed atomic.Int64
	for range *dialers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= *clients {
					return
				}
				c, err := dial(*url)
				if err != nil {
					if failed.Add(1) <= 3 {
						fmt.Fprintln(os.Stderr, "dial:", err)
					}
					continue
				}
				conns[i] = c
				go func() {
					for {
						_, b, err := c.Read(context.Background())
						if err != nil {
							return
						}
						if strings.Contains(string(b), marker) {
							received[i] = time.Now()
							if got.Add(1) == int64(*clients)-failed.Load() {
								close(allGot)
							}
						}
					}
				}()
			}
		})
	}
	wg.Wait()
	connected := *clients - int(failed.Load())
	fmt.Printf("connected %d clients (%d failed) in %.2f s\n", connected, failed.Load(), time.Since(start).Seconds())
	time.Sleep(3 * time.Second) // let the server settle: handshake garbage, writer goroutines
	after := sample(*url, *pid)
	n := float64(connected)
	fmt.Printf("server RSS: %.1f MiB idle, %.1f MiB with %d connections: %.1f KB per connection\n",
		mib(before.rss), mib(after.rss), connected, float64(after.rss-before.rss)/n/1024)
	fmt.Printf("server Go heap in use + stacks: %.1f MiB → %.1f MiB: %.1f KB per connection\n",
		mib(before.heap), mib(after.heap), float64(after.heap-before.heap)/n/1024)

	sender := conns[slices.IndexFunc(conns, func(c *websocket.Conn) bool { return c != nil })]
	msg, _ := json.Marshal(map[string]any{"type": "safety_alert", "payload": map[string]string{"alertType": "emergency", "description": marker}})
	sent := time.Now()
	if err := sender.Write(context.Background(), websocket.MessageText, msg); err != nil {
		fmt.Fprintln(os.Stderr, "send alert:", err)
		os.Exit(1)
	}
	select {
	case <-allGot:
	case <-time.After(30 * time.Second):
		fmt.Printf("after 30 s only %d of %d clients had the alert\n", got.Load(), connected)
	}
	var lat []time.Duration
	for i, c := range conns {
		if c != nil && !received[i].IsZero() {
			lat = append(lat, received[i].Sub(sent))
		}
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	fmt.Printf("one safety alert to %d of %d clients: p50 %.1f ms, p99 %.1f ms, max %.1f ms (stored, NOTIFY, fan-out)\n",
		len(lat), connected, pct(0.5), pct(0.99), pct(1))
	for _, c := range conns {
		if c != nil {
			c.CloseNow()
		}
	}
}

func dial(url string) (*websocket.Conn, error) {
	b := make([]byte, 16)
	rand.Read(b)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Cookie": {"journeyman_learner=" + hex.EncodeToString(b)}, "Origin": {url}},
	})
	return c, err
}

type memory struct{ rss, heap int64 }

// sample reads the server's RSS from /proc and its Go heap and stack use
// from /metrics.
func sample(url string, pid int) memory {
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
	res, err := http.Get(url + "/metrics")
	if err != nil {
		return m
	}
	defer res.Body.Close()
	s := bufio.NewScanner(res.Body)
	for s.Scan() {
		line := s.Text()
		for _, name := range []string{"go_memstats_heap_inuse_bytes ", "go_memstats_stack_inuse_bytes "} {
			if strings.HasPrefix(line, name) {
				v, _ := strconv.ParseFloat(strings.TrimPrefix(line, name), 64)
				m.heap += int64(v)
			}
		}
	}
	return m
}

func mib(b int64) float64 { return float64(b) / (1 << 20) }
