// Package xapiforward forwards each organisation's xAPI statements to the
// external LRS its admins configured: in order, in batches, with retry and
// back-off, without losing or duplicating one.
//
// The queue is not a copy: it is the organisation's statements after the
// cursor (store.XAPIForwardTarget.ForwardedSeq), and the cursor moves only
// once the external LRS has answered 2xx to the batch, by compare-and-set.
// Whatever happens in between (a refused connection, a timeout, a 5xx, this
// process killed after the LRS stored the batch but before the cursor moved)
// the batch is sent again; the LRS accepts a statement it already holds
// (same id, same content) without storing it twice, so retries are safe and
// the external record ends up holding every statement once, in order.
//
// Several processes may share one database: each organisation is forwarded
// only by the process holding its lease, which it renews with every batch.
package xapiforward

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"journeyman/internal/store"
	"journeyman/internal/xapi"
)

// Defaults; a Forwarder's fields may change them before Run.
const (
	DefaultPoll        = time.Second
	DefaultTimeout     = 30 * time.Second
	DefaultBackoffBase = time.Second
	DefaultBackoffMax  = 5 * time.Minute
	DefaultBatchSize   = 100
	// DefaultMaxBatchBytes keeps a batch with attachments well under what
	// an LRS accepts in one request (this one: 16 MiB).
	DefaultMaxBatchBytes = 8 << 20
	// maxErrorText bounds the error the admin sees.
	maxErrorText = 500
)

// Forwarder forwards the statements of the organisations whose lease it
// holds. One per process.
type Forwarder struct {
	store  *store.Store
	log    *slog.Logger
	client *http.Client
	holder string

	// Now is the forwarder's clock, for leases and back-off.
	Now func() time.Time
	// Poll is how often Run looks for work.
	Poll time.Duration
	// Timeout bounds one request to the external LRS.
	Timeout time.Duration
	// LeaseTTL is how long a lease lasts unrenewed; it must exceed Timeout,
	// so that a holder's request is over before another process may take
	// the organisation over.
	LeaseTTL time.Duration
	// BackoffBase is the delay after the first failure; it doubles with
	// each further one up to BackoffMax, with jitter.
	BackoffBase, BackoffMax time.Duration
	BatchSize               int
	MaxBatchBytes           int

	mu      sync.Mutex
	running map[string]bool // organisations with a goroutine forwarding them
	// limits holds a smaller batch size for the organisations whose LRS
	// answered 413 (too large): halved at each, down to one statement.
	limits map[string]int
}

// New returns a forwarder that sends with client and names itself holder
// in the leases (unique per process).
func New(st *store.Store, log *slog.Logger, client *http.Client, holder string) *Forwarder {
	// A redirected POST turns into a GET on the way: report a redirect
	// as the error it is (the endpoint is wrong) rather than follow it.
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &Forwarder{store: st, log: log, client: &c, holder: holder,
		Now: time.Now, Poll: DefaultPoll, Timeout: DefaultTimeout, LeaseTTL: 2*DefaultTimeout + DefaultPoll,
		BackoffBase: DefaultBackoffBase, BackoffMax: DefaultBackoffMax,
		BatchSize: DefaultBatchSize, MaxBatchBytes: DefaultMaxBatchBytes,
		running: map[string]bool{}, limits: map[string]int{}}
}

// Run forwards until ctx ends, then gives its leases up so another process
// takes over at once.
func (f *Forwarder) Run(ctx context.Context) {
	var wg sync.WaitGroup
	tick := time.NewTicker(f.Poll)
	defer tick.Stop()
	for {
		if err := f.start(ctx, &wg); err != nil && ctx.Err() == nil {
			f.log.Warn("xAPI forwarding: claim", "err", err)
		}
		select {
		case <-ctx.Done():
			wg.Wait()
			f.release()
			return
		case <-tick.C:
		}
	}
}

// Forward runs one round: it claims the organisations due and forwards
// each until its queue is empty or an attempt fails, and returns when all
// are done.
func (f *Forwarder) Forward(ctx context.Context) error {
	var wg sync.WaitGroup
	err := f.start(ctx, &wg)
	wg.Wait()
	return err
}

func (f *Forwarder) release() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := f.store.ReleaseXAPIForwarding(ctx, f.holder); err != nil {
		f.log.Warn("xAPI forwarding: release leases", "err", err)
	}
}

