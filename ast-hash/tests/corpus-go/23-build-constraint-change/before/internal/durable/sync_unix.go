//go:build linux || darwin

package durable

import (
	"os"
	"syscall"
)

// syncFile flushes file contents to stable storage. On these platforms a
// plain fsync(2) is used; it is much cheaper than F_FULLFSYNC on macOS and
// good enough for the write-ahead log, which is replicated anyway.
func syncFile(f *os.File) error {
	for {
		err := syscall.Fsync(int(f.Fd()))
		if err != syscall.EINTR {
			return err
		}
	}
}
