package server

// Who is calling, and may they? Every browser holds a guest token the
// server issued (journeyman_guest: random bytes and their HMAC under the
// deployment's key); signing in adds a server-side session
// (journeyman_session, github.com/alexedwards/scs/v2 in the database).
// The public user ids others see are derived from tokens one way and are
// never credentials. Each route's entry in the route table (routes.go)
// states the level of caller it needs; authorize enforces it, in one place.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/alexedwards/scs/postgresstore"
	"github.com/alexedwards/scs/sqlite3store"
	"github.com/alexedwards/scs/v2"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/store"
)

// Cookie names.
const (
	GuestCookie   = "journeyman_guest"
	SessionCookie = "journeyman_session"
)

// Session lifetimes: a signed-in session ends after a week unused, and a
// month after sign-in in any case.
const (
	SessionIdleTimeout = 7 * 24 * time.Hour
	SessionLifetime    = 30 * 24 * time.Hour
	// sessionTouchEvery bounds how often use of a session is written back
	// to slide its idle timeout: once per interval, not once per request.
	sessionTouchEvery = 10 * time.Minute
	guestCookieMaxAge = 400 * 24 * time.Hour // the longest browsers keep a cookie
)

// Session data keys.
const (
	sessUser    = "uid"
	sessEpoch   = "epoch"
	sessTouched = "touched"
)

func newSessionManager(st *store.Store) *scs.SessionManager {
	sm := scs.New()
	// Expired rows are removed by Server.Start's sweeper, which stops with
	// the server; the stores' own cleanup goroutines would outlive it.
	if st.Dialect() == store.Postgres {
		sm.Store = postgresstore.NewWithCleanupInterval(st.DB(), 0)
	} else {
		sm.Store = &sqliteSessions{SQLite3Store: sqlite3store.NewWithCleanupInterval(st.DB(), 0), db: st.DB()}
	}
	sm.Codec = sessionCodec{}
	sm.IdleTimeout = SessionIdleTimeout
	sm.Lifetime = SessionLifetime
	return sm
}

// sqliteSessions is scs's SQLite store, whose lookup, made by every request
// with a session cookie, runs a statement prepared once: the library's
// Find has SQLite parse the query each time, which took more than the
// lookup itself.
type sqliteSessions struct {
	*sqlite3store.SQLite3Store
	db   *sql.DB
	once sync.Once
	find *sql.Stmt // nil if it could not be prepared: the library's Find answers
}

// sessionFind is sqlite3store's Find query.
const sessionFind = `SELECT data FROM sessions WHERE token = $1 AND julianday('now') < expiry`

func (s *sqliteSessions) Find(token string) ([]byte, bool, error) {
	s.once.Do(func() {
		// scs's Store interface passes no context.
		s.find, _ = s.db.PrepareContext(context.Background(), sessionFind)
	})
	if s.find == nil {
		return s.SQLite3Store.Find(token)
	}
	var b []byte
	err := s.find.QueryRowContext(context.Background(), token).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

// caller returns who made the request, as identify found them.
func caller(r *http.Request) identity.Caller {
	if info := infoOf(r); info != nil {
		return info.caller
	}
	return identity.Caller{}
}

// identify finds the caller of every API request: the signed-in account
// of a valid session, else the guest of a valid guest token, else a new
// guest whose token goes out with this answer (Presented false). The
// caller goes in the request's info (observe), not a context value of its
// own: a guest's request, the most common, is then not copied once more.
// observe, which makes the info, runs first (routes).
func (s *Server) identify(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ctx, err := s.resolve(w, r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		infoOf(r).caller = c
		if ctx != r.Context() { // a signed-in session's data
			r = r.WithContext(ctx)
		}
		next.ServeHTTP(w, r)
	})
}

func (s *Server) resolve(w http.ResponseWriter, r *http.Request) (identity.Caller, context.Context, error) {
	c, sctx, err := s.account(r)
	if err != nil {
		return identity.Caller{}, r.Context(), err
	}
	if sctx != nil {
		return c, sctx, s.touch(sctx)
	}
	if _, err := r.Cookie(SessionCookie); err == nil {
		s.clearCookie(w, r, SessionCookie) // a session that has ended
	}
	return s.guest(w, r), r.Context(), nil
}