// start claims the organisations due and starts a goroutine for each not
// already being forwarded, so a long backlog of one delays no other.
func (f *Forwarder) start(ctx context.Context, wg *sync.WaitGroup) error {
	targets, err := f.store.ClaimXAPIForwarding(ctx, f.holder, f.Now(), f.LeaseTTL)
	if err != nil {
		return err
	}
	for _, t := range targets {
		f.mu.Lock()
		busy := f.running[t.OrgID]
		f.running[t.OrgID] = true
		f.mu.Unlock()
		if busy {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				f.mu.Lock()
				delete(f.running, t.OrgID)
				f.mu.Unlock()
			}()
			f.forwardOrg(ctx, t)
		}()
	}
	return nil
}

// forwardOrg sends batches until the queue is empty, an attempt fails, or
// the cursor, configuration or lease changed under it.
func (f *Forwarder) forwardOrg(ctx context.Context, t store.XAPIForwardTarget) {
	for ctx.Err() == nil {
		// A request must end before the lease does (see LeaseTTL); if too
		// little is left, the next round renews it.
		if f.Now().Add(f.Timeout).After(t.LeaseExpires) {
			return
		}
		batch, err := f.store.XAPIForwardBatch(ctx, t.OrgID, t.ForwardedSeq, f.batchLimit(t.OrgID))
		if err != nil {
			f.logErr(ctx, "read batch", t, err)
			return
		}
		if len(batch) == 0 {
			return
		}
		body, contentType, ids, err := f.encode(ctx, t.OrgID, batch)
		if err != nil {
			f.logErr(ctx, "encode batch", t, err)
			return
		}
		batch = batch[:len(ids)]
		if err := f.send(ctx, t, body, contentType, ids); err != nil {
			if ctx.Err() != nil {
				return // shutting down: the LRS is not at fault; the batch goes again
			}
			if se := (*StatusError)(nil); errors.As(err, &se) && se.Status == http.StatusRequestEntityTooLarge {
				f.shrink(t.OrgID, len(ids))
			}
			f.fail(t, err)
			return
		}
		now := f.Now()
		// The LRS has the batch: record it even when ctx ends now, or the
		// batch would be sent again for nothing (harmless, but wasteful).
		ackCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		ok, err := f.store.AckXAPIForwarding(ackCtx, t, f.holder, batch[len(batch)-1].Seq, now, f.LeaseTTL)
		cancel()
		if err != nil {
			f.logErr(ctx, "acknowledge batch", t, err)
			return
		}
		if !ok {
			return
		}
		t.ForwardedSeq, t.Failures, t.LeaseExpires = batch[len(batch)-1].Seq, 0, now.Add(f.LeaseTTL)
	}
}

// batchLimit is how many statements to send an organisation's LRS at once.
func (f *Forwarder) batchLimit(orgID string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n, ok := f.limits[orgID]; ok {
		return n
	}
	return f.BatchSize
}

// shrink halves the batches of an LRS that refused n statements as too
// large; it is remembered while the process runs.
func (f *Forwarder) shrink(orgID string, n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.limits[orgID] = max(1, n/2)
}

func (f *Forwarder) logErr(ctx context.Context, what string, t store.XAPIForwardTarget, err error) {
	if ctx.Err() == nil {
		f.log.Error("xAPI forwarding: "+what, "org", t.OrgID, "err", err)
	}
}

// fail records a failed attempt and when to try again.
func (f *Forwarder) fail(t store.XAPIForwardTarget, err error) {
	now := f.Now()
	next := now.Add(f.Backoff(t.Failures + 1))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	msg := truncate(err.Error(), maxErrorText)
	if err := f.store.FailXAPIForwarding(ctx, t, f.holder, msg, now, next); err != nil {
		f.log.Error("xAPI forwarding: record failure", "org", t.OrgID, "err", err)
	}
	f.log.Warn("xAPI forwarding failed", "org", t.OrgID, "endpoint", t.Endpoint, "failures", t.Failures+1, "retry_at", next, "err", msg)
}

// Backoff is the delay after the n-th consecutive failure: BackoffBase
// doubling up to BackoffMax, drawn between half of it and all of it, so
// that processes and organisations hit by one outage do not retry in step.
func (f *Forwarder) Backoff(n int) time.Duration {
	d := f.BackoffMax
	if n < 1 {
		n = 1
	}
	if n <= 30 && f.BackoffBase<<(n-1) < f.BackoffMax {
		d = f.BackoffBase << (n - 1)
	}
	half := d / 2
	return half + rand.N(d-half+1) //nolint:gosec // jitter, not a secret
}

