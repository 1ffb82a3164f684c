// Package training holds the XR Training Center's domain: the XR session
// record and its lifecycle, the safety score, the learner analytics and the
// training scenes served as data to the WebXR player.
package training

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"journeyman/internal/apperr"
)

// Session types a session can run in.
const (
	SessionDesktop = "desktop"
	SessionVR      = "vr"
	SessionAR      = "ar"
)

// SessionTypes lists the valid session types in display order.
var SessionTypes = []string{SessionDesktop, SessionVR, SessionAR}

// Completion statuses of the session record.
const (
	StatusInProgress = "in_progress" // started, not ended
	StatusCompleted  = "completed"   // ended by End Session
)

// Outcomes written to interactionData.completionStatus when a session ends:
// whether the learner met the scene's pass criteria.
const (
	OutcomePassed = "passed"
	OutcomeFailed = "failed"
)

// Safety-check statuses in interactionData.safetyChecks.
const (
	CheckPassed  = "passed"
	CheckSkipped = "skipped"
)

// Size limits. They bound what one learner can make the server store and
// what one request can make it parse.
const (
	MaxModuleIDLen            = 128       // characters of moduleId
	MaxDeviceTypeLen          = 512       // characters of deviceType (a browser user-agent string)
	MaxInteractionsPerUpdate  = 100       // interactions in one PATCH
	MaxInteractionsPerSession = 2000      // interactions stored for one session
	MaxInteractionBytes       = 2048      // bytes of one interaction as JSON
	MaxInteractionDataBytes   = 256 << 10 // bytes of a session's whole interactionData as JSON
	MaxSafetyChecks           = 64        // safety-check results in one session
	MaxIDLen                  = 64        // characters of a safety-check id and of a client's claimed completion status
	MaxSessionSeconds         = 24 * 3600 // longest duration a session may record
	MaxClockSkew              = 5 * time.Minute
	MaxCoordinate             = 10_000.0 // metres from the scene origin, per axis
)

// SafetyCheckResult is whether the learner performed one of the scene's
// safety checks before going on.
type SafetyCheckResult struct {
	ID     string `json:"id"`
	Status string `json:"status"` // CheckPassed or CheckSkipped
}

// InteractionData is what a session records of the learner's actions.
type InteractionData struct {
	Interactions []Interaction       `json:"interactions"`
	SafetyChecks []SafetyCheckResult `json:"safetyChecks"`
	// CompletionStatus is "" while the session runs and OutcomePassed or
	// OutcomeFailed once it has ended: the server's judgement. What a client
	// sends here is its claim, kept as Session.ClientCompletionStatus.
	CompletionStatus string `json:"completionStatus"`
}

// Session is the XR session record.
type Session struct {
	ID               string          `json:"id"`
	UserID           string          `json:"userId"`
	ModuleID         string          `json:"moduleId"`
	ModuleTitle      string          `json:"moduleTitle,omitempty"` // filled by the store for history lists
	SessionType      string          `json:"sessionType"`
	DeviceType       string          `json:"deviceType"`
	StartedAt        time.Time       `json:"startedAt"`
	EndedAt          *time.Time      `json:"endedAt"`
	Duration         int64           `json:"duration"` // seconds
	CompletionStatus string          `json:"completionStatus"`
	Position         *Vec3           `json:"position"`
	Rotation         *Rotation       `json:"rotation"`
	InteractionData  InteractionData `json:"interactionData"`
	// ClientCompletionStatus is interactionData.completionStatus as the
	// client last sent it: its claim, kept for the record and never read;
	// the outcome is the server's (InteractionData.CompletionStatus).
	ClientCompletionStatus string    `json:"clientCompletionStatus"`
	SafetyScore            *float64  `json:"safetyScore"` // percent, set when the session ends
	UpdatedAt              time.Time `json:"updatedAt"`
	// ServerStartedAt is when the server received the session's start, the
	// origin of its wall-clock check; nil for sessions started before the
	// server kept it.
	ServerStartedAt *time.Time `json:"serverStartedAt"`
	// Verified says whether the ended session passed Verify; false while the
	// session runs. VerificationIssues are the reasons it did not, for the
	// learner; empty when verified or still running. An unverified session
	// keeps its score and outcome but counts for no certification and no
	// completed module.
	Verified           bool     `json:"verified"`
	VerificationIssues []string `json:"verificationIssues"`
	// Earlier are the stored interactions InteractionData.Interactions
	// leaves out: a store may load a running session for an update without
	// them, since an update only appends, so that its cost does not grow
	// with the session. Interactions then holds the ones after them; zero
	// when it holds them all, which ending the session requires.
	Earlier StoredInteractions `json:"-"`
}

// StoredInteractions counts interactions a session holds.
type StoredInteractions struct {
	Count int // how many
	Bytes int // their total size, each encoded as json.Marshal encodes an Interaction
}

