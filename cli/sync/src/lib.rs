//! Sharing ledgers through a git remote, and the checkpoints `restore` rebuilds from.
//!
//! This crate owns the storage format of a ledger published in git (segments, tail
//! pieces and `ledger.json` under `refs/intent/ledgers/<ledger id>`: [`publish`](mod@publish)),
//! local checkpoints ([`checkpoint`]), fetching the other clones' ledgers and
//! verifying them before any query sees them ([`fetched`]), comparing the live
//! ledger with its checkpoint and rebuilding it from there ([`restore`]), and the
//! git processes all of that runs ([`git`]). It answers no query and prints
//! nothing: the CLI runs `why` / `search` / `blame` over the fetched ledgers, feeds
//! their lessons to the hook engine, and says what a sync did.
//!
//! Every clone publishes its own ledger under `refs/intent/ledgers/<ledger id>` (see
//! [`publish`](fn@publish)) and is the only writer of that ref, so every push is a fast-forward
//! and no two clones ever touch the same ref. [`sync`] publishes, fetches every
//! clone's ref into `refs/intent/remotes/<remote>/`, pushes its own, and rebuilds
//! each fetched ledger locally after verifying it (see [`fetched`]).

pub mod fetched;
pub mod git;
pub mod publish;
pub mod restore;
#[cfg(test)]
mod testing;

use std::fs::File;

use anyhow::{bail, Context as _};
use intent_ledger::Workspace;
use serde::Serialize;

pub use publish::{publish, Published};

/// What a sync did.
#[derive(Debug, Clone, Serialize)]
pub struct SyncReport {
    /// The local checkpoint.
    pub published: Published,
    /// The remote synced with (`None`: the repository has no remote; checkpoint only).
    pub remote: Option<String>,
    /// Whether this clone's ref was pushed.
    pub pushed: bool,
    /// Why the push was refused, if it was (the others' ledgers are fetched all the
    /// same).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub push_refused: Option<String>,
    /// The other clones' ledgers fetched.
    pub fetched: Vec<fetched::Update>,
}

/// `<common>/intent/sync.lock`, held: while it is, no sync or checkpoint of this
/// clone runs, so the fetched ledgers and the published ref do not change.
#[derive(Debug)]
pub struct SyncLock {
    _file: File,
}

/// Takes the sync lock, waiting for a sync or checkpoint that holds it. [`sync`]
/// and [`checkpoint`] take it themselves; a caller takes it to read every fetched
/// ledger as one state (the CLI's refresh of their lessons after a sync).
pub fn lock(workspace: &Workspace) -> anyhow::Result<SyncLock> {
    let store = workspace
        .git_store_dir()
        .context("not a git workspace: `intent sync` shares ledgers through git")?;
    std::fs::create_dir_all(&store)?;
    let path = store.join("sync.lock");
    let file = File::create(&path).with_context(|| format!("create {}", path.display()))?;
    file.lock()?;
    Ok(SyncLock { _file: file })
}

/// Records a local checkpoint of the ledger (no network): what `restore` rebuilds
/// from. Hooks call it when a session ends.
pub fn checkpoint(workspace: &Workspace) -> anyhow::Result<Published> {
    let _lock = lock(workspace)?;
    publish(workspace, false)
}

/// Publishes, fetches, pushes (unless `push` is false) and rebuilds fetched
/// ledgers. `remote`: the one named, else `origin`, else the only remote; without
/// any remote only the checkpoint is written. A refused push or a refused fetched
/// ledger is in the report, not an error: the rest of the sync goes on.
pub fn sync(workspace: &Workspace, remote: Option<&str>, push: bool) -> anyhow::Result<SyncReport> {
    let _lock = lock(workspace)?;
    let published = publish(workspace, true)?;
    let dir = workspace.root();
    let remote = match remote {
        Some(name) => Some(name.to_string()),
        None => default_remote(dir)?,
    };
    let mut report = SyncReport {
        published,
        remote: remote.clone(),
        pushed: false,
        push_refused: None,
        fetched: Vec::new(),
    };
    let Some(remote) = remote else {
        return Ok(report);
    };
    let fetch_spec = format!("+refs/intent/ledgers/*:refs/intent/remotes/{remote}/*");
    git::run(
        dir,
        &["fetch", "--quiet", "--no-tags", &remote, &fetch_spec],
    )
    .with_context(|| format!("fetching ledgers from {remote}"))?;
    let own = &report.published.reference;
    // No `+`: the remote takes the ref only as a fast-forward. A refusal (someone
    // forced the ref on the remote) does not keep the others' ledgers from coming.
    match push.then(|| git::run(dir, &["push", "--quiet", &remote, &format!("{own}:{own}")])) {
        None => {}
        Some(Ok(_)) => report.pushed = true,
        Some(Err(err)) => {
            report.push_refused = Some(format!(
                "{remote} refused {own} (only a fast-forward is accepted: someone rewrote that \
                 ref on the remote, or another clone holds a ledger with this id): {}",
                sanitize(&format!("{err:#}"))
            ))
        }
    }
    let refs = git::run(
        dir,
        &[
            "for-each-ref",
            "--format=%(refname) %(objectname)",
            &format!("refs/intent/remotes/{remote}/"),
        ],
    )?;
    for line in refs.lines() {
        let Some((name, commit)) = line.split_once(' ') else {
            continue;
        };
        let named = name.rsplit('/').next().unwrap_or(name);
        if named == report.published.ledger_id {
            continue;
        }
        match fetched::update(workspace, commit, named, &report.published.ledger_id) {
            Ok(update) => report.fetched.push(update),
            Err(err) => report.fetched.push(fetched::Update {
                ledger_id: sanitize(named),
                from: remote.clone(),
                seq: 0,
                new_events: 0,
                refused: Some(sanitize(&format!("{err:#}"))),
            }),
        }
    }
    Ok(report)
}

