package server

// The realtime channel, GET /ws (same host only: a foreign Origin gets 403).
// The caller is the learner of the journeyman_learner cookie; a request
// without a valid cookie gets 401 before any upgrade (load any /api page
// first: the API issues the cookie).
//
// Every message, both ways, is one JSON text frame with the envelope
// realtime.Message {type, payload, sessionId, userId, timestamp}; the server
// sets userId and timestamp on what it relays. Client → server types:
//
//	join                 {role: participant|observer}    join room sessionId (an XR session id);
//	                                                      participants must own the session, observers
//	                                                      may watch any session not yet ended
//	leave                {}                              leave the current room
//	xr_session_update    {position, rotation, interactions}  relayed to the room
//	collaboration_update {action, data}                  relayed to the room
//	safety_alert         {alertType: emergency|help|equipment|general, description (1..500)}
//
// Server → client types: the relayed ones above; joined {role, participants,
// observers}; left; presence {participants, observers}; error {message} (the
// connection stays open). A safety_alert reaches every connected client of
// every server process with payload realtime.SafetyAlert {id, userId,
// sessionId, alertType, description, createdAt}; it is stored first and
// listed by GET /api/safety-alerts?limit=50 (1..200), newest first.
//
// Limits: frames over 64 KiB close with 1009; 20 messages/s with bursts of
// 40 per connection (excess gets an error; persistent excess closes with
// 1008); a relayed room message must encode to at most 7900 bytes (it
// crosses processes by PostgreSQL NOTIFY); ping every 30 s, no pong in 10 s
// closes; a client whose 32-message send queue is full is dropped.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"journeyman/internal/apperr"
	"journeyman/internal/realtime"
	"journeyman/internal/store"
	"journeyman/internal/training"
)

// Notification channels. Alerts travel as ids (the record is in the
// database); room messages are ephemeral, so they travel whole.
const (
	alertChannel = "journeyman_safety_alert"
	roomChannel  = "journeyman_room"
)

func newHub(s *Server) *realtime.Hub {
	return realtime.NewHub(realtime.Options{
		Logger: s.log,
		OnSafetyAlert: func(ctx context.Context, userID string, a realtime.SafetyAlertPayload, sessionID string) (realtime.Message, error) {
			stored, err := s.store.CreateSafetyAlert(ctx, userID, sessionID, a)
			if err != nil {
				return realtime.Message{}, err
			}
			return stored.Message(), nil
		},
		Publish:       s.publish,
		AuthorizeJoin: s.authorizeJoin,
	})
}

// publish carries a hub message to every process through the store.
func (s *Server) publish(ctx context.Context, m realtime.Message) error {
	if m.Type == realtime.TypeSafetyAlert {
		var a realtime.SafetyAlert
		if err := json.Unmarshal(m.Payload, &a); err != nil || a.ID == 0 {
			return fmt.Errorf("publish safety alert: no stored alert id in %s", m.Payload)
		}
		return s.store.Notify(ctx, alertChannel, strconv.FormatInt(a.ID, 10))
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if len(b) > store.MaxNotifyPayload {
		return apperr.Invalid("a %s message may encode to at most %d bytes to be relayed; this one is %d (send fewer interactions)", m.Type, store.MaxNotifyPayload, len(b))
	}
	return s.store.Notify(ctx, roomChannel, string(b))
}

// authorizeJoin lets a learner take part in their own running session and
// watch anyone's running session.
func (s *Server) authorizeJoin(ctx context.Context, userID, sessionID, role string) error {
	x, err := s.store.GetSession(ctx, sessionID)
	if err != nil {
		return err
	}
	if x.CompletionStatus == training.StatusCompleted {
		return apperr.Conflict("XR session %s has ended", sessionID)
	}
	if role == realtime.RoleParticipant && x.UserID != userID {
		return apperr.Forbidden("only the session's learner takes part in session %s; join as an observer to watch", sessionID)
	}
	return nil
}

// Start listens for the realtime messages of every process sharing the
// database and delivers them to this process's clients, until ctx ends. It
// returns once listening, so that a message published after it is seen.
func (s *Server) Start(ctx context.Context) {
	s.store.Listen(ctx, alertChannel, func(payload string) {
		id, err := strconv.ParseInt(payload, 10, 64)
		if err != nil {
			s.log.Warn("realtime: malformed alert notification", "payload", payload)
			return
		}
		a, err := s.store.GetSafetyAlert(ctx, id)
		if err != nil {
			s.log.Error("realtime: load safety alert", "id", id, "err", err)
			return
		}
		s.hub.Deliver(a.Message())
	}, s.log)
	s.store.Listen(ctx, roomChannel, func(payload string) {
		var m realtime.Message
		if err := json.Unmarshal([]byte(payload), &m); err != nil {
			s.log.Warn("realtime: malformed room notification", "err", err)
			return
		}
		s.hub.Deliver(m)
	}, s.log)
}

// CloseRealtime closes every WebSocket with 1001 (going away). Call it
// before shutting the HTTP server down: hijacked connections are not the
// HTTP server's to close, and before the store closes.
func (s *Server) CloseRealtime() { s.hub.Close() }

// handleWS upgrades to the realtime channel for the cookie's learner.
func (s *Server) handleWS() http.Handler {
	return s.hub.Handler(func(r *http.Request) (string, bool) {
		c, err := r.Cookie(LearnerCookie)
		if err != nil || !validLearnerID(c.Value) {
			return "", false
		}
		l, err := s.ensureLearner(r.Context(), c.Value)
		if err != nil {
			s.log.ErrorContext(r.Context(), "realtime: ensure learner", "err", err)
			return "", false
		}
		return l.ID, true
	})
}
