//! Sharing ledgers through a git remote, and the checkpoints `restore` rebuilds from.
//!
//! Every clone publishes its own ledger under `refs/intent/ledgers/<ledger id>` (see
//! [`publish`](fn@publish)) and is the only writer of that ref, so every push is a fast-forward
//! and no two clones ever touch the same ref. `intent sync` publishes, fetches every
//! clone's ref into `refs/intent/remotes/<remote>/`, pushes its own, and rebuilds
//! each fetched ledger locally after verifying it (see [`fetched`]).

pub mod fetched;
pub mod git;
pub mod publish;
pub mod restore;
pub mod union;

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

/// Holds `<common>/intent/sync.lock` so two syncs (or a sync and a session-end
/// checkpoint) never run at once.
fn lock(workspace: &Workspace) -> anyhow::Result<File> {
    let store = workspace
        .git_store_dir()
        .context("not a git workspace: `intent sync` shares ledgers through git")?;
    std::fs::create_dir_all(&store)?;
    let path = store.join("sync.lock");
    let file = File::create(&path).with_context(|| format!("create {}", path.display()))?;
    file.lock()?;
    Ok(file)
}

/// Records a local checkpoint of the ledger (no network): what `restore` rebuilds
/// from. Hooks call it when a session ends.
pub fn checkpoint(workspace: &Workspace) -> anyhow::Result<Published> {
    let _lock = lock(workspace)?;
    publish(workspace, false)
}

/// Publishes, fetches, pushes (unless `push` is false) and rebuilds fetched
/// ledgers. `remote`: the one named, else `origin`, else the only remote; without
/// any remote only the checkpoint is written.
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
    refresh_fetched_lessons(workspace);
    Ok(report)
}

/// Brings the fetched ledgers' newest lessons, which hooks inject into sessions'
/// context, up to what was fetched. Best effort: they are derived data, and the next
/// sync tries again.
fn refresh_fetched_lessons(workspace: &Workspace) {
    let sources = lesson_sources(workspace);
    if let Err(err) = intent_engine::engine::lessons::fetched::refresh(workspace, &sources) {
        crate::say::warning(&format!(
            "sync: the fetched lessons were not updated: {err}"
        ));
    }
}

/// The fetched ledgers, as the lessons code names them.
pub fn lesson_sources(
    workspace: &Workspace,
) -> Vec<intent_engine::engine::lessons::fetched::Source> {
    fetched::list(workspace)
        .into_iter()
        .map(|f| intent_engine::engine::lessons::fetched::Source {
            label: f.label(),
            ledger_id: f.meta.ledger_id.clone(),
            ledger: f.ledger,
        })
        .collect()
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
    let names: Vec<&str> = remotes.lines().filter(|l| !l.is_empty()).collect();
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
