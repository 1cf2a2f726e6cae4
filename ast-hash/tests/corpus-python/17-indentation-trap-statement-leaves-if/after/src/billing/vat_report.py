"""Quarterly VAT summary handed to the accountant."""

from collections import namedtuple
from decimal import Decimal

Line = namedtuple("Line", "country rate net reverse_charge")
Summary = namedtuple("Summary", "country net vat invoices reverse_charged")


def summarize(lines, country):
    net = Decimal(0)
    vat = Decimal(0)
    invoices = 0
    reverse_charged = 0
    for line in lines:
        if line.country != country:
            continue
        net += line.net
        if line.reverse_charge:
            reverse_charged += 1
            continue
        vat += (line.net * line.rate).quantize(Decimal("0.01"))
    invoices += 1
    return Summary(country, net, vat, invoices, reverse_charged)


def by_country(lines):
    countries = sorted({line.country for line in lines})
    return [summarize(lines, country) for country in countries]


def as_rows(summaries):
    rows = [("country", "net", "vat", "invoices", "reverse charge")]
    for s in summaries:
        rows.append(
            (s.country, str(s.net), str(s.vat), str(s.invoices), str(s.reverse_charged))
        )
    return rows
