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
    /// When this run may repeat one that was recorded already: how many bytes back
    /// from the tail to look for each id (the other run wrote moments ago). `None`
    /// on a first run: nothing to look for, nothing read.
    pub look_back: Option<u64>,
}

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
        let ids = |seed: &str, look_back| DerivedIds {
            seed: seed.into(),
            look_back,
        };
        let a = ids("hook-1", None);
        assert_eq!(
            a.id("trace", 0),
            ids("hook-1", Some(1 << 20)).id("trace", 0)
        );
        assert_ne!(a.id("trace", 0), a.id("trace", 1));
        assert_ne!(a.id("trace", 0), a.id("tool.post", 0));
        assert_ne!(a.id("trace", 0), ids("hook-2", None).id("trace", 0));
        assert_eq!(a.id("trace", 0).get_version_num(), 8);
    }
}
