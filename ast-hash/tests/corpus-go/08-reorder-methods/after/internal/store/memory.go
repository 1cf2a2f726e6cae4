package store

import (
	"errors"
	"sort"
	"sync"
)

// ErrNotFound is returned when no note has the requested id.
var ErrNotFound = errors.New("store: not found")

// Note is a short user note.
type Note struct {
	ID   int
	Text string
}

// Memory keeps notes in a map guarded by a mutex.
type Memory struct {
	mu    sync.RWMutex
	next  int
	notes map[int]Note
}

// NewMemory returns an empty store.
func NewMemory() *Memory {
	return &Memory{next: 1, notes: make(map[int]Note)}
}

// Create stores a new note and returns it with its id.
func (m *Memory) Create(text string) Note {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := Note{ID: m.next, Text: text}
	m.notes[n.ID] = n
	m.next++
	return n
}

// Get returns the note with the given id.
func (m *Memory) Get(id int) (Note, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n, ok := m.notes[id]
	if !ok {
		return Note{}, ErrNotFound
	}
	return n, nil
}

// List returns all notes ordered by id.
func (m *Memory) List() []Note {
	m.mu.RLock()
	defer m.mu.RUnlock()
	out := make([]Note, 0, len(m.notes))
	for _, n := range m.notes {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Delete removes a note; deleting a missing note is an error.
func (m *Memory) Delete(id int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.notes[id]; !ok {
		return ErrNotFound
	}
	delete(m.notes, id)
	return nil
}
