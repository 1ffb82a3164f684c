package server

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/alexedwards/scs/v2"
)

// sessionCodec stores a signed-in session's data (sessUser, sessEpoch,
// sessTouched) as a small JSON object, read on every signed-in request.
// scs's default, gob, sends its type definitions with every value and took
// 30 µs and 200 allocations to read three fields.
//
// Its records start with sessionCodecMark, which no gob stream does (a
// stream starts with a message's length, never 0), so sessions written by
// GobCodec before are still read, with it.
type sessionCodec struct{}

const sessionCodecMark = 0

// sessionRecord is a session's data as stored. The pointers tell a key
// that was never put from a zero value.
type sessionRecord struct {
	Deadline time.Time `json:"deadline"`
	User     *string   `json:"uid,omitempty"`
	Epoch    *int64    `json:"epoch,omitempty"`
	Touched  *int64    `json:"touched,omitempty"`
}

func (sessionCodec) Encode(deadline time.Time, values map[string]any) ([]byte, error) {
	rec := sessionRecord{Deadline: deadline}
	for k, v := range values {
		var ok bool
		switch k {
		case sessUser:
			var s string
			s, ok = v.(string)
			rec.User = &s
		case sessEpoch:
			var n int64
			n, ok = v.(int64)
			rec.Epoch = &n
		case sessTouched:
			var n int64
			n, ok = v.(int64)
			rec.Touched = &n
		}
		if !ok {
			return nil, fmt.Errorf("session codec: no field for %q of type %T", k, v)
		}
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return nil, err
	}
	return append([]byte{sessionCodecMark}, b...), nil
}

func (sessionCodec) Decode(b []byte) (time.Time, map[string]any, error) {
	if len(b) == 0 || b[0] != sessionCodecMark {
		return scs.GobCodec{}.Decode(b)
	}
	var rec sessionRecord
	if err := json.Unmarshal(b[1:], &rec); err != nil {
		return time.Time{}, nil, fmt.Errorf("session codec: %w", err)
	}
	values := make(map[string]any, 3)
	if rec.User != nil {
		values[sessUser] = *rec.User
	}
	if rec.Epoch != nil {
		values[sessEpoch] = *rec.Epoch
	}
	if rec.Touched != nil {
		values[sessTouched] = *rec.Touched
	}
	return rec.Deadline, values, nil
}
