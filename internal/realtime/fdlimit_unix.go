//go:build unix

package realtime

import "syscall"

// openFileLimit returns the process's limit on open files, 0 if unknown.
// (Go raises the soft limit to the hard one at start-up.)
func openFileLimit() int {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0
	}
	return int(min(uint64(l.Cur), 1<<30)) //nolint:unconvert // Rlimit.Cur is int64 on FreeBSD and DragonFly, uint64 here
}