// account returns the account signed in by r's session cookie, with the
// session's context; the context is nil when r names no valid session.
func (s *Server) account(r *http.Request) (identity.Caller, context.Context, error) {
	ck, err := r.Cookie(SessionCookie)
	if errors.Is(err, http.ErrNoCookie) {
		return identity.Caller{}, nil, nil
	}
	if err != nil {
		return identity.Caller{}, nil, err
	}
	sctx, err := s.sessions.Load(r.Context(), ck.Value)
	if err != nil {
		return identity.Caller{}, nil, err
	}
	u, ok, err := s.sessionUser(sctx)
	if err != nil || !ok {
		return identity.Caller{}, nil, err
	}
	return u.Caller(), sctx, nil
}

// sessionUser returns the account of a loaded session that is still valid:
// its account exists and has not signed out everywhere since.
func (s *Server) sessionUser(sctx context.Context) (store.User, bool, error) {
	id := s.sessions.GetString(sctx, sessUser)
	if id == "" {
		return store.User{}, false, nil
	}
	u, err := s.store.GetUser(sctx, id)
	if apperr.Code(err) == apperr.ENOTFOUND {
		return u, false, nil
	}
	if err != nil {
		return u, false, err
	}
	return u, u.Email != "" && u.AuthEpoch == s.sessions.GetInt64(sctx, sessEpoch), nil
}

// touch writes a session back now and then, which slides its idle timeout.
func (s *Server) touch(sctx context.Context) error {
	now := time.Now().Unix()
	if now-s.sessions.GetInt64(sctx, sessTouched) < int64(sessionTouchEvery/time.Second) {
		return nil
	}
	s.sessions.Put(sctx, sessTouched, now)
	_, _, err := s.sessions.Commit(sctx)
	return err
}

// guest returns the guest of the request's guest token, or a new guest
// whose token is set on w.
func (s *Server) guest(w http.ResponseWriter, r *http.Request) identity.Caller {
	if c, ok := s.presentedGuest(r); ok {
		return c
	}
	id := s.issueGuest(w, r)
	return identity.Caller{ID: id, DisplayName: identity.GuestName(id), Role: identity.Guest}
}

// presentedGuest is the guest of the request's valid guest token, if any.
func (s *Server) presentedGuest(r *http.Request) (identity.Caller, bool) {
	if ck, err := r.Cookie(GuestCookie); err == nil {
		if id, ok := s.guests.Check(ck.Value); ok {
			return identity.Caller{ID: id, DisplayName: identity.GuestName(id), Role: identity.Guest, Presented: true}, true
		}
	}
	return identity.Caller{}, false
}

// issueGuest sets a new guest token on w and returns the guest's id.
func (s *Server) issueGuest(w http.ResponseWriter, r *http.Request) string {
	token, id := s.guests.Issue()
	s.setCookie(w, r, GuestCookie, token, time.Now().Add(guestCookieMaxAge))
	return id
}

// guestCookie issues a guest token with the app's page when the browser
// has none: the page fires several API calls at once, and were each of them
// to be answered with its own new guest, the browser would keep only one.
func (s *Server) guestCookie(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.presentedGuest(r); ok {
		return
	}
	s.issueGuest(w, r)
}

// setCookie and clearCookie set Secure when the request came over HTTPS
// (isHTTPS): a plain-HTTP deployment on localhost must still get its
// cookies, which gosec's G124 cannot see.
func (s *Server) setCookie(w http.ResponseWriter, r *http.Request, name, value string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{ //nolint:gosec // G124: Secure follows the request's scheme, see above
		Name: name, Value: value, Path: "/", Expires: expires.UTC(),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.isHTTPS(r),
	})
}

func (s *Server) clearCookie(w http.ResponseWriter, r *http.Request, name string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/", MaxAge: -1, //nolint:gosec // G124: Secure follows the request's scheme
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.isHTTPS(r)})
}

