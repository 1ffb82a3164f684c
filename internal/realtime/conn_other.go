//go:build !unix

package realtime

import "syscall"

// Without the socket calls of conn_unix.go, rawConn has no syscall.RawConn:
// the hub writes from a goroutine per busy client and reads only through
// the library. These are never called.
const pollSupported = false

func writeNonblocking(syscall.RawConn, []byte) (int, error) { return 0, nil }

func waitReadable(syscall.RawConn, *[pongFrameLen]byte, func()) error { return nil }
