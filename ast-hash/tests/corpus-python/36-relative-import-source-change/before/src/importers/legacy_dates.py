"""Date parsing kept for the spreadsheet exports of the old back office."""

from datetime import date, datetime

FORMATS = ("%Y-%m-%d", "%d/%m/%Y", "%d.%m.%Y")


def parse_date(text):
    value = text.strip()
    for fmt in FORMATS:
        try:
            return datetime.strptime(value, fmt).date()
        except ValueError:
            continue
    raise ValueError("unrecognised date: %r" % text)


def today():
    return date.today()
