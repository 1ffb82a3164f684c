// Package httpcache serves read-mostly answers from memory. The first GET
// of a path runs the handler; a 200 answer is kept encoded, with a gzip
// variant and a strong ETag for each, and served from memory (304 to a
// matching If-None-Match) until Invalidate. The ETag is a hash of the bytes,
// so every process serving the same content gives the same one.
//
// Only answers that are the same for every caller belong behind it: it
// keeps one answer per path, whoever asked.
package httpcache

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"journeyman/internal/gather"
)

// MaxEntries bounds the answers kept; past it, answers are served but not
// kept until the next Invalidate.
const MaxEntries = 4096

// Cache holds encoded answers by path. The zero value is not usable; use New.
type Cache struct {
	state atomic.Pointer[state] // replaced whole, so that a hit takes no lock
	mu    sync.Mutex            // serializes replacements
}

type state struct {
	version uint64
	entries map[string]*entry
}

// New returns an empty cache.
func New() *Cache {
	c := &Cache{}
	c.state.Store(&state{entries: map[string]*entry{}})
	return c
}

// Invalidate forgets every answer: the next request for each runs the
// handler again. An answer being built while Invalidate runs is not kept.
func (c *Cache) Invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.state.Store(&state{version: c.state.Load().version + 1, entries: map[string]*entry{}})
}

// Len returns the number of answers kept.
func (c *Cache) Len() int { return len(c.state.Load().entries) }

func (c *Cache) put(version uint64, key string, e *entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.state.Load()
	if old.version != version || len(old.entries) >= MaxEntries {
		return
	}
	entries := make(map[string]*entry, len(old.entries)+1)
	for k, v := range old.entries {
		entries[k] = v
	}
	entries[key] = e
	c.state.Store(&state{version: version, entries: entries})
}

// Handler serves GET and HEAD requests without a query string from the
// cache, filling it from next; other requests go to next as they are.
func (c *Cache) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead || r.URL.RawQuery != "" {
			next.ServeHTTP(w, r)
			return
		}
		st := c.state.Load()
		if e := st.entries[r.URL.Path]; e != nil {
			e.serve(w, r)
			return
		}
		rec := &recorder{header: http.Header{}, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		if rec.status != http.StatusOK {
			rec.replay(w)
			return
		}
		e := newEntry(rec.header.Get("Content-Type"), rec.body.Bytes())
		c.put(st.version, r.URL.Path, e)
		e.serve(w, r)
	})
}

// entry is one answer, encoded.
type entry struct {
	contentType []string
	identity    variant
	gzip        *variant // nil when compression does not make it smaller
}

// variant is one encoding of an answer. Header values are made once and
// shared by every response: each is a slice with no spare capacity, so a
// later Header().Add copies rather than writes into it.
type variant struct {
	body   []byte
	etag   string
	etagH  []string
	length []string
}

func newVariant(body []byte) variant {
	sum := sha256.Sum256(body)
	etag := `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`
	return variant{body: body, etag: etag, etagH: []string{etag}, length: []string{strconv.Itoa(len(body))}}
}

func newEntry(contentType string, body []byte) *entry {
	e := &entry{contentType: []string{contentType}, identity: newVariant(bytes.Clone(body))}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // the level is valid
	// Writing to memory does not fail; if it did, the entry would simply
	// have no gzip variant.
	if _, err := zw.Write(body); err == nil && zw.Close() == nil && buf.Len() < len(body) {
		gz := newVariant(buf.Bytes())
		e.gzip = &gz
	}
	return e
}

var (
	noCache            = []string{"no-cache"} // stored, but asked again each time: 304 when unchanged
	varyAcceptEncoding = []string{"Accept-Encoding"}
	gzipEncoding       = []string{"gzip"}
)

func (e *entry) serve(w http.ResponseWriter, r *http.Request) {
	v := &e.identity
	h := w.Header()
	if e.gzip != nil && acceptsGzip(r.Header["Accept-Encoding"]) {
		v = e.gzip
		h["Content-Encoding"] = gzipEncoding
	}
	h["Content-Type"] = e.contentType
	h["Cache-Control"] = noCache
	h["Vary"] = varyAcceptEncoding
	h["Etag"] = v.etagH
	if inm := r.Header["If-None-Match"]; len(inm) > 0 && matches(inm, v.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h["Content-Length"] = v.length
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = gather.Write(w, r, v.body) // a failed write is a client gone: no one to tell
	}
}

// matches reports whether an If-None-Match header lists etag or "*". Its
// comparison is the weak one RFC 9110 prescribes: W/ is ignored.
func matches(values []string, etag string) bool {
	if len(values) == 1 && values[0] == etag {
		return true
	}
	for _, v := range values {
		for v != "" {
			var tag string
			tag, v, _ = strings.Cut(v, ",")
			tag = strings.TrimSpace(tag)
			if tag == "*" || strings.TrimPrefix(tag, "W/") == etag {
				return true
			}
		}
	}
	return false
}

// acceptsGzip reports whether Accept-Encoding values admit gzip: named
// with a non-zero q, or not named while "*" is.
func acceptsGzip(values []string) bool {
	named, star := 0, 0 // 0 not listed, 1 accepted, -1 refused
	for _, v := range values {
		for v != "" {
			var item string
			item, v, _ = strings.Cut(v, ",")
			name, params, _ := strings.Cut(item, ";")
			verdict := 1
			for params != "" {
				var p string
				p, params, _ = strings.Cut(params, ";")
				if k, q, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") && zeroQ(strings.TrimSpace(q)) {
					verdict = -1
				}
			}
			switch name = strings.TrimSpace(name); {
			case strings.EqualFold(name, "gzip"), strings.EqualFold(name, "x-gzip"):
				named = verdict
			case name == "*":
				star = verdict
			}
		}
	}
	return named == 1 || named == 0 && star == 1
}

// zeroQ reports whether a q value is zero: "0", "0.", "0.0" … "0.000".
func zeroQ(q string) bool {
	if q == "" || q[0] != '0' {
		return false
	}
	return strings.Trim(q[1:], ".0") == "" && strings.Count(q, ".") <= 1
}

// recorder keeps what the handler answers.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if !r.wrote {
		r.status, r.wrote = status, true
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.body.Write(b)
}

// replay writes the recorded answer to w.
func (r *recorder) replay(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range r.header {
		h[k] = v
	}
	w.WriteHeader(r.status)
	_, _ = w.Write(r.body.Bytes()) // a failed write is a client gone: no one to tell
}
