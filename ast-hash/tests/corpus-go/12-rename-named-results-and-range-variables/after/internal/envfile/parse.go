// Package envfile reads KEY=VALUE files as used by docker and systemd.
package envfile

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// ParseLine splits one line into key and value. Blank lines and comments
// return ok == false.
func ParseLine(line string) (key, value string, ok bool, err error) {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") {
		return
	}
	i := strings.IndexByte(line, '=')
	if i <= 0 {
		err = fmt.Errorf("envfile: missing '=' in %q", line)
		return
	}
	key = strings.TrimSpace(line[:i])
	value = strings.Trim(strings.TrimSpace(line[i+1:]), `"`)
	ok = true
	return
}

// Parse reads all assignments; later keys override earlier ones.
func Parse(r io.Reader) (env map[string]string, err error) {
	env = make(map[string]string)
	sc := bufio.NewScanner(r)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		key, value, ok, lineErr := ParseLine(sc.Text())
		if lineErr != nil {
			return nil, fmt.Errorf("line %d: %w", lineNo, lineErr)
		}
		if ok {
			env[key] = value
		}
	}
	err = sc.Err()
	return
}

// Merge copies every entry of src into dst unless dst already has the key.
func Merge(dst, src map[string]string) {
	for key, value := range src {
		if _, exists := dst[key]; !exists {
			dst[key] = value
		}
	}
}
