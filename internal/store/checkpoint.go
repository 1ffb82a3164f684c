package store

import (
	"context"
	"time"
)

// SQLite's automatic checkpoint copies the WAL into the database file
// inside the commit that crosses its threshold, with a sync of the file:
// every write queued behind that commit waited for it. Under a steady load
// of session updates those stalls were the p99 (87 ms at a 10,000-page
// threshold, 37 ms at SQLite's 1,000), and in the LRS's profile they were
// an eighth of the writer's time. So the automatic checkpoint is off, and
// the store checkpoints beside the writer.
//
// A PASSIVE checkpoint blocks no reader or writer. But the WAL only starts
// over at a write that finds all of it copied, and under constant writes
// that moment never comes (it grew to 7 GB filling the LRS). So once the
// WAL is long, the last pages are copied in the writer's turn: once the
// copies beside the writer are within checkpointTail pages of its end,
// writes wait for those alone. If checkpointPasses copies do not get that
// close (writes outrun them), the writer's turn copies what is left, so
// that the WAL stays bounded all the same.
//
// Once a second, and a restart at 8,000 pages (32 MB): session updates on
// one core (bench/compare's PATCH, 32 connections) kept their 5,200–5,800
// per second and their p99 fell from 58–64 ms to 22–27 ms; copying every
// 100 or 250 ms cost a tenth of the updates for no better p99.
//
// The writer's turn used to follow the first pass, which reported the WAL
// as copied to its end; the pages appended during that pass (50–70 ms of
// copying at 9,000 updates a second) were then copied and synced with
// writes held: 5–21 ms. Passes now go on until one had little to copy, and
// the writer's turn mostly finds nothing left (tens of µs): the PATCH p99
// fell from 19–28 to 15–22 ms (3 rounds each, SQLite, one core).
var (
	checkpointEvery   = time.Second // how often the WAL is copied
	checkpointRestart = 8000        // pages: a WAL this long starts over
)

const (
	checkpointTail   = 256 // pages left for the writer's turn
	checkpointPasses = 4   // copies tried beside the writer before taking its turn
)

// checkpoints runs checkpoint every checkpointEvery, and starts the files'
// write-out every writebackEvery, until ctx ends (the store closes).
// Closing the last connection checkpoints what is left.
func (s *Store) checkpoints(ctx context.Context) {
	defer close(s.checkpointsDone)
	wb := newWriteback(s.dsn)
	defer wb.close()
	copies, writes := time.NewTicker(checkpointEvery), time.NewTicker(writebackEvery)
	defer copies.Stop()
	defer writes.Stop()
	// A failure (a full disk, say) is tried again at the next tick; the
	// WAL keeps every commit meanwhile.
	for {
		select {
		case <-ctx.Done():
			return
		case <-writes.C:
			_ = wb.start()
		case <-copies.C:
			_ = s.checkpoint(ctx)
		}
	}
}

// checkpoint copies the WAL into the database file, and once the WAL is
// checkpointRestart pages long, lets the next write start it over.
//
// A pass reports the WAL as it found it: what the writer appended while it
// copied is left for the next pass. So the passes beside the writer go on
// until one had no more than checkpointTail pages to copy; the writer's
// turn then copies what was appended during that short pass, and its two
// syncs have little to write.
func (s *Store) checkpoint(ctx context.Context) error {
	wal, err := s.walCheckpoint(ctx)
	for pass := 2; err == nil && wal >= checkpointRestart; pass++ {
		var next int
		if next, err = s.walCheckpoint(ctx); err != nil {
			break
		}
		grown := next - wal
		if wal = next; wal < checkpointRestart {
			break // it started over meanwhile
		}
		if grown <= checkpointTail || pass >= checkpointPasses {
			return s.writes.hold(ctx, func() error {
				_, err := s.walCheckpoint(ctx)
				return err
			})
		}
	}
	return err
}

// walCheckpoint runs a PASSIVE checkpoint: it copies what no reader still
// needs, and answers the pages the WAL held when it began.
func (s *Store) walCheckpoint(ctx context.Context) (wal int, err error) {
	var busy, copied int
	err = s.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &wal, &copied)
	return wal, err
}
