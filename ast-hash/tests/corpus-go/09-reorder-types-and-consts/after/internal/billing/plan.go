package billing

import "fmt"

const freeTrialDays = 14

const yearlyDiscountPercent = 15

// Interval is how often a plan is charged.
type Interval string

const (
	Monthly Interval = "month"
	Yearly  Interval = "year"
)

// Cents is an amount of money in the smallest currency unit.
type Cents int64

// String formats the amount as dollars and cents.
func (c Cents) String() string {
	return fmt.Sprintf("$%d.%02d", c/100, c%100)
}

// Feature is a capability a plan can unlock.
type Feature struct {
	Key     string
	MinPlan string
}

// Plan is one entry of the price list.
type Plan struct {
	Code     string
	Price    Cents
	Interval Interval
	Seats    int
}

// TrialEnds returns the day number on which a trial started on day ends.
func TrialEnds(day int) int {
	return day + freeTrialDays
}

// YearlyPrice is what a monthly plan costs when billed once a year.
func YearlyPrice(p Plan) Cents {
	if p.Interval == Yearly {
		return p.Price
	}
	full := p.Price * 12
	return full - full*yearlyDiscountPercent/100
}
