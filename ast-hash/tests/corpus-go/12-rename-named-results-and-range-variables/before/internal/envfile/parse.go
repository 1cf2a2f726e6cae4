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
func ParseLine(s string) (k, v string, ok bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.HasPrefix(s, "#") {
		return
	}
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		err = fmt.Errorf("envfile: missing '=' in %q", s)
		return
	}
	k = strings.TrimSpace(s[:i])
	v = strings.Trim(strings.TrimSpace(s[i+1:]), `"`)
	ok = true
	return
}

// Parse reads all assignments; later keys override earlier ones.
func Parse(r io.Reader) (m map[string]string, err error) {
	m = make(map[string]string)
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		k, v, ok, e := ParseLine(sc.Text())
		if e != nil {
			return nil, fmt.Errorf("line %d: %w", n, e)
		}
		if ok {
			m[k] = v
		}
	}
	err = sc.Err()
	return
}

// Merge copies every entry of src into dst unless dst already has the key.
func Merge(dst, src map[string]string) {
	for k, v := range src {
		if _, exists := dst[k]; !exists {
			dst[k] = v
		}
	}
}
