package server

// The realtime channel, GET /ws (same host only: a foreign Origin gets 403).
// The caller is identified as for the API (a signed-in session, else the
// guest token the app's page issues); a request with neither gets 401
// before any upgrade. At most SocketsPerIdentity connections per identity
// and Config.SocketsPerAddr per client address (429 beyond).
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
//	safety_alert         {alertType: emergency|help|equipment|general, description (1..500)};
//	                     at most AlertsPerUserMinute per identity and AlertsPerAddrMinute per address
//	watch_live           {}                              an organisation's instructors and admins
//	                                                      receive its live_session messages (live.go)
//
// Server → client types: the relayed ones above; joined {role, participants,
// observers}; left; watching; presence {participants, observers}; error
// {message} (the connection stays open); live_session, instructor_message,
// instructor_stop and safety_alert_ack (live.go). A safety_alert reaches the connected clients of
// its channel (the sender's organisation, or the demo channel of everyone
// outside one) in every server process, with payload realtime.SafetyAlert
// {id, userId, displayName, sessionId, alertType, description, createdAt};
// it is stored first and listed by GET /api/safety-alerts?limit=50 (1..200),
// newest first. Observers join only sessions of their own channel.
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
	"strings"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/realtime"
	"journeyman/internal/store"
	"journeyman/internal/training"
)

// Notification channels. Alerts travel as ids (the record is in the
// database); room messages are ephemeral, so they travel whole; a changed
// sign-in travels as its account's id.
const (
	alertChannel  = "journeyman_safety_alert"
	roomChannel   = "journeyman_room"
	revokeChannel = "journeyman_revoke"
	ackPrefix     = "ack:" // an alert channel notification of an acknowledgement
)

func newHub(s *Server) *realtime.Hub {
	return realtime.NewHub(realtime.Options{
		Logger: s.log,
		OnSafetyAlert: func(ctx context.Context, from realtime.Peer, a realtime.SafetyAlertPayload, sessionID string) (realtime.Message, error) {
			if err := s.allowAlert(from); err != nil {
				return realtime.Message{}, err
			}
			if err := s.ensureGuest(ctx, from.UserID); err != nil {
				return realtime.Message{}, err
			}
			stored, err := s.store.CreateSafetyAlert(ctx, from.UserID, sessionID, a)
			if err != nil {
				return realtime.Message{}, err
			}
			return stored.Message(), nil
		},
		Publish:        s.publish,
		AuthorizeJoin:  s.authorizeJoin,
		AuthorizeWatch: s.authorizeWatch,
	})
}

