package server

// The PORTAL live view: an organisation's running sessions for its staff,
// updated over /ws, and an instructor's message or stop to a learner.
//
//	GET  /api/portal/live                      staff → [portal.LiveSession] of the organisation's
//	     sessions not ended and updated in the last 30 minutes, most recent first, at most 100
//	POST /api/portal/live/{sessionId}/message  staff of the session's organisation; {text: 1..500}
//	     → 202 {}; delivers instructor_message {text, from: {userId, displayName}} to the room
//	POST /api/portal/live/{sessionId}/stop     likewise; {reason: 0..500} → 202 {}; delivers
//	     instructor_stop {reason, from}; the learner's player ends the session as End Session does
//	POST /api/safety-alerts/{id}/acknowledge   staff of the alert's organisation → 200
//	     realtime.SafetyAlert with its acknowledgement; 409 when already acknowledged; the
//	     organisation's clients receive safety_alert_ack
//
// On /ws, a staff member's watch_live subscribes their connection to
// live_session messages (payload portal.LiveSession) of their organisation:
// a session that starts, records interactions or ends is announced within
// flushEvery, to every server process, by its id.

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"journeyman/internal/apperr"
	"journeyman/internal/identity"
	"journeyman/internal/portal"
	"journeyman/internal/realtime"
	"journeyman/internal/training"
)

// liveChannel carries changed sessions between processes as lines of
// "channel<TAB>session id"; each process loads those its watchers follow.
const liveChannel = "journeyman_live"

// MaxInstructionLen bounds an instructor's message and a stop's reason.
const MaxInstructionLen = 500

// sessionChanged notes that a learner's session changed, for the watchers
// of the learner's organisation. Nobody watches the demo channel.
func (s *Server) sessionChanged(learner identity.Caller, sessionID string) {
	if learner.OrgID != "" {
		s.live.note(sessionID, learner.Channel()+"\t"+sessionID)
	}
}

// deliverLive sends the live_session messages of a liveChannel payload to
// this process's watchers.
func (s *Server) deliverLive(ctx context.Context, payload string) {
	var ids []string
	for line := range strings.SplitSeq(strings.TrimSpace(payload), "\n") {
		ch, id, ok := strings.Cut(line, "\t")
		if ok && s.hub.Watched(ch) {
			ids = append(ids, id)
		}
	}
	records, err := s.store.LiveSessionsByID(ctx, ids)
	if err != nil {
		s.log.Error("realtime: load live sessions", "err", err)
		return
	}
	for _, r := range records {
		b, err := json.Marshal(r.Live())
		if err != nil {
			s.log.Error("realtime: encode live session", "session", r.SessionID, "err", err)
			continue
		}
		s.hub.Deliver(realtime.Message{Type: realtime.TypeLiveSession, Payload: b, SessionID: r.SessionID, UserID: r.UserID,
			Timestamp: r.UpdatedAt.UTC(), Channel: identity.ChannelOf(r.OrgID)})
	}
}

// authorizeWatch lets the instructors and admins of an organisation watch
// its running sessions, as they are now (a role changed since the socket
// opened counts).
func (s *Server) authorizeWatch(ctx context.Context, who realtime.Peer) error {
	u, err := s.store.GetUser(ctx, who.UserID)
	if apperr.Code(err) == apperr.ENOTFOUND {
		return apperr.Forbidden("only an organisation's instructors and admins watch its running sessions")
	}
	if err != nil {
		return err
	}
	c := u.Caller()
	if !c.Meets(identity.Staff) || c.Channel() != who.Channel {
		return apperr.Forbidden("only an organisation's instructors and admins watch its running sessions; you are %s", c.Role)
	}
	return nil
}

func (s *Server) handleLive(w http.ResponseWriter, r *http.Request) {
	records, err := s.store.LiveSessions(r.Context(), caller(r).OrgID, s.store.Now().Add(-portal.LiveWindow))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := make([]portal.LiveSession, len(records))
	for i, rec := range records {
		out[i] = rec.Live()
	}
	writeJSON(w, http.StatusOK, out)
}

// liveScope lets staff reach the running sessions of their organisation's
// learners; another organisation's session does not exist for them.
func (s *Server) liveScope(r *http.Request, c identity.Caller) error {
	x, err := s.store.GetSessionHead(r.Context(), r.PathValue("sessionId"))
	if err != nil {
		return err
	}
	if _, err := s.store.GetMember(r.Context(), c.OrgID, x.UserID); apperr.Code(err) == apperr.ENOTFOUND {
		return apperr.NotFound("XR session %q does not exist in your organisation", x.ID)
	} else if err != nil {
		return err
	}
	if x.CompletionStatus == training.StatusCompleted {
		return apperr.Conflict("XR session %s has ended", x.ID)
	}
	return nil
}

func (s *Server) handleInstructorMessage(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Text string `json:"text"`
	}
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	in.Text = strings.TrimSpace(in.Text)
	if n := utf8.RuneCountInString(in.Text); n == 0 || n > MaxInstructionLen {
		s.writeError(w, r, apperr.Invalid("text must be 1 to %d characters", MaxInstructionLen))
		return
	}
	s.instruct(w, r, realtime.TypeInstructorMessage, func(from realtime.Sender) any {
		return realtime.InstructorMessagePayload{Text: in.Text, From: from}
	})
}

func (s *Server) handleInstructorStop(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Reason string `json:"reason"`
	}
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	in.Reason = strings.TrimSpace(in.Reason)
	if utf8.RuneCountInString(in.Reason) > MaxInstructionLen {
		s.writeError(w, r, apperr.Invalid("reason must be at most %d characters", MaxInstructionLen))
		return
	}
	s.instruct(w, r, realtime.TypeInstructorStop, func(from realtime.Sender) any {
		return realtime.InstructorStopPayload{Reason: in.Reason, From: from}
	})
}

// instruct delivers an instructor's message of type typ to the session's
// room, in every process.
func (s *Server) instruct(w http.ResponseWriter, r *http.Request, typ string, payload func(realtime.Sender) any) {
	c := caller(r)
	b, err := json.Marshal(payload(realtime.Sender{UserID: c.ID, DisplayName: c.DisplayName}))
	if err == nil {
		err = s.publish(r.Context(), realtime.Message{Type: typ, Payload: b, SessionID: r.PathValue("sessionId"), UserID: c.ID, Timestamp: s.store.Now().UTC()})
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, struct{}{})
}

func (s *Server) handleAcknowledgeAlert(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		s.writeError(w, r, apperr.Invalid("safety alert id must be a positive whole number, not %q", r.PathValue("id")))
		return
	}
	c := caller(r)
	a, err := s.store.AcknowledgeSafetyAlert(r.Context(), c.OrgID, id, c.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// The acknowledgement is stored; a page that misses its message shows
	// it when it next lists the alerts.
	if err := s.publish(r.Context(), a.AckMessage()); err != nil {
		s.log.WarnContext(r.Context(), "realtime: announce an acknowledged alert", "request_id", requestID(r), "err", err)
	}
	writeJSON(w, http.StatusOK, a)
}
