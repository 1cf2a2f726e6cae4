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
	buf := make([]Event, 0, size)
	t := time.NewTicker(interval)
	defer t.Stop()
	// helper
	f := func() error {
		if len(buf)==0 { return nil }
		err := flush(ctx, buf)
		buf = buf[:0]
		return err
	}
	for {
		select {
		case <-ctx.Done():
			if err := f(); err != nil { return err }
			return ctx.Err()
		case e, ok := <-in:
			if !ok {
				return f()
			}
			buf = append(buf, e)
			if len(buf)>=size {
				if err := f(); err != nil {
					return err
				}
			}
		case <-t.C:
			if err := f(); err != nil {
				return err
			}
		}
	}
}
