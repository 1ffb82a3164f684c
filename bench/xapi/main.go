// Command xapi is the load generator of bench/xapi/run.sh. Given a server
// and the one-time setup link of a fresh organisation admin, it takes an
// xAPI credential through the admin API, then:
//
//  1. times POST /xapi/statements in batches of 50 over -conns connections
//     for -duration (the bodies are made before the clock starts);
//  2. fills the LRS up to -statements statements through the same API;
//  3. times filtered GET /xapi/statements queries, one request at a time
//     and over -get-conns connections.
//
// It prints figures against the targets and asserts nothing.
package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The admin's password, set through the setup link on a scratch database.
const adminPassword = "bench admin climbs the long scaffold" //nolint:gosec // G101: a scratch database's account

// The xAPI version every request speaks.
const xapiVersion = "2.0.0"

// Batch size of the timed POSTs, as the target states it.
const postBatch = 50

func main() {
	o := options{}
	flag.StringVar(&o.base, "url", "", "server URL")
	flag.StringVar(&o.setup, "setup", "", "the admin's one-time setup link (from `journeyman admin create`)")
	flag.StringVar(&o.label, "label", "", "name printed with the figures")
	flag.IntVar(&o.conns, "conns", 16, "connections of the timed POSTs")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "how long the timed POSTs run")
	flag.DurationVar(&o.warmup, "warmup", 2*time.Second, "unmeasured POSTs before")
	flag.IntVar(&o.pregenRate, "pregen-rate", 40000, "statements a second to make bodies for before the timed POSTs (more are made on the fly)")
	flag.IntVar(&o.statements, "statements", 1000000, "statements stored before the GETs are timed")
	flag.IntVar(&o.fillBatch, "fill-batch", 500, "statements per POST while filling")
	flag.IntVar(&o.fillConns, "fill-conns", 8, "connections while filling")
	flag.IntVar(&o.gets, "gets", 2000, "timed GETs of each query shape, for each of the two modes")
	flag.IntVar(&o.getConns, "get-conns", 8, "connections of the concurrent GETs")
	flag.StringVar(&o.analyze, "analyze", "", "a PostgreSQL URL to VACUUM (ANALYZE) after the fill (psql), as autovacuum would on a server that runs it")
	flag.DurationVar(&o.getBudget, "get-budget", 20*time.Second, "longest time spent on one query shape in one mode: a slow shape is reported with fewer requests")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintf(os.Stderr, "%s xapi bench: %v\n", o.label, err)
		os.Exit(1)
	}
}

type options struct {
	base, setup, label        string
	conns, pregenRate         int
	duration, warmup          time.Duration
	statements, fillBatch     int
	fillConns, gets, getConns int
	getBudget                 time.Duration
	analyze                   string
}

func run(o options) error {
	conns := max(o.conns, o.fillConns, o.getConns)
	admin := &http.Client{Timeout: time.Minute}
	admin.Jar, _ = cookiejar.New(nil)
	auth, err := credential(admin, o.base, o.setup)
	if err != nil {
		return err
	}
	b := &bench{
		options: o,
		client: &http.Client{Timeout: 2 * time.Minute, Transport: &http.Transport{
			MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns, DisableCompression: true,
		}},
		auth:  auth,
		pools: newPools(rand.New(rand.NewPCG(13, 1))), //nolint:gosec // G404: statements and queries need no secrecy
	}
	b.throughput()
	b.fill()
	if o.analyze != "" {
		// This machine's PostgreSQL runs without autovacuum: without it the
		// tables are never analyzed, and the planner guesses every filter
		// matches a handful of rows, nor vacuumed, and an index-only scan
		// reads the table too, not knowing which rows every reader sees.
		cmd := exec.CommandContext(context.Background(), "psql", "-q", o.analyze, "-c", "VACUUM (ANALYZE)") //nolint:gosec // G204: the URL is run.sh's own database
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("analyze: %w: %s", err, out)
		}
		fmt.Printf("%-10s VACUUM (ANALYZE) after the fill, as autovacuum would\n", o.label)
	}
	if b.stored.Load() == 0 {
		fmt.Printf("%-10s GET /xapi/statements skipped: no statement was stored\n", o.label)
		return nil
	}
	b.queries()
	return nil
}

