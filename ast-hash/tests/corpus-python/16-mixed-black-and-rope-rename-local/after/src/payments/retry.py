"""Retry policy for calls to the payment provider."""

import random
import time


class RetryableError(Exception):
    def __init__(self, message, retry_after=None):
        super().__init__(message)
        self.retry_after = retry_after


def backoff_delays(attempts, base=0.5, cap=8.0, rng=random.random):
    delays = []
    for attempt in range(attempts):
        ceiling = min(cap, base * 2**attempt)
        delays.append(ceiling / 2 + rng() * ceiling / 2)
    return delays


def call_with_retry(fn, attempts=4, sleep=time.sleep, base=0.5, cap=8.0):
    waits = backoff_delays(attempts - 1, base=base, cap=cap)
    last_error = None
    for attempt in range(attempts):
        try:
            return fn()
        except RetryableError as error:
            last_error = error
            if attempt == attempts - 1:
                break
            wait = (
                error.retry_after if error.retry_after is not None else waits[attempt]
            )
            sleep(wait)
    raise last_error


def is_retryable_status(status_code):
    return status_code in (409, 425, 429) or 500 <= status_code < 600
