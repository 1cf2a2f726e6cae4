"""Monthly sales figures for the finance dashboard."""

from collections import defaultdict
from datetime import date


def monthly_totals(orders, year):
    totals = defaultdict(int)
    for order in orders:
        placed = order.placed_on
        if placed.year != year:
            continue
        totals[placed.month] += order.total_cents
    return [totals.get(m, 0) for m in range(1, 13)]


def growth(current, previous):
    changes = []
    for a, b in zip(current, previous):
        if b == 0:
            changes.append(None)
            continue
        changes.append(round((a - b) * 100 / b, 1))
    return changes


def best_month(totals):
    best = max(range(len(totals)), key=totals.__getitem__)
    return date(2000, best + 1, 1).strftime("%B"), totals[best]


def summary(orders, year):
    this_year = monthly_totals(orders, year)
    last_year = monthly_totals(orders, year - 1)
    total = sum(this_year)
    name, value = best_month(this_year)
    return {
        "year": year,
        "total_cents": total,
        "best_month": name,
        "best_month_cents": value,
        "growth_pct": growth(this_year, last_year),
    }
