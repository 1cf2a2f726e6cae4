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
	byDay := make(map[string][]Order)
	for _, o := range orders {
		day := o.PlacedAt.UTC().Format("2006-01-02")
		byDay[day] = append(byDay[day], o)
	}
	days := make([]string, 0, len(byDay))
	for day := range byDay {
		days = append(days, day)
	}
	sort.Strings(days)
	var out strings.Builder
	for _, day := range days {
		var revenue int64
		for _, o := range byDay[day] {
			revenue += o.Total
		}
		fmt.Fprintf(&out, "%s  %3d orders  %10.2f\n", day, len(byDay[day]), float64(revenue)/100)
	}
	return out.String()
}

// TopCustomer returns the customer with the highest total spend.
func TopCustomer(orders []Order) (string, int64) {
	spent := make(map[string]int64)
	for _, o := range orders {
		spent[o.Customer] += o.Total
	}
	best, highest := "", int64(-1)
	for customer, amount := range spent {
		if amount > highest || (amount == highest && customer < best) {
			best, highest = customer, amount
		}
	}
	return best, highest
}
