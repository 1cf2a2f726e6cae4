"""A tiny cron-like scheduler for the maintenance jobs."""

import time
import logging
from datetime import timedelta, datetime
import heapq
from dataclasses import field, dataclass
import itertools
from typing import Callable, Optional, List

log = logging.getLogger(__name__)
_counter = itertools.count()


@dataclass(order=True)
class ScheduledJob:
    due: datetime
    seq: int
    name: str = field(compare=False)
    action: Callable[[], None] = field(compare=False)
    every: Optional[timedelta] = field(default=None, compare=False)


class Scheduler:
    def __init__(self, clock: Callable[[], datetime] = datetime.now):
        self._clock = clock
        self._queue: List[ScheduledJob] = []

    def add(self, name, action, delay, every=None):
        job = ScheduledJob(self._clock() + delay, next(_counter), name, action, every)
        heapq.heappush(self._queue, job)
        return job

    def run_pending(self):
        now = self._clock()
        ran = 0
        while self._queue and self._queue[0].due <= now:
            job = heapq.heappop(self._queue)
            try:
                job.action()
            except Exception:
                log.exception("job %s failed", job.name)
            ran += 1
            if job.every is not None:
                self.add(job.name, job.action, job.every, job.every)
        return ran

    def run_forever(self, poll_seconds=1.0):
        while True:
            self.run_pending()
            time.sleep(poll_seconds)
