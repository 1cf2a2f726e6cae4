"""Price adjustment rules, applied in registration order by apply_rules().

Each rule receives the running price and may return a new one; a rule that
returns None leaves the price unchanged.
"""

from decimal import Decimal

RULES = []


def rule(fn):
    RULES.append(fn)
    return fn


@rule
def minimum_price(price, cart):
    floor = cart.product.cost * Decimal("1.05")
    return max(price, floor)


@rule
def member_discount(price, cart):
    if cart.customer.is_member:
        return price * Decimal("0.90")
    return None


@rule
def bulk_discount(price, cart):
    if cart.quantity >= 20:
        return price - Decimal("5.00")
    return None


@rule
def round_to_cents(price, cart):
    return price.quantize(Decimal("0.01"))


def apply_rules(price, cart):
    for adjust in RULES:
        adjusted = adjust(price, cart)
        if adjusted is not None:
            price = adjusted
    return price
