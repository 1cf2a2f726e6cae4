// Package feature evaluates percentage-based feature flags.
package feature

import (
	"hash/fnv"
	"strconv"
)

// Flag enables a feature for a stable percentage of users.
type Flag struct {
	Name    string
	Percent uint32 // 0..100
	Allow   []string
}

// Enabled reports whether the flag is on for userID. Users in Allow always
// get the feature; everyone else is bucketed by a hash of flag and user.
func (f Flag) Enabled(userID int64) bool {
	id := strconv.FormatInt(userID, 10)
	for _, a := range f.Allow {
		if a == id {
			return true
		}
	}
	return bucket(f.Name, id) < f.Percent
}

func bucket(flag, id string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(flag))
	h.Write([]byte{0})
	h.Write([]byte(id))
	return h.Sum32() % 100
}

// Defaults are the flags compiled into the binary.
var Defaults = []Flag{
	{Name: "new-checkout", Percent: 10},
	{Name: "dark-mode", Percent: 100},
	{Name: "bulk-export", Percent: 0, Allow: []string{"1", "42"}},
}
