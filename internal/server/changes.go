package server

import (
	"context"
	"strings"
	"sync"
	"time"

	"journeyman/internal/store"
)

// flushEvery batches what changed before it is announced to every server
// process: a learner's player sends an update per interaction and a device
// may report many times a second, but a page needs no more than a few
// updates a second.
const flushEvery = 250 * time.Millisecond

// changeSet collects what changed since the last flush: a line to announce
// per id, the latest kept.
type changeSet struct {
	mu    sync.Mutex
	lines map[string]string
}

func (c *changeSet) note(id, line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lines == nil {
		c.lines = map[string]string{}
	}
	c.lines[id] = line
}

// take returns the lines noted since the last take.
func (c *changeSet) take() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	lines := c.lines
	c.lines = nil
	return lines
}

// flushChanges announces the changed sessions and twins every flushEvery
// until ctx ends.
func (s *Server) flushChanges(ctx context.Context) {
	every(ctx, flushEvery, func() {
		s.announce(ctx, liveChannel, s.live.take())
		s.announce(ctx, twinChannel, s.twinChanges.take())
	})
}

// every runs fn every d until ctx ends, the first time d after the call.
func every(ctx context.Context, d time.Duration, fn func()) {
	t := time.NewTicker(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		fn()
	}
}

// announce notifies channel of lines, as few notifications as the payload
// limit allows.
func (s *Server) announce(ctx context.Context, channel string, lines map[string]string) {
	var b strings.Builder
	send := func() {
		if err := s.store.Notify(ctx, channel, b.String()); err != nil && ctx.Err() == nil {
			s.log.Warn("realtime: announce changes", "channel", channel, "err", err)
		}
		b.Reset()
	}
	for _, line := range lines {
		if b.Len()+len(line)+1 > store.MaxNotifyPayload {
			send()
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if b.Len() > 0 {
		send()
	}
}
