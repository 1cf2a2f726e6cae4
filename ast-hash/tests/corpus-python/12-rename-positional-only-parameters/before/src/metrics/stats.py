"""Summary statistics for latency samples (milliseconds)."""

import math


def mean(xs, /):
    if not xs:
        raise ValueError("mean() of empty sample")
    return sum(xs) / len(xs)


def percentile(xs, p, /, *, presorted=False):
    if not xs:
        raise ValueError("percentile() of empty sample")
    if not 0 <= p <= 100:
        raise ValueError("p must be within [0, 100]")
    ordered = xs if presorted else sorted(xs)
    rank = (len(ordered) - 1) * p / 100
    lo = math.floor(rank)
    hi = math.ceil(rank)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (rank - lo)


def stddev(xs, /, ddof=1):
    m = mean(xs)
    if len(xs) <= ddof:
        return 0.0
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - ddof))


def clamp(v, lo, hi, /):
    return max(lo, min(hi, v))


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
