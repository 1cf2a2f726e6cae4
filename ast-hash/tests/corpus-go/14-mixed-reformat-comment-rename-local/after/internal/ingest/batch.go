package ingest

import (
	"context"
	"time"
)

// Event is one tracking event from a client.
type Event struct {
	Name string
	At   time.Time
}

// Flusher writes a batch of events to storage.
type Flusher func(ctx context.Context, batch []Event) error

// Batch collects events from in and flushes them when size events have
// arrived or every interval, whichever comes first.
func Batch(ctx context.Context, in <-chan Event, size int, interval time.Duration, flush Flusher) error {
	pending := make([]Event, 0, size)
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	// flushBuffered sends whatever is buffered and empties the buffer
	// (keeping its capacity); the flusher must not retain the slice.
	flushBuffered := func() error {
		if len(pending) == 0 {
			return nil
		}
		err := flush(ctx, pending)
		pending = pending[:0]
		return err
	}
	for {
		select {
		case <-ctx.Done():
			if err := flushBuffered(); err != nil {
				return err
			}
			return ctx.Err()
		case event, ok := <-in:
			if !ok {
				return flushBuffered()
			}
			pending = append(pending, event)
			if len(pending) >= size {
				if err := flushBuffered(); err != nil {
					return err
				}
			}
		case <-ticker.C:
			if err := flushBuffered(); err != nil {
				return err
			}
		}
	}
}
