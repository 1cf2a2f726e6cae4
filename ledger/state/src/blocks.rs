//! Code block identities in the hook state: which id each block of each path has,
//! its alpha hash and its last writer (session, worktree, branch), and the notices a
//! cross-worktree collision queues for the other session.

use serde::{Deserialize, Serialize};

use super::cache::{blocks_shard, read_json, BlocksShard};
use super::HookState;
use intent_ledger::payload::Trace;
use intent_ledger::Event;

/// The identity of a code block: given when a trace first sees it, carried across
/// edits, moves and renames by the block pairing of later traces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockIdentity {
    /// The stable id (32 hex digits).
    pub id: String,
    /// The block's alpha hash at its latest trace.
    pub alpha: String,
    /// Who wrote that trace: the cross-worktree collision check compares it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writer: Option<BlockWriter>,
}

/// The session, worktree and branch of a block's latest trace.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockWriter {
    /// The agent session.
    pub session: String,
    /// The worktree (`main` or a linked worktree's name).
    pub worktree: String,
    /// The branch then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// Seq of the trace.
    pub seq: u64,
    /// Its intent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub intent: Option<String>,
}

impl HookState {
    /// A trace that changed a block another worktree's session changed differently
    /// (`collisions`) tells that session too, at its next tool call.
    pub(super) fn queue_collision_notices(&mut self, event: &Event, trace: &Trace) {
        let Some(collisions) = &trace.collisions else {
            return;
        };
        let here = trace.worktree.as_ref().map_or("?", |w| w.name.as_str());
        let by = event.session.as_deref().unwrap_or("?");
        for c in collisions {
            let message = format!(
                "session {by} in worktree {here} changed `{}` in {} (seq {}), which you changed \
                 differently at seq {} in worktree {}: the two versions will conflict when \
                 merged; coordinate before merging",
                c.block, c.path, event.seq, c.seq, c.worktree,
            );
            if let Some(shards) = self.shards.as_mut() {
                shards.dirty_sessions.insert(c.session.clone());
            }
            let session = self.sessions.entry(c.session.clone()).or_default();
            if session.pending_notices.len() >= 5 {
                session.pending_notices.remove(0);
            }
            session.pending_notices.push(message);
        }
    }

    /// Records the identities a trace's `blocks` carry: a block that moved or was
    /// renamed leaves its old place, every after side takes its place. A deleted
    /// block keeps its entry, so a later write of the same turn that turns the
    /// deletion into a cross-file move still finds its identity.
    pub(super) fn apply_block_identities(&mut self, event: &Event, trace: &Trace) {
        let writer = event.session.as_ref().map(|session| BlockWriter {
            session: session.clone(),
            worktree: trace
                .worktree
                .as_ref()
                .map_or_else(|| "main".to_string(), |w| w.name.clone()),
            branch: trace.worktree.as_ref().and_then(|w| w.branch.clone()),
            seq: event.seq,
            intent: trace.intent_id.clone(),
        });
        for entry in trace.blocks() {
            let Some(id) = &entry.id else {
                continue;
            };
            let relocated = matches!(entry.event.as_str(), "moved" | "renamed");
            if let (true, Some(before)) = (relocated, &entry.before) {
                if let Some(file) = self.blocks.get_mut(&before.path) {
                    file.remove(before.key_or_name());
                }
                self.mark_blocks_dirty(&before.path);
            }
            if let Some(after) = &entry.after {
                self.blocks.entry(after.path.clone()).or_default().insert(
                    after.key_or_name().to_string(),
                    BlockIdentity {
                        id: id.clone(),
                        alpha: after.alpha.clone(),
                        writer: writer.clone(),
                    },
                );
                self.mark_blocks_dirty(&after.path);
            }
        }
    }

    pub(super) fn mark_blocks_dirty(&mut self, path: &str) {
        if let Some(shards) = self.shards.as_mut() {
            shards.dirty_blocks.insert(path.to_string());
        }
    }

    /// Loads the block identities of a file from its shard, once.
    pub fn ensure_blocks(&mut self, path: &str) {
        let Some(shards) = self.shards.as_mut() else {
            return;
        };
        if !shards.loaded_blocks.insert(path.to_string()) {
            return;
        }
        if let Some(shard) = read_json::<BlocksShard>(&blocks_shard(&shards.dir, path)) {
            self.blocks.insert(path.to_string(), shard.ids);
        }
    }
}
