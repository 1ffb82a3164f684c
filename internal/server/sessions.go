package server

// The XR Training Center's HTTP API. JSON field names are camelCase and
// stable; the types live in internal/training.
//
//	POST  /api/xr-sessions
//	      body  {moduleId, sessionType: desktop|vr|ar (default desktop), deviceType?, startedAt (RFC 3339), userId?}
//	      userId, if sent, must be the caller (else 403). moduleId must be a catalog
//	      module id (else 400): the spec's defaults 'default' and
//	      'sample-welding-module' are not modules and are refused.
//	      201 → training.Session {id, userId, moduleId, moduleTitle, sessionType, deviceType,
//	            startedAt, endedAt: null, duration: 0 (seconds), completionStatus: "in_progress",
//	            position: null, rotation: null, interactionData {interactions: [], safetyChecks: [],
//	            completionStatus: ""}, clientCompletionStatus: "", safetyScore: null, updatedAt,
//	            serverStartedAt (when the server received this POST; null on records from
//	            before verification), verified: false, verificationIssues: []}
//	PATCH /api/xr-sessions/{id}
//	      update: {position? {x,y,z} (metres, each within ±10,000),
//	               rotation? {x,y,z,w} (a quaternion, length 1 ± 0.01) or {x,y,z} (Euler angles in
//	               radians, each within ±2π), optionally with form: "quaternion"|"euler", which must
//	               agree; stored and answered as sent with its form: {form, x, y, z[, w]},
//	               duration? (seconds),
//	               interactionData? {interactions: [{…free fields}], safetyChecks?: [{id, status}],
//	               completionStatus? (the client's claim, ≤ 64 characters)}}
//	              An interaction is any JSON object of at most 2,048 bytes (100 an update, 2,000
//	              and 256 KiB a session); every field comes back as sent. The server reads: what
//	              was done, the first of action, type, stepId, target sent as a non-empty string;
//	              stepId and objectId, the scene step and object (a step is completed only by its
//	              own action on its own object); sessionTime (ms since the start, 0..86,400,000; a
//	              number); timestamp (RFC 3339 or ms since 1970; the server's receipt when absent);
//	              seq (0-based index in the session, 0..1999; retried seqs are not stored twice).
//	              Every interaction stored gets receivedAt: when the server received the
//	              PATCH that carried it (a client's own receivedAt is replaced).
//	              interactionData.completionStatus is kept as clientCompletionStatus and never
//	              decides anything; interactionData.completionStatus in answers is the server's.
//	      end:    the same plus endedAt and completionStatus: "completed" (and the caller's
//	              extra fields userId/moduleId/sessionType, which must match, and deviceType and
//	              startedAt, which are ignored); any other top-level field is refused by name;
//	              the server scores the recorded interactions against the scene:
//	              safetyScore (percent), interactionData.safetyChecks, and
//	              interactionData.completionStatus: passed|failed; and verifies them
//	              (training.Verify): verified (bool) and verificationIssues ([]string, the
//	              reasons in the learner's words, [] when verified). A session is verified when
//	              its steps were recorded in the scene's order, sessionTime never decreased, no
//	              sessionTime ran ahead of the time the server measured from the POST to the
//	              PATCH that delivered it (by more than training.MaxClientLead, 2 s), and no
//	              step was completed faster than its scene step's minDurationMs. An unverified
//	              session is stored, ended and scored like any other, but certifies nothing
//	              (dashboard-stats), completes no module (xr-analytics, refreshers,
//	              recommendations) and is left out of averaged scores. Sessions that had ended
//	              before migration 00007 are unverified, "recorded before scores were checked".
//	      200 → training.Session; 404 unknown, 403 another learner's, 409 already ended.
//	      An update's answer lists in interactionData.interactions only the interactions
//	      that update stored (each with its receivedAt), not those stored before, so an
//	      update costs the same at a session's 2,000th interaction as at its first; the
//	      end's answer, like the session's record, lists them all.
//	GET   /api/users/{userId}/xr-sessions?limit=20&offset=0   (limit 1..100)
//	      200 → [training.SessionSummary {id, userId, moduleId, moduleTitle, sessionType,
//	            startedAt, endedAt, duration (seconds), completionStatus, outcome,
//	            safetyScore, updatedAt, verified, verificationIssues}], newest first;
//	            header X-Total-Count.
//	GET   /api/users/{userId}/xr-sessions/{id}
//	      200 → training.Session, the whole record with every interaction as stored; 404 when
//	            the learner has no such session.
//	GET   /api/users/{userId}/xr-analytics
//	      200 → training.Analytics {totalSessions (ended, verified or not), totalDuration
//	            (seconds), averageSafetyScore (verified sessions), completedModules (modules
//	            with a verified passed session), tradeProgress: [{tradeId, tradeName,
//	            completed (likewise), total, percent}]}
//	GET   /api/training-modules/{id}/xr-content → training.XRContent {moduleTitle, sceneUrl, scene}
//	GET   /api/xr-scenes/{id}                   → training.Scene; each step has minDurationMs,
//	      the least time it can take (1.5 s a click, 2 s a grab, 3 s a safety check).
//	GET   /api/live-sessions?minutes=10 (1..60)  → [training.SessionSummary] of sessions not
//	      ended and updated in the last N minutes, most recent first, at most 50.
//
// Starting sessions is limited per learner to 30 a minute with bursts of 10
// (429 with Retry-After). Every client mistake answers 4xx {"message": "..."} naming the field.

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"golang.org/x/time/rate"

	"journeyman/internal/apperr"
	"journeyman/internal/store"
	"journeyman/internal/training"
)

