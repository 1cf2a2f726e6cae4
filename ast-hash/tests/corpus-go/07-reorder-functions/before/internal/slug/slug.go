// Package slug turns titles into URL path segments.
package slug

import (
	"strings"
	"unicode"
)

// Make returns a lower-case, dash-separated slug of at most maxLen bytes.
func Make(title string, maxLen int) string {
	s := collapseDashes(mapRunes(strings.ToLower(title)))
	s = strings.Trim(s, "-")
	return truncate(s, maxLen)
}

// truncate cuts s at the last dash before maxLen, or at maxLen.
func truncate(s string, maxLen int) string {
	if len(s) <= maxLen {
		return s
	}
	cut := s[:maxLen]
	if i := strings.LastIndexByte(cut, '-'); i > 0 {
		return cut[:i]
	}
	return cut
}

// mapRunes keeps letters and digits and turns everything else into dashes.
func mapRunes(s string) string {
	return strings.Map(func(r rune) rune {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '-'
	}, s)
}

// collapseDashes replaces runs of dashes with a single dash.
func collapseDashes(s string) string {
	var b strings.Builder
	prev := rune(0)
	for _, r := range s {
		if r == '-' && prev == '-' {
			continue
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// Valid reports whether s is already a well-formed slug.
func Valid(s string) bool {
	return s != "" && s == Make(s, len(s))
}
