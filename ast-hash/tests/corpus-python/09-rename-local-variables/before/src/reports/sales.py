"""Monthly sales figures for the finance dashboard."""

from collections import defaultdict
from datetime import date


def monthly_totals(orders, year):
    res = defaultdict(int)
    for o in orders:
        d = o.placed_on
        if d.year != year:
            continue
        res[d.month] += o.total_cents
    return [res.get(m, 0) for m in range(1, 13)]


def growth(current, previous):
    out = []
    for a, b in zip(current, previous):
        if b == 0:
            out.append(None)
            continue
        out.append(round((a - b) * 100 / b, 1))
    return out


def best_month(totals):
    idx = max(range(len(totals)), key=totals.__getitem__)
    return date(2000, idx + 1, 1).strftime("%B"), totals[idx]


def summary(orders, year):
    cur = monthly_totals(orders, year)
    prev = monthly_totals(orders, year - 1)
    tmp = sum(cur)
    name, value = best_month(cur)
    return {
        "year": year,
        "total_cents": tmp,
        "best_month": name,
        "best_month_cents": value,
        "growth_pct": growth(cur, prev),
    }
