"""Atomic writes and tolerant reads for the local blob cache."""

import json
import logging
import os
import tempfile

log = logging.getLogger(__name__)


class CacheReadError(Exception):
    pass


def write_atomic(path, data):
    directory = os.path.dirname(path) or "."
    fd, tmp_path = tempfile.mkstemp(dir=directory, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp_path, path)
    except BaseException:
        os.unlink(tmp_path)
        raise


def read_json(path, default=None):
    try:
        with open(path, encoding="utf-8") as stream:
            return json.load(stream)
    except FileNotFoundError:
        return default
    except json.JSONDecodeError as decode_error:
        log.warning("corrupt cache entry %s: %s", path, decode_error)
        raise CacheReadError(path) from decode_error
    except OSError as os_error:
        log.error("cannot read %s (errno %s)", path, os_error.errno)
        raise CacheReadError(path) from os_error


def write_json(path, value):
    write_atomic(path, json.dumps(value, sort_keys=True).encode("utf-8"))


def purge(directory, max_bytes):
    entries = []
    for name in os.listdir(directory):
        full = os.path.join(directory, name)
        try:
            info = os.stat(full)
        except OSError as error:
            log.debug("skipping %s: %s", full, error)
            continue
        entries.append((info.st_mtime, info.st_size, full))
    entries.sort()
    used = sum(size for _, size, _ in entries)
    for _, size, full in entries:
        if used <= max_bytes:
            break
        os.unlink(full)
        used -= size
    return used