// signIn starts a new session for u (a new token, never the one the request
// came with) and gives the browser a fresh guest token for after sign-out.
func (s *Server) signIn(w http.ResponseWriter, r *http.Request, u store.User) error {
	if ck, err := r.Cookie(SessionCookie); err == nil {
		// Whoever was signed in before is signed out, or nobody is signed in.
		if err := s.sessions.Store.Delete(ck.Value); err != nil {
			return fmt.Errorf("end the previous session: %w", err)
		}
	}
	sctx, err := s.sessions.Load(context.WithoutCancel(r.Context()), "")
	if err != nil {
		return err
	}
	if err := s.sessions.RenewToken(sctx); err != nil {
		return err
	}
	s.sessions.Put(sctx, sessUser, u.ID)
	s.sessions.Put(sctx, sessEpoch, u.AuthEpoch)
	s.sessions.Put(sctx, sessTouched, time.Now().Unix())
	token, _, err := s.sessions.Commit(sctx)
	if err != nil {
		return err
	}
	s.setCookie(w, r, SessionCookie, token, s.sessions.Deadline(sctx))
	s.issueGuest(w, r)
	return nil
}

// signOut ends the request's session and starts a fresh guest.
func (s *Server) signOut(w http.ResponseWriter, r *http.Request) error {
	if ck, err := r.Cookie(SessionCookie); err == nil {
		if err := s.sessions.Store.Delete(ck.Value); err != nil {
			return err
		}
	}
	s.clearCookie(w, r, SessionCookie)
	s.issueGuest(w, r)
	return nil
}

// authorize lets a request through when its caller meets the route's
// level, and records a guest who is about to write so that their records
// have an owner.
func (s *Server) authorize(rt apiRoute) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c := caller(r)
		if !c.Meets(rt.access) {
			s.writeError(w, r, refusal(c, rt.access))
			return
		}
		if rt.scope != nil {
			if err := rt.scope(r, c); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		if c.Role == identity.Guest && c.Presented && r.Method != http.MethodGet && r.Method != http.MethodHead {
			if err := s.ensureGuest(r.Context(), c.ID); err != nil {
				s.writeError(w, r, err)
				return
			}
		}
		rt.handler(w, r)
	}
}

// refusal says why a caller may not call a route of level l: 401 when
// signing in (or having any identity) would help, 403 when it would not.
func refusal(c identity.Caller, l identity.Level) error {
	switch {
	case !c.Presented && l == identity.Identified:
		return apperr.Errorf(apperr.EUNAUTHORIZED, "no identity: open the app first (the page issues a guest identity) or sign in")
	case !c.Signed():
		return apperr.Errorf(apperr.EUNAUTHORIZED, "sign in first: this needs an account")
	case l == identity.OrgMember:
		return apperr.Forbidden("this is for members of an organisation; you are not in one")
	default:
		return apperr.Forbidden("this needs the role of %s in your organisation; you are %s", l, c.Role)
	}
}

// ensureGuest stores a guest once; known guests cost no database trip.
func (s *Server) ensureGuest(ctx context.Context, id string) error {
	if s.knownGuests.has(id) {
		return nil
	}
	if err := s.store.EnsureGuest(ctx, id); err != nil {
		return err
	}
	s.knownGuests.add(id)
	return nil
}

// idSet remembers ids known to be stored. It is bounded: when full it
// starts afresh.
type idSet struct {
	mu sync.RWMutex
	m  map[string]struct{}
}

const idSetSize = 100_000

func (c *idSet) has(id string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	_, ok := c.m[id]
	return ok
}

func (c *idSet) add(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= idSetSize {
		c.m = make(map[string]struct{})
	}
	c.m[id] = struct{}{}
}

// forget drops an id (a guest whose records moved into an account).
func (c *idSet) forget(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, id)
}

// sweepSessions deletes expired sessions every hour until ctx ends.
func (s *Server) sweepSessions(ctx context.Context) {
	sweep := func() {
		if err := s.store.DeleteExpiredSessions(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("sessions: delete expired", "err", err)
		}
	}
	sweep()
	every(ctx, time.Hour, sweep)
}
