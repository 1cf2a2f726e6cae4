//! Great-circle helpers on a spherical Earth.

const EARTH_RADIUS_KM: f64 = 6371.0;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub lat: f64,
    pub lng: f64,
}

/// Great-circle distance between two points in kilometres.
pub fn distance_km(from: Point, to: Point) -> f64 {
    let (p1, p2) = (from.lat.to_radians(), to.lat.to_radians());
    let dp = (to.lat - from.lat).to_radians();
    let dl = (to.lng - from.lng).to_radians();
    let h = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    2.0 * EARTH_RADIUS_KM * h.sqrt().asin()
}

/// Whether `q` lies within `r` kilometres of `c`.
pub fn within(center: Point, radius_km: f64, point: Point) -> bool {
    distance_km(center, point) <= radius_km
}

/// Index of the point in `ps` closest to `p`.
pub fn nearest(origin: Point, candidates: &[Point]) -> Option<usize> {
    candidates.iter()
        .map(|x| distance_km(origin, *x))
        .enumerate()
        .min_by(|l, r| l.1.total_cmp(&r.1))
        .map(|(i, _)| i)
}
