export function summarizeCheckout(cart) {
  const total = cart.items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0);
  const itemCount = cart.items.reduce((count, item) => count + item.quantity, 0);
  return { total, itemCount, currency: cart.currency };
}

export function checkoutEvent(cart, user, now = new Date()) {
  const summary = summarizeCheckout(cart);
  return {
    name: "checkout_completed",
    userId: user.id,
    timestamp: now.toISOString(),
    properties: summary,
  };
}

export function trackCheckout(analytics, cart, user) {
  const event = checkoutEvent(cart, user);
  analytics.track(event.name, { userId: event.userId, ...event.properties });
  return event;
}
