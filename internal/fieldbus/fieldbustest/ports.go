// Package fieldbustest helps tests start field devices on known ports.
package fieldbustest

import (
	"context"
	"net"
	"strconv"
	"testing"
)

// ConsecutivePorts returns the first of n loopback ports free right now, for
// a fleet that gives out base+N.
func ConsecutivePorts(tb testing.TB, n int) int {
	tb.Helper()
	var lc net.ListenConfig
	ctx := context.Background()
	for range 50 {
		first, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		base := first.Addr().(*net.TCPAddr).Port
		held := []net.Listener{first}
		for i := 1; i < n; i++ {
			ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:"+strconv.Itoa(base+i))
			if err != nil {
				break
			}
			held = append(held, ln)
		}
		for _, ln := range held {
			ln.Close()
		}
		if len(held) == n {
			return base
		}
	}
	tb.Fatalf("no %d consecutive free ports", n)
	return 0
}
