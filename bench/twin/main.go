// Command twinbench measures the digital twin's ingest rate and the cost of
// viewers polling data streams. bench/twin/run.sh drives it; it prints
// figures and asserts nothing.
//
//	twinbench ingest -db DSN [-n 100000] [-producers 8]
//	twinbench http-ingest -url URL [-n 20000] [-c 64]
//	twinbench viewers -url URL -pid PID [-viewers 1000] [-every 2s] [-for 60s]
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"journeyman/internal/store"
	"journeyman/internal/twin"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: twinbench ingest|http-ingest|viewers …")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "ingest":
		err = ingest(os.Args[2:])
	case "http-ingest":
		err = httpIngest(os.Args[2:])
	case "viewers":
		err = viewers(os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "twinbench:", err)
		os.Exit(1)
	}
}

var ids = func() []string {
	var out []string
	for _, eq := range twin.SeedEquipment() {
		out = append(out, eq.ID)
	}
	return out
}()

func reading(i int, at time.Time) twin.SensorUpdate {
	f := float64(i % 100)
	return twin.SensorUpdate{
		EquipmentID: ids[i%len(ids)],
		Values: []twin.Value{{Key: "temperature", Value: 40 + f/10}, {Key: "pressure", Value: 500 + f}, {Key: "vibration", Value: 1 + f/100},
			{Key: "current", Value: 40 + f/5}, {Key: "voltage", Value: 460 + f/50}, {Key: "rpm", Value: 1750 + f}, {Key: "efficiency", Value: 85 + f/20}},
		Timestamp: at, ReceivedAt: at,
	}
}

// ingest pushes n sensor-data messages through the ingester that the API
// and MQTT telemetry share, from several producers at once, and reports the
// rate at which they were committed.
func ingest(args []string) error {
	fs := flag.NewFlagSet("ingest", flag.ExitOnError)
	dsn := fs.String("db", "", "SQLite path or postgres:// URL of a server to create a scratch database on")
	n := fs.Int("n", 100000, "messages (7 readings each)")
	producers := fs.Int("producers", 8, "concurrent producers")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	target := *dsn
	if store.IsPostgresURL(target) {
		scratch, drop, err := scratchPostgres(ctx, target)
		if err != nil {
			return err
		}
		defer drop()
		target = scratch
	}
	st, err := store.Open(ctx, target)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.SeedEquipment(ctx, twin.SeedEquipment()); err != nil {
		return err
	}
	var batches, maxBatch atomic.Int64
	in := twin.NewIngester(func(ctx context.Context, u []twin.SensorUpdate) ([]twin.Outcome, error) {
		batches.Add(1)
		if int64(len(u)) > maxBatch.Load() {
			maxBatch.Store(int64(len(u)))
		}
		return st.RecordSensorData(ctx, u)
	})
	var done, failed atomic.Int64
	var wg sync.WaitGroup
	finished := make(chan struct{})
	start := time.Now()
	per := *n / *producers
	for p := range *producers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range per {
				at := time.Now().UTC()
				for {
					err := in.Enqueue(reading(p*per+i, at), func(o twin.Outcome) {
						if o.Err != nil {
							failed.Add(1)
						}
						if done.Add(1) == int64(per**producers) {
							close(finished)
						}
					})
					if err == nil {
						break
					}
					time.Sleep(time.Millisecond) // queue full: back off as a broker client would
				}
			}
		}()
	}
	wg.Wait()
	<-finished
	elapsed := time.Since(start)
	total := per * *producers
	fmt.Printf("ingest %-8s %d messages (%d readings) from %d producers in %.2fs: %.0f messages/s, %.0f readings/s; %d failed\n",
		st.Dialect(), total, total*7, *producers, elapsed.Seconds(), float64(total)/elapsed.Seconds(), float64(total*7)/elapsed.Seconds(), failed.Load())
	fmt.Printf("ingest %-8s %d transactions, mean %.0f and at most %d messages each\n", st.Dialect(), batches.Load(), float64(total)/float64(batches.Load()), maxBatch.Load())
	return nil
}

func scratchPostgres(ctx context.Context, base string) (string, func(), error) {
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	b := make([]byte, 6)
	rand.Read(b)
	name := "journeyman_bench_" + hex.EncodeToString(b)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		return "", nil, err
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, err
	}
	u.Path = "/" + name
	return u.String(), func() {
		if _, err := admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			fmt.Fprintf(os.Stderr, "drop the scratch database %s: %v\n", name, err)
		}
		admin.Close()
	}, nil
}

var transport = &http.Transport{MaxIdleConns: 2000, MaxIdleConnsPerHost: 2000}

// client is one browser: its own cookie jar (so one guest learner, as the
// app's identity cookie makes it), sharing the connection pool.
// send makes one request and reads its answer whole, so that the
// connection is reused, and returns its status.
func send(ctx context.Context, hc *http.Client, method, url, body string) (int, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		return 0, err
	}
	return res.StatusCode, nil
}

func client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Timeout: 30 * time.Second, Transport: transport, Jar: jar}
}

