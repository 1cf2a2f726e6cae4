//! Percentage-based feature flags with stable per-user bucketing.
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

#[derive(Debug, Clone)]
pub struct Flag {
    pub name: &'static str,
    /// 0..=100
    pub percent: u8,
    pub allow: &'static [u64],
}

impl Flag {
    /// Whether the flag is on for `user_id`. Allow-listed users always get it;
    /// everyone else is bucketed by a hash of flag name and user id.
    pub fn enabled(&self, user_id: u64) -> bool {
        if self.allow.contains(&user_id) {
            return true;
        }
        bucket(self.name, user_id) < self.percent
    }
}

fn bucket(name: &str, user_id: u64) -> u8 {
    let mut h = DefaultHasher::new();
    name.hash(&mut h);
    user_id.hash(&mut h);
    (h.finish() % 100) as u8
}

pub const DEFAULTS: &[Flag] = &[
    Flag { name: "new-checkout", percent: 25, allow: &[] ,
    Flag { name: "dark-mode", percent: 100, allow: &[] },
    Flag { name: "bulk-export", percent: 0, allow: &[1, 42] },
];
