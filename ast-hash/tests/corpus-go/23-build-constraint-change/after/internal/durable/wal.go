// Package durable implements an append-only write-ahead log file.
package durable

import (
	"encoding/binary"
	"hash/crc32"
	"os"
)

// Log appends length-prefixed, checksummed records to a file.
type Log struct {
	f *os.File
}

// Open opens or creates the log at path for appending.
func Open(path string) (*Log, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	return &Log{f: f}, nil
}

// Append writes one record and waits until it is on stable storage.
func (l *Log) Append(rec []byte) error {
	var hdr [8]byte
	binary.LittleEndian.PutUint32(hdr[:4], uint32(len(rec)))
	binary.LittleEndian.PutUint32(hdr[4:], crc32.ChecksumIEEE(rec))
	if _, err := l.f.Write(append(hdr[:], rec...)); err != nil {
		return err
	}
	return syncFile(l.f)
}

// Close closes the underlying file.
func (l *Log) Close() error { return l.f.Close() }
