//! Event ids a repeated hook recognizes.
//!
//! A hook the resident helper answers can run twice: when the helper stalls past
//! the client's timeout after it has committed, the client answers the hook itself.
//! Both runs draw the ids of their events from the same seed (the client's, one
//! per hook), so the second run's events carry the first run's ids; the second run
//! looks for them in the ledger's recent tail and writes none of them twice.

use uuid::Uuid;

/// How a ledger handle names the events that come without an id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DerivedIds {
    /// Unique per hook, and per ledger handle within it.
    pub seed: String,
    /// Where to look for each id before writing it: the ledger's length when the
    /// hook was first sent, before either run could write (both runs look, since
    /// either may come second). The lines from there to the tail are searched, at
    /// most [`MAX_LOOK_BACK`](crate::MAX_LOOK_BACK) bytes of them. `None`: nothing to look for, nothing
    /// read (a hook no helper was asked to answer).
    pub look_from: Option<u64>,
}

/// The most a derived id is looked for, back from the tail: what other hooks can
/// append while one run of a hook waits for the other (a trace is a few KiB).
pub const MAX_LOOK_BACK: u64 = 8 * 1024 * 1024;

impl DerivedIds {
    /// The id of the `ordinal`-th event of `kind` the handle appends: the same in
    /// both runs of a hook even when one appends events of another kind the other
    /// does not (a specs snapshot the first run already wrote).
    pub(crate) fn id(&self, kind: &str, ordinal: u32) -> Uuid {
        let mut hasher = blake3::Hasher::new_derive_key("intent-ledger derived event id v1");
        hasher.update(self.seed.as_bytes());
        hasher.update(&[0]);
        hasher.update(kind.as_bytes());
        hasher.update(&[0]);
        hasher.update(&ordinal.to_le_bytes());
        let mut bytes = [0u8; 16];
        bytes.copy_from_slice(&hasher.finalize().as_bytes()[..16]);
        uuid::Builder::from_custom_bytes(bytes).into_uuid()
    }
}

#[cfg(test)]
mod tests {
    use super::DerivedIds;

    #[test]
    fn ids_depend_on_seed_kind_and_ordinal_only() {
        let ids = |seed: &str, look_from| DerivedIds {
            seed: seed.into(),
            look_from,
        };
        let a = ids("hook-1", None);
        assert_eq!(a.id("trace", 0), ids("hook-1", Some(1024)).id("trace", 0));
        assert_ne!(a.id("trace", 0), a.id("trace", 1));
        assert_ne!(a.id("trace", 0), a.id("tool.post", 0));
        assert_ne!(a.id("trace", 0), ids("hook-2", None).id("trace", 0));
        assert_eq!(a.id("trace", 0).get_version_num(), 8);
    }
}