// encode makes the request body of the batch's head: the statements as the
// external LRS should receive them and, when any has attachment contents
// stored, multipart/mixed with them. It returns how many statements fit in
// MaxBatchBytes (at least one).
func (f *Forwarder) encode(ctx context.Context, orgID string, batch []store.XAPIQueued) (body []byte, contentType string, ids []string, err error) {
	var hashes []string
	for _, q := range batch {
		hashes = append(hashes, xapi.AttachmentHashes(q.Body)...)
	}
	var parts map[string]xapi.Part
	if len(hashes) > 0 {
		var err error
		if parts, err = f.store.XAPIAttachments(ctx, orgID, hashes); err != nil {
			return nil, "", nil, err
		}
	}
	size := 0
	used := map[string]xapi.Part{}
	out := make([]json.RawMessage, 0, len(batch))
	for _, q := range batch {
		st, id, err := outgoing(q.Body)
		if err != nil {
			return nil, "", nil, fmt.Errorf("statement seq %d: %w", q.Seq, err)
		}
		add := len(st)
		fresh := map[string]xapi.Part{}
		for _, h := range xapi.AttachmentHashes(q.Body) {
			if p, ok := parts[h]; ok {
				if _, dup := used[h]; !dup {
					fresh[h] = p
					add += len(p.Content)
				}
			}
		}
		if len(ids) > 0 && size+add > f.MaxBatchBytes {
			break
		}
		size += add
		ids = append(ids, id)
		out = append(out, st)
		for h, p := range fresh {
			used[h] = p
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return nil, "", nil, err
	}
	statements := bytes.TrimRight(buf.Bytes(), "\n")
	if len(used) == 0 {
		return statements, "application/json", ids, nil
	}
	var mp bytes.Buffer
	ct, err := xapi.WriteMultipart(&mp, statements, used)
	if err != nil {
		return nil, "", nil, err
	}
	return mp.Bytes(), ct, ids, nil
}

// outgoing is a stored statement as sent on: without stored, authority and
// version, which the external LRS sets itself (and a 1.0.3 LRS refuses
// version 2.0.0).
func outgoing(body json.RawMessage) (json.RawMessage, string, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, "", err
	}
	var id string
	if err := json.Unmarshal(m["id"], &id); err != nil || id == "" {
		return nil, "", errors.New("the stored statement has no id")
	}
	delete(m, "stored")
	delete(m, "authority")
	delete(m, "version")
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return nil, "", err
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n")), id, nil
}

// StatusError is an answer of the external LRS other than 2xx.
type StatusError struct {
	Status  int
	Message string // the answer's message, or the start of its body
}

func (e *StatusError) Error() string {
	s := fmt.Sprintf("the external LRS answered %d %s", e.Status, http.StatusText(e.Status))
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// send POSTs one batch and returns nil when the external LRS stored it:
// it answered 2xx with the batch's statement ids, in order, as an LRS
// does. Any other 2xx (a captive portal's page, a proxy's) is no
// acknowledgement, lest the cursor move past statements nobody stored.
func (f *Forwarder) send(ctx context.Context, t store.XAPIForwardTarget, body []byte, contentType string, ids []string) error {
	ctx, cancel := context.WithTimeout(ctx, f.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.Endpoint+"statements", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.SetBasicAuth(t.Key, t.Secret)
	req.Header.Set("X-Experience-API-Version", string(t.Version))
	req.Header.Set("Content-Type", contentType)
	res, err := f.client.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			return fmt.Errorf("no answer from %sstatements within %s", t.Endpoint, f.Timeout)
		}
		return fmt.Errorf("could not reach the external LRS: %w", err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if res.StatusCode/100 == 2 {
		var got []string
		if json.Unmarshal(answer, &got) != nil || len(got) != len(ids) {
			return fmt.Errorf("the external LRS answered %d but not with the ids of the %d statements sent (is %s an LRS's endpoint?)", res.StatusCode, len(ids), t.Endpoint)
		}
		for i := range got {
			if !strings.EqualFold(got[i], ids[i]) {
				return fmt.Errorf("the external LRS answered %d with id %s where %s was sent", res.StatusCode, got[i], ids[i])
			}
		}
		return nil
	}
	return &StatusError{Status: res.StatusCode, Message: answerMessage(answer)}
}

// answerMessage is what an error answer says: its JSON message (the
// usual shape of LRS errors) or its text.
func answerMessage(answer []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(answer, &e) == nil && e.Message != "" {
		return truncate(e.Message, 300)
	}
	return truncate(strings.Join(strings.Fields(string(answer)), " "), 300)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}
