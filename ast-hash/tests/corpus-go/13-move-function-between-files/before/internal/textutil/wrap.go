package textutil

import "strings"

// Wrap breaks text into lines of at most width bytes at spaces. Words longer
// than width get a line of their own.
func Wrap(text string, width int) []string {
	words := strings.Fields(collapseSpaces(text))
	var lines []string
	var cur strings.Builder
	for _, w := range words {
		if cur.Len() > 0 && cur.Len()+1+len(w) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(w)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// collapseSpaces turns every run of whitespace into one space.
func collapseSpaces(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// Indent prefixes every line with prefix.
func Indent(lines []string, prefix string) string {
	return prefix + strings.Join(lines, "\n"+prefix)
}
