// Package geo has small helpers for coordinates on the WGS84 sphere.
package geo

import "math"

const earthRadiusKm = 6371.0

// Point is a latitude/longitude pair in degrees.
type Point struct {
	Lat, Lng float64
}

// Distance returns the great-circle distance between a and b in kilometres.
func Distance(from, to Point) float64 {
	p1, p2 := rad(from.Lat), rad(to.Lat)
	dp := rad(to.Lat - from.Lat)
	dl := rad(to.Lng - from.Lng)
	h := math.Sin(dp/2)*math.Sin(dp/2) +
		math.Cos(p1)*math.Cos(p2)*math.Sin(dl/2)*math.Sin(dl/2)
	return 2 * earthRadiusKm * math.Asin(math.Sqrt(h))
}

// Within reports whether q lies within r kilometres of c.
func Within(center Point, radiusKm float64, point Point) bool {
	return Distance(center, point) <= radiusKm
}

// Nearest returns the index of the point in ps closest to p, or -1.
func Nearest(origin Point, candidates []Point) int {
	best, bestKm := -1, math.Inf(1)
	for i, x := range candidates {
		if d := Distance(origin, x); d < bestKm {
			best, bestKm = i, d
		}
	}
	return best
}

func rad(degrees float64) float64 { return degrees * math.Pi / 180 }
