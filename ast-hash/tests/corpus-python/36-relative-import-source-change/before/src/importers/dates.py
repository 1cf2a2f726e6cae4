"""Date parsing for the new importers: ISO 8601 only.

Partners that still send day-first dates must convert their exports, see the
onboarding guide; legacy_dates keeps the old lenient parser for the back office.
"""

from datetime import date, datetime, timezone


def parse_date(text):
    return date.fromisoformat(text.strip())


def parse_timestamp(text):
    value = datetime.fromisoformat(text.strip())
    if value.tzinfo is None:
        raise ValueError("timestamp without a UTC offset: %r" % text)
    return value.astimezone(timezone.utc)


def format_date(value):
    return value.isoformat()
