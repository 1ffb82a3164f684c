package server

import (
	"net/http"
	"sync"
	"time"

	"github.com/go-chi/httprate"

	"journeyman/internal/apperr"
)

// Limits that dropping a cookie does not reset: each is kept per client
// address (see clientAddr), and where it guards an account or a person, per
// account or identity as well. They are per process: a deployment of several
// processes multiplies them by its process count.
const (
	SignInsPerAddr      = 30 // per SignInWindow
	SignInsPerAccount   = 10 // per SignInWindow, for known and unknown emails alike
	SignInWindow        = 10 * time.Minute
	SignUpsPerAddrHour  = 10
	LinkUsesPerAddr     = 30 // password links and invites looked up or used, per SignInWindow
	DemoRequestsPerAddr = 20 // per hour
	WritesPerAddrMinute = 240
	AlertsPerUserMinute = 10
	AlertsPerAddrMinute = 30
	SocketsPerIdentity  = 8
	// DefaultSocketsPerAddr is the realtime connections one address may
	// hold. A training centre behind one NAT address with more headsets and
	// screens raises it (Config.SocketsPerAddr).
	DefaultSocketsPerAddr = 64
)

type limits struct {
	signInAddr, signInAccount, signUpAddr, linkAddr, demoAddr, writesAddr, alertUser, alertAddr *httprate.RateLimiter

	mu             sync.Mutex
	sockets        map[string]int // open sockets by "id:" identity and "addr:" address
	socketsPerAddr int
}

func newLimits(socketsPerAddr int) *limits {
	if socketsPerAddr <= 0 {
		socketsPerAddr = DefaultSocketsPerAddr
	}
	return &limits{
		socketsPerAddr: socketsPerAddr,
		signInAddr:     httprate.NewRateLimiter(SignInsPerAddr, SignInWindow),
		signInAccount:  httprate.NewRateLimiter(SignInsPerAccount, SignInWindow),
		signUpAddr:     httprate.NewRateLimiter(SignUpsPerAddrHour, time.Hour),
		linkAddr:       httprate.NewRateLimiter(LinkUsesPerAddr, SignInWindow),
		demoAddr:       httprate.NewRateLimiter(DemoRequestsPerAddr, time.Hour),
		writesAddr:     httprate.NewRateLimiter(WritesPerAddrMinute, time.Minute),
		alertUser:      httprate.NewRateLimiter(AlertsPerUserMinute, time.Minute),
		alertAddr:      httprate.NewRateLimiter(AlertsPerAddrMinute, time.Minute),
		sockets:        map[string]int{},
	}
}

// allow counts one request of key against l, answering ERATELIMIT with
// Retry-After on w when the limit is reached. w may be nil.
func allow(l *httprate.RateLimiter, w http.ResponseWriter, r *http.Request, key, what string) error {
	if w == nil {
		w = &statusProbe{header: http.Header{}}
	}
	if l.OnLimit(w, r, key) {
		return apperr.Errorf(apperr.ERATELIMIT, "too many %s; try again in %s seconds", what, w.Header().Get("Retry-After"))
	}
	return nil
}

// byAddr wraps h in an address limit.
func (s *Server) byAddr(l *httprate.RateLimiter, what string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := allow(l, w, r, s.clientAddr(r).String(), what); err != nil {
			s.writeError(w, r, err)
			return
		}
		h(w, r)
	}
}

// openSocket admits one more realtime connection of identity id from addr,
// and returns the function that releases it.
func (l *limits) openSocket(id, addr string) (release func(), err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sockets["id:"+id] >= SocketsPerIdentity {
		return nil, apperr.Errorf(apperr.ERATELIMIT, "too many realtime connections for you (at most %d); close another tab", SocketsPerIdentity)
	}
	if l.sockets["addr:"+addr] >= l.socketsPerAddr {
		return nil, apperr.Errorf(apperr.ERATELIMIT, "too many realtime connections from your address (at most %d)", l.socketsPerAddr)
	}
	l.sockets["id:"+id]++
	l.sockets["addr:"+addr]++
	var once sync.Once
	return func() {
		once.Do(func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			for _, k := range []string{"id:" + id, "addr:" + addr} {
				if l.sockets[k]--; l.sockets[k] <= 0 {
					delete(l.sockets, k)
				}
			}
		})
	}, nil
}