// NewSession is the body of POST /api/xr-sessions. The learner is the
// caller, never a field of the body.
type NewSession struct {
	UserID      string    `json:"userId,omitempty"` // accepted for the spec's clients; the caller's id is used
	ModuleID    string    `json:"moduleId"`
	SessionType string    `json:"sessionType"`
	DeviceType  string    `json:"deviceType"`
	StartedAt   time.Time `json:"startedAt"`
}

// Validate checks a new session at time now and fills the default session
// type. Whether the module exists is the store's to check.
func (n *NewSession) Validate(now time.Time) error {
	if n.SessionType == "" {
		n.SessionType = SessionDesktop
	}
	if n.ModuleID == "" {
		return apperr.Invalid("moduleId is required")
	}
	if utf8.RuneCountInString(n.ModuleID) > MaxModuleIDLen {
		return apperr.Invalid("moduleId must be at most %d characters", MaxModuleIDLen)
	}
	if !validSessionType(n.SessionType) {
		return apperr.Invalid("sessionType must be one of desktop, vr, ar")
	}
	if utf8.RuneCountInString(n.DeviceType) > MaxDeviceTypeLen {
		return apperr.Invalid("deviceType must be at most %d characters", MaxDeviceTypeLen)
	}
	if n.StartedAt.IsZero() {
		return apperr.Invalid("startedAt is required (an RFC 3339 time)")
	}
	if n.StartedAt.After(now.Add(MaxClockSkew)) {
		return apperr.Invalid("startedAt must not be in the future")
	}
	if n.StartedAt.Before(now.Add(-MaxSessionSeconds * time.Second)) {
		return apperr.Invalid("startedAt must be within the last 24 hours")
	}
	return nil
}

// Start returns the record of a new session of learner userID.
func Start(id, userID string, n NewSession, now time.Time) Session {
	received := now.UTC()
	return Session{
		ID:               id,
		UserID:           userID,
		ModuleID:         n.ModuleID,
		SessionType:      n.SessionType,
		DeviceType:       n.DeviceType,
		StartedAt:        n.StartedAt.UTC(),
		CompletionStatus: StatusInProgress,
		InteractionData:  InteractionData{Interactions: []Interaction{}, SafetyChecks: []SafetyCheckResult{}},
		UpdatedAt:        now.UTC(),
		// The client's startedAt says when the learner pressed start; the
		// server trusts only its own clock for what it verifies.
		ServerStartedAt:    &received,
		VerificationIssues: []string{},
	}
}

// SessionUpdate is the periodic update of a running session. Interactions
// are the ones recorded since the last acknowledged update (see
// Interaction.Seq); safety checks replace earlier results with the same id.
type SessionUpdate struct {
	Position        *Vec3            `json:"position,omitempty"`
	Rotation        *Rotation        `json:"rotation,omitempty"`
	InteractionData *InteractionData `json:"interactionData,omitempty"`
	Duration        *int64           `json:"duration,omitempty"` // seconds
}

// Validate checks the update's fields against their ranges and limits.
func (u *SessionUpdate) Validate() error {
	if u.Position != nil {
		if err := u.Position.Validate(); err != nil {
			return err
		}
	}
	if u.Rotation != nil {
		if err := u.Rotation.Validate(); err != nil {
			return err
		}
	}
	if u.Duration != nil && (*u.Duration < 0 || *u.Duration > MaxSessionSeconds) {
		return apperr.Invalid("duration must be between 0 and %d seconds", MaxSessionSeconds)
	}
	if d := u.InteractionData; d != nil {
		if len(d.Interactions) > MaxInteractionsPerUpdate {
			return apperr.Invalid("interactionData.interactions holds %d interactions; one update may send at most %d", len(d.Interactions), MaxInteractionsPerUpdate)
		}
		for i, in := range d.Interactions {
			if err := in.validate(i); err != nil {
				return err
			}
		}
		if len(d.SafetyChecks) > MaxSafetyChecks {
			return apperr.Invalid("interactionData.safetyChecks may hold at most %d results", MaxSafetyChecks)
		}
		for i, c := range d.SafetyChecks {
			if c.ID == "" || len(c.ID) > MaxIDLen {
				return apperr.Invalid("interactionData.safetyChecks[%d].id must be 1 to %d characters", i, MaxIDLen)
			}
			if c.Status != CheckPassed && c.Status != CheckSkipped {
				return apperr.Invalid("interactionData.safetyChecks[%d].status must be one of passed, skipped", i)
			}
		}
		if n := utf8.RuneCountInString(d.CompletionStatus); n > MaxIDLen {
			return apperr.Invalid("interactionData.completionStatus must be at most %d characters; it is the client's claim, kept for the record (the server judges the outcome when the session ends)", MaxIDLen)
		}
	}
	return nil
}

