package server

import (
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"journeyman/internal/apperr"
)

// Per-learner write limits of the learning and personalization saves: a
// person filling in forms saves a few times a minute; a burst of 20 and one
// save every two seconds after it leaves them untouched and stops a script
// from filling the database.
const (
	learnerWriteBurst    = 20
	learnerWritesPerSec  = 0.5
	learnerLimitersLimit = 100_000 // learners tracked at once; past it, tracking starts afresh
)

// learnerLimiter rate-limits one group of endpoints per learner. now is the
// clock, so tests can hold time still.
type learnerLimiter struct {
	mu       sync.Mutex
	limiters map[string]*rate.Limiter
	now      func() time.Time
}

func newLearnerLimiter(now func() time.Time) *learnerLimiter {
	return &learnerLimiter{limiters: map[string]*rate.Limiter{}, now: now}
}

func (l *learnerLimiter) allow(learnerID string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim, ok := l.limiters[learnerID]
	if !ok {
		if len(l.limiters) >= learnerLimitersLimit {
			l.limiters = map[string]*rate.Limiter{}
		}
		lim = rate.NewLimiter(learnerWritesPerSec, learnerWriteBurst)
		l.limiters[learnerID] = lim
	}
	return lim.AllowN(l.now(), 1)
}

// limit answers 429 when the caller has used up their writes.
func (l *learnerLimiter) limit(s *Server, next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !l.allow(caller(r).ID) {
			w.Header().Set("Retry-After", "2")
			s.writeError(w, r, apperr.Errorf(apperr.ERATELIMIT, "too many saves; wait a few seconds and try again"))
			return
		}
		next(w, r)
	}
}
