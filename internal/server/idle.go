package server

import (
	"context"
	"time"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/training"
)

// A session that has heard nothing for abandonAfter is ended by the
// server. The page ends a session its learner leaves (useEndSessionOnLeave
// in web/src/api/xr-sessions.ts); these are the ones it could not: a
// headset whose battery died, a browser that crashed, a network that went
// away. A day is far longer than any module takes, so a learner still at
// work is never cut short.
const abandonAfter = 24 * time.Hour

// Every idleSweep the server ends at most idleBatch abandoned sessions;
// the next sweep takes the rest.
const (
	idleSweep = 10 * time.Minute
	idleBatch = 100
)

// endIdleSessions sweeps every idleSweep until ctx ends, the first time
// idleSweep after the start.
func (s *Server) endIdleSessions(ctx context.Context) {
	every(ctx, idleSweep, func() {
		if n, err := s.endAbandoned(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("sessions: end abandoned", "ended", n, "err", err)
		} else if n > 0 {
			s.log.Info("sessions: ended abandoned", "ended", n)
		}
	})
}

// endAbandoned ends up to idleBatch sessions idle for abandonAfter, each as
// of its last update, and judges it as any end is (an unfinished procedure
// fails). It answers how many it ended. A session its learner or another
// process ended, or updated, meanwhile is left as it is.
func (s *Server) endAbandoned(ctx context.Context) (int, error) {
	now := s.store.Now()
	ids, err := s.store.IdleSessions(ctx, now.Add(-abandonAfter), idleBatch)
	if err != nil {
		return 0, err
	}
	ended := 0
	for _, id := range ids {
		switch err := s.endIdle(ctx, id, now); apperr.Code(err) {
		case "":
			ended++
		case apperr.ECONFLICT, apperr.ENOTFOUND:
		default:
			return ended, err
		}
	}
	return ended, nil
}

func (s *Server) endIdle(ctx context.Context, id string, now time.Time) error {
	head, err := s.store.GetSessionHead(ctx, id)
	if err != nil {
		return err
	}
	scene, err := s.moduleScene(ctx, head.ModuleID)
	if err != nil {
		return err
	}
	learner := identity.Caller{ID: head.UserID, Role: identity.Guest}
	if u, err := s.store.GetUser(ctx, head.UserID); err == nil {
		learner = u.Caller()
	} else if apperr.Code(err) != apperr.ENOTFOUND {
		return err
	}
	_, err = s.store.UpdateSession(ctx, id, s.recorder(learner), func(x *training.Session) error {
		if now.Sub(x.UpdatedAt) < abandonAfter {
			return apperr.Conflict("XR session %s was updated since it was found idle", id)
		}
		return x.End(x.UserID, training.SessionEnd{EndedAt: x.UpdatedAt, CompletionStatus: training.StatusCompleted}, scene, now)
	})
	if err != nil {
		return err
	}
	s.sessionChanged(learner, id)
	if _, err := s.store.SyncRefreshers(ctx, learner.ID); err != nil {
		s.log.Warn("sync refreshers after ending an abandoned session", "session", id, "err", err)
	}
	return nil
}
