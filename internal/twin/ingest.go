package twin

import (
	"context"
	"sync"
	"time"

	"journeyman/internal/apperr"
)

// Outcome is what became of one sensor update: the twin after it, or why
// it was refused.
type Outcome struct {
	Equipment Equipment
	Err       error
}

// Recorder stores a batch of updates in one transaction.
type Recorder func(ctx context.Context, updates []SensorUpdate) ([]Outcome, error)

// Limits of the ingest queue.
const (
	MaxIngestBatch   = 2000  // updates per transaction
	MaxIngestPending = 20000 // queued updates before callers are turned away
	ingestTimeout    = 30 * time.Second
)

// Ingester is the one path by which readings reach the store, for the
// sensor-data call and MQTT telemetry alike. It commits in groups: while
// one transaction runs, new updates queue up, and the caller that finds no
// transaction running commits the whole queue in the next one. A single
// update still commits at once; under load, transactions grow instead of
// multiplying, which is what lets SQLite take tens of thousands of readings
// a second. One goroutine drains the queue while there is work, so no
// caller ever runs another's transaction.
type Ingester struct {
	record Recorder

	mu       sync.Mutex
	pending  []job
	flushing bool
}

type job struct {
	update SensorUpdate
	done   func(Outcome)
}

// NewIngester returns an ingester writing through record.
func NewIngester(record Recorder) *Ingester { return &Ingester{record: record} }

// Submit records u and returns the twin after it.
func (in *Ingester) Submit(ctx context.Context, u SensorUpdate) (Equipment, error) {
	result := make(chan Outcome, 1)
	if err := in.Enqueue(u, func(o Outcome) { result <- o }); err != nil {
		return Equipment{}, err
	}
	select {
	case o := <-result:
		return o.Equipment, o.Err
	case <-ctx.Done():
		return Equipment{}, ctx.Err()
	}
}

// Enqueue records u and calls done with the outcome, from another
// goroutine. It never waits for the database; it fails at once when the
// queue is full.
func (in *Ingester) Enqueue(u SensorUpdate, done func(Outcome)) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if len(in.pending) >= MaxIngestPending {
		return apperr.Errorf(apperr.ERATELIMIT, "sensor ingest queue is full (%d readings waiting); retry shortly", MaxIngestPending)
	}
	in.pending = append(in.pending, job{u, done})
	if !in.flushing {
		in.flushing = true
		go in.drain()
	}
	return nil
}

// drain commits the queue, a batch per transaction, until it is empty.
// Updates that arrive meanwhile wait for the next batch: that is the group.
func (in *Ingester) drain() {
	in.mu.Lock()
	for len(in.pending) > 0 {
		n := min(len(in.pending), MaxIngestBatch)
		batch := make([]job, n)
		copy(batch, in.pending)
		in.pending = append(in.pending[:0], in.pending[n:]...)
		in.mu.Unlock()
		in.flush(batch)
		in.mu.Lock()
	}
	in.flushing = false
	in.mu.Unlock()
}

func (in *Ingester) flush(batch []job) {
	updates := make([]SensorUpdate, len(batch))
	for i, j := range batch {
		updates[i] = j.update
	}
	ctx, cancel := context.WithTimeout(context.Background(), ingestTimeout)
	defer cancel()
	outcomes, err := in.record(ctx, updates)
	for i, j := range batch {
		if err != nil {
			j.done(Outcome{Err: err})
			continue
		}
		j.done(outcomes[i])
	}
}
