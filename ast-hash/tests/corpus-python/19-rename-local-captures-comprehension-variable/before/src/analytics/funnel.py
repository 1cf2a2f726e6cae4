"""Conversion funnel figures for the weekly product report."""

from collections import Counter

STEPS = ("visit", "signup", "activate", "subscribe")


def step_counts(events):
    seen = {step: set() for step in STEPS}
    for event in events:
        if event.name in seen:
            seen[event.name].add(event.user_id)
    return Counter({step: len(users) for step, users in seen.items()})


def conversion(counts):
    rates = {}
    for before, after in zip(STEPS, STEPS[1:]):
        rates[after] = counts[after] / counts[before] if counts[before] else 0.0
    return rates


def share_of_total(counts):
    n = sum(counts.values())
    if n == 0:
        return {step: 0.0 for step in counts}
    shares = {step: round(count / n, 4) for step, count in counts.items()}
    return shares


def biggest_drop(counts):
    drops = conversion(counts)
    if not drops:
        return None
    step = min(drops, key=drops.get)
    return step, drops[step]
