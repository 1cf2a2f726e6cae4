"""Great-circle helpers used by the delivery-zone checks."""

import math

EARTH_RADIUS_KM = 6371.0088


def haversine_km(a, b):
    lat1, lon1 = map(math.radians, a)
    lat2, lon2 = map(math.radians, b)
    dlat = lat2 - lat1
    dlon = lon2 - lon1
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return 2 * EARTH_RADIUS_KM * math.asin(math.sqrt(h))


def initial_bearing(a, b):
    lat1, lon1 = map(math.radians, a)
    lat2, lon2 = map(math.radians, b)
    dlon = lon2 - lon1
    x = math.sin(dlon) * math.cos(lat2)
    y = math.cos(lat1) * math.sin(lat2) - math.sin(lat1) * math.cos(lat2) * math.cos(dlon)
    return (math.degrees(math.atan2(x, y)) + 360.0) % 360.0


def bounding_box(center, radius_km):
    lat, lon = center
    dlat = math.degrees(radius_km / EARTH_RADIUS_KM)
    dlon = math.degrees(radius_km / (EARTH_RADIUS_KM * math.cos(math.radians(lat))))
    return (lat - dlat, lon - dlon, lat + dlat, lon + dlon)


def within_radius(center, point, radius_km):
    return haversine_km(center, point) <= radius_km


def nearest(origin, candidates):
    best = None
    best_km = math.inf
    for candidate in candidates:
        km = haversine_km(origin, candidate.location)
        if km < best_km:
            best, best_km = candidate, km
    return best, best_km


def format_km(km, precision=1):
    if km < 1:
        return "%d m" % round(km * 1000)
    return "%.*f km" % (precision, km)