// Live sessions: those updated within this window (default and maximum).
const (
	DefaultLiveMinutes = 10
	MaxLiveMinutes     = 60
)

// Session starts per learner: a sustained rate and a burst. Each start is a
// stored record, so one browser may not create them without bound.
const (
	SessionStartsPerMinute = 30
	SessionStartBurst      = 10
)

// startLimiter rate-limits session starts per learner. It is bounded: when
// it holds too many learners it starts afresh, forgetting their budgets.
type startLimiter struct {
	mu sync.Mutex
	m  map[string]*rate.Limiter
}

func (l *startLimiter) allow(learnerID string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.m == nil || len(l.m) >= idSetSize {
		l.m = map[string]*rate.Limiter{}
	}
	lim, ok := l.m[learnerID]
	if !ok {
		lim = rate.NewLimiter(rate.Limit(SessionStartsPerMinute)/60, SessionStartBurst)
		l.m[learnerID] = lim
	}
	return lim.Allow()
}

func (s *Server) handleCreateSession(w http.ResponseWriter, r *http.Request) {
	var in training.NewSession
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	me := caller(r)
	if in.UserID != "" && in.UserID != me.ID {
		s.writeError(w, r, apperr.Forbidden("userId %q is not you; sessions are recorded for the caller (learner %s)", in.UserID, me.ID))
		return
	}
	now := s.store.Now()
	if err := in.Validate(now); err != nil {
		s.writeError(w, r, err)
		return
	}
	if !s.starts.allow(me.ID) {
		w.Header().Set("Retry-After", "2")
		s.writeError(w, r, apperr.Errorf(apperr.ERATELIMIT, "too many sessions started: at most %d a minute", SessionStartsPerMinute))
		return
	}
	x, err := s.store.CreateSession(r.Context(), training.Start(uuid.NewString(), me.ID, in, now), s.recorder(me))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.sessionChanged(me, x.ID)
	writeJSON(w, http.StatusCreated, x)
}

// moduleScene is the scene a session of module moduleID is judged against.
func (s *Server) moduleScene(ctx context.Context, moduleID string) (training.Scene, error) {
	m, err := s.store.GetModule(ctx, moduleID)
	if err != nil {
		return training.Scene{}, err
	}
	return training.SceneForModule(m.ID, m.TradeID), nil
}

