package replication

// Seq is a 32-bit log sequence number. It wraps around after 2^31 entries in
// each direction, so ordering uses serial-number arithmetic (RFC 1982 style).
type Seq int32

// Before reports whether a was written before b, allowing for wraparound.
func Before(a, b Seq) bool {
	return a-b < 0
}

// Window tracks which sequence numbers a follower has acknowledged.
type Window struct {
	acked Seq
	limit int32
}

// Ack records s as acknowledged if it is newer than the last ack.
func (w *Window) Ack(s Seq) bool {
	if s-w.acked < 0 {
		return false
	}
	w.acked = s
	return true
}

// Lag is how many entries the follower is behind head.
func (w *Window) Lag(head Seq) int32 {
	if head-w.acked < 0 {
		return 0
	}
	return int32(head - w.acked)
}

// Throttle reports whether the leader must pause sending.
func (w *Window) Throttle(head Seq) bool {
	return w.Lag(head) > w.limit
}
