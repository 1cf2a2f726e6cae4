package session

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"
)

// Session is a logged-in browser session.
type Session struct {
	ID        string
	UserID    int64
	ExpiresAt time.Time
}

// Store keeps sessions in memory.
type Store struct {
	mu       sync.Mutex
	sessions map[string]Session
	ttl      time.Duration
}

// NewStore returns a store whose sessions live for ttl.
func NewStore(ttl time.Duration) *Store {
	return &Store{sessions: make(map[string]Session), ttl: ttl}
}

// Create starts a session for the user and returns it.
func (s *Store) Create(userID int64, now time.Time) (Session, error) {
	buf := make([]byte, 16)
	if _, err := rand.Read(buf); err != nil {
		return Session{}, err
	}
	sess := Session{ID: hex.EncodeToString(buf), UserID: userID, ExpiresAt: now.Add(s.ttl)}
	s.mu.Lock()
	s.sessions[sess.ID] = sess
	s.mu.Unlock()
	return sess, nil
}

// Lookup returns the live session with the given id.
func (s *Store) Lookup(id string, now time.Time) (Session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, ok := s.sessions[id]
	if !ok || !now.Before(sess.ExpiresAt) {
		return Session{}, false
	}
	return sess, true
}
