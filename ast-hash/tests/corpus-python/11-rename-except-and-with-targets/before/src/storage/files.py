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
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def read_json(path, default=None):
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except FileNotFoundError:
        return default
    except json.JSONDecodeError as e:
        log.warning("corrupt cache entry %s: %s", path, e)
        raise CacheReadError(path) from e
    except OSError as err:
        log.error("cannot read %s (errno %s)", path, err.errno)
        raise CacheReadError(path) from err


def write_json(path, value):
    write_atomic(path, json.dumps(value, sort_keys=True).encode("utf-8"))


def purge(directory, max_bytes):
    entries = []
    for name in os.listdir(directory):
        full = os.path.join(directory, name)
        try:
            st = os.stat(full)
        except OSError as exc:
            log.debug("skipping %s: %s", full, exc)
            continue
        entries.append((st.st_mtime, st.st_size, full))
    entries.sort()
    used = sum(size for _, size, _ in entries)
    for _, size, full in entries:
        if used <= max_bytes:
            break
        os.unlink(full)
        used -= size
    return used
