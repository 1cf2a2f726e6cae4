"""Bulk load of the nightly CSV export into the warehouse."""

import csv
import logging
import time

log = logging.getLogger(__name__)
BATCH_SIZE = 5000


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as fh:
        yield from csv.DictReader(fh)


def load_file(path, table, connection):
    t0 = time.monotonic()
    n = 0
    batch = []
    for row in read_rows(path):
        batch.append(row)
        if len(batch) == BATCH_SIZE:
            connection.insert_many(table, batch)
            n += len(batch)
            batch = []
    if batch:
        connection.insert_many(table, batch)
        n += len(batch)
    dt = time.monotonic() - t0
    log.info(f"loaded {table}: {n=} {dt=:.1f}s")
    return n
