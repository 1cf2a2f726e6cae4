"""Invoice numbers: PREFIX-YEAR-SEQUENCE, gap-free per year."""

import re
from datetime import date

PATTERN = re.compile(r"^(?P<prefix>[A-Z]{2,4})-(?P<year>\d{4})-(?P<seq>\d{5})$")


class NumberingError(ValueError):
    pass


def format_number(prefix, year, seq):
    if not 1 <= seq <= 99999:
        raise NumberingError("sequence out of range: %d" % seq)
    return "%s-%04d-%05d" % (prefix, year, seq)


def parse_number(number):
    match = PATTERN.match(number)
    if match is None:
        raise NumberingError("not an invoice number: %r" % number)
    return match["prefix"], int(match["year"]), int(match["seq"])


def next_number(last_issued, prefix="INV", today=None, start=1:
    year = (today or date.today()).year
    if last_issued is None:
        return format_number(prefix, year, start)
    _, last_year, last_seq = parse_number(last_issued)
    if last_year != year:
        return format_number(prefix, year, start)
    return format_number(prefix, year, last_seq + 1)
