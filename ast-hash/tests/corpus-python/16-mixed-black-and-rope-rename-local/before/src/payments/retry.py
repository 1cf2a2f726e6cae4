"""Retry policy for calls to the payment provider."""

import random
import time


class RetryableError(Exception):
    def __init__(self, message, retry_after=None):
        super().__init__(message)
        self.retry_after = retry_after


def backoff_delays(attempts, base=0.5, cap=8.0, rng=random.random):
    out=[]
    for n in range(attempts):
        d=min(cap, base * 2 ** n)
        out.append(d/2 + rng()*d/2)
    return out


def call_with_retry(fn, attempts=4, sleep=time.sleep, base=0.5, cap=8.0):
    delays=backoff_delays(attempts - 1, base = base, cap = cap)
    last=None
    for i in range(attempts):
        try:
            return fn()
        except RetryableError as e:
            last=e
            if i==attempts - 1:
                break
            w=e.retry_after if e.retry_after is not None else delays[i]
            sleep(w)
    raise last


def is_retryable_status(status_code):
    return status_code in (409, 425, 429) or 500<=status_code<600
