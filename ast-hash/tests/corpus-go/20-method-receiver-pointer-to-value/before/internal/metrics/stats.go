package metrics

import (
	"fmt"
	"math"
)

// Stats accumulates count, mean and extremes of observed values.
type Stats struct {
	count int
	sum   float64
	min   float64
	max   float64
}

// Add records one observation.
func (s *Stats) Add(v float64) {
	if s.count == 0 || v < s.min {
		s.min = v
	}
	if s.count == 0 || v > s.max {
		s.max = v
	}
	s.count++
	s.sum += v
}

// Mean returns the average, or NaN when nothing was observed.
func (s Stats) Mean() float64 {
	if s.count == 0 {
		return math.NaN()
	}
	return s.sum / float64(s.count)
}

// String renders a one-line summary for logs.
func (s Stats) String() string {
	return fmt.Sprintf("n=%d mean=%.3f min=%.3f max=%.3f", s.count, s.Mean(), s.min, s.max)
}

// Summarize feeds all values into a fresh Stats.
func Summarize(values []float64) Stats {
	var s Stats
	for _, v := range values {
		s.Add(v)
	}
	return s
}
