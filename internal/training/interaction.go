package training

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"journeyman/internal/apperr"
)

// Interaction is one recorded learner action. The specification gives it
// "free fields plus timestamp (defaults to now) and sessionTime (ms since
// start)" (seed 001 §3), so the server requires none of its fields and
// gives back every field as it was sent. It reads a few of them:
//
//   - what the learner did (Kind): action, else type, else stepId, else
//     target, the first sent as a non-empty string;
//   - stepId, the scene step the client attributes it to, and objectId, the
//     scene object acted on: a step is completed only by its own action on
//     its own target (Evaluate);
//   - sessionTime, milliseconds since the session started, which the server
//     holds against its own clock (Verify); a fraction is dropped for that;
//   - timestamp, an RFC 3339 time or milliseconds since 1970; when it is
//     missing the server stores when it received the interaction;
//   - seq, the interaction's 0-based index within the session, so that a
//     retried update does not store it twice.
//
// receivedAt is the server's own: when it received the update that carried
// the interaction. A client's receivedAt is replaced.
type Interaction struct {
	Action      string    // the action field, when sent as a non-empty string
	ObjectID    string    // the objectId field, likewise
	StepID      string    // the stepId field, likewise
	Timestamp   time.Time // when it happened; the server's receipt when not sent as a time
	SessionTime int64     // milliseconds since the session started
	// Seq is the interaction's 0-based index within the session. Nil means
	// "append".
	Seq *int
	// ReceivedAt is when the server received the update that carried the
	// interaction: what Verify holds sessionTime against. The server sets
	// it on every interaction it stores, whatever the client sent.
	ReceivedAt time.Time
	// Extra holds every other field as it was sent, type and target among
	// them, and action, objectId or stepId when they were not strings or
	// were empty.
	Extra map[string]json.RawMessage

	sent sentAs
}

// sentAs is how the client wrote what the server reads, so that the stored
// record gives it back as sent.
type sentAs struct {
	// timestamp and sessionTime are those fields as sent, when the server
	// would not write them the same (an offset, milliseconds since 1970, a
	// fraction of a millisecond).
	timestamp     json.RawMessage
	sessionTime   json.RawMessage
	noSessionTime bool            // sessionTime was not sent
	value         json.RawMessage // the whole value, when it is not an object
	// sealed is the interaction's encoding, once the server has set its
	// own fields (seal).
	sealed json.RawMessage
	// problem is why the interaction cannot be stored, found while decoding
	// and reported by Validate, which knows the interaction's index: the
	// decoder does not say which element of a list it was decoding.
	problem string
}

// interactionRead are the fields the server reads, indexed as UnmarshalJSON
// keeps them; any other is free.
var interactionRead = [...]string{readAction: "action", readObjectID: "objectId", readStepID: "stepId",
	readTimestamp: "timestamp", readSessionTime: "sessionTime", readSeq: "seq", readReceivedAt: "receivedAt"}

const (
	readAction = iota
	readObjectID
	readStepID
	readTimestamp
	readSessionTime
	readSeq
	readReceivedAt
)

// Kind is what the learner did: the first of action, type, stepId and
// target sent as a non-empty string, or "". The judgement compares it with
// a step's action (click, grab) or ActionSkip.
func (in Interaction) Kind() string {
	switch {
	case in.Action != "":
		return in.Action
	case in.extraString("type") != "":
		return in.extraString("type")
	case in.StepID != "":
		return in.StepID
	default:
		return in.extraString("target")
	}
}

func (in Interaction) extraString(key string) string {
	var s string
	if raw, ok := in.Extra[key]; ok {
		decodeString(raw, &s)
	}
	return s
}

// HasSessionTime reports whether the interaction carries a sessionTime.
func (in Interaction) HasSessionTime() bool { return !in.sent.noSessionTime }

