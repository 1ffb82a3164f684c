package server

import (
	"context"
	"net/http"
)

// Read-mostly answers: the catalog (trades, modules, each module's XR
// content), the XR scenes and the voice modules change only at start-up or
// on an edit of the catalog. They are served from memory, encoded once with
// a strong ETag and a gzip variant (internal/httpcache), and forgotten on
// every catalog change of any process sharing the database.

// cached serves h's answers from the read-mostly cache.
func (s *Server) cached(h http.HandlerFunc) http.HandlerFunc {
	return s.readMostly.Handler(h).ServeHTTP
}

// listenCatalog empties the read-mostly cache on every catalog change, by
// this process or another, until ctx ends.
func (s *Server) listenCatalog(ctx context.Context) {
	s.store.ListenCatalog(ctx, s.readMostly.Invalidate, s.log)
}