func (s *Server) handlePatchSession(w http.ResponseWriter, r *http.Request) {
	var p training.SessionPatch
	if err := readJSON(w, r, &p); err != nil {
		s.writeError(w, r, unembed(err))
		return
	}
	me := caller(r)
	if p.UserID != "" && p.UserID != me.ID {
		s.writeError(w, r, apperr.Forbidden("userId %q is not you (learner %s)", p.UserID, me.ID))
		return
	}
	id := r.PathValue("id")
	now := s.store.Now()
	if !p.IsEnd() {
		// A periodic update appends to what is stored without reading it.
		x, err := s.store.AppendSession(r.Context(), id, s.recorder(me), func(x *training.Session) error {
			return x.Apply(me.ID, p, training.Scene{}, now)
		})
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		s.sessionChanged(me, id)
		writeJSON(w, http.StatusOK, x)
		return
	}
	// Only an end needs the scene. A session's module never changes, so
	// reading it ahead of the update's transaction is safe.
	head, err := s.store.GetSessionHead(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	scene, err := s.moduleScene(r.Context(), head.ModuleID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	x, err := s.store.UpdateSession(r.Context(), id, s.recorder(me), func(x *training.Session) error {
		return x.Apply(me.ID, p, scene, now)
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.sessionChanged(me, id)
	// The refresher schedule follows the ended session now, not when the
	// learner next opens it, so that an instructor's "refreshers due" is
	// current. Failing here loses nothing: the next sync folds it in.
	if _, err := s.store.SyncRefreshers(r.Context(), me.ID); err != nil {
		s.log.WarnContext(r.Context(), "sync refreshers after a session", "request_id", requestID(r), "err", err)
	}
	writeJSON(w, http.StatusOK, x)
}

func (s *Server) handleListSessions(w http.ResponseWriter, r *http.Request) {
	limit, offset, err := queryPage(r, store.DefaultSessionPage, store.MaxSessionPage)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	list, total, err := s.store.ListSessions(r.Context(), r.PathValue("userId"), limit, offset)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("X-Total-Count", strconv.Itoa(total))
	writeJSON(w, http.StatusOK, list)
}

func (s *Server) handleGetSession(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	x, err := s.store.GetSession(r.Context(), id)
	// The route's scope lets the caller read this learner's records; a
	// session of another learner is not one of them.
	if err == nil && x.UserID != r.PathValue("userId") {
		err = apperr.NotFound("XR session %q does not exist among learner %s's sessions", id, r.PathValue("userId"))
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, x)
}

func (s *Server) handleAnalytics(w http.ResponseWriter, r *http.Request) {
	sessions, err := s.store.ListAllSessions(r.Context(), r.PathValue("userId"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	trades, err := s.store.ListTrades(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	modules, err := s.store.ListModules(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, training.Analyze(sessions, trades, modules))
}

func (s *Server) handleXRContent(w http.ResponseWriter, r *http.Request) {
	m, err := s.store.GetModule(r.Context(), r.PathValue("id"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, training.ContentFor(m))
}

func (s *Server) handleScene(w http.ResponseWriter, r *http.Request) {
	scene, ok := training.SceneByID(r.PathValue("id"))
	if !ok {
		s.writeError(w, r, apperr.NotFound("XR scene %q does not exist", r.PathValue("id")))
		return
	}
	writeJSON(w, http.StatusOK, scene)
}

func (s *Server) handleLiveSessions(w http.ResponseWriter, r *http.Request) {
	minutes, err := queryInt(r, "minutes", DefaultLiveMinutes, 1, MaxLiveMinutes)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	list, err := s.store.ListLiveSessions(r.Context(), caller(r).OrgID, s.store.Now().Add(-time.Duration(minutes)*time.Minute))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, list)
}

// unembed drops the Go name of the embedded SessionUpdate from a decoding
// error's field path, so that it names the JSON field the client sent.
func unembed(err error) error {
	var e *apperr.Error
	if errors.As(err, &e) && strings.Contains(e.Message, `"SessionUpdate.`) {
		return apperr.Errorf(e.Code, "%s", strings.ReplaceAll(e.Message, `"SessionUpdate.`, `"`))
	}
	return err
}

// queryPage reads a list's optional limit (1..most, default def) and offset.
func queryPage(r *http.Request, def, most int) (limit, offset int, err error) {
	if limit, err = queryInt(r, "limit", def, 1, most); err != nil {
		return 0, 0, err
	}
	offset, err = queryInt(r, "offset", 0, 0, 1_000_000)
	return limit, offset, err
}

// queryInt reads an optional integer query parameter within [lo, hi].
func queryInt(r *http.Request, name string, def, lo, hi int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, apperr.Invalid("%s must be an integer from %d to %d, not %q", name, lo, hi, v)
	}
	return n, nil
}
