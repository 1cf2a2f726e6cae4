"""Cursor-less pagination helpers for the list endpoints."""

import math

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200


class Page:
    def __init__(self, items, number, size, total):
        self.items = items
        self.number = number
        self.size = size
        self.total = total

    @property
    def pages(self):
        return max(1, math.ceil(self.total / self.size))

    def as_dict(self):
        return {
            "items": self.items,
            "page": self.number,
            "page_size": self.size,
            "total": self.total,
            "pages": self.pages,
        }


def paginate(rows, page=1, page_size=DEFAULT_PAGE_SIZE):
    page_size = max(1, min(page_size, MAX_PAGE_SIZE))
    page = max(1, page)
    start = (page - 1) * page_size
    return Page(rows[start : start + page_size], page, page_size, len(rows))
