package httpcache

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// catalog stands for a read-mostly answer: big enough to compress, and
// changed by setting body.
type catalog struct {
	calls atomic.Int32
	mu    sync.Mutex
	body  string
}

func newCatalog(body string) *catalog { return &catalog{body: body} }

func (c *catalog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.calls.Add(1)
	c.mu.Lock()
	body := c.body
	c.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte(body)) // the test reads what arrived
}

func (c *catalog) set(body string) {
	c.mu.Lock()
	c.body = body
	c.mu.Unlock()
}

var bigJSON = `[` + strings.Repeat(`{"id":"electrical-loto","title":"Lockout/Tagout"},`, 200) + `{}]`

func get(t *testing.T, h http.Handler, header ...string) *http.Response {
	t.Helper()
	return do(t, h, http.MethodGet, "/api/training-modules", header...)
}

func do(t *testing.T, h http.Handler, method, target string, header ...string) *http.Response {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Add(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w.Result()
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.Header.Get("Content-Encoding") == "gzip" && len(b) > 0 {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("gzip body: %v", err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatalf("gzip body: %v", err)
		}
	}
	return string(b)
}

func TestServesFromMemory(t *testing.T) {
	src := newCatalog(bigJSON)
	h := New().Handler(src)
	first := get(t, h)
	second := get(t, h)
	if src.calls.Load() != 1 {
		t.Errorf("handler ran %d times for two requests; want 1", src.calls.Load())
	}
	for i, res := range []*http.Response{first, second} {
		if res.StatusCode != http.StatusOK || body(t, res) != bigJSON {
			t.Fatalf("response %d: %d, body differs", i, res.StatusCode)
		}
		etag := res.Header.Get("ETag")
		if !strings.HasPrefix(etag, `"`) || !strings.HasSuffix(etag, `"`) || len(etag) < 10 {
			t.Errorf("ETag %q is not a strong entity tag", etag)
		}
		for name, want := range map[string]string{
			"Content-Type": "application/json", "Cache-Control": "no-cache", "Vary": "Accept-Encoding",
			"Content-Encoding": "", "Content-Length": strconv.Itoa(len(bigJSON)),
		} {
			if got := res.Header.Get(name); got != want {
				t.Errorf("%s = %q, want %q", name, got, want)
			}
		}
	}
	if first.Header.Get("ETag") != second.Header.Get("ETag") {
		t.Error("the ETag changed between two requests")
	}
}

func TestConditional(t *testing.T) {
	h := New().Handler(newCatalog(bigJSON))
	etag := get(t, h).Header.Get("ETag")
	gzETag := get(t, h, "Accept-Encoding", "gzip").Header.Get("ETag")
	if etag == gzETag {
		t.Fatalf("the gzip variant has the identity's ETag %s", etag)
	}
	tests := []struct {
		name   string
		header []string
		status int
	}{
		{"Match", []string{"If-None-Match", etag}, http.StatusNotModified},
		{"MatchInList", []string{"If-None-Match", `"other", ` + etag}, http.StatusNotModified},
		{"MatchWeak", []string{"If-None-Match", "W/" + etag}, http.StatusNotModified},
		{"MatchSecondHeader", []string{"If-None-Match", `"other"`, "If-None-Match", etag}, http.StatusNotModified},
		{"Star", []string{"If-None-Match", "*"}, http.StatusNotModified},
		{"GzipMatch", []string{"Accept-Encoding", "gzip", "If-None-Match", gzETag}, http.StatusNotModified},
		{"ErrStale", []string{"If-None-Match", `"stale"`}, http.StatusOK},
		{"ErrEmpty", []string{"If-None-Match", ""}, http.StatusOK},
		{"ErrIdentityTagForGzip", []string{"Accept-Encoding", "gzip", "If-None-Match", etag}, http.StatusOK},
		{"ErrGzipTagForIdentity", []string{"If-None-Match", gzETag}, http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := get(t, h, tt.header...)
			if res.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", res.StatusCode, tt.status)
			}
			if res.Header.Get("ETag") == "" || res.Header.Get("Vary") != "Accept-Encoding" || res.Header.Get("Cache-Control") != "no-cache" {
				t.Errorf("headers %v lack ETag, Vary or Cache-Control", res.Header)
			}
			b := body(t, res)
			if tt.status == http.StatusNotModified && b != "" {
				t.Errorf("304 with a body of %d bytes", len(b))
			}
			if tt.status == http.StatusOK && b != bigJSON {
				t.Error("200 with the wrong body")
			}
		})
	}
}

func TestGzipNegotiation(t *testing.T) {
	h := New().Handler(newCatalog(bigJSON))
	tests := []struct {
		acceptEncoding string
		gzip           bool
	}{
		{"", false},
		{"gzip", true},
		{"gzip, deflate, br, zstd", true},
		{"br;q=1.0, gzip;q=0.5", true},
		{"GZIP", true},
		{"x-gzip", true},
		{"*", true},
		{"identity", false},
		{"br", false},
		{"gzip;q=0", false},
		{"gzip; q=0.000", false},
		{"gzip;q=0.001", true},
		{"*;q=0", false},
		{"gzip;q=0, *", false},
		{"*, gzip;q=0", false},
		{"identity, *;q=0.1", true},
	}
	for _, tt := range tests {
		t.Run(tt.acceptEncoding, func(t *testing.T) {
			res := get(t, h, "Accept-Encoding", tt.acceptEncoding)
			if got := res.Header.Get("Content-Encoding") == "gzip"; got != tt.gzip {
				t.Fatalf("gzip = %v, want %v", got, tt.gzip)
			}
			if body(t, res) != bigJSON {
				t.Error("body differs from the answer")
			}
		})
	}
}

