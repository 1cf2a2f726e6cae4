import html
import re
import unicodedata

_WS = re.compile(r"\s+")
_TAG = re.compile(r"<[^>]+>")


def squash(text):
    return _WS.sub(" ", text).strip()


def strip_tags(text):
    return html.unescape(_TAG.sub("", text))


def ascii_fold(text):
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def sentences(text):
    parts = re.split(r"(?<=[.!?])\s+", squash(text))
    return [p for p in parts if p]


def truncate(text, limit, ellipsis="…"):
    if len(text) <= limit:
        return text
    cut = text[: limit - len(ellipsis)].rsplit(" ", 1)[0]
    return cut + ellipsis
