"""Token-bucket limiter used in front of the SMS gateway."""

import time


def make_limiter(rate_per_second, burst, clock=time.monotonic):
    tokens = float(burst)
    last = clock()

    def refill():
        nonlocal tokens, last
        now = clock()
        tokens = min(float(burst), tokens + (now - last) * rate_per_second)
        last = now

    def try_acquire(cost=1.0):
        nonlocal tokens
        refill()
        if tokens >= cost:
            tokens -= cost
            return True
        return False

    def available():
        refill()
        return tokens

    try_acquire.available = available
    return try_acquire


def wait_time(limiter, cost=1.0, rate_per_second=1.0):
    missing = cost - limiter.available()
    return max(missing, 0.0) / rate_per_second