// A small answer that gzip would not shrink is kept only as it is.
func TestNoGzipWhenNotSmaller(t *testing.T) {
	h := New().Handler(newCatalog(`[]`))
	res := get(t, h, "Accept-Encoding", "gzip")
	if res.Header.Get("Content-Encoding") != "" || body(t, res) != `[]` {
		t.Fatalf("Content-Encoding %q", res.Header.Get("Content-Encoding"))
	}
}

// The ETag depends only on the bytes: two processes serving the same
// catalog give the same tags, so a browser's revalidation works whichever
// answers it.
func TestETagStableAcrossProcesses(t *testing.T) {
	a := New().Handler(newCatalog(bigJSON))
	b := New().Handler(newCatalog(bigJSON))
	for _, ae := range []string{"", "gzip"} {
		if ta, tb := get(t, a, "Accept-Encoding", ae).Header.Get("ETag"), get(t, b, "Accept-Encoding", ae).Header.Get("ETag"); ta != tb {
			t.Errorf("Accept-Encoding %q: ETags %s and %s", ae, ta, tb)
		}
	}
	other := New().Handler(newCatalog(bigJSON + " "))
	if get(t, a).Header.Get("ETag") == get(t, other).Header.Get("ETag") {
		t.Error("different content has the same ETag")
	}
}

func TestInvalidate(t *testing.T) {
	src := newCatalog(bigJSON)
	c := New()
	h := c.Handler(src)
	old := get(t, h).Header.Get("ETag")
	src.set(`["changed"]`)
	if b := body(t, get(t, h)); b != bigJSON {
		t.Fatalf("before Invalidate the cached answer should stay; got %q", b)
	}
	c.Invalidate()
	res := get(t, h, "If-None-Match", old)
	if res.StatusCode != http.StatusOK || body(t, res) != `["changed"]` {
		t.Fatalf("after Invalidate: %d %q; want 200 with the new answer", res.StatusCode, body(t, res))
	}
	if src.calls.Load() != 2 {
		t.Errorf("handler ran %d times; want 2", src.calls.Load())
	}
	if res.Header.Get("ETag") == old {
		t.Error("the new answer has the old ETag")
	}
}

// An answer built while the data changed may be the old data: it is
// served once but not kept.
func TestInvalidateWhileBuilding(t *testing.T) {
	c := New()
	var calls atomic.Int32
	h := c.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			c.Invalidate()
		}
		_, _ = w.Write([]byte(bigJSON)) // the test reads what arrived
	}))
	get(t, h)
	get(t, h)
	get(t, h)
	if calls.Load() != 2 {
		t.Errorf("handler ran %d times; want 2 (the first answer not kept, the second kept)", calls.Load())
	}
}

func TestPassesThrough(t *testing.T) {
	tests := []struct {
		name, method, target string
		status               int
	}{
		{"ErrorsAreNotKept", http.MethodGet, "/api/xr-scenes/missing", http.StatusNotFound},
		{"QueryString", http.MethodGet, "/api/training-modules?x=1", http.StatusOK},
		{"OtherMethod", http.MethodPost, "/api/training-modules", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			c := New()
			h := c.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				calls.Add(1)
				w.Header().Set("X-Handler", "yes")
				if strings.Contains(r.URL.Path, "missing") {
					http.Error(w, `{"message":"no such scene"}`, http.StatusNotFound)
					return
				}
				_, _ = w.Write([]byte(bigJSON)) // the test reads what arrived
			}))
			for range 2 {
				res := do(t, h, tt.method, tt.target)
				if res.StatusCode != tt.status || res.Header.Get("X-Handler") != "yes" {
					t.Fatalf("status %d, X-Handler %q", res.StatusCode, res.Header.Get("X-Handler"))
				}
				if b := body(t, res); tt.status == http.StatusNotFound && !strings.Contains(b, "no such scene") {
					t.Errorf("body %q", b)
				}
			}
			if calls.Load() != 2 || c.Len() != 0 {
				t.Errorf("handler ran %d times and %d answers are kept; want 2 and 0", calls.Load(), c.Len())
			}
		})
	}
}

func TestHead(t *testing.T) {
	h := New().Handler(newCatalog(bigJSON))
	get(t, h)
	res := do(t, h, http.MethodHead, "/api/training-modules")
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Length") != strconv.Itoa(len(bigJSON)) || body(t, res) != "" {
		t.Fatalf("HEAD: %d, Content-Length %q", res.StatusCode, res.Header.Get("Content-Length"))
	}
}

// Readers and invalidations at once: run with -race.
func TestConcurrent(t *testing.T) {
	src := newCatalog(bigJSON)
	c := New()
	h := c.Handler(src)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 200 {
				res := get(t, h, "Accept-Encoding", []string{"", "gzip"}[i%2])
				if b := body(t, res); b != bigJSON {
					t.Errorf("body of %d bytes", len(b))
					return
				}
			}
		})
	}
	for range 50 {
		c.Invalidate()
	}
	wg.Wait()
}
