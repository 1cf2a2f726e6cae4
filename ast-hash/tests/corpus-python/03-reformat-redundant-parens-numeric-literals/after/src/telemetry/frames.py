"""Decoding of the 12-byte sensor frame sent by the field units."""

import struct

MAGIC = 0xA55A
FLAG_LOW_BATTERY = 0x01
FLAG_TAMPER = 0x02
FLAG_CALIBRATED = 0x80
TEMP_SCALE = 1e-2
PRESSURE_SCALE = 1e-1
MAX_AGE_MS = 5e3

_HEADER = struct.Struct(">HBBIhH")


class FrameError(ValueError):
    pass


def decode(frame):
    if len(frame) != _HEADER.size:
        raise FrameError("expected %d bytes, got %d" % (_HEADER.size, len(frame)))
    magic, unit, flags, timestamp, temp_raw, pressure_raw = _HEADER.unpack(frame)
    if magic != MAGIC:
        raise FrameError("bad magic 0x%04x" % magic)
    return {
        "unit": unit,
        "timestamp": timestamp,
        "temperature": temp_raw * TEMP_SCALE,
        "pressure": pressure_raw * PRESSURE_SCALE,
        "flags": describe_flags(flags),
    }


def describe_flags(flags):
    names = []
    for mask, name in (
        (FLAG_LOW_BATTERY, "low-battery"),
        (FLAG_TAMPER, "tamper"),
        (FLAG_CALIBRATED, "calibrated"),
    ):
        if flags & mask:
            names.append(name)
    return names


def is_stale(reading, now_ms):
    age = now_ms - reading["timestamp"]
    while age < 0:
        age += 0xFFFFFFFF + 1
    return age > MAX_AGE_MS
