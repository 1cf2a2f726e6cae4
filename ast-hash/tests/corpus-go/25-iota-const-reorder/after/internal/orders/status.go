package orders

import "fmt"

// Status is the lifecycle state of an order. Values are stored as integers
// in the orders.status column.
type Status int

const (
	Pending Status = iota
	Cancelled
	Paid
	Shipped
	Delivered
)

var statusNames = map[Status]string{
	Pending:   "pending",
	Paid:      "paid",
	Shipped:   "shipped",
	Delivered: "delivered",
	Cancelled: "cancelled",
}

func (s Status) String() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// CanCancel reports whether an order in state s may still be cancelled.
func (s Status) CanCancel() bool {
	return s < Shipped
}

// Scan implements reading the status column.
func (s *Status) Scan(v any) error {
	n, ok := v.(int64)
	if !ok {
		return fmt.Errorf("orders: cannot scan %T into Status", v)
	}
	*s = Status(n)
	return nil
}