// httpIngest posts n sensor-data calls with c clients at once.
func httpIngest(args []string) error {
	fs := flag.NewFlagSet("http-ingest", flag.ExitOnError)
	base := fs.String("url", "", "server URL")
	n := fs.Int("n", 20000, "calls")
	c := fs.Int("c", 64, "concurrent clients")
	pid := fs.Int("pid", 0, "server process id, to report its CPU time per call")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cpu0, _ := cpuSeconds(*pid)
	var next, failed atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range *c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := client()
			for {
				i := int(next.Add(1)) - 1
				if i >= *n {
					return
				}
				f := float64(i % 100)
				body := fmt.Sprintf(`{"sensorData":{"temperature":%g,"pressure":%g,"vibration":%g,"current":%g,"voltage":%g,"rpm":%g,"efficiency":%g}}`,
					40+f/10, 500+f, 1+f/100, 40+f/5, 460+f/50, 1750+f, 85+f/20)
				status, err := send(context.Background(), hc, http.MethodPost, *base+"/api/digital-twin/equipment/"+ids[i%len(ids)]+"/sensor-data", body)
				if err != nil || status != http.StatusOK {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	fmt.Printf("http sensor-data: %d calls (%d readings) with %d clients in %.2fs: %.0f calls/s, %.0f readings/s; %d failed\n",
		*n, *n*7, *c, elapsed.Seconds(), float64(*n)/elapsed.Seconds(), float64(*n*7)/elapsed.Seconds(), failed.Load())
	if *pid != 0 {
		cpu1, _ := cpuSeconds(*pid)
		fmt.Printf("http sensor-data: server CPU %.2f s = %.2f CPU-ms per call (%.0f calls/s per CPU core)\n", cpu1-cpu0, (cpu1-cpu0)*1000/float64(*n), float64(*n)/(cpu1-cpu0))
	}
	return nil
}

// cpuSeconds reads a process's user+system CPU time from /proc.
func cpuSeconds(pid int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold spaces.
	rest := b[bytes.LastIndexByte(b, ')')+2:]
	fields := strings.Fields(string(rest))
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return (utime + stime) / 100, nil // USER_HZ is 100 on Linux
}

// viewers simulates the twin page open in many browsers with an item
// selected: each polls that item's data streams every period, and the
// server's CPU time over the run is read from /proc.
func viewers(args []string) error {
	fs := flag.NewFlagSet("viewers", flag.ExitOnError)
	base := fs.String("url", "", "server URL")
	pid := fs.Int("pid", 0, "server process id")
	count := fs.Int("viewers", 1000, "viewers")
	every := fs.Duration("every", 2*time.Second, "poll period")
	dur := fs.Duration("for", time.Minute, "run time")
	if err := fs.Parse(args); err != nil {
		return err
	}
	// Warm-up: each viewer's first request makes its guest learner (a
	// write); what is measured is the steady polling that follows.
	clients := make([]*http.Client, *count)
	warm := time.Now()
	var wwg sync.WaitGroup
	for v := range *count {
		clients[v] = client()
		wwg.Add(1)
		go func() {
			defer wwg.Done()
			// A failed first visit shows as failed polls below.
			_, _ = send(context.Background(), clients[v], http.MethodGet, *base+"/api/me", "")
		}()
	}
	wwg.Wait()
	fmt.Printf("viewers: %d first visits (guest learners created) in %.1fs\n", *count, time.Since(warm).Seconds())
	ctx, cancel := context.WithTimeout(context.Background(), *dur)
	defer cancel()
	var polls, failed atomic.Int64
	var latency atomic.Int64 // microseconds, summed
	cpu0, err := cpuSeconds(*pid)
	if err != nil {
		return err
	}
	start := time.Now()
	var wg sync.WaitGroup
	for v := range *count {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Spread the viewers over one period, as real page loads would be.
			select {
			case <-time.After(time.Duration(v) * *every / time.Duration(*count)):
			case <-ctx.Done():
				return
			}
			hc := clients[v]
			tick := time.NewTicker(*every)
			defer tick.Stop()
			path := *base + "/api/digital-twin/equipment/" + ids[v%len(ids)] + "/data-streams"
			for {
				t0 := time.Now()
				status, err := send(ctx, hc, http.MethodGet, path, "")
				if ctx.Err() != nil {
					return
				}
				if err != nil || status != http.StatusOK {
					failed.Add(1)
				} else {
					polls.Add(1)
					latency.Add(time.Since(t0).Microseconds())
				}
				select {
				case <-tick.C:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu1, err := cpuSeconds(*pid)
	if err != nil {
		return err
	}
	p := polls.Load()
	mean := 0.0
	if p > 0 {
		mean = float64(latency.Load()) / float64(p) / 1000
	}
	cpu := cpu1 - cpu0
	target := float64(*count) / every.Seconds() // polls a second the viewers mean to make
	perPoll := 0.0
	if p > 0 {
		perPoll = cpu / float64(p)
	}
	fmt.Printf("viewers: %d polling data-streams every %s for %.0fs: %d polls (%.0f/s of the %.0f/s intended), %d failed, mean latency %.1f ms\n",
		*count, *every, elapsed.Seconds(), p, float64(p)/elapsed.Seconds(), target, failed.Load(), mean)
	fmt.Printf("viewers: server CPU %.2f s in %.0f s = %.2f CPU-seconds per minute measured; %.2f CPU-ms per poll = %.1f CPU-seconds per minute at the intended %.0f polls/s\n",
		cpu, elapsed.Seconds(), cpu*60/elapsed.Seconds(), perPoll*1000, perPoll*target*60, target)
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("viewers: machine load average during the run: %s", load)
	}
	return nil
}
