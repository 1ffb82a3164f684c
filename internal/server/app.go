package server

import (
	"bytes"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/klauspost/compress/gzhttp"
)

// appHandler serves the built web app: files as they are, index.html for
// every client route. Vite names assets by content hash, so they are cached
// for a year; index.html is never cached, so a deploy shows at once.
func (s *Server) appHandler() http.Handler {
	if s.app == nil {
		return http.HandlerFunc(notBuilt)
	}
	index, err := fs.ReadFile(s.app, "index.html")
	if err != nil {
		return http.HandlerFunc(notBuilt)
	}
	files := http.FileServerFS(s.app)
	return gzhttp.GzipHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" && name != "index.html" {
			if st, err := fs.Stat(s.app, name); err == nil && !st.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				} else {
					w.Header().Set("Cache-Control", "public, max-age=3600")
				}
				files.ServeHTTP(w, r)
				return
			}
			if path.Ext(name) != "" && strings.HasPrefix(name, "assets/") {
				http.NotFound(w, r) // a missing asset is not a client route
				return
			}
		}
		w.Header().Set("Cache-Control", "no-cache")
		s.guestCookie(w, r) // before the page's first API calls race to mint one each
		s.servePage(w, r, index)
	}))
}

// cspNoncePlaceholder is what Vite writes where the page's CSP nonce goes
// (html.cspNonce in web/vite.config.ts).
var cspNoncePlaceholder = []byte("JOURNEYMAN_CSP_NONCE")

// servePage answers with the app's page and a fresh style nonce, in its
// Content-Security-Policy and in the page. Each answer has its own nonce, so
// the page has no validators: a 304 would revive an old page, whose nonce
// no longer matches the new policy.
func (s *Server) servePage(w http.ResponseWriter, r *http.Request, index []byte) {
	nonce := newNonce()
	w.Header().Set("Content-Security-Policy", csp(r.Host, s.isHTTPS(r), nonce))
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(bytes.ReplaceAll(index, cspNoncePlaceholder, []byte(nonce))) // a failed write is a client gone: no one to tell
}

func notBuilt(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusServiceUnavailable)
	_, _ = w.Write([]byte("Journeyman XR: the web app is not built into this binary. Run `make build` (or `make run`).\n")) // a failed write is a client gone
}
