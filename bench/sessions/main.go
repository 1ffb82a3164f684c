// Command sessions is the load generator of bench/sessions/run.sh: each of
// -conns workers is a learner with one running XR session, sending periodic
// PATCH updates as fast as the server answers for -duration. It prints the
// throughput and latency percentiles; it asserts nothing.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8080", "server URL")
	conns := flag.Int("conns", 16, "concurrent learners, one connection each")
	duration := flag.Duration("duration", 10*time.Second, "how long to send")
	warmup := flag.Duration("warmup", 2*time.Second, "unmeasured sending before")
	label := flag.String("label", "", "name printed with the figures")
	flag.Parse()

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *conns, MaxConnsPerHost: *conns}}
	type worker struct{ cookie, path string }
	workers := make([]worker, *conns)
	for i := range workers {
		// The server issues every identity: take the guest token the API hands out.
		req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, *url+"/api/me", nil)
		if err != nil {
			fmt.Fprintf(os.Stderr, "guest identity: %v\n", err)
			os.Exit(1)
		}
		me, err := client.Do(req)
		if err != nil {
			fmt.Fprintf(os.Stderr, "guest identity: %v\n", err)
			os.Exit(1)
		}
		me.Body.Close()
		cookie := ""
		for _, c := range me.Cookies() {
			if c.Name == "journeyman_guest" {
				cookie = c.Name + "=" + c.Value
			}
		}
		body := fmt.Sprintf(`{"moduleId":"electrical-lockout-tagout","sessionType":"desktop","deviceType":"bench","startedAt":%q}`,
			time.Now().UTC().Format(time.RFC3339Nano))
		res, err := do(client, "POST", *url+"/api/xr-sessions", cookie, body)
		if err != nil || res.status != http.StatusCreated {
			fmt.Fprintf(os.Stderr, "create session: %v %d %s\n", err, res.status, res.body)
			os.Exit(1)
		}
		var x struct{ ID string }
		if err := json.Unmarshal(res.body, &x); err != nil {
			fmt.Fprintf(os.Stderr, "create session: %v in %s\n", err, res.body)
			os.Exit(1)
		}
		workers[i] = worker{cookie, *url + "/api/xr-sessions/" + x.ID}
	}

	var mu sync.Mutex
	var lat []time.Duration
	var errs int
	start := time.Now()
	measureFrom := start.Add(*warmup)
	end := measureFrom.Add(*duration)
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Go(func() {
			var mine []time.Duration
			bad := 0
			for n := 0; ; n++ {
				t0 := time.Now()
				if t0.After(end) {
					break
				}
				body := fmt.Sprintf(`{"position":{"x":%d.5,"y":1.6,"z":-1},"rotation":{"x":0,"y":0.3826834,"z":0,"w":0.9238795},"duration":%d}`, n%10, n%3600)
				res, err := do(client, "PATCH", w.path, w.cookie, body)
				d := time.Since(t0)
				if t0.Before(measureFrom) {
					continue
				}
				if err != nil || res.status != http.StatusOK {
					bad++
					continue
				}
				mine = append(mine, d)
			}
			mu.Lock()
			lat = append(lat, mine...)
			errs += bad
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	fmt.Printf("%-10s PATCH /api/xr-sessions/{id}: %d ok, %d errors in %s with %d connections: %.0f req/s; p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n",
		*label, len(lat), errs, *duration, *conns, float64(len(lat))/duration.Seconds(),
		ms(pct(0.50)), ms(pct(0.90)), ms(pct(0.99)), ms(pct(1)))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

type result struct {
	status int
	body   []byte
}

func do(c *http.Client, method, url, cookie, body string) (result, error) {
	req, err := http.NewRequestWithContext(context.Background(), method, url, bytes.NewBufferString(body))
	if err != nil {
		return result{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Cookie", cookie)
	res, err := c.Do(req)
	if err != nil {
		return result{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return result{res.StatusCode, b}, err
}
