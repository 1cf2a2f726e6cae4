package mailer

import (
	"context"
	"errors"
	"time"
)

// ErrPermanent marks a delivery failure that must not be retried.
var ErrPermanent = errors.New("mailer: permanent failure")

// Sender delivers one message.
type Sender interface {
	Send(ctx context.Context, msg Message) error
}

// Message is an outgoing e-mail.
type Message struct {
	To      string
	Subject string
	Body    string
}

// SendWithRetry tries up to attempts times, doubling the pause each time.
func SendWithRetry(ctx context.Context, s Sender, msg Message, attempts int) error {
	pause := 200 * time.Millisecond
	var err error
	for i := 0; i < attempts; i++ {
		err = s.Send(ctx, msg)
		if err == nil || errors.Is(err, ErrPermanent) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause *= 2 // unbounded: callers pass small attempt counts
	}
	return err
}
