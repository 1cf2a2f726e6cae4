// Package paginate slices result sets for list endpoints.
package paginate

import (
	"net/url"
	"strconv"
)

const (
	defaultSize = 20
	maxSize     = 100
)

// Page is a validated page request.
type Page struct {
	Number int // 1-based
	Size   int
}

// FromQuery reads ?page= and ?size=, falling back to defaults on bad input.
func FromQuery(q url.Values) Page {
	p := Page{Number: 1, Size: defaultSize}
	if n, err := strconv.Atoi(q.Get("page")); err == nil && n > 0 {
		p.Number = n
	}
	if s, err := strconv.Atoi(q.Get("size")); err == nil && s > 0 && s <= maxSize {
		p.Size = s
	}
	return p
}

// Bounds returns the half-open index range [lo, hi) of the page within total
// items, and whether the page has any items.
func (p Page) Bounds(total int) (lo, hi int, ok bool) {
	lo = (p.Number - 1) * p.Size
	if lo >= total {
		return 0, 0, false
	}
	hi = lo + p.Size
	if hi > total {
		hi = total
	}
	return lo, hi, true
}
