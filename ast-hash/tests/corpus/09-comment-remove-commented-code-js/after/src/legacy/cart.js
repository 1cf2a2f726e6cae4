// Shopping cart helpers used by the legacy checkout page.

const FREE_SHIPPING_THRESHOLD = 5000;

export function cartTotal(items) {
  return items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0);
}

export function shippingFor(items, country) {
  const total = cartTotal(items);
  if (total >= FREE_SHIPPING_THRESHOLD) {
    return 0;
  }
  return country === "US" ? 599 : 1499;
}

/** Returns a new array without the given SKU; the input is never mutated. */
export function removeItem(items, sku) {
  return items.filter((item) => item.sku !== sku);
}

export function changeQuantity(items, sku, quantity) {
  return items.map((item) =>
    item.sku === sku ? { ...item, quantity: Math.max(0, quantity) } : item,
  );
}
