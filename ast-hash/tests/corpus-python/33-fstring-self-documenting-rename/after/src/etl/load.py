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
    started = time.monotonic()
    rows_loaded = 0
    batch = []
    for row in read_rows(path):
        batch.append(row)
        if len(batch) == BATCH_SIZE:
            connection.insert_many(table, batch)
            rows_loaded += len(batch)
            batch = []
    if batch:
        connection.insert_many(table, batch)
        rows_loaded += len(batch)
    seconds = time.monotonic() - started
    log.info(f"loaded {table}: {rows_loaded=} {seconds=:.1f}s")
    return rows_loaded
