package xapiforward_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"journeyman/internal/server"
	"journeyman/internal/store"
	"journeyman/internal/store/storetest"
	"journeyman/internal/xapi"
	"journeyman/internal/xapiforward"
)

var discard = slog.New(slog.DiscardHandler)

// external is a second Journeyman acting as the external LRS.
type external struct {
	store       *store.Store
	url         string
	orgID       string
	key, secret string
}

func newExternal(t *testing.T) external {
	t.Helper()
	ctx := context.Background()
	st := storetest.OpenSQLite(t)
	srv, err := server.New(st, server.Config{Logger: discard, App: fstest.MapFS{"index.html": {Data: []byte("<!doctype html>")}}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	admin, _, _, err := st.CreateAdmin(ctx, "External LRS Org", "ext-admin@example.com", "Ext Admin")
	if err != nil {
		t.Fatal(err)
	}
	cred, secret, err := st.CreateXAPICredential(ctx, admin.OrgID, admin.ID, "forwarder", true, true)
	if err != nil {
		t.Fatal(err)
	}
	return external{store: st, url: hs.URL, orgID: admin.OrgID, key: cred.Key, secret: secret}
}

// faultProxy stands between the forwarder and the external LRS and fails
// the way networks and servers do.
type faultProxy struct {
	t        *testing.T
	upstream string
	addr     string

	mu   sync.Mutex
	mode string // "" passes requests on
	srv  *http.Server
	// cut is called, in mode "cut", once the LRS has stored a batch and
	// before its answer goes back.
	cut func()

	// delivered counts the statements that reached the LRS, resends included.
	delivered atomic.Int64
}

func newFaultProxy(t *testing.T, upstream string) *faultProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &faultProxy{t: t, upstream: upstream, addr: ln.Addr().String()}
	p.serve(ln)
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.srv != nil {
			p.srv.Close()
		}
	})
	return p
}

func (p *faultProxy) serve(ln net.Listener) {
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 5 * time.Second}
	p.srv = srv
	go func() { _ = srv.Serve(ln) }()
}

// set changes the fault; "refuse" closes the listening socket, so that
// connections are refused, and any other mode opens it again.
func (p *faultProxy) set(mode string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case mode == "refuse" && p.srv != nil:
		p.srv.Close()
		p.srv = nil
	case mode != "refuse" && p.srv == nil:
		var ln net.Listener
		var err error
		for range 50 {
			if ln, err = net.Listen("tcp", p.addr); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if err != nil {
			p.t.Fatalf("listen again on %s: %v", p.addr, err)
		}
		p.serve(ln)
	}
	p.mode = mode
}

func (p *faultProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.mu.Lock()
	mode, cut := p.mode, p.cut
	p.mu.Unlock()
	switch mode {
	case "hang":
		<-r.Context().Done()
		return
	case "page":
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html>Sign in to the guest network</html>")
		return
	case "moved":
		http.Redirect(w, r, "/elsewhere/", http.StatusFound)
		return
	case "500", "503", "429":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(map[string]int{"500": 500, "503": 503, "429": 429}[mode])
		fmt.Fprintf(w, `{"message":"fault %s"}`, mode)
		return
	}
	body, _ := io.ReadAll(r.Body)
	if mode == "small" {
		// An LRS that takes at most two statements a request.
		var batch []json.RawMessage
		if json.Unmarshal(body, &batch) == nil && len(batch) > 2 {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			fmt.Fprint(w, `{"message":"at most 2 statements a request"}`)
			return
		}
	}
	req, _ := http.NewRequestWithContext(context.WithoutCancel(r.Context()), r.Method, p.upstream+r.URL.RequestURI(), bytes.NewReader(body))
	req.Header = r.Header.Clone()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	answer, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode == http.StatusOK {
		var ids []string
		_ = json.Unmarshal(answer, &ids)
		p.delivered.Add(int64(len(ids)))
	}
	switch mode {
	case "drop":
		// The LRS has stored the batch; its answer never comes back.
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	case "cut":
		cut()
		<-r.Context().Done()
		return
	}
	for k, v := range res.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(res.StatusCode)
	_, _ = w.Write(answer)
}

