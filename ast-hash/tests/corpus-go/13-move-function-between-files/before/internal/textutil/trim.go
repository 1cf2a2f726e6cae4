package textutil

import (
	"strings"
	"unicode/utf8"
)

// Ellipsis shortens s to at most max runes, ending with "…" when cut.
func Ellipsis(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	if max < 1 {
		return ""
	}
	runes := []rune(s)
	return string(runes[:max-1]) + "…"
}

// Normalize trims s and collapses inner whitespace, for comparing titles.
func Normalize(s string) string {
	return strings.ToLower(collapseSpaces(strings.TrimSpace(s)))
}
