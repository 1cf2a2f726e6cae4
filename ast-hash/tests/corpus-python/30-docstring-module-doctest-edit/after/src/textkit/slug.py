"""URL slugs for article titles.

Examples (checked by ``python -m doctest`` in CI):

>>> slugify("Hello, World!")
'hello-world'
>>> slugify("  Crème brûlée: a how-to  ")
'creme-brulee-a-how-to'
>>> slugify("2024 Annual Report", max_length=8)
'2024-ann'
>>> unique_slug("Hello, World!", {"hello-world", "hello-world-2"})
'hello-world-3'
"""

import re
import unicodedata

_NON_WORD = re.compile(r"[^a-z0-9]+")


def ascii_only(text):
    decomposed = unicodedata.normalize("NFKD", text)
    return decomposed.encode("ascii", "ignore").decode("ascii")


def slugify(text, max_length=60):
    slug = _NON_WORD.sub("-", ascii_only(text).lower()).strip("-")
    return slug[:max_length].rstrip("-")


def unique_slug(text, taken, max_length=60):
    base = slugify(text, max_length=max_length)
    candidate, n = base, 2
    while candidate in taken:
        suffix = "-%d" % n
        candidate = base[: max_length - len(suffix)] + suffix
        n += 1
    return candidate
