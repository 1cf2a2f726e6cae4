package catalog

import (
	"encoding/json"
	"errors"
	"strings"
)

// Product is one sellable item as exposed by the public catalog API.
type Product struct {
	SKU          string   `json:"sku"`
	Name         string   `json:"name"`
	PriceCents   int64    `json:"price_cents"`
	Tags         []string `json:"tags"`
	Discontinued bool     `json:"discontinued,omitempty"`
}

// Validate checks the fields a product needs before it is published.
func (p Product) Validate() error {
	if strings.TrimSpace(p.SKU) == "" {
		return errors.New("catalog: empty sku")
	}
	if p.PriceCents < 0 {
		return errors.New("catalog: negative price")
	}
	return nil
}

// Encode renders products for the feed. Free items have PriceCents == 0 and
// clients rely on the key being present.
func Encode(products []Product) ([]byte, error) {
	for _, p := range products {
		if err := p.Validate(); err != nil {
			return nil, err
		}
	}
	return json.Marshal(products)
}
