"""Import of booking rows exported by the partner hotels."""

import csv

from .legacy_dates import parse_date


class BookingRowError(ValueError):
    def __init__(self, line, reason):
        super().__init__("line %d: %s" % (line, reason))
        self.line = line


def read_bookings(fh):
    bookings = []
    for line, row in enumerate(csv.DictReader(fh), start=2):
        try:
            arrival = parse_date(row["arrival"])
            departure = parse_date(row["departure"])
        except (KeyError, ValueError) as exc:
            raise BookingRowError(line, str(exc)) from exc
        if departure <= arrival:
            raise BookingRowError(line, "departure is not after arrival")
        bookings.append(
            {
                "guest": row.get("guest", "").strip(),
                "arrival": arrival,
                "departure": departure,
                "nights": (departure - arrival).days,
            }
        )
    return bookings
