package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestGCPercent(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name string
		live uint64
		want int
	}{
		{"NothingLiveYet", 0, maxGCPercent},
		{"TinyHeapIsBounded", 1 * mb, maxGCPercent},
		{"AtTheBound", 128 * mb / 5, maxGCPercent},
		{"SmallHeapReachesTheTarget", 32 * mb, 300},
		{"HalfTheTarget", 64 * mb, 100},
		{"LargeHeapIsGosDefault", 500 * mb, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := gcPercent(tt.live, 128*mb); got != tt.want {
				t.Errorf("gcPercent(%d MB) = %d, want %d", tt.live/mb, got, tt.want)
			}
		})
	}
}

// currentGCPercent reads GOGC as the runtime has it.
func currentGCPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestPaceGC runs the pacing in this test process, whose live heap is far
// below minHeapTarget: after a collection, GOGC is raised. The pacing goes
// on for the rest of the process, which only makes its collections rarer.
func TestPaceGC(t *testing.T) {
	t.Run("OperatorsGOGCIsLeftAlone", func(t *testing.T) {
		debug.SetGCPercent(150)
		paceGC(func(k string) (string, bool) { return "150", k == "GOGC" })
		runtime.GC()
		time.Sleep(50 * time.Millisecond)
		if p := currentGCPercent(); p != 150 {
			t.Fatalf("GOGC = %d after a collection, want the operator's 150", p)
		}
	})
	t.Run("RaisedWhileTheHeapIsSmall", func(t *testing.T) {
		debug.SetGCPercent(100)
		paceGC(func(string) (string, bool) { return "", false })
		for deadline := time.Now().Add(5 * time.Second); currentGCPercent() == 100; {
			if time.Now().After(deadline) {
				t.Fatal("GOGC still 100 five seconds of collections later")
			}
			runtime.GC()
			time.Sleep(10 * time.Millisecond)
		}
		if p := currentGCPercent(); p <= 100 || p > maxGCPercent {
			t.Fatalf("GOGC = %d, want above 100 and at most %d", p, maxGCPercent)
		}
	})
	t.Run("BackTo100WhenTheHeapGrows", func(t *testing.T) {
		held := make([]byte, minHeapTarget*3/4) // live, so past half the target
		for deadline := time.Now().Add(5 * time.Second); currentGCPercent() != 100; {
			if time.Now().After(deadline) {
				t.Fatalf("GOGC still %d with %d MB live", currentGCPercent(), len(held)>>20)
			}
			runtime.GC()
			time.Sleep(10 * time.Millisecond)
		}
		runtime.KeepAlive(held)
	})
}
