package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback starts the write-out of f's dirty pages without waiting
// for it (sync_file_range(2) with SYNC_FILE_RANGE_WRITE only).
func startWriteback(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var werr error
	if err := rc.Control(func(fd uintptr) {
		werr = unix.SyncFileRange(int(fd), 0, 0, unix.SYNC_FILE_RANGE_WRITE)
	}); err != nil {
		return err
	}
	return werr
}
