package store

import (
	"slices"
	"sync"

	"journeyman/internal/training"
)

// maxSessionHeads bounds sessionHeads: at about a kilobyte each, 10,000
// running sessions hold some 10 MB.
const maxSessionHeads = 10_000

// sessionHeads holds the head of each running session (its row, without
// its interactions) as this process last wrote it, with the revision that
// write gave the row. A periodic update starts from it instead of reading
// the row, and its write, which stores only if the row is still at that
// revision, is the check: on PostgreSQL the read was one of an update's
// two statements. Nothing is taken on the head's word. A write that finds
// the row moved on (another process wrote it, or a writer outside the
// session updates) and an update the head made fn refuse are both tried
// again from a fresh read, so a stale head costs a retry, never a wrong
// answer. A session whose row another writer moved on is read from then
// on (moved): two processes taking turns at its updates, behind a load
// balancer that does not keep a learner on one, would otherwise each pay a
// failed write before every read.
type sessionHeads struct {
	mu  sync.Mutex
	max int
	m   map[string]readSession
}

func newSessionHeads(limit int) *sessionHeads {
	return &sessionHeads{max: limit, m: make(map[string]readSession)}
}

// movedOn marks in sessionHeads.m a session to read rather than hold.
const movedOn = -1

// get returns a copy of session id's head, which the caller may change.
func (h *sessionHeads) get(id string) (readSession, bool) {
	h.mu.Lock()
	r, ok := h.m[id]
	h.mu.Unlock()
	ok = ok && r.rev != movedOn
	if ok {
		r.x = headOf(r.x, r.x.Earlier)
		r.head = true
	}
	return r, ok
}

// put notes x as stored at revision rev, holding stored interactions. An
// ended session is forgotten: it takes no more updates. A head already
// held at a later revision stays (the writes of one session may finish in
// any order), and so does the mark of a session that moved on.
func (h *sessionHeads) put(x training.Session, stored training.StoredInteractions, rev int64) {
	if x.EndedAt != nil {
		h.forget(x.ID)
		return
	}
	head := readSession{x: headOf(x, stored), rev: rev}
	h.mu.Lock()
	defer h.mu.Unlock()
	if old, ok := h.m[x.ID]; ok {
		if old.rev >= rev || old.rev == movedOn {
			return
		}
	} else if len(h.m) >= h.max {
		for id := range h.m { // Go's map order: an arbitrary head goes
			delete(h.m, id)
			break
		}
	}
	h.m[x.ID] = head
}

// moved notes that a write from session id's head found its row moved on.
func (h *sessionHeads) moved(id string) {
	h.mu.Lock()
	h.m[id] = readSession{rev: movedOn}
	h.mu.Unlock()
}

func (h *sessionHeads) forget(id string) {
	h.mu.Lock()
	delete(h.m, id)
	h.mu.Unlock()
}

// headOf is x without its interactions, holding stored ones, sharing no
// memory with x.
func headOf(x training.Session, stored training.StoredInteractions) training.Session {
	x.InteractionData.Interactions = []training.Interaction{}
	x.InteractionData.SafetyChecks = slices.Clone(x.InteractionData.SafetyChecks)
	x.VerificationIssues = slices.Clone(x.VerificationIssues)
	x.Position = clonePtr(x.Position)
	x.Rotation = clonePtr(x.Rotation)
	x.SafetyScore = clonePtr(x.SafetyScore)
	x.EndedAt = clonePtr(x.EndedAt)
	x.ServerStartedAt = clonePtr(x.ServerStartedAt)
	x.Earlier = stored
	return x
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