// UnmarshalJSON reads what the server understands and keeps every field.
// It fails only on malformed JSON: what it cannot store it notes for
// Validate, which names the interaction.
func (in *Interaction) UnmarshalJSON(b []byte) error {
	*in = Interaction{}
	b = bytes.TrimSpace(b)
	if len(b) == 0 || b[0] != '{' {
		if !json.Valid(b) {
			return apperr.Invalid("malformed JSON in an interaction")
		}
		in.sent.value = append(json.RawMessage(nil), b...)
		in.sent.problem = " must be a JSON object, not " + jsonValue(b)
		return nil
	}
	// The fields the server reads (nil: not sent); a key sent twice keeps
	// its last value, as encoding/json's map would.
	var raw [len(interactionRead)][]byte
	keep := func(k string, v []byte) {
		if in.Extra == nil {
			in.Extra = map[string]json.RawMessage{}
		}
		in.Extra[k] = bytes.Clone(v) // b is the caller's, and reused
	}
	err := eachMember(b, func(k string, v []byte) {
		if i := slices.Index(interactionRead[:], k); i >= 0 {
			raw[i] = v
		} else {
			keep(k, v)
		}
	})
	if err != nil {
		return err
	}
	for i, dst := range []*string{readAction: &in.Action, readObjectID: &in.ObjectID, readStepID: &in.StepID} {
		v := raw[i]
		if v == nil {
			continue
		}
		if !decodeString(v, dst) || *dst == "" {
			keep(interactionRead[i], v) // not a string, or empty: a free field, read by nothing
		}
	}
	if v := raw[readTimestamp]; v != nil && string(v) != "null" {
		in.Timestamp = parseTimestamp(v)
		if canonical, err := in.Timestamp.MarshalJSON(); in.Timestamp.IsZero() || err != nil || string(canonical) != string(v) {
			in.sent.timestamp = bytes.Clone(v)
		}
	}
	if v := raw[readSessionTime]; v != nil && string(v) != "null" {
		f, err := strconv.ParseFloat(string(v), 64)
		switch {
		case err != nil || !finite(f):
			in.sent.problem = ".sessionTime must be a number of milliseconds since the session started, not " + jsonValue(v)
		case f < 0 || f > MaxSessionSeconds*1000:
			in.sent.problem = ".sessionTime must be between 0 and " + strconv.Itoa(MaxSessionSeconds*1000) + " ms, not " + jsonValue(v)
		default:
			in.SessionTime = int64(f)
		}
		if string(v) != strconv.FormatInt(in.SessionTime, 10) {
			in.sent.sessionTime = bytes.Clone(v) // not written back the same
		}
	} else {
		in.sent.noSessionTime = true
	}
	if v := raw[readSeq]; v != nil && string(v) != "null" {
		// v is a valid JSON value: Atoi takes exactly the whole numbers
		// that fit an int, as decoding into one would.
		n, err := strconv.Atoi(string(v))
		if err != nil {
			if in.sent.problem == "" {
				in.sent.problem = ".seq must be a whole number from 0 to " + strconv.Itoa(MaxInteractionsPerSession-1) + ", not " + jsonValue(v)
			}
		} else {
			in.Seq = &n
		}
	}
	// Read back from storage, receivedAt is the server's; from a client it
	// is replaced before it is stored, so a malformed one is no matter.
	if v := raw[readReceivedAt]; v != nil {
		_ = in.ReceivedAt.UnmarshalJSON(v)
	}
	return nil
}

// parseTimestamp reads an RFC 3339 time or milliseconds since 1970; it
// returns the zero time for anything else, which is kept as sent.
func parseTimestamp(v json.RawMessage) time.Time {
	var t time.Time
	if t.UnmarshalJSON(v) == nil {
		return t.UTC()
	}
	ms, err := strconv.ParseFloat(string(v), 64)
	if err != nil || !finite(ms) || ms < 0 || ms > maxTimestampMs {
		return time.Time{}
	}
	whole, frac := math.Modf(ms)
	return time.UnixMilli(int64(whole)).Add(time.Duration(frac * float64(time.Millisecond))).UTC()
}

