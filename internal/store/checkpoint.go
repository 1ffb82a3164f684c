package store

import (
	"context"
	"time"
)

// checkpointEvery is how often the SQLite WAL is copied into the database
// file (a variable for tests). bench/xapi, whole machine: 10,500–11,100
// statements/s at 250 ms against 9,300–10,200 at 1 s, whose larger copies
// held the writer up longer.
var checkpointEvery = 250 * time.Millisecond

// checkpoints copies the WAL into the database file every checkpointEvery
// until ctx ends (the store closes). SQLite's automatic checkpoint runs inside the
// commit that crosses its threshold, so the writes queued behind that one
// waited for it: under the LRS's load that was an eighth of the writer's
// time, and a stall of up to 0.7 s with a larger threshold. A PASSIVE
// checkpoint here waits for no reader or writer and blocks none; a quarter
// second of writes is copied at once, each page once however often it
// changed. Closing the last connection checkpoints what is left.
func (s *Store) checkpoints(ctx context.Context) {
	defer close(s.checkpointsDone)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			// A failure (a full disk, say) is retried at the next tick; the
			// WAL keeps every commit meanwhile.
			_, _ = s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)")
		}
	}
}