// credential signs in as the admin through the setup link and makes a
// read-write xAPI credential, answering its Basic Authorization header.
func credential(c *http.Client, base, setup string) (string, error) {
	_, token, ok := strings.Cut(setup, "/reset-password/")
	if !ok || token == "" {
		return "", fmt.Errorf("-setup %q is not a setup link", setup)
	}
	// The reset signs the admin in: the jar keeps the session.
	body, _ := json.Marshal(map[string]string{"token": token, "password": adminPassword})
	if _, err := postJSON(c, base+"/api/account/password-reset", body, http.StatusOK); err != nil {
		return "", fmt.Errorf("set the admin's password: %w", err)
	}
	res, err := postJSON(c, base+"/api/organisation/xapi/credentials",
		[]byte(`{"name":"bench","canRead":true,"canWrite":true}`), http.StatusCreated)
	if err != nil {
		return "", fmt.Errorf("create an xAPI credential: %w", err)
	}
	var created struct {
		Credential struct{ Key string }
		Secret     string
	}
	if err := json.Unmarshal(res, &created); err != nil || created.Credential.Key == "" || created.Secret == "" {
		return "", fmt.Errorf("create an xAPI credential: no key and secret in %s", res)
	}
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(created.Credential.Key+":"+created.Secret)), nil
}

func postJSON(c *http.Client, u string, body []byte, want int) ([]byte, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != want {
		return nil, fmt.Errorf("%s: %s %s", u, res.Status, snippet(b))
	}
	return b, nil
}

type bench struct {
	options
	client *http.Client
	auth   string
	pools  *pools
	// stored counts the statements the LRS accepted, across phases.
	stored atomic.Int64
	// midFill is when the store held half of -statements: the since query's time.
	midFill atomic.Pointer[time.Time]
}

// noteStored counts n accepted statements and notes the time the store
// reached half its final size.
func (b *bench) noteStored(n int) {
	total := b.stored.Add(int64(n))
	if total >= int64(b.statements)/2 && b.midFill.Load() == nil {
		t := time.Now()
		b.midFill.CompareAndSwap(nil, &t)
	}
}

// reply is one answered request: its status, body and how long it took
// until the body was read.
type reply struct {
	status int
	body   []byte
	took   time.Duration
}

func (b *bench) do(method, u string, body []byte) (reply, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, u, rd)
	if err != nil {
		return reply{}, err
	}
	req.Header.Set("X-Experience-API-Version", xapiVersion)
	req.Header.Set("Authorization", b.auth)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	t0 := time.Now()
	res, err := b.client.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer res.Body.Close()
	rb, err := io.ReadAll(res.Body)
	return reply{res.StatusCode, rb, time.Since(t0)}, err
}

// failures counts failed requests and keeps the first one's reason.
type failures struct {
	n     atomic.Int64
	once  sync.Once
	first string
}

func (f *failures) add(r reply, err error) {
	f.n.Add(1)
	f.once.Do(func() {
		if err != nil {
			f.first = err.Error()
		} else {
			f.first = fmt.Sprintf("%d %s", r.status, snippet(r.body))
		}
	})
}

func (f *failures) String() string {
	if f.n.Load() == 0 {
		return "0 errors"
	}
	return fmt.Sprintf("%d errors (first: %s)", f.n.Load(), f.first)
}

