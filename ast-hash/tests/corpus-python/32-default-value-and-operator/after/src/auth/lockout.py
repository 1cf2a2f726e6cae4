"""Account lock-out after repeated failed sign-in attempts."""

import time
from dataclasses import dataclass, field
from typing import Dict, List


@dataclass
class Attempts:
    failures: List[float] = field(default_factory=list)
    locked_until: float = 0.0


class Lockout:
    def __init__(self, max_attempts=3, window_seconds=900, lock_seconds=1800, clock=time.time):
        self.max_attempts = max_attempts
        self.window_seconds = window_seconds
        self.lock_seconds = lock_seconds
        self._clock = clock
        self._by_user: Dict[str, Attempts] = {}

    def is_locked(self, username):
        state = self._by_user.get(username)
        return state is not None and state.locked_until > self._clock()

    def record_failure(self, username):
        now = self._clock()
        state = self._by_user.setdefault(username, Attempts())
        state.failures = [t for t in state.failures if now - t < self.window_seconds]
        state.failures.append(now)
        if len(state.failures) >= self.max_attempts:
            state.locked_until = now + self.lock_seconds
            state.failures.clear()
        return state.locked_until

    def record_success(self, username):
        self._by_user.pop(username, None)

    def remaining_attempts(self, username):
        state = self._by_user.get(username)
        used = 0 if state is None else len(state.failures)
        return max(self.max_attempts - used, 0)
