"""Message catalogs, loaded lazily from JSON files next to this module."""

import json
import os

HERE = os.path.dirname(__file__)
FALLBACK = "en"

_loaded = {}
active = FALLBACK


def load(lang):
    if lang not in _loaded:
        path = os.path.join(HERE, "messages", lang + ".json")
        with open(path, encoding="utf-8") as fh:
            _loaded[lang] = json.load(fh)
    return _loaded[lang]


def activate(lang):
    global active
    load(lang)
    previous, active = active, lang
    return previous


def gettext(key, **params):
    for lang in (active, FALLBACK):
        message = load(lang).get(key)
        if message is not None:
            return message.format(**params) if params else message
    return key


def reset():
    global active
    active = FALLBACK
    _loaded.clear()
