"""Readiness checks behind GET /ready; the first failing check is reported."""

import json
import socket
import time


def check_database(ctx):
    ctx.db.execute("SELECT 1")


def check_cache(ctx):
    ctx.cache.set("ready-probe", "1", ttl=5)


def check_queue(ctx):
    with socket.create_connection((ctx.queue_host, ctx.queue_port), timeout=1):
        pass


CHECKS = {
    "cache": check_cache,
    "queue": check_queue,
    "database": check_database,
}


def run_checks(ctx):
    results = {}
    for name, check in CHECKS.items():
        started = time.monotonic()
        try:
            check(ctx)
        except Exception as exc:
            results[name] = {"ok": False, "error": str(exc)}
            return False, results
        results[name] = {"ok": True, "ms": round((time.monotonic() - started) * 1000, 1)}
    return True, results


def ready_response(ctx):
    ok, results = run_checks(ctx)
    return (200 if ok else 503), json.dumps({"ready": ok, "checks": results})