// publish carries a hub message to every process through the store.
func (s *Server) publish(ctx context.Context, m realtime.Message) error {
	if m.Type == realtime.TypeSafetyAlert || m.Type == realtime.TypeSafetyAlertAck {
		var a realtime.SafetyAlert
		if err := json.Unmarshal(m.Payload, &a); err != nil || a.ID == 0 {
			return fmt.Errorf("publish safety alert: no stored alert id in %s", m.Payload)
		}
		id := strconv.FormatInt(a.ID, 10)
		if m.Type == realtime.TypeSafetyAlertAck {
			id = ackPrefix + id
		}
		return s.store.Notify(ctx, alertChannel, id)
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
// watch the running sessions of their own channel.
func (s *Server) authorizeJoin(ctx context.Context, who realtime.Peer, sessionID, role string) error {
	userID := who.UserID
	x, err := s.store.GetSession(ctx, sessionID)
	if err != nil {
		return err
	}
	if x.UserID != userID {
		owner, err := s.store.GetUser(ctx, x.UserID)
		if err != nil {
			return err
		}
		if identity.ChannelOf(owner.OrgID) != who.Channel {
			return apperr.NotFound("XR session %s does not exist", sessionID)
		}
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
	go s.sweepSessions(ctx)
	go s.endIdleSessions(ctx)
	s.listenCatalog(ctx) // and catalog changes, which the read-mostly answers follow
	s.store.Listen(ctx, alertChannel, func(payload string) {
		number, ack := strings.CutPrefix(payload, ackPrefix)
		id, err := strconv.ParseInt(number, 10, 64)
		if err != nil {
			s.log.Warn("realtime: malformed alert notification", "payload", payload)
			return
		}
		a, err := s.store.GetSafetyAlert(ctx, id)
		if err != nil {
			s.log.Error("realtime: load safety alert", "id", id, "err", err)
			return
		}
		if ack && a.Acknowledgement != nil {
			s.hub.Deliver(a.AckMessage())
		} else if !ack {
			s.hub.Deliver(a.Message())
		}
	}, s.log)
	s.store.Listen(ctx, liveChannel, func(payload string) { s.deliverLive(ctx, payload) }, s.log)
	// Not with ctx: see revalidateRealtime.
	s.store.Listen(ctx, revokeChannel, func(userID string) { s.hub.Revalidate(context.Background(), userID) }, s.log)
	s.store.Listen(ctx, twinChannel, func(payload string) { s.deliverTwins(ctx, payload) }, s.log)
	go s.flushChanges(ctx)
	s.gatewayDone = make(chan struct{})
	go func() {
		defer close(s.gatewayDone)
		s.gateway.Run(ctx)
	}()
	s.store.Listen(ctx, roomChannel, func(payload string) {
		var m realtime.Message
		if err := json.Unmarshal([]byte(payload), &m); err != nil {
			s.log.Warn("realtime: malformed room notification", "err", err)
			return
		}
		s.hub.Deliver(m)
	}, s.log)
}

// WaitGateway returns once the gateway has stopped polling and released
// its leases, after Start's context ended: call it before the store closes,
// so that another process takes the devices over at once.
func (s *Server) WaitGateway() {
	if s.gatewayDone != nil {
		<-s.gatewayDone
	}
}

// CloseRealtime closes every WebSocket with 1001 (going away). Call it
// before shutting the HTTP server down: hijacked connections are not the
// HTTP server's to close, and before the store closes.
func (s *Server) CloseRealtime() { s.hub.Close() }

// handleWS upgrades to the realtime channel for the request's caller.
func (s *Server) handleWS() http.Handler {
	return s.hub.Handler(func(r *http.Request) (realtime.Peer, int, string) {
		c, _, err := s.resolve(discardHeaders{}, r)
		if err != nil {
			s.log.ErrorContext(r.Context(), "realtime: identify", "err", err)
			return realtime.Peer{}, http.StatusInternalServerError, "internal error"
		}
		if !c.Presented {
			return realtime.Peer{}, http.StatusUnauthorized, "no identity: open the app first (the page issues a guest identity) or sign in"
		}
		addr := s.clientAddr(r).String()
		release, err := s.limits.openSocket(c.ID, addr)
		if err != nil {
			return realtime.Peer{}, http.StatusTooManyRequests, apperr.Message(err)
		}
		p := realtime.Peer{UserID: c.ID, Channel: c.Channel(), Addr: addr, Release: release}
		if c.Signed() {
			p.Valid = s.stillSignedIn(r.Header.Get("Cookie"), c)
		}
		return p, 0, ""
	})
}

// stillSignedIn reports whether the cookies a connection was opened with
// still sign in held, with the role and organisation it had: a guest's
// identity cannot end, an account's sign-in can (sign-out, a new password,
// removal from the organisation, a new role). It reads the session without
// sliding its idle timeout: an open page is not activity.
func (s *Server) stillSignedIn(cookies string, held identity.Caller) func(context.Context) (bool, error) {
	return func(ctx context.Context) (bool, error) {
		r, err := http.NewRequestWithContext(ctx, http.MethodGet, "/ws", nil)
		if err != nil {
			return false, err
		}
		r.Header.Set("Cookie", cookies)
		now, sctx, err := s.account(r)
		if err != nil || sctx == nil {
			return false, err
		}
		return now.ID == held.ID && now.Role == held.Role && now.OrgID == held.OrgID, nil
	}
}

// revalidateRealtime closes the realtime connections whose holder's
// sign-in or rights a request has just changed (see realtime.Peer.Valid),
// in every process sharing the database: a phone signed out everywhere
// stops receiving the organisation's alerts whichever process it is
// connected to, not at that process's next keepalive round. On SQLite the
// notice is delivered before this returns. Not with the request's context:
// it carries the caller's loaded session, which the session manager would
// answer instead of reading the store.
func (s *Server) revalidateRealtime(userID string) {
	ctx := context.Background()
	if err := s.store.Notify(ctx, revokeChannel, userID); err != nil {
		s.log.Warn("realtime: tell the other processes of a changed sign-in; they find out at their next keepalive round", "user", userID, "err", err)
		s.hub.Revalidate(ctx, userID)
	}
}

// allowAlert applies the safety alert limits per identity and per address.
func (s *Server) allowAlert(from realtime.Peer) error {
	// The limiters key requests; this one only carries the keys, never sent.
	r, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "/", nil)
	if err := allow(s.limits.alertUser, nil, r, from.UserID, "safety alerts from you"); err != nil {
		return err
	}
	return allow(s.limits.alertAddr, nil, r, from.Addr, "safety alerts from your address")
}

// discardHeaders is a ResponseWriter for identifying a WebSocket caller,
// where no cookie is issued: the channel needs an identity already held.
type discardHeaders struct{}

func (discardHeaders) Header() http.Header         { return http.Header{} }
func (discardHeaders) WriteHeader(int)             {}
func (discardHeaders) Write(b []byte) (int, error) { return len(b), nil }
