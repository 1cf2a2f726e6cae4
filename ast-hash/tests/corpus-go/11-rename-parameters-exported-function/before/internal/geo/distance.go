// Package geo has small helpers for coordinates on the WGS84 sphere.
package geo

import "math"

const earthRadiusKm = 6371.0

// Point is a latitude/longitude pair in degrees.
type Point struct {
	Lat, Lng float64
}

// Distance returns the great-circle distance between a and b in kilometres.
func Distance(a, b Point) float64 {
	p1, p2 := rad(a.Lat), rad(b.Lat)
	dp := rad(b.Lat - a.Lat)
	dl := rad(b.Lng - a.Lng)
	h := math.Sin(dp/2)*math.Sin(dp/2) +
		math.Cos(p1)*math.Cos(p2)*math.Sin(dl/2)*math.Sin(dl/2)
	return 2 * earthRadiusKm * math.Asin(math.Sqrt(h))
}

// Within reports whether q lies within r kilometres of c.
func Within(c Point, r float64, q Point) bool {
	return Distance(c, q) <= r
}

// Nearest returns the index of the point in ps closest to p, or -1.
func Nearest(p Point, ps []Point) int {
	best, bestKm := -1, math.Inf(1)
	for i, x := range ps {
		if d := Distance(p, x); d < bestKm {
			best, bestKm = i, d
		}
	}
	return best
}

func rad(deg float64) float64 { return deg * math.Pi / 180 }