// throughput times POSTs of 50 fresh statements over -conns connections.
func (b *bench) throughput() {
	total := b.warmup + b.duration
	batches := make([][]byte, max(b.conns, int(float64(b.pregenRate)*total.Seconds())/postBatch))
	t := time.Now()
	r := rand.New(rand.NewPCG(1, 2)) //nolint:gosec // G404: statements and queries need no secrecy
	for i := range batches {
		batches[i] = b.pools.batch(r, postBatch)
	}
	made := time.Since(t)

	var next, onTheFly atomic.Int64
	var fails failures
	var mu sync.Mutex
	var lat []time.Duration
	start := time.Now()
	measureFrom := start.Add(b.warmup)
	end := measureFrom.Add(b.duration)
	var wg sync.WaitGroup
	// Each connection its own stream: no two statements share an id.
	streams := rand.New(rand.NewPCG(100, 3)) //nolint:gosec // G404: statements and queries need no secrecy
	for range b.conns {
		r := rand.New(rand.NewPCG(streams.Uint64(), streams.Uint64())) //nolint:gosec // G404: statements and queries need no secrecy
		wg.Go(func() {
			var mine []time.Duration
			for {
				t0 := time.Now()
				if t0.After(end) {
					break
				}
				var body []byte
				if i := next.Add(1) - 1; i < int64(len(batches)) {
					body, batches[i] = batches[i], nil
				} else {
					onTheFly.Add(1)
					body = b.pools.batch(r, postBatch)
				}
				res, err := b.do(http.MethodPost, b.base+"/xapi/statements", body)
				if err != nil || res.status != http.StatusOK {
					if !t0.Before(measureFrom) {
						fails.add(res, err)
					}
					continue
				}
				b.noteStored(postBatch)
				if !t0.Before(measureFrom) {
					mine = append(mine, time.Since(t0))
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(lat)
	rate := float64(len(lat)*postBatch) / b.duration.Seconds()
	fmt.Printf("%-10s POST /xapi/statements, batches of %d, %d connections, %s: %.0f statements/s (%.0f req/s); p50 %s, p99 %s, max %s; %s (target >= 10,000 statements/s)\n",
		b.label, postBatch, b.conns, b.duration, rate, rate/postBatch,
		pct(lat, 50), pct(lat, 99), pct(lat, 100), &fails)
	note := ""
	if n := onTheFly.Load(); n > 0 {
		note = fmt.Sprintf("; %d batches had to be made during the run (raise -pregen-rate)", n)
	}
	fmt.Printf("%-10s   (%d bodies of %d statements made beforehand in %s%s)\n", b.label, len(batches), postBatch, made.Round(time.Millisecond), note)
}

// fill stores statements until the LRS holds -statements, in batches of
// -fill-batch over -fill-conns connections.
func (b *bench) fill() {
	want := int64(b.statements) - b.stored.Load()
	if want <= 0 {
		fmt.Printf("%-10s fill: the timed POSTs stored %d statements already\n", b.label, b.stored.Load())
		return
	}
	var left atomic.Int64
	left.Store(want)
	var fails failures
	start := time.Now()
	done := make(chan struct{})
	go func() { // progress, to stderr: a 1M fill takes minutes
		tick := time.NewTicker(15 * time.Second)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				fmt.Fprintf(os.Stderr, "%s fill: %d of %d statements stored after %s\n",
					b.label, b.stored.Load(), b.statements, time.Since(start).Round(time.Second))
			}
		}
	}()
	var wg sync.WaitGroup
	streams := rand.New(rand.NewPCG(1000, 4)) //nolint:gosec // G404: statements and queries need no secrecy
	for range b.fillConns {
		r := rand.New(rand.NewPCG(streams.Uint64(), streams.Uint64())) //nolint:gosec // G404: statements and queries need no secrecy
		wg.Go(func() {
			for {
				n := int64(b.fillBatch)
				if l := left.Add(-n); l < 0 {
					n += l
				}
				// A fill that keeps failing is not worth minutes of waiting.
				if n <= 0 || fails.n.Load() > 50 {
					return
				}
				res, err := b.do(http.MethodPost, b.base+"/xapi/statements", b.pools.batch(r, int(n)))
				if err != nil || res.status != http.StatusOK {
					fails.add(res, err)
					continue
				}
				b.noteStored(int(n))
			}
		})
	}
	wg.Wait()
	close(done)
	took := time.Since(start)
	stored := b.stored.Load() - (int64(b.statements) - want)
	fmt.Printf("%-10s fill: %d statements in %s (%.0f statements/s, batches of %d over %d connections); %s; %d stored in all\n",
		b.label, stored, took.Round(time.Second), float64(stored)/took.Seconds(), b.fillBatch, b.fillConns, &fails, b.stored.Load())
}

// shape is one kind of GET query: query makes a fresh query string for
// one request. more marks the shape that times following a more link
// given by the first page of query.
type shape struct {
	name  string
	query func(r *rand.Rand) string
	more  bool
}

// queries times each shape of GET one request at a time and then over
// -get-conns connections.
func (b *bench) queries() {
	p := b.pools
	since := time.Now()
	if t := b.midFill.Load(); t != nil {
		since = *t
	}
	// Milliseconds, as xAPI clients write timestamps.
	sinceText := since.UTC().Format("2006-01-02T15:04:05.000Z")
	agent := func(r *rand.Rand) string {
		return "agent=" + url.QueryEscape(`{"mbox":"`+p.learners[r.IntN(len(p.learners))].mbox+`"}`)
	}
	verb := func(r *rand.Rand) string { return "verb=" + url.QueryEscape(p.verbs[r.IntN(len(p.verbs))].id) }
	activity := func(r *rand.Rand) string {
		return "activity=" + url.QueryEscape(p.activities[r.IntN(len(p.activities))].id)
	}
	shapes := []shape{
		{name: "?agent&limit=10", query: func(r *rand.Rand) string { return agent(r) + "&limit=10" }},
		{name: "?verb&limit=10", query: func(r *rand.Rand) string { return verb(r) + "&limit=10" }},
		{name: "?activity&limit=10", query: func(r *rand.Rand) string { return activity(r) + "&limit=10" }},
		{name: "?agent&verb", query: func(r *rand.Rand) string { return agent(r) + "&" + verb(r) }},
		{name: "?registration", query: func(r *rand.Rand) string {
			return "registration=" + p.registrations[r.IntN(len(p.registrations))]
		}},
		{name: "?since&limit=50", query: func(*rand.Rand) string {
			return "since=" + url.QueryEscape(sinceText) + "&limit=50"
		}},
		{name: "more of ?verb&limit=10", query: func(r *rand.Rand) string { return verb(r) + "&limit=10" }, more: true},
	}
	note := ""
	if b.stored.Load() < 1000000 {
		note = "; the target is for 1,000,000"
	}
	fmt.Printf("%-10s GET /xapi/statements over %d stored statements, %d requests of each shape one at a time and over %d connections%s; since = %s\n",
		b.label, b.stored.Load(), b.gets, b.getConns, note, sinceText)
	for _, s := range shapes {
		for _, conns := range []int{1, b.getConns} {
			lat, returned, fails := b.timeShape(s, conns)
			mean := 0.0
			if len(lat) > 0 {
				mean = float64(returned) / float64(len(lat))
			}
			cut := ""
			if len(lat)+int(fails.n.Load()) < b.gets {
				cut = fmt.Sprintf(" (cut short: %s spent)", b.getBudget)
			}
			fmt.Printf("%-10s GET %-24s %2d conn: n=%d%s p50 %s p99 %s max %s, %.1f statements each; %s (target p99 <= 50 ms)\n",
				b.label, s.name, conns, len(lat), cut, pct(lat, 50), pct(lat, 99), pct(lat, 100), mean, fails)
		}
	}
}

// statementResult is a GET /xapi/statements answer, as far as the bench
// reads it.
type statementResult struct {
	Statements []json.RawMessage `json:"statements"`
	More       string            `json:"more"`
}

// timeShape makes -gets requests of one shape over conns connections,
// answering their sorted latencies and how many statements they returned.
func (b *bench) timeShape(s shape, conns int) (lat []time.Duration, returned int, fails *failures) {
	fails = &failures{}
	base, _ := url.Parse(b.base + "/xapi/statements")
	var next atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	stop := time.Now().Add(b.getBudget)
	streams := rand.New(rand.NewPCG(5000, uint64(len(s.name)))) //nolint:gosec // G404: statements and queries need no secrecy
	for range conns {
		r := rand.New(rand.NewPCG(streams.Uint64(), streams.Uint64())) //nolint:gosec // G404: statements and queries need no secrecy
		wg.Go(func() {
			var mine []time.Duration
			got := 0
			for next.Add(1) <= int64(b.gets) && time.Now().Before(stop) {
				u := b.base + "/xapi/statements?" + s.query(r)
				if s.more {
					// The first page is not timed: only following its link is.
					res, err := b.do(http.MethodGet, u, nil)
					var page statementResult
					if err == nil && res.status == http.StatusOK {
						err = json.Unmarshal(res.body, &page)
					}
					if err != nil || res.status != http.StatusOK || page.More == "" {
						if err == nil && res.status == http.StatusOK {
							err = errors.New("the first page has no more link")
						}
						fails.add(res, err)
						continue
					}
					ref, err := url.Parse(page.More)
					if err != nil {
						fails.add(res, fmt.Errorf("more link %q: %w", page.More, err))
						continue
					}
					u = base.ResolveReference(ref).String()
				}
				res, err := b.do(http.MethodGet, u, nil)
				var page statementResult
				if err == nil && res.status == http.StatusOK {
					err = json.Unmarshal(res.body, &page)
				}
				if err != nil || res.status != http.StatusOK {
					fails.add(res, err)
					continue
				}
				mine = append(mine, res.took)
				got += len(page.Statements)
			}
			mu.Lock()
			lat = append(lat, mine...)
			returned += got
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(lat)
	return lat, returned, fails
}

// pools are what the statements are drawn from: a training centre's
// learners, the ADL verbs a course player sends, its activities, and the
// registrations (attempts) half of the statements belong to.
type pools struct {
	learners      []learner
	verbs         []verb
	activities    []activity
	registrations []string
}

type learner struct{ name, mbox string }
type verb struct{ id, display string }
type activity struct{ id, name, kind string }

func newPools(r *rand.Rand) *pools {
	p := &pools{}
	for i := range 1000 {
		p.learners = append(p.learners, learner{fmt.Sprintf("Learner %04d", i+1), fmt.Sprintf("mailto:learner%04d@bench.example.com", i+1)})
	}
	for _, v := range []string{"attempted", "experienced", "completed", "passed", "failed", "answered", "interacted", "progressed"} {
		p.verbs = append(p.verbs, verb{"http://adlnet.gov/expapi/verbs/" + v, v})
	}
	kinds := []string{"course", "module", "assessment", "interaction", "simulation"}
	for i := range 200 {
		kind := kinds[i%len(kinds)]
		p.activities = append(p.activities, activity{
			fmt.Sprintf("https://bench.example.com/xapi/activities/%s-%03d", kind, i+1),
			fmt.Sprintf("Bench %s %d", kind, i+1),
			"http://adlnet.gov/expapi/activities/" + kind,
		})
	}
	for range 10000 {
		p.registrations = append(p.registrations, uuid(r))
	}
	return p
}

// batch is a JSON array of n fresh statements.
func (p *pools) batch(r *rand.Rand, n int) []byte {
	b := make([]byte, 0, n*700)
	b = append(b, '[')
	now := time.Now().UTC()
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = p.statement(b, r, now)
	}
	return append(b, ']')
}

// statement appends one statement as a course player would send it.
func (p *pools) statement(b []byte, r *rand.Rand, now time.Time) []byte {
	l := p.learners[r.IntN(len(p.learners))]
	v := p.verbs[r.IntN(len(p.verbs))]
	a := p.activities[r.IntN(len(p.activities))]
	b = append(b, `{"id":"`...)
	b = append(b, uuid(r)...)
	b = append(b, `","actor":{"objectType":"Agent","name":"`...)
	b = append(b, l.name...)
	b = append(b, `","mbox":"`...)
	b = append(b, l.mbox...)
	b = append(b, `"},"verb":{"id":"`...)
	b = append(b, v.id...)
	b = append(b, `","display":{"en-US":"`...)
	b = append(b, v.display...)
	b = append(b, `"}},"object":{"objectType":"Activity","id":"`...)
	b = append(b, a.id...)
	b = append(b, `","definition":{"name":{"en-US":"`...)
	b = append(b, a.name...)
	b = append(b, `"},"type":"`...)
	b = append(b, a.kind...)
	b = append(b, `"}}`...)
	if r.IntN(3) == 0 {
		score := r.IntN(101)
		b = fmt.Appendf(b, `,"result":{"score":{"scaled":%g,"raw":%d,"min":0,"max":100},"success":%t,"completion":true,"duration":"PT%dM%dS"}`,
			float64(score)/100, score, score >= 70, r.IntN(30), r.IntN(60))
	}
	b = append(b, `,"context":{`...)
	if r.IntN(2) == 0 {
		b = append(b, `"registration":"`...)
		b = append(b, p.registrations[r.IntN(len(p.registrations))]...)
		b = append(b, `",`...)
	}
	b = append(b, `"platform":"Journeyman XR","language":"en-US"},"timestamp":"`...)
	b = now.Add(-time.Duration(r.Int64N(int64(90*24*time.Hour)))).AppendFormat(b, "2006-01-02T15:04:05.000Z")
	return append(b, `"}`...)
}

// uuid is a random (version 4) UUID; math/rand is enough for statement ids.
func uuid(r *rand.Rand) string {
	var u [16]byte
	binary.LittleEndian.PutUint64(u[:8], r.Uint64())
	binary.LittleEndian.PutUint64(u[8:], r.Uint64())
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	const hex = "0123456789abcdef"
	var s [36]byte
	j := 0
	for i, c := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			s[j] = '-'
			j++
		}
		s[j], s[j+1] = hex[c>>4], hex[c&0xf]
		j += 2
	}
	return string(s[:])
}

// pct is the p-th percentile of sorted durations, in milliseconds.
func pct(sorted []time.Duration, p int) string {
	if len(sorted) == 0 {
		return "-"
	}
	d := sorted[min(len(sorted)-1, len(sorted)*p/100)]
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 2, 64) + " ms"
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
