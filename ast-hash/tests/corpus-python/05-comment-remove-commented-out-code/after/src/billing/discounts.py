"""Discount rules applied at checkout, in the order listed in RULES."""

from decimal import Decimal, ROUND_HALF_UP

CENT = Decimal("0.01")

# Loyalty tiers and their percentage off the subtotal.
LOYALTY = {"silver": Decimal("0.03"), "gold": Decimal("0.05")}


def loyalty_discount(subtotal, tier):
    rate = LOYALTY.get(tier, Decimal(0))
    return (subtotal * rate).quantize(CENT, rounding=ROUND_HALF_UP)


def volume_discount(subtotal, item_count):
    # Ten or more items: a flat 2 % off, capped at 20.00.
    if item_count < 10:
        return Decimal(0)
    return min(subtotal * Decimal("0.02"), Decimal("20.00")).quantize(CENT)


def coupon_discount(subtotal, coupon):
    if coupon is None:
        return Decimal(0)
    if coupon.minimum is not None and subtotal < coupon.minimum:
        return Decimal(0)
    return min(coupon.amount, subtotal)


RULES = [loyalty_discount, volume_discount, coupon_discount]


def total_discount(subtotal, tier, item_count, coupon=None):
    total = loyalty_discount(subtotal, tier)
    total += volume_discount(subtotal, item_count)
    total += coupon_discount(subtotal - total, coupon)
    # Never discount below zero, whatever the rules above say.
    return min(total, subtotal)