/// `text` with every control character escaped (`\u{1b}`): what a teammate's
/// ledger or a remote says reaches a terminal, and must not drive it.
pub fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn default_remote(dir: &std::path::Path) -> anyhow::Result<Option<String>> {
    let remotes = git::run(dir, &["remote"])?;
    choose_remote(remotes.lines().filter(|l| !l.is_empty()).collect())
}

/// The remote a sync uses when none is named, of the repository's `names`: none,
/// the only one, or `origin` among several (several others: which one is meant is
/// not ours to guess).
fn choose_remote(names: Vec<&str>) -> anyhow::Result<Option<String>> {
    Ok(match names.as_slice() {
        [] => None,
        [only] => Some(only.to_string()),
        many if many.contains(&"origin") => Some("origin".to_string()),
        many => bail!(
            "this repository has several remotes ({}) and none is `origin`: name one, \
             e.g. `intent sync {}`",
            many.join(", "),
            many[0]
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_escapes_control_characters_and_keeps_the_rest() {
        assert_eq!(
            sanitize("bob\u{1b}[2J\u{7}@host\r\n\tx"),
            "bob\\u{1b}[2J\\u{7}@host\\u{d}\\u{a}\\u{9}x"
        );
        // C1 controls (a terminal may read U+009B as CSI) are escaped too; printable
        // text of any script is not.
        assert_eq!(sanitize("a\u{9b}31m"), "a\\u{9b}31m");
        assert_eq!(sanitize("José — 東京 ✓"), "José — 東京 ✓");
        assert_eq!(sanitize(""), "");
    }

    #[test]
    fn sanitized_text_has_no_control_character_and_decodes_back() {
        // Every code point below U+0300 in order: C0 and C1 controls, DEL, Latin.
        // No `\u{` occurs in it, so decoding the escapes must give it back.
        let all: String = (0u32..0x300).filter_map(char::from_u32).collect();
        let clean = sanitize(&all);
        assert!(!clean.chars().any(char::is_control), "{clean:?}");
        let mut decoded = String::new();
        let mut rest = clean.as_str();
        while let Some(at) = rest.find("\\u{") {
            decoded.push_str(&rest[..at]);
            let end = at + rest[at..].find('}').expect("closing brace");
            let code = u32::from_str_radix(&rest[at + 3..end], 16).unwrap();
            decoded.push(char::from_u32(code).unwrap());
            rest = &rest[end + 1..];
        }
        decoded.push_str(rest);
        assert_eq!(decoded, all);
    }

    #[test]
    fn the_default_remote_is_the_only_one_else_origin() {
        assert_eq!(choose_remote(vec![]).unwrap(), None);
        assert_eq!(
            choose_remote(vec!["upstream"]).unwrap().as_deref(),
            Some("upstream")
        );
        assert_eq!(
            choose_remote(vec!["fork", "origin", "upstream"])
                .unwrap()
                .as_deref(),
            Some("origin")
        );
    }

    #[test]
    fn several_remotes_without_origin_are_an_error_that_names_them() {
        let err = choose_remote(vec!["fork", "upstream"]).unwrap_err();
        let text = format!("{err:#}");
        assert!(text.contains("(fork, upstream)"), "{text}");
        assert!(text.contains("`intent sync fork`"), "{text}");
    }
}
