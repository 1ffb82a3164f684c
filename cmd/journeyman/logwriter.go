package main

import (
	"io"
	"sync"
	"time"
)

// logFlushEvery bounds how long a log line waits in logWriter's buffer.
const logFlushEvery = 50 * time.Millisecond

// logFlushSize is the buffered size at which logWriter writes at once.
const logFlushSize = 32 << 10

// logWriter batches log lines into one write every interval (or
// logFlushSize bytes) instead of a write per line: the access log's line
// was a system call per request. A line waits at most the interval; Flush
// writes what is left.
type logWriter struct {
	mu    sync.Mutex
	out   io.Writer
	every time.Duration
	buf   []byte
	timer *time.Timer // armed while buf holds lines
}

func newLogWriter(out io.Writer, every time.Duration) *logWriter {
	return &logWriter{out: out, every: every}
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	switch {
	case len(w.buf) >= logFlushSize:
		w.flushLocked()
	case w.timer == nil:
		w.timer = time.AfterFunc(w.every, w.Flush)
	}
	return len(p), nil
}

// Flush writes the buffered lines now.
func (w *logWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flushLocked()
}

func (w *logWriter) flushLocked() {
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	if len(w.buf) == 0 {
		return
	}
	// A failed write (a closed stderr) has nowhere to be reported.
	_, _ = w.out.Write(w.buf)
	w.buf = w.buf[:0]
}