// maxTimestampMs is the last millisecond of the year 9999.
const maxTimestampMs = 253402300799999

// MarshalJSON writes the fields as they were sent, with the server's own:
// receivedAt, and timestamp when none was sent.
func (in Interaction) MarshalJSON() ([]byte, error) {
	if in.sent.sealed != nil {
		return in.sent.sealed, nil
	}
	if in.sent.value != nil {
		return in.sent.value, nil
	}
	// encodeObject writes what encoding/json would write for a map of
	// these fields, without the map and reflection: this runs for every
	// interaction stored.
	fields := make([]field, 0, len(in.Extra)+7)
	for k, v := range in.Extra {
		fields = append(fields, field{key: k, value: v, sent: true})
	}
	// The server's fields come after the free ones, so that they win.
	if in.Action != "" {
		fields = append(fields, field{key: "action", value: appendString(nil, in.Action)})
	}
	if in.ObjectID != "" {
		fields = append(fields, field{key: "objectId", value: appendString(nil, in.ObjectID)})
	}
	if in.StepID != "" {
		fields = append(fields, field{key: "stepId", value: appendString(nil, in.StepID)})
	}
	if in.sent.timestamp != nil {
		fields = append(fields, field{key: "timestamp", value: in.sent.timestamp, sent: true})
	} else {
		f, err := timeField("timestamp", in.Timestamp)
		if err != nil {
			return nil, err
		}
		fields = append(fields, f)
	}
	switch {
	case in.sent.sessionTime != nil:
		fields = append(fields, field{key: "sessionTime", value: in.sent.sessionTime, sent: true})
	case !in.sent.noSessionTime:
		fields = append(fields, field{key: "sessionTime", value: strconv.AppendInt(nil, in.SessionTime, 10)})
	}
	if in.Seq != nil {
		fields = append(fields, field{key: "seq", value: strconv.AppendInt(nil, int64(*in.Seq), 10)})
	}
	if !in.ReceivedAt.IsZero() {
		f, err := timeField("receivedAt", in.ReceivedAt)
		if err != nil {
			return nil, err
		}
		fields = append(fields, f)
	}
	return encodeObject(fields)
}

// seal encodes the interaction once an update has set the server's fields
// on it (receivedAt, timestamp): the update's size check, the store and the
// answer then write these bytes rather than encode it three times. An
// interaction is never changed after that.
func (in *Interaction) seal() error {
	b, err := in.MarshalJSON()
	if err != nil {
		return fmt.Errorf("encode interaction: %w", err)
	}
	in.sent.sealed = b
	return nil
}

// validate checks interaction i of an update: what it could not store
// when decoding, its numbers and its size.
func (in Interaction) validate(i int) error {
	switch {
	case in.sent.problem != "":
		return apperr.Invalid("interactionData.interactions[%d]%s", i, in.sent.problem)
	case in.SessionTime < 0 || in.SessionTime > MaxSessionSeconds*1000:
		return apperr.Invalid("interactionData.interactions[%d].sessionTime must be between 0 and %d ms", i, MaxSessionSeconds*1000)
	case in.Seq != nil && (*in.Seq < 0 || *in.Seq >= MaxInteractionsPerSession):
		return apperr.Invalid("interactionData.interactions[%d].seq must be between 0 and %d", i, MaxInteractionsPerSession-1)
	}
	b, err := in.MarshalJSON()
	if err != nil {
		return apperr.Invalid("interactionData.interactions[%d] cannot be encoded: %v", i, err)
	}
	if len(b) > MaxInteractionBytes {
		return apperr.Invalid("interactionData.interactions[%d] is %d bytes; an interaction may be at most %d", i, len(b), MaxInteractionBytes)
	}
	return nil
}
