"""Summary statistics for latency samples (milliseconds)."""

import math


def mean(values, /):
    if not values:
        raise ValueError("mean() of empty sample")
    return sum(values) / len(values)


def percentile(values, q, /, *, presorted=False):
    if not values:
        raise ValueError("percentile() of empty sample")
    if not 0 <= q <= 100:
        raise ValueError("p must be within [0, 100]")
    ordered = values if presorted else sorted(values)
    rank = (len(ordered) - 1) * q / 100
    lo = math.floor(rank)
    hi = math.ceil(rank)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (rank - lo)


def stddev(values, /, ddof=1):
    m = mean(values)
    if len(values) <= ddof:
        return 0.0
    return math.sqrt(sum((x - m) ** 2 for x in values) / (len(values) - ddof))


def clamp(value, lower, upper, /):
    return max(lower, min(upper, value))


def summarize(samples):
    ordered = sorted(samples)
    return {
        "count": len(ordered),
        "mean": mean(ordered),
        "p50": percentile(ordered, 50, presorted=True),
        "p95": percentile(ordered, 95, presorted=True),
        "p99": percentile(ordered, 99, presorted=True),
        "stddev": stddev(ordered),
    }
