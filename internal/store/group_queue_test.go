package store

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// While a group is in flight, the callers whose items it holds wait for
// their answers: with a runner's slot free they must not take it over and
// over to find nothing queued (stop 27's append queue spun so, half of a
// core while PostgreSQL wrote). An item a group puts back is run again.
func TestGroupQueueCallersOfGroupInFlightWait(t *testing.T) {
	g := newGroupQueue[int, int](2)
	ctx := context.Background()
	release := make(chan struct{})
	var (
		empty   atomic.Int32 // groups that found nothing to take
		putBack atomic.Bool
	)
	runGroup := func() {
		group := g.take(10, nil)
		if len(group) == 0 {
			empty.Add(1)
			return
		}
		<-release
		// The first group answers one item and puts the other back.
		if putBack.CompareAndSwap(false, true) {
			group[0].done <- group[0].item * 10
			g.putBack(group[1:])
			return
		}
		for _, w := range group {
			w.done <- w.item * 10
		}
	}
	// Both items are queued before any group runs.
	holding := make(chan struct{})
	go func() {
		_ = g.hold(ctx, func() error {
			close(holding)
			for g.queuedLen() < 2 {
				time.Sleep(time.Millisecond)
			}
			return nil
		})
	}()
	<-holding
	answers := make([]int, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			r, err := g.submit(ctx, i+1, runGroup)
			if err != nil {
				t.Error(err)
			}
			answers[i] = r
		})
	}
	// The group in flight holds both items; one slot stays free.
	for g.queuedLen() > 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	if n := empty.Load(); n > 2 {
		t.Errorf("callers of the group in flight ran %d empty groups while it ran", n)
	}
	close(release)
	wg.Wait()
	if answers[0] != 10 || answers[1] != 20 {
		t.Errorf("answers = %v, want [10 20]", answers)
	}
}

func (g *groupQueue[T, R]) queuedLen() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.q)
}
