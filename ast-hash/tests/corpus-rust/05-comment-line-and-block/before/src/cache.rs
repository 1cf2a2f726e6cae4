use std::collections::HashMap;
use std::hash::Hash;
use std::time::{Duration, Instant};

/// A map whose entries expire a fixed time after insertion.
pub struct TtlCache<K, V> {
    ttl: Duration,
    entries: HashMap<K, (Instant, V)>,
}

impl<K: Eq + Hash + Clone, V: Clone> TtlCache<K, V> {
    pub fn new(ttl: Duration) -> Self {
        TtlCache {
            ttl,
            entries: HashMap::new(),
        }
    }

    pub fn insert(&mut self, key: K, value: V, now: Instant) {
        self.entries.insert(key, (now, value));
    }

    /// Returns a clone of the value if it has not expired at `now`.
    pub fn get(&self, key: &K, now: Instant) -> Option<V> {
        let (at, value) = self.entries.get(key)?;
        if now.duration_since(*at) >= self.ttl {
            return None;
        }
        Some(value.clone())
    }

    pub fn purge(&mut self, now: Instant) -> usize {
        let before = self.entries.len();
        let ttl = self.ttl;
        self.entries
            .retain(|_, (at, _)| now.duration_since(*at) < ttl);
        before - self.entries.len()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }
}
