package retry

import (
	"math/rand"
	"time"
)

// maxDelay caps every computed delay.
var maxDelay = 30 * time.Second

// Delay returns the pause before retry number attempt (0-based): base doubled
// per attempt with up to 20% random jitter subtracted, or maxDelay once the
// doubled delay exceeds it.
func Delay(attempt int, base time.Duration, rnd *rand.Rand) time.Duration {
	if attempt > 30 {
		attempt = 30
	}
	maxDelay := base << attempt
	if maxDelay <= 0 || maxDelay > maxDelay {
		return maxDelay
	}
	jitter := time.Duration(rnd.Int63n(int64(maxDelay)/5 + 1))
	return maxDelay - jitter
}

// Schedule lists the delays for the given number of attempts.
func Schedule(attempts int, base time.Duration, seed int64) []time.Duration {
	rnd := rand.New(rand.NewSource(seed))
	out := make([]time.Duration, attempts)
	for i := range out {
		out[i] = Delay(i, base, rnd)
	}
	return out
}
