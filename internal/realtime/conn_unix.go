//go:build unix

package realtime

import "syscall"

const pollSupported = true

// writeNonblocking makes one write of p to the socket, which never waits:
// it returns how much the socket took (possibly nothing).
func writeNonblocking(sc syscall.RawConn, p []byte) (int, error) {
	var n int
	var werr error
	err := sc.Write(func(fd uintptr) bool {
		for {
			n, werr = syscall.Write(int(fd), p)
			if werr != syscall.EINTR {
				return true
			}
		}
	})
	n = max(n, 0)
	if werr == syscall.EAGAIN {
		werr = nil
	}
	if err == nil {
		err = werr
	}
	return n, err
}

// waitReadable returns when the socket holds bytes for the library to
// read, or has ended; pongs to pingFrame that arrive meanwhile it consumes
// and reports to pong. An idle client's goroutine waits here, a few frames
// deep, rather than inside the library's read: its stack stays at the
// smallest size. peek is scratch space of the reading goroutine.
func waitReadable(sc syscall.RawConn, peek *[pongFrameLen]byte, pong func()) error {
	return sc.Read(func(fd uintptr) bool {
		for {
			n, _, err := syscall.Recvfrom(int(fd), peek[:], syscall.MSG_PEEK)
			switch {
			case err == syscall.EINTR:
				continue
			case err == syscall.EAGAIN:
				return false // nothing yet: wait for the poller
			case err != nil || n < pongFrameLen || !isPong(peek[:n]):
				return true // data, a partial frame, the end or an error: the library's read handles it
			}
			for {
				// The pong was peeked whole, so this takes exactly it.
				if _, err := syscall.Read(int(fd), peek[:]); err != syscall.EINTR {
					break
				}
			}
			pong()
		}
	})
}
