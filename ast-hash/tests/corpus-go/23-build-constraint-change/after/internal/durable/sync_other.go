//go:build !linux

package durable

import "os"

// syncFile flushes file contents using the portable os.File.Sync.
func syncFile(f *os.File) error {
	return f.Sync()
}
