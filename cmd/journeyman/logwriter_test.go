package main

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the writer's timer goroutine.
type syncBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	return s.b.Write(p)
}

func (s *syncBuffer) state() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String(), s.writes
}

func TestLogWriterBatches(t *testing.T) {
	line := strings.Repeat("x", 99) + "\n"
	tests := []struct {
		name       string
		lines      int
		every      time.Duration
		flush      bool // Flush called right after
		wait       time.Duration
		wantLines  int
		wantWrites int
	}{
		{"HeldUntilFlush", 10, time.Hour, true, 0, 10, 1},
		{"NotBeforeTimer", 10, time.Hour, false, 0, 0, 0},
		{"WrittenByTimer", 10, 5 * time.Millisecond, false, 200 * time.Millisecond, 10, 1},
		// 32 KiB of lines is written at once, the rest when Flush comes.
		{"WrittenWhenFull", 400, time.Hour, false, 0, logFlushSize/len(line) + 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := &syncBuffer{}
			w := newLogWriter(out, tc.every)
			for range tc.lines {
				if n, err := w.Write([]byte(line)); n != len(line) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if tc.flush {
				w.Flush()
			}
			time.Sleep(tc.wait)
			got, writes := out.state()
			if strings.Count(got, "\n") != tc.wantLines || writes != tc.wantWrites {
				t.Errorf("%d lines in %d writes; want %d in %d", strings.Count(got, "\n"), writes, tc.wantLines, tc.wantWrites)
			}
			w.Flush()
			if got, _ := out.state(); got != strings.Repeat(line, tc.lines) {
				t.Errorf("after Flush, %d bytes written; want all %d lines in order", len(got), tc.lines)
			}
		})
	}
}
