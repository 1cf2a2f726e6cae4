// Package password hashes and checks user passwords with PBKDF2-like
// iterated SHA-256 (kept dependency-free for this service).
package password

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
)

const iterations = 120_000

// Hash returns "salt$digest" for the password, both base64 encoded.
func Hash(password string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("password: salt: %w", err)
	}
	digest := stretchKey(password, salt)
	enc := base64.RawStdEncoding
	return enc.EncodeToString(salt) + "$" + enc.EncodeToString(digest), nil
}

// Check reports whether password matches a value produced by Hash.
func Check(password, stored string) bool {
	salt64, digest64, ok := strings.Cut(stored, "$")
	if !ok {
		return false
	}
	enc := base64.RawStdEncoding
	salt, err1 := enc.DecodeString(salt64)
	want, err2 := enc.DecodeString(digest64)
	if err1 != nil || err2 != nil {
		return false
	}
	return subtle.ConstantTimeCompare(stretchKey(password, salt), want) == 1
}

func stretchKey(password string, salt []byte) []byte {
	sum := sha256.Sum256(append(salt, password...))
	for i := 1; i < iterations; i++ {
		sum = sha256.Sum256(append(salt, sum[:]...))
	}
	return sum[:]
}
