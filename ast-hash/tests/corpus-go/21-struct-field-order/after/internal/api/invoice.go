package api

import (
	"encoding/json"
	"net/http"
	"time"
)

// InvoiceResponse is the JSON body of GET /invoices/{id}. Partners verify a
// detached signature over the exact bytes, so field order is part of the
// contract.
type InvoiceResponse struct {
	ID         string    `json:"id"`
	CustomerID string    `json:"customer_id"`
	IssuedAt   time.Time `json:"issued_at"`
	Paid       bool      `json:"paid"`
	Currency   string    `json:"currency"`
	TotalCents int64     `json:"total_cents"`
}

// Invoice is the stored record.
type Invoice struct {
	ID, CustomerID, Currency string
	TotalCents               int64
	IssuedAt                 time.Time
	PaidAt                   *time.Time
}

func toResponse(inv Invoice) InvoiceResponse {
	return InvoiceResponse{
		ID:         inv.ID,
		CustomerID: inv.CustomerID,
		Currency:   inv.Currency,
		TotalCents: inv.TotalCents,
		IssuedAt:   inv.IssuedAt.UTC(),
		Paid:       inv.PaidAt != nil,
	}
}

// WriteInvoice encodes the invoice as the response body.
func WriteInvoice(w http.ResponseWriter, inv Invoice) error {
	w.Header().Set("Content-Type", "application/json")
	return json.NewEncoder(w).Encode(toResponse(inv))
}
