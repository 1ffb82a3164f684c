// Package realtime is the WebSocket hub behind /ws: the message envelope,
// per-session rooms with participants and observers, safety alerts that
// reach everyone, and the limits that keep one client from hurting others.
// It knows no database: the server stores alerts through OnSafetyAlert and
// carries messages between processes through Publish and Deliver.
package realtime

import (
	"encoding/json"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"journeyman/internal/apperr"
)

// Message types. The first three are the spec's outgoing client messages;
// join and leave manage room membership, watch_live subscribes an
// organisation's staff to its running sessions, watch_equipment anyone to
// the digital twins; the rest only the server sends.
const (
	TypeXRSessionUpdate     = "xr_session_update"
	TypeSafetyAlert         = "safety_alert"
	TypeCollaborationUpdate = "collaboration_update"
	TypeJoin                = "join"
	TypeLeave               = "leave"
	TypeWatchLive           = "watch_live"
	TypeWatchEquipment      = "watch_equipment"
	TypeJoined              = "joined"             // reply to join: the room's membership
	TypeLeft                = "left"               // reply to leave
	TypeWatching            = "watching"           // reply to watch_live
	TypeWatchingEquipment   = "watching_equipment" // reply to watch_equipment
	TypePresence            = "presence"           // a room's membership changed
	TypeError               = "error"              // the client's last message was refused; payload {message}
	TypeSafetyAlertAck      = "safety_alert_ack"   // an alert was acknowledged; payload SafetyAlert
	TypeLiveSession         = "live_session"       // to a channel's watchers: a running session changed
	TypeEquipmentUpdate     = "equipment_update"   // to equipment watchers: a twin as stored, with its alerts
	TypeInstructorMessage   = "instructor_message" // to a session's room: an instructor's words to the learner
	TypeInstructorStop      = "instructor_stop"    // to a session's room: an instructor stops the session
)

// Roles in a session room. Participants send session and collaboration
// updates; observers only receive them.
const (
	RoleParticipant = "participant"
	RoleObserver    = "observer"
)

// AlertTypes are the safety alert categories.
var AlertTypes = []string{"emergency", "help", "equipment", "general"}

// Payload limits.
const (
	MaxSessionIDLen       = 64  // characters of a room's session id
	MaxDescriptionLen     = 500 // characters of a safety alert's description
	MaxActionLen          = 64  // characters of a collaboration action
	MaxUpdateInteractions = 100 // interactions in one xr_session_update
)

// Message is the envelope of every message in both directions. The hub sets
// UserID and Timestamp on messages it relays; clients cannot forge them.
type Message struct {
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	UserID    string          `json:"userId,omitempty"`
	Timestamp time.Time       `json:"timestamp"`
	// Channel limits a broadcast to the peers of one alert channel; it is
	// the server's to set (from the stored record) and never sent.
	Channel string `json:"-"`
}

// Vec3 is a position in metres.
type Vec3 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	Z float64 `json:"z"`
}

// Rotation is an orientation as the learner's client sent it: a
// quaternion {x, y, z, w} or Euler angles {x, y, z} in radians (see
// training.Rotation). It is relayed in that shape: an Euler rotation must
// not reach the room with a w it never had.
type Rotation struct {
	X float64  `json:"x"`
	Y float64  `json:"y"`
	Z float64  `json:"z"`
	W *float64 `json:"w,omitempty"`
}

// XRSessionUpdatePayload is a learner's live position and recent
// interactions, relayed to the session's room.
type XRSessionUpdatePayload struct {
	Position     *Vec3             `json:"position,omitempty"`
	Rotation     *Rotation         `json:"rotation,omitempty"`
	Interactions []json.RawMessage `json:"interactions,omitempty"`
}

// Validate checks the payload's numbers and sizes.
func (p *XRSessionUpdatePayload) Validate() error {
	var nums []float64
	if p.Position != nil {
		nums = append(nums, p.Position.X, p.Position.Y, p.Position.Z)
	}
	if p.Rotation != nil {
		nums = append(nums, p.Rotation.X, p.Rotation.Y, p.Rotation.Z)
		if p.Rotation.W != nil {
			nums = append(nums, *p.Rotation.W)
		}
	}
	for _, n := range nums {
		if math.IsNaN(n) || math.IsInf(n, 0) || math.Abs(n) > 1e4 {
			return apperr.Invalid("position and rotation must be finite numbers between -10000 and 10000")
		}
	}
	if len(p.Interactions) > MaxUpdateInteractions {
		return apperr.Invalid("interactions may hold at most %d items", MaxUpdateInteractions)
	}
	for i, in := range p.Interactions {
		if len(in) == 0 || in[0] != '{' {
			return apperr.Invalid("interactions[%d] must be an object", i)
		}
	}
	return nil
}

