"""Settings read from environment variables at start-up."""

import os
import re

_SIZE = re.compile(r"^\s*(\d+)\s*([kmg]?)b?\s*$", re.IGNORECASE)


TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})


class Settings:
    def __init__(self, environ=None):
        self._env = os.environ if environ is None else environ

    def flag(self, name, default=False):
        raw = self._env.get(name)
        if raw is None:
            return default
        word = raw.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise ValueError("%s: expected a boolean, got %r" % (name, raw))

    def size(self, name, default):
        raw = self._env.get(name)
        return default if raw is None else _parse_size(raw)

    def text(self, name, default=""):
        return self._env.get(name, default)


def load(environ=None):
    settings = Settings(environ)
    return {
        "debug": settings.flag("APP_DEBUG"),
        "upload_limit": settings.size("APP_UPLOAD_LIMIT", 10 * 1024**2),
        "cache_size": settings.size("APP_CACHE_SIZE", 64 * 1024**2),
        "region": settings.text("APP_REGION", "eu-west"),
    }


def _parse_size(text):
    match = _SIZE.match(text)
    if match is None:
        raise ValueError("not a size: %r" % text)
    number, unit = match.groups()
    return int(number) * {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}[unit.lower()]