func newForwarder(st *store.Store, holder string) *xapiforward.Forwarder {
	f := xapiforward.New(st, discard, &http.Client{}, holder)
	f.Poll = 10 * time.Millisecond
	f.Timeout = 300 * time.Millisecond
	f.LeaseTTL = time.Second
	f.BackoffBase, f.BackoffMax = time.Millisecond, 4*time.Millisecond
	f.BatchSize = 4
	return f
}

var authority = json.RawMessage(`{"objectType":"Agent","account":{"homePage":"http://source.example","name":"player"}}`)

func mustStore(t *testing.T, st *store.Store, org, body string, parts map[string]xapi.Part) {
	t.Helper()
	ins, err := xapi.Decode([]byte(body), xapi.V200)
	if err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	if _, err := st.StoreXAPIStatements(context.Background(), store.XAPIWrite{OrgID: org, Authority: authority, Version: xapi.V200, Statements: ins, Parts: parts}); err != nil {
		t.Fatalf("store %s: %v", body, err)
	}
}

func statement(id string, n int) string {
	return fmt.Sprintf(`{"id":%q,"actor":{"mbox":"mailto:learner%d@example.com"},"verb":{"id":"http://adlnet.gov/expapi/verbs/completed","display":{"en-US":"completed"}},"object":{"id":"http://example.com/modules/%d"},"result":{"completion":true,"score":{"scaled":0.5}}}`, id, n, n)
}

// storeSome stores n statements in one write.
func storeSome(t *testing.T, st *store.Store, org string, n int) []string {
	t.Helper()
	var ids, bodies []string
	for range n {
		id := xapi.NewUUID()
		ids = append(ids, id)
		bodies = append(bodies, statement(id, len(ids)))
	}
	mustStore(t, st, org, "["+strings.Join(bodies, ",")+"]", nil)
	return ids
}

// orderedIDs are an organisation's statement ids in the order stored,
// voided ones included, and their bodies.
func orderedIDs(t *testing.T, st *store.Store, org string) ([]string, []json.RawMessage) {
	t.Helper()
	rows, err := st.DB().QueryContext(context.Background(), `SELECT id, body FROM xapi_statements WHERE org_id = $1 ORDER BY seq`, org)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var ids []string
	var bodies []json.RawMessage
	for rows.Next() {
		var id, body string
		if err := rows.Scan(&id, &body); err != nil {
			t.Fatal(err)
		}
		ids, bodies = append(ids, id), append(bodies, json.RawMessage(body))
	}
	return ids, bodies
}

