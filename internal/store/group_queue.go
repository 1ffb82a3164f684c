package store

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// groupQueue holds work that is cheaper done in groups than one at a time.
// There is no worker: a caller that queued an item and finds a runner's
// slot free runs a group of whatever is queued, its own item among them or
// not, and waits for its answer, which another caller's group may give.
type groupQueue[T, R any] struct {
	slot chan struct{} // the groups that may run at once
	mu   sync.Mutex
	q    []*queued[T, R]
}

// queued is one caller's item, answered once on done.
type queued[T, R any] struct {
	ctx  context.Context
	item T
	done chan R
	// taken says a group holds the item, whose caller then waits for its
	// answer rather than for a runner's slot: with a second slot free, the
	// callers of a group in flight would otherwise take that slot in turn,
	// find nothing queued and try again, spinning for as long as the group
	// waits on the database. requeued wakes the caller when a group puts
	// the item back unanswered.
	taken    atomic.Bool
	requeued chan struct{}
}

func newGroupQueue[T, R any](runners int) *groupQueue[T, R] {
	return &groupQueue[T, R]{slot: make(chan struct{}, runners)}
}

// submit queues item and returns its answer. runGroup is called with a
// runner's slot held, to take a group from the queue and answer it. An
// item still queued when ctx ends is withdrawn, with ctx's error; one that
// a group has taken is answered by it.
func (g *groupQueue[T, R]) submit(ctx context.Context, item T, runGroup func()) (R, error) {
	w := &queued[T, R]{ctx: ctx, item: item, done: make(chan R, 1), requeued: make(chan struct{}, 1)}
	g.mu.Lock()
	g.q = append(g.q, w)
	g.mu.Unlock()
	cancelled := ctx.Done()
	for {
		slot, requeued := g.slot, w.requeued
		if w.taken.Load() {
			slot = nil
		} else {
			requeued = nil
		}
		select {
		case r := <-w.done:
			return r, nil
		case <-requeued:
		case slot <- struct{}{}:
			// Let the goroutines ready to run go first: those about to queue
			// join this group instead of waiting for the next. On one core
			// they would otherwise only run once this group was done.
			runtime.Gosched()
			runGroup()
			<-g.slot
		case <-cancelled:
			if g.withdraw(w) {
				var zero R
				return zero, ctx.Err()
			}
			cancelled = nil // a group has it: wait for its answer
		}
	}
}

// hold runs fn while no group runs, once every runner's slot is free.
func (g *groupQueue[T, R]) hold(ctx context.Context, fn func() error) error {
	for range cap(g.slot) {
		select {
		case g.slot <- struct{}{}:
			defer func() { <-g.slot }()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return fn()
}

func (g *groupQueue[T, R]) withdraw(w *queued[T, R]) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i, q := range g.q {
		if q == w {
			g.q = append(g.q[:i], g.q[i+1:]...)
			return true
		}
	}
	return false
}

// take removes up to n queued items, in order, skipping those accept
// refuses (nil accepts all), which stay queued for a later group.
func (g *groupQueue[T, R]) take(n int, accept func(T) bool) []*queued[T, R] {
	g.mu.Lock()
	defer g.mu.Unlock()
	var group []*queued[T, R]
	rest := g.q[:0]
	for _, w := range g.q {
		if len(group) < n && (accept == nil || accept(w.item)) {
			w.taken.Store(true)
			group = append(group, w)
		} else {
			rest = append(rest, w)
		}
	}
	clear(g.q[len(rest):])
	g.q = rest
	return group
}

// putBack queues a group's unanswered items again, ahead of the others.
func (g *groupQueue[T, R]) putBack(items []*queued[T, R]) {
	if len(items) == 0 {
		return
	}
	g.mu.Lock()
	g.q = slices.Concat(items, g.q)
	g.mu.Unlock()
	for _, w := range items {
		w.taken.Store(false)
		select {
		case w.requeued <- struct{}{}:
		default: // a wake-up is already waiting
		}
	}
}
