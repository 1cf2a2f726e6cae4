//! Code block identities in the hook state: which id each block of each path has,
//! its alpha hash and its last writer (session, worktree, branch), and the notices a
//! cross-worktree collision queues for the other session.

use serde::{Deserialize, Serialize};

use super::cache::{blocks_shard, read_json, BlocksShard};
use super::HookState;
use crate::event::Event;

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
    /// (`data.collisions`) tells that session too, at its next tool call.
    pub(super) fn queue_collision_notices(&mut self, event: &Event) {
        let Some(collisions) = event.data["collisions"].as_array() else {
            return;
        };
        let here = event.data["worktree"]["name"].as_str().unwrap_or("?");
        let by = event.session.as_deref().unwrap_or("?");
        for c in collisions {
            let Some(other) = c["session"].as_str() else {
                continue;
            };
            let message = format!(
                "session {by} in worktree {here} changed `{}` in {} (seq {}), which you changed \
                 differently at seq {} in worktree {}: the two versions will conflict when \
                 merged; coordinate before merging",
                c["block"].as_str().unwrap_or("?"),
                c["path"].as_str().unwrap_or("?"),
                event.seq,
                c["seq"],
                c["worktree"].as_str().unwrap_or("?"),
            );
            if let Some(shards) = self.shards.as_mut() {
                shards.dirty_sessions.insert(other.to_string());
            }
            let session = self.sessions.entry(other.to_string()).or_default();
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
    pub(super) fn apply_block_identities(&mut self, event: &Event) {
        let data = &event.data;
        let Some(entries) = data["blocks"].as_array() else {
            return;
        };
        let writer = event.session.as_ref().map(|session| BlockWriter {
            session: session.clone(),
            worktree: data["worktree"]["name"]
                .as_str()
                .unwrap_or("main")
                .to_string(),
            branch: data["worktree"]["branch"].as_str().map(str::to_string),
            seq: event.seq,
            intent: event.intent_id().map(str::to_string),
        });
        for entry in entries {
            let Some(id) = entry["id"].as_str() else {
                continue;
            };
            let relocated = matches!(entry["event"].as_str(), Some("moved" | "renamed"));
            let key = |side: &serde_json::Value| {
                side["key"]
                    .as_str()
                    .or_else(|| side["name"].as_str())
                    .map(str::to_string)
            };
            if let (true, Some(path), Some(name)) = (
                relocated,
                entry["before"]["path"].as_str(),
                key(&entry["before"]),
            ) {
                if let Some(file) = self.blocks.get_mut(path) {
                    file.remove(&name);
                }
                self.mark_blocks_dirty(path);
            }
            if let (Some(path), Some(name)) =
                (entry["after"]["path"].as_str(), key(&entry["after"]))
            {
                let alpha = entry["after"]["alpha"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                self.blocks.entry(path.to_string()).or_default().insert(
                    name,
                    BlockIdentity {
                        id: id.to_string(),
                        alpha,
                        writer: writer.clone(),
                    },
                );
                self.mark_blocks_dirty(path);
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
