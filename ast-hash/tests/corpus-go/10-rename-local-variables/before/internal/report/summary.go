package report

import (
	"fmt"
	"sort"
	"strings"
	"time"
)

// Order is one completed checkout.
type Order struct {
	Customer string
	Total    int64
	PlacedAt time.Time
}

// DailySummary renders one line per day with the order count and revenue.
func DailySummary(orders []Order) string {
	m := make(map[string][]Order)
	for _, o := range orders {
		k := o.PlacedAt.UTC().Format("2006-01-02")
		m[k] = append(m[k], o)
	}
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var sb strings.Builder
	for _, k := range ks {
		var t int64
		for _, o := range m[k] {
			t += o.Total
		}
		fmt.Fprintf(&sb, "%s  %3d orders  %10.2f\n", k, len(m[k]), float64(t)/100)
	}
	return sb.String()
}

// TopCustomer returns the customer with the highest total spend.
func TopCustomer(orders []Order) (string, int64) {
	spent := make(map[string]int64)
	for _, o := range orders {
		spent[o.Customer] += o.Total
	}
	best, max := "", int64(-1)
	for c, s := range spent {
		if s > max || (s == max && c < best) {
			best, max = c, s
		}
	}
	return best, max
}
