package training

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"journeyman/internal/apperr"
)

// partial returns s as a store loads it for an update: without its first
// n interactions, which Earlier counts.
func partial(t *testing.T, s Session, n int) Session {
	t.Helper()
	size := 0
	for _, in := range s.InteractionData.Interactions[:n] {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		size += len(b)
	}
	s.InteractionData.Interactions = append([]Interaction{}, s.InteractionData.Interactions[n:]...)
	s.Earlier = StoredInteractions{Count: n, Bytes: size}
	return s
}

// The size of interactionData computed from Earlier's counters is the size
// of the whole record's encoding, wherever the record is split.
func TestInteractionDataSizeWithoutTheEarlierInteractions(t *testing.T) {
	s := newTestSession()
	s.InteractionData.SafetyChecks = []SafetyCheckResult{{ID: "ppe", Status: CheckPassed}}
	for i := range 7 {
		s.InteractionData.Interactions = append(s.InteractionData.Interactions, Interaction{
			Action: "look", SessionTime: int64(i * 1000), Seq: seq(i), Timestamp: now, ReceivedAt: now.Add(time.Duration(i) * time.Nanosecond),
			Extra: map[string]json.RawMessage{"note": json.RawMessage(fmt.Sprintf(`"<%s>"`, strings.Repeat("é", i)))},
		})
	}
	whole, err := json.Marshal(s.InteractionData)
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n <= len(s.InteractionData.Interactions); n++ {
		p := partial(t, s, n)
		if got, err := p.interactionDataSize(); err != nil || got != len(whole) {
			t.Errorf("split after %d: size %d (%v), want %d", n, got, err, len(whole))
		}
	}
}

// An update of a record loaded without its earlier interactions behaves as
// one of the whole record: it appends after them, recognises their seqs,
// and holds the session to the same limits.
func TestSessionUpdateAfterEarlierInteractions(t *testing.T) {
	looks := func(from, n, pad int) []Interaction {
		out := make([]Interaction, n)
		for i := range out {
			out[i] = Interaction{Action: "look", SessionTime: int64(from + i), Seq: seq(from + i), Timestamp: now}
			if pad > 0 {
				out[i].Extra = map[string]json.RawMessage{"pad": json.RawMessage(`"` + strings.Repeat("x", pad) + `"`)}
			}
		}
		return out
	}
	update := func(ins ...Interaction) SessionPatch {
		return SessionPatch{SessionUpdate: SessionUpdate{InteractionData: &InteractionData{Interactions: ins}}}
	}
	for _, tc := range []struct {
		name   string
		stored []Interaction
		patch  SessionPatch
		code   string
		want   string
	}{
		{"AppendsAfterThem", looks(0, 5, 0), update(looks(5, 2, 0)...), "", ""},
		{"RetryOfStoredSeqs", looks(0, 5, 0), update(looks(3, 4, 0)...), "", ""},
		{"ErrSeqGap", looks(0, 5, 0), update(looks(6, 1, 0)...), apperr.ECONFLICT, "holds 5 interactions; resend from seq 5"},
		{"ErrTooManyPerSession", looks(0, MaxInteractionsPerSession, 0), update(Interaction{Action: "look"}), apperr.ETOOLARGE, "at most 2000 interactions"},
		{"LastOneFits", looks(0, MaxInteractionsPerSession-1, 0), update(Interaction{Action: "look"}), "", ""},
		// 138 padded interactions encode to 260,658 bytes of interactionData;
		// the next one with a pad of 1,360 makes it exactly 262,144.
		{"BytesUpToTheLimit", looks(0, 138, 1800), update(looks(138, 1, 1360)...), "", ""},
		{"ErrTotalBytes", looks(0, 138, 1800), update(looks(138, 1, 1361)...), apperr.ETOOLARGE, "at most 262144 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole := newTestSession()
			whole.InteractionData.Interactions = tc.stored
			wholeErr := whole.Apply("learner-1", tc.patch, Scene{}, now)
			checkErr(t, wholeErr, tc.code, tc.want)

			for _, n := range []int{len(tc.stored), len(tc.stored) / 2} {
				full := newTestSession()
				full.InteractionData.Interactions = tc.stored
				s := partial(t, full, n)
				before, _ := json.Marshal(s)
				err := s.Apply("learner-1", tc.patch, Scene{}, now)
				checkErr(t, err, tc.code, tc.want)
				if err != nil {
					if after, _ := json.Marshal(s); string(after) != string(before) {
						t.Error("a rejected patch changed the session")
					}
					continue
				}
				// The partial record holds what the whole one holds after n.
				got, _ := json.Marshal(s.InteractionData.Interactions)
				want, _ := json.Marshal(whole.InteractionData.Interactions[n:])
				if string(got) != string(want) || s.Earlier.Count != n {
					t.Errorf("loaded without %d: interactions %s, want %s", n, got, want)
				}
			}
		})
	}
}

// Ending needs every interaction: a record loaded without some is refused,
// not judged on part of the session.
func TestEndRefusesAPartialRecord(t *testing.T) {
	scene, _ := SceneByID("electrical-lockout-tagout")
	s := newTestSession()
	s.Earlier = StoredInteractions{Count: 3, Bytes: 300}
	err := s.Apply("learner-1", SessionPatch{EndedAt: &now, CompletionStatus: ptr(StatusCompleted)}, scene, now)
	if err == nil || apperr.Code(err) != apperr.EINTERNAL || s.EndedAt != nil {
		t.Fatalf("end of a partial record: %v, ended %v; want an internal error and no end", err, s.EndedAt)
	}
}
