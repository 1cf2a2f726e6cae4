"""Parcel rates per zone and weight band, in cents."""

from bisect import bisect_left

WEIGHT_BANDS_G = (500, 1000, 2000, 5000, 10000, 20000)

# One row per zone, one column per weight band.
# fmt: off
RATES = {
    "domestic": (  490,   590,   690,   990,  1490,  2490),
    "eu-1":     (  990,  1190,  1490,  1990,  2990,  4490),
    "eu-2":     ( 1190,  1490,  1790,  2490,  3490,  5490),
    "world":    ( 1790,  2290,  2990,  4490,  6990, 10990),
}
# fmt: on

SURCHARGE_BULKY = 1500


def band_index(weight_g):
    index = bisect_left(WEIGHT_BANDS_G, weight_g)
    if index == len(WEIGHT_BANDS_G):
        raise ValueError("parcel too heavy: %d g" % weight_g)
    return index


def rate(zone, weight_g, bulky=False):
    cents = RATES[zone][band_index(weight_g)]
    if bulky:
        cents += SURCHARGE_BULKY
    return cents
