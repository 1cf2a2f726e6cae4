package cache

import "container/list"

type entry struct {
	key   string
	value []byte
}

// LRU is a fixed-capacity cache that evicts the least recently used entry.
// It is not safe for concurrent use; callers must hold their own lock.
type LRU struct {
	capacity int
	order    *list.List
	items    map[string]*list.Element
}

// New returns an empty cache holding at most capacity entries.
func New(capacity int) *LRU {
	return &LRU{
		capacity: capacity,
		order:    list.New(),
		items:    make(map[string]*list.Element, capacity),
	}
}

// Get returns the value stored for key and marks it as most recently used.
func (c *LRU) Get(key string) ([]byte, bool) {
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*entry).value, true
}

// Put stores value under key, evicting the least recently used entry
// when the cache is full.
func (c *LRU) Put(key string, value []byte) {
	if el, ok := c.items[key]; ok {
		el.Value.(*entry).value = value
		c.order.MoveToFront(el)
		return
	}
	// Full: drop the entry at the back of the list (least recently used).
	if c.order.Len() >= c.capacity {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.items, oldest.Value.(*entry).key)
	}
	c.items[key] = c.order.PushFront(&entry{key: key, value: value})
}

// Len reports the number of entries currently cached.
func (c *LRU) Len() int { return c.order.Len() }
