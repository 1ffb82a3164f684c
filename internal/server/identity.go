package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
)

// LearnerCookie holds a browser's guest learner id: 128 random bits in hex.
const LearnerCookie = "journeyman_learner"

const learnerCookieMaxAge = 400 * 24 * 60 * 60 // the longest browsers keep a cookie

type learnerKey struct{}

// identify gives every API caller a guest learner identity, issuing the
// cookie on the first call and recording the learner in the store.
func (s *Server) identify(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		learner, err := s.ensureLearner(r.Context(), learnerCookie(w, r))
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), learnerKey{}, learner)))
	})
}

// learnerCookie returns the browser's learner id, issuing a new one in the
// cookie when the request carries none. The app's page issues it too: a page
// fires several API calls at once, and were each of them to mint its own id,
// the browser would keep the last and the others' data would be lost.
func learnerCookie(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(LearnerCookie); err == nil && validLearnerID(c.Value) {
		return c.Value
	}
	id := newLearnerID()
	http.SetCookie(w, &http.Cookie{
		Name: LearnerCookie, Value: id, Path: "/", MaxAge: learnerCookieMaxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil,
	})
	return id
}

func (s *Server) ensureLearner(ctx context.Context, id string) (store.Learner, error) {
	if l, ok := s.learners.get(id); ok {
		return l, nil
	}
	l, err := s.store.EnsureLearner(ctx, id, "Guest "+strings.ToUpper(id[:4]))
	if err != nil {
		return l, err
	}
	s.learners.put(l)
	return l, nil
}

// learnerCache remembers learners known to be stored, so that most requests
// cost no database round trip. It is bounded: when full it starts afresh.
type learnerCache struct {
	mu sync.RWMutex
	m  map[string]store.Learner
}

const learnerCacheSize = 100_000

func (c *learnerCache) get(id string) (store.Learner, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	l, ok := c.m[id]
	return l, ok
}

func (c *learnerCache) put(l store.Learner) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= learnerCacheSize {
		c.m = make(map[string]store.Learner)
	}
	c.m[l.ID] = l
}

func newLearnerID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

func validLearnerID(s string) bool {
	if len(s) != 32 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// learner returns the caller's identity, set by identify.
func learner(r *http.Request) store.Learner {
	l, _ := r.Context().Value(learnerKey{}).(store.Learner)
	return l
}

// requireSelf checks that the {userId} of a per-learner path is the caller.
func requireSelf(r *http.Request) error {
	if id := r.PathValue("userId"); id != learner(r).ID {
		return apperr.Forbidden("you can only read your own data (you are learner %s)", learner(r).ID)
	}
	return nil
}

type meResponse struct {
	ID          string `json:"id"`
	DisplayName string `json:"displayName"`
	Guest       bool   `json:"guest"`
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request) {
	l := learner(r)
	writeJSON(w, http.StatusOK, meResponse{ID: l.ID, DisplayName: l.DisplayName, Guest: true})
}
