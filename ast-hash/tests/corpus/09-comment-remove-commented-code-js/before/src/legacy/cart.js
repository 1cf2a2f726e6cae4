// Shopping cart helpers used by the legacy checkout page.
// TODO(2021-03): move to the new pricing service.

const FREE_SHIPPING_THRESHOLD = 5000; // cents

export function cartTotal(items) {
  // let total = 0;
  // items.forEach(function (item) { total += item.price; });
  return items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0);
}

export function shippingFor(items, country) {
  const total = cartTotal(items);
  /*
  if (country === "CA") {
    return 1200;
  }
  */
  if (total >= FREE_SHIPPING_THRESHOLD) {
    return 0; // free shipping promo
  }
  return country === "US" ? 599 : 1499;
}

export function removeItem(items, sku) {
  // NOTE: returns a new array, never mutates
  return items.filter((item) => item.sku !== sku);
}

export function changeQuantity(items, sku, quantity) {
  return items.map((item) =>
    item.sku === sku ? { ...item, quantity: Math.max(0, quantity) } : item, // clamp
  );
}