// SafetyAlertPayload is a safety alert raised by a learner.
type SafetyAlertPayload struct {
	AlertType   string `json:"alertType"`
	Description string `json:"description"`
}

// Validate checks the category and the description's length.
func (p *SafetyAlertPayload) Validate() error {
	p.Description = strings.TrimSpace(p.Description)
	valid := false
	for _, t := range AlertTypes {
		valid = valid || p.AlertType == t
	}
	if !valid {
		return apperr.Invalid("alertType must be one of emergency, help, equipment, general")
	}
	if n := utf8.RuneCountInString(p.Description); n == 0 || n > MaxDescriptionLen {
		return apperr.Invalid("description must be 1 to %d characters", MaxDescriptionLen)
	}
	return nil
}

// CollaborationPayload is a shared action in a session room (a pointer, a
// highlighted object, an instructor's note).
type CollaborationPayload struct {
	Action string          `json:"action"`
	Data   json.RawMessage `json:"data,omitempty"`
}

// Validate checks the action's length.
func (p *CollaborationPayload) Validate() error {
	if p.Action == "" || utf8.RuneCountInString(p.Action) > MaxActionLen {
		return apperr.Invalid("action must be 1 to %d characters", MaxActionLen)
	}
	return nil
}

// JoinPayload asks to join a session room in a role.
type JoinPayload struct {
	Role string `json:"role"` // RoleParticipant (default) or RoleObserver
}

// RoomPayload is the membership of a room, sent with joined and presence.
type RoomPayload struct {
	Role         string `json:"role,omitempty"` // the receiver's own role, in joined
	Participants int    `json:"participants"`
	Observers    int    `json:"observers"`
}

// ErrorPayload tells a client why its message was refused.
type ErrorPayload struct {
	Message string `json:"message"`
}

// Room describes a live session room.
type Room struct {
	SessionID    string   `json:"sessionId"`
	Participants int      `json:"participants"`
	Observers    int      `json:"observers"`
	UserIDs      []string `json:"userIds"` // the participants' learner ids, sorted, without repeats
}

func validSessionID(id string) bool {
	return id != "" && utf8.RuneCountInString(id) <= MaxSessionIDLen
}

// SafetyAlert is a stored safety alert: the payload of the safety_alert
// message every client receives, and an item of GET /api/safety-alerts.
type SafetyAlert struct {
	ID          int64     `json:"id"`
	UserID      string    `json:"userId"`
	DisplayName string    `json:"displayName"` // the sender's name as others see it
	SessionID   string    `json:"sessionId"`   // the room it was raised in; "" when none
	AlertType   string    `json:"alertType"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"createdAt"`
	// Acknowledgement is the instructor's or admin's who took the alert in
	// hand; nil until then.
	Acknowledgement *Acknowledgement `json:"acknowledgement"`
	// Channel is the alert channel it was raised in (see Peer.Channel).
	Channel string `json:"-"`
}

// Acknowledgement says who acknowledged a safety alert, and when.
type Acknowledgement struct {
	UserID      string    `json:"userId"`
	DisplayName string    `json:"displayName"`
	At          time.Time `json:"at"`
}

// Message returns the safety_alert message that delivers a to its channel.
func (a SafetyAlert) Message() Message {
	b, _ := json.Marshal(a) // plain fields always encode
	return Message{Type: TypeSafetyAlert, Payload: b, SessionID: a.SessionID, UserID: a.UserID, Timestamp: a.CreatedAt, Channel: a.Channel}
}

// AckMessage returns the safety_alert_ack message that tells a's channel
// who acknowledged it; a must be acknowledged.
func (a SafetyAlert) AckMessage() Message {
	m := a.Message()
	m.Type, m.UserID, m.Timestamp = TypeSafetyAlertAck, a.Acknowledgement.UserID, a.Acknowledgement.At
	return m
}

// Sender names who sent a message the server relays on their behalf.
type Sender struct {
	UserID      string `json:"userId"`
	DisplayName string `json:"displayName"`
}

// InstructorMessagePayload is an instructor's message to a learner in a
// session's room.
type InstructorMessagePayload struct {
	Text string `json:"text"`
	From Sender `json:"from"`
}

// InstructorStopPayload tells a learner's player that an instructor stopped
// the session.
type InstructorStopPayload struct {
	Reason string `json:"reason"`
	From   Sender `json:"from"`
}