func status(t *testing.T, st *store.Store, org string) store.XAPIForwardingStatus {
	t.Helper()
	s, err := st.GetXAPIForwarding(context.Background(), org)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestForwardThroughFaults cuts the network every way it breaks between
// the forwarder and a second Journeyman, restarts and kills forwarders
// mid-batch, and checks that once the faults stop the external LRS holds
// every statement exactly once, in order.
func TestForwardThroughFaults(t *testing.T) {
	for _, v := range []xapi.Version{xapi.V103, xapi.V200} {
		t.Run(string(v), func(t *testing.T) {
			storetest.Each(t, func(t *testing.T, src *store.Store) {
				testForwardThroughFaults(t, src, v)
			})
		})
	}
}

func testForwardThroughFaults(t *testing.T, src *store.Store, v xapi.Version) {
	ctx := context.Background()
	ext := newExternal(t)
	proxy := newFaultProxy(t, ext.url)
	admin, _, _, err := src.CreateAdmin(ctx, "Source Org", "src-admin@example.com", "Src Admin")
	if err != nil {
		t.Fatal(err)
	}
	org := admin.OrgID

	// Statements from before forwarding was configured go too; so do an
	// attachment's content and a voiding statement.
	first := storeSome(t, src, org, 6)
	content := []byte("inspection photo, as text")
	sum := sha256.Sum256(content)
	sha := hex.EncodeToString(sum[:])
	mustStore(t, src, org, fmt.Sprintf(`{"actor":{"mbox":"mailto:a@example.com"},"verb":{"id":"http://adlnet.gov/expapi/verbs/attempted","display":{"en-US":"attempted"}},"object":{"id":"http://example.com/modules/photo"},
		"attachments":[{"usageType":"http://example.com/usage/photo","display":{"en-US":"photo"},"contentType":"text/plain","length":%d,"sha2":%q}]}`, len(content), sha),
		map[string]xapi.Part{sha: {ContentType: "text/plain", Content: content}})
	mustStore(t, src, org, fmt.Sprintf(`{"actor":{"mbox":"mailto:admin@example.com"},"verb":{"id":%q,"display":{"en-US":"voided"}},"object":{"objectType":"StatementRef","id":%q}}`,
		xapi.VoidedVerb, first[1]), nil)

	if _, err := src.SetXAPIForwarding(ctx, org, store.XAPIForwardingConfig{Endpoint: "http://" + proxy.addr + "/xapi", Key: ext.key, Secret: ext.secret, Version: v}); err != nil {
		t.Fatal(err)
	}
	f := newForwarder(src, "p1")

	for _, fault := range []struct{ mode, wantErr string }{
		{"refuse", "could not reach the external LRS"},
		{"hang", "no answer from http://" + proxy.addr + "/xapi/statements within 300ms"},
		{"500", "the external LRS answered 500 Internal Server Error: fault 500"},
		{"503", "the external LRS answered 503 Service Unavailable: fault 503"},
		{"429", "the external LRS answered 429 Too Many Requests: fault 429"},
		{"drop", "could not reach the external LRS"},
		{"page", "the external LRS answered 200 but not with the ids of the 4 statements sent (is http://" + proxy.addr + "/xapi/ an LRS's endpoint?)"},
		{"moved", "the external LRS answered 302 Found"},
	} {
		t.Run(fault.mode, func(t *testing.T) {
			storeSome(t, src, org, 3)
			before := status(t, src, org)
			proxy.set(fault.mode)
			time.Sleep(10 * time.Millisecond) // past the back-off of the fault before
			if err := f.Forward(ctx); err != nil {
				t.Fatal(err)
			}
			after := status(t, src, org)
			if !strings.Contains(after.LastError, fault.wantErr) || after.LastErrorAt == nil {
				t.Fatalf("last error = %q, want %q", after.LastError, fault.wantErr)
			}
			if after.QueueLength != before.QueueLength || after.ForwardedThrough != nil {
				t.Fatalf("a failed attempt moved the cursor: %+v → %+v", before, after)
			}
			if after.NextAttemptAt == nil || !after.NextAttemptAt.After(*after.LastErrorAt) {
				t.Fatalf("no back-off: %+v", after)
			}
		})
	}
	if proxy.delivered.Load() == 0 {
		t.Fatal(`"drop" delivered nothing to the LRS: the lost-answer case was not exercised`)
	}

	t.Run("TooLarge", func(t *testing.T) {
		// 413: the batches halve until the LRS takes them, and all go.
		proxy.set("small")
		time.Sleep(10 * time.Millisecond)
		if err := f.Forward(ctx); err != nil {
			t.Fatal(err)
		}
		if st := status(t, src, org); !strings.Contains(st.LastError, "413 Request Entity Too Large: at most 2 statements a request") || st.ForwardedThrough != nil {
			t.Fatalf("after 413 = %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
		if err := f.Forward(ctx); err != nil {
			t.Fatal(err)
		}
		if st := status(t, src, org); st.QueueLength != 0 || st.ForwardedThrough == nil {
			t.Fatalf("halved batches did not empty the queue: %+v", st)
		}
		storeSome(t, src, org, 4)
	})

	t.Run("StoppedMidBatch", func(t *testing.T) {
		// The LRS stores the batch, and the forwarder stops before the
		// answer arrives (a restart); its successor sends the batch again.
		runCtx, stop := context.WithCancel(ctx)
		proxy.mu.Lock()
		proxy.cut = stop
		proxy.mu.Unlock()
		proxy.set("cut")
		delivered := proxy.delivered.Load()
		done := make(chan struct{})
		go func() { newForwarder(src, "p2").Run(runCtx); close(done) }()
		<-done
		if proxy.delivered.Load() == delivered {
			t.Fatal("the cut batch never reached the LRS")
		}
		if st := status(t, src, org); st.QueueLength != 4 {
			t.Fatalf("the cursor moved though no answer came: %+v", st)
		}
	})

	t.Run("KilledHoldingLease", func(t *testing.T) {
		// A process died holding the lease: nobody forwards until it expires.
		time.Sleep(10 * time.Millisecond)
		held, err := src.ClaimXAPIForwarding(ctx, "dead", time.Now(), 300*time.Millisecond)
		if err != nil || len(held) != 1 {
			t.Fatalf("claim = %+v, %v", held, err)
		}
		proxy.set("")
		f3 := newForwarder(src, "p3")
		if err := f3.Forward(ctx); err != nil {
			t.Fatal(err)
		}
		if st := status(t, src, org); st.QueueLength != 4 {
			t.Fatalf("forwarded under another process's live lease: %+v", st)
		}
		runCtx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { f3.Run(runCtx); close(done) }()
		defer func() { stop(); <-done }()
		more := storeSome(t, src, org, 5) // written while forwarding runs
		waitFor(t, "an empty queue", func() bool { return status(t, src, org).QueueLength == 0 })
		st := status(t, src, org)
		if st.LastSuccessAt == nil || st.ForwardedThrough == nil {
			t.Fatalf("after success: %+v", st)
		}
		ids, _ := orderedIDs(t, ext.store, ext.orgID)
		if !slices.Contains(ids, more[4]) {
			t.Fatalf("the statements written while forwarding ran did not arrive")
		}
	})

	// Every statement once, in order, as sent.
	want, wantBodies := orderedIDs(t, src, org)
	got, gotBodies := orderedIDs(t, ext.store, ext.orgID)
	if !slices.Equal(got, want) {
		t.Fatalf("external LRS holds\n%v\nwant\n%v", got, want)
	}
	if n := proxy.delivered.Load(); n <= int64(len(want)) {
		t.Fatalf("the LRS received %d statements for %d: no batch was sent twice, so duplicates were not exercised", n, len(want))
	}
	for i := range want {
		if !xapi.Equivalent(gotBodies[i], wantBodies[i]) {
			t.Fatalf("statement %s arrived as\n%s\nsent\n%s", want[i], gotBodies[i], wantBodies[i])
		}
	}
	parts, err := ext.store.XAPIAttachments(ctx, ext.orgID, []string{sha})
	if err != nil || !bytes.Equal(parts[sha].Content, content) {
		t.Fatalf("the attachment arrived as %+v, %v", parts, err)
	}
	// What a reader of the external LRS sees (voided statements left out)
	// is the source's, in the same order.
	srcPage, err := src.QueryXAPIStatements(ctx, store.XAPIQuery{OrgID: org, Ascending: true})
	if err != nil {
		t.Fatal(err)
	}
	extPage, err := ext.store.QueryXAPIStatements(ctx, store.XAPIQuery{OrgID: ext.orgID, Ascending: true})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := bodyIDs(t, srcPage.Statements), bodyIDs(t, extPage.Statements); !slices.Equal(a, b) || slices.Contains(b, first[1]) {
		t.Fatalf("external query = %v, source query = %v", b, a)
	}
}

func bodyIDs(t *testing.T, bodies []json.RawMessage) []string {
	t.Helper()
	var ids []string
	for _, b := range bodies {
		var s struct{ ID string }
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	return ids
}
