package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// A checkpoint syncs the WAL before it copies and the database file after,
// and each sync writes whatever the kernel still holds dirty: at 9,000
// session updates a second, a second's worth of each, some 80 MB, about
// 50 ms of writing. The goroutine in such a system call keeps Go's P until
// sysmon takes it back, and under load sysmon sleeps 10 ms between looks:
// on one core every request waited. So the store asks the kernel to start
// writing both files every writebackEvery, and the syncs find little left.
// PATCH p99 on SQLite, one core (bench/compare's scenario, 3 rounds):
// median 17.6 → 12.4 ms at the same throughput; every 10, 20 or 50 ms
// read the same.
var writebackEvery = 50 * time.Millisecond

// writeback starts the write-out of a SQLite database's files.
type writeback struct {
	paths [2]string   // the database file and its WAL
	files [2]*os.File // opened when first found
}

func newWriteback(path string) *writeback {
	return &writeback{paths: [2]string{path, path + "-wal"}}
}

// start asks the kernel to start writing every file's dirty pages; it does
// not wait for them. A file not there yet (the WAL before the first
// write) is skipped.
func (w *writeback) start() error {
	var errs []error
	for i, path := range w.paths {
		if w.files[i] == nil {
			f, err := os.Open(path) //nolint:gosec // G304: the operator names the database file (JOURNEYMAN_DB)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				errs = append(errs, err)
				continue
			}
			w.files[i] = f
		}
		if err := startWriteback(w.files[i]); err != nil {
			errs = append(errs, fmt.Errorf("write back %s: %w", path, err))
		}
	}
	return errors.Join(errs...)
}

func (w *writeback) close() {
	for _, f := range w.files {
		if f != nil {
			f.Close()
		}
	}
}
