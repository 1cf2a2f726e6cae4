//! What the tests and benchmarks of Intent Ledger share, kept in one place so that
//! every suite runs git the same way and every random test can be replayed.
//!
//! - [`git`]: git with a fixed identity and branch name, deaf to this machine's
//!   configuration, never prompting.
//! - [`Rng`]: a small seeded generator whose seed is printed, so a failure found
//!   with a random input can be run again (`INTENT_TEST_SEED`).

pub mod git;

/// A small deterministic PRNG (xorshift64*) so failures can be replayed from the seed.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// Seeds from the clock unless `INTENT_TEST_SEED` is set; prints the seed.
    pub fn from_env() -> Rng {
        let seed = std::env::var("INTENT_TEST_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .unwrap()
                    .as_nanos() as u64
                    | 1
            });
        eprintln!("random seed: INTENT_TEST_SEED={seed}");
        Rng::seeded(seed)
    }

    /// A generator with this seed (zero, which xorshift never leaves, becomes one).
    pub fn seeded(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    /// Returns a number in `lo..hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        lo + self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % (hi - lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_replays_the_same_numbers_and_stays_in_range() {
        let (mut a, mut b) = (Rng::seeded(42), Rng::seeded(42));
        let first: Vec<u64> = (0..100).map(|_| a.range(3, 17)).collect();
        let again: Vec<u64> = (0..100).map(|_| b.range(3, 17)).collect();
        assert_eq!(first, again);
        assert!(first.iter().all(|n| (3..17).contains(n)));
        // Not stuck on one value: xorshift from a zero seed would be.
        let mut zero = Rng::seeded(0);
        let spread: std::collections::BTreeSet<u64> =
            (0..50).map(|_| zero.range(0, 1000)).collect();
        assert!(spread.len() > 40, "{spread:?}");
    }
}