// SessionEnd is the end of a session: End Session's record.
type SessionEnd struct {
	SessionUpdate
	EndedAt          time.Time `json:"endedAt"`
	CompletionStatus string    `json:"completionStatus"`
}

// Validate checks the end at time now of a session that started at startedAt.
func (e *SessionEnd) Validate(startedAt, now time.Time) error {
	if err := e.SessionUpdate.Validate(); err != nil {
		return err
	}
	if e.CompletionStatus != StatusCompleted {
		return apperr.Invalid("completionStatus must be completed to end a session")
	}
	if e.EndedAt.IsZero() {
		return apperr.Invalid("endedAt is required to end a session (an RFC 3339 time)")
	}
	if e.EndedAt.Before(startedAt) {
		return apperr.Invalid("endedAt must not be before startedAt")
	}
	if e.EndedAt.After(now.Add(MaxClockSkew)) {
		return apperr.Invalid("endedAt must not be in the future")
	}
	return nil
}

// SessionPatch is the body of PATCH /api/xr-sessions/{id}: a periodic update,
// or the end when it carries endedAt or completionStatus.
type SessionPatch struct {
	SessionUpdate
	EndedAt          *time.Time `json:"endedAt,omitempty"`
	CompletionStatus *string    `json:"completionStatus,omitempty"`
	// Fields the spec's clients repeat on the end call; they must match the
	// record if given and are otherwise ignored.
	UserID      string `json:"userId,omitempty"`
	ModuleID    string `json:"moduleId,omitempty"`
	SessionType string `json:"sessionType,omitempty"`
	DeviceType  string `json:"deviceType,omitempty"`
	// StartedAt is accepted from a client that repeats its whole record and
	// ignored: the record keeps the start it was created with.
	StartedAt json.RawMessage `json:"startedAt,omitempty"`
}

// IsEnd reports whether the patch ends the session.
func (p *SessionPatch) IsEnd() bool { return p.EndedAt != nil || p.CompletionStatus != nil }

// End returns the patch as an end.
func (p *SessionPatch) End() SessionEnd {
	e := SessionEnd{SessionUpdate: p.SessionUpdate}
	if p.EndedAt != nil {
		e.EndedAt = *p.EndedAt
	}
	if p.CompletionStatus != nil {
		e.CompletionStatus = *p.CompletionStatus
	}
	return e
}

// Apply applies the patch by learner userID at time now to s: an update or,
// if the patch is an end, the end, evaluated against scene.
func (s *Session) Apply(userID string, p SessionPatch, scene Scene, now time.Time) error {
	if err := s.checkWritable(userID); err != nil {
		return err
	}
	if p.ModuleID != "" && p.ModuleID != s.ModuleID {
		return apperr.Invalid("moduleId %q does not match the session's module %q", p.ModuleID, s.ModuleID)
	}
	if p.SessionType != "" && !strings.EqualFold(p.SessionType, s.SessionType) {
		return apperr.Invalid("sessionType %q does not match the session's type %q", p.SessionType, s.SessionType)
	}
	if p.IsEnd() {
		return s.End(userID, p.End(), scene, now)
	}
	return s.Update(userID, p.SessionUpdate, now)
}

func (s *Session) checkWritable(userID string) error {
	if s.UserID != userID {
		return apperr.Forbidden("XR session %s belongs to another learner", s.ID)
	}
	if s.EndedAt != nil || s.CompletionStatus == StatusCompleted {
		return apperr.Conflict("XR session %s has already ended", s.ID)
	}
	return nil
}

// Update applies a periodic update by learner userID at time now.
func (s *Session) Update(userID string, u SessionUpdate, now time.Time) error {
	if err := s.checkWritable(userID); err != nil {
		return err
	}
	if err := u.Validate(); err != nil {
		return err
	}
	return s.merge(u, now)
}

