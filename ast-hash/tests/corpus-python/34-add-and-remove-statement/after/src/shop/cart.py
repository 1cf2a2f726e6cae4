"""Shopping cart kept in the session; totals are cached until the cart changes."""

from decimal import Decimal


class Cart:
    def __init__(self, prices):
        self._prices = prices
        self._lines = {}
        self._total = None

    def add(self, sku, quantity=1):
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        self._lines[sku] = self._lines.get(sku, 0) + quantity
        self._total = None

    def remove(self, sku):
        self._lines.pop(sku, None)
        self._total = None

    def set_quantity(self, sku, quantity):
        if quantity <= 0:
            self.remove(sku)
            return
        self._lines[sku] = quantity

    def total(self):
        if self._total is None:
            self._total = sum(
                (self._prices[sku] * qty for sku, qty in self._lines.items()), Decimal(0)
            )
        return self._total

    def __len__(self):
        return sum(self._lines.values())

    def clear(self):
        self._lines.clear()
        self._total = None
