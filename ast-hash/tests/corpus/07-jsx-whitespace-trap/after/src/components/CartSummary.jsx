import { useMemo } from "react";

const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

export function CartSummary({ items, shippingCents, onCheckout }) {
  const subtotalCents = useMemo(
    () => items.reduce((sum, item) => sum + item.priceCents * item.quantity, 0),
    [items],
  );
  const count = items.reduce((sum, item) => sum + item.quantity, 0);
  const formatted = money.format((subtotalCents + shippingCents) / 100);

  return (
    <aside className="cart-summary">
      <h2>Order summary</h2>
      <span className="cart-summary__count">{count} items</span>
      <p className="cart-summary__total">
        Total:
        <strong>{formatted}</strong>
      </p>
      <button type="button" disabled={count === 0} onClick={onCheckout}>
        Checkout
      </button>
    </aside>
  );
}