func (s *Session) merge(u SessionUpdate, now time.Time) error {
	next := *s
	if u.Position != nil {
		p := *u.Position
		next.Position = &p
	}
	if u.Rotation != nil {
		r := *u.Rotation
		next.Rotation = &r
	}
	if u.Duration != nil {
		next.Duration = *u.Duration
	}
	if d := u.InteractionData; d != nil {
		if d.CompletionStatus != "" {
			next.ClientCompletionStatus = d.CompletionStatus
		}
		stored := s.InteractionData.Interactions
		merged := append(make([]Interaction, 0, len(stored)+len(d.Interactions)), stored...)
		for i, in := range d.Interactions {
			if in.Timestamp.IsZero() {
				in.Timestamp = now.UTC()
			}
			in.ReceivedAt = now.UTC()
			if in.Seq != nil {
				held := s.Earlier.Count + len(merged)
				switch {
				case *in.Seq < held:
					continue // already stored by an earlier attempt of this update
				case *in.Seq > held:
					return apperr.Conflict("interactionData.interactions[%d].seq is %d but the session holds %d interactions; resend from seq %d", i, *in.Seq, held, held)
				}
			}
			if err := in.seal(); err != nil {
				return fmt.Errorf("update session: %w", err)
			}
			merged = append(merged, in)
		}
		if s.Earlier.Count+len(merged) > MaxInteractionsPerSession {
			return apperr.Errorf(apperr.ETOOLARGE, "a session may record at most %d interactions", MaxInteractionsPerSession)
		}
		next.InteractionData.Interactions = merged
		if len(d.SafetyChecks) > 0 {
			next.InteractionData.SafetyChecks = mergeChecks(s.InteractionData.SafetyChecks, d.SafetyChecks)
			if len(next.InteractionData.SafetyChecks) > MaxSafetyChecks {
				return apperr.Errorf(apperr.ETOOLARGE, "a session may record at most %d safety checks", MaxSafetyChecks)
			}
		}
		size, err := next.interactionDataSize()
		if err != nil {
			return fmt.Errorf("update session: %w", err)
		}
		if size > MaxInteractionDataBytes {
			return apperr.Errorf(apperr.ETOOLARGE, "a session's interactionData may be at most %d bytes", MaxInteractionDataBytes)
		}
	}
	next.UpdatedAt = now.UTC()
	*s = next
	return nil
}

// interactionDataSize is the size of the session's whole interactionData as
// JSON, the Earlier interactions included, without encoding them: an array's
// encoding is its elements' joined by commas.
func (s *Session) interactionDataSize() (int, error) {
	// The interactions' own encodings are compact already: they are
	// counted, not passed through encoding/json again.
	d := s.InteractionData
	d.Interactions = nil
	b, err := json.Marshal(d)
	if err != nil {
		return 0, fmt.Errorf("encode interaction data: %w", err)
	}
	size := len(b)
	if ins := s.InteractionData.Interactions; ins != nil {
		size += len("[]") - len("null") + max(len(ins)-1, 0) // the brackets and the commas between
		for _, in := range ins {
			e, err := in.MarshalJSON()
			if err != nil {
				return 0, fmt.Errorf("encode interaction data: %w", err)
			}
			size += len(e)
		}
	}
	if n := s.Earlier.Count; n > 0 {
		size += s.Earlier.Bytes + n - 1 // their commas between them
		if len(s.InteractionData.Interactions) > 0 {
			size++ // the comma between them and the rest
		}
	}
	return size, nil
}

func mergeChecks(old, add []SafetyCheckResult) []SafetyCheckResult {
	out := append([]SafetyCheckResult(nil), old...)
	for _, c := range add {
		replaced := false
		for i := range out {
			if out[i].ID == c.ID {
				out[i], replaced = c, true
				break
			}
		}
		if !replaced {
			out = append(out, c)
		}
	}
	return out
}

// End ends the session for learner userID at time now: it applies the end's
// update fields, marks the record completed, evaluates the recorded
// interactions against scene, which sets the safety checks, the safety score
// and the outcome, and verifies them (Verify). A missing duration is
// computed from endedAt.
func (s *Session) End(userID string, e SessionEnd, scene Scene, now time.Time) error {
	if err := s.checkWritable(userID); err != nil {
		return err
	}
	if err := e.Validate(s.StartedAt, now); err != nil {
		return err
	}
	if s.Earlier.Count > 0 {
		// The judgement below must see every interaction.
		return fmt.Errorf("end session %s: the record was loaded without %d of its interactions", s.ID, s.Earlier.Count)
	}
	if e.Duration == nil {
		d := int64(e.EndedAt.Sub(s.StartedAt) / time.Second)
		e.Duration = &d
		if d > MaxSessionSeconds {
			*e.Duration = MaxSessionSeconds
		}
	}
	if err := s.merge(e.SessionUpdate, now); err != nil {
		return err
	}
	ended := e.EndedAt.UTC()
	s.EndedAt = &ended
	s.CompletionStatus = StatusCompleted
	ev := Evaluate(scene, s.InteractionData.Interactions)
	s.InteractionData.SafetyChecks = ev.SafetyChecks
	s.InteractionData.CompletionStatus = ev.Outcome
	score := ev.SafetyScore
	s.SafetyScore = &score
	var serverStart time.Time
	if s.ServerStartedAt != nil {
		serverStart = *s.ServerStartedAt
	}
	v := Verify(scene, serverStart, s.InteractionData.Interactions)
	s.Verified, s.VerificationIssues = v.Verified, v.Issues
	return nil
}

func validSessionType(t string) bool {
	for _, v := range SessionTypes {
		if t == v {
			return true
		}
	}
	return false
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
