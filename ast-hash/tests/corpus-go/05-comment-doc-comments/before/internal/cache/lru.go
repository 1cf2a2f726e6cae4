package cache

import "container/list"

type entry struct {
	key   string
	value []byte
}

// LRU is a fixed-capacity cache.
type LRU struct {
	capacity int
	order    *list.List
	items    map[string]*list.Element
}

func New(capacity int) *LRU {
	return &LRU{
		capacity: capacity,
		order:    list.New(),
		items:    make(map[string]*list.Element, capacity),
	}
}

func (c *LRU) Get(key string) ([]byte, bool) {
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*entry).value, true
}

// Put stores the value.
func (c *LRU) Put(key string, value []byte) {
	if el, ok := c.items[key]; ok {
		el.Value.(*entry).value = value
		c.order.MoveToFront(el)
		return
	}
	// evict
	if c.order.Len() >= c.capacity {
		oldest := c.order.Back()
		c.order.Remove(oldest)
		delete(c.items, oldest.Value.(*entry).key)
	}
	c.items[key] = c.order.PushFront(&entry{key: key, value: value})
}

func (c *LRU) Len() int { return c.order.Len() }
