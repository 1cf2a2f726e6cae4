"""HMAC signatures on outgoing webhook requests."""

import hashlib
import hmac
import json
import time

HEADER = "X-Signature"
TOLERANCE_SECONDS = 300


def _canonical(payload):
    return json.dumps(payload, sort_keys=True, separators=(",", ":")).encode("utf-8")


def sign(secret, payload, timestamp=None):
    ts = int(time.time() if timestamp is None else timestamp)
    body = _canonical(payload)
    digest = hmac.new(secret.encode("utf-8"), b"%d." % ts + body, hashlib.sha256).hexdigest()
    return "t=%d,v1=%s" % (ts, digest)


def verify(secret, payload, header, now=None):
    fields = dict(part.split("=", 1) for part in header.split(","))
    ts = int(fields["t"])
    if abs((time.time() if now is None else now) - ts) > TOLERANCE_SECONDS:
        return False
    expected = sign(secret, payload, ts)
    return hmac.compare_digest(expected, header)
