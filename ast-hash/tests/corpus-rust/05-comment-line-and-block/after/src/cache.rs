use std::collections::HashMap;
use std::hash::Hash;
use std::time::{Duration, Instant};

/// A map whose entries expire a fixed time after insertion.
pub struct TtlCache<K, V> {
    ttl: Duration, // same for every entry
    entries: HashMap<K, (Instant, V)>,
}

impl<K: Eq + Hash + Clone, V: Clone> TtlCache<K, V> {
    pub fn new(ttl: Duration) -> Self {
        TtlCache {
            ttl,
            entries: HashMap::new(),
        }
    }

    // Re-inserting a key restarts its lifetime.
    pub fn insert(&mut self, key: K, value: V, now: Instant) {
        self.entries.insert(key, (now, value));
    }

    /// Returns a clone of the value if it has not expired at `now`.
    pub fn get(&self, key: &K, now: Instant) -> Option<V> {
        let (at, value) = self.entries.get(key)?;
        /* an entry is dead at exactly `ttl`, not after it */
        if now.duration_since(*at) >= self.ttl {
            return None;
        }
        Some(value.clone())
    }

    // Drops expired entries and returns how many were removed. `get` already
    // hides them, so this only bounds memory; call it from a timer.
    pub fn purge(&mut self, now: Instant) -> usize {
        let before = self.entries.len();
        let ttl = self.ttl; // copied: the closure cannot borrow self
        self.entries
            .retain(|_, (at, _)| now.duration_since(*at) < ttl);
        before - self.entries.len()
    }

    // Counts expired-but-not-purged entries too.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
}
