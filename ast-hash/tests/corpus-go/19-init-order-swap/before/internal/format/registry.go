// Package format picks an exporter for a file name. Exporters are tried in
// registration order and the first whose Match returns true wins.
package format

import (
	"path/filepath"
	"strings"
)

// Exporter writes a report in one file format.
type Exporter struct {
	Name  string
	Match func(filename string) bool
}

var registry []Exporter

// Register appends e to the list of exporters.
func Register(e Exporter) { registry = append(registry, e) }

// For returns the exporter for filename, or false if none matches.
func For(filename string) (Exporter, bool) {
	for _, e := range registry {
		if e.Match(filename) {
			return e, true
		}
	}
	return Exporter{}, false
}

func init() {
	// Compressed CSV must be checked before plain CSV: "x.csv.gz" also
	// contains ".csv".
	Register(Exporter{Name: "csv.gz", Match: func(f string) bool {
		return strings.HasSuffix(f, ".csv.gz")
	}})
}

func init() {
	Register(Exporter{Name: "csv", Match: func(f string) bool {
		return strings.Contains(filepath.Base(f), ".csv")
	}})
}
