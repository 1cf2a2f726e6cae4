//! `intent confine --intent INT-001 -- CMD ARGS…`: runs a command in a Landlock
//! domain (Linux ≥ 5.13, no privileges) where it may write in the workspace only
//! inside the intent's `owned_scope` and the policy's `scratch_paths`, never to
//! the ledger, `.orchestration/`, `.git/` or the front-ends' hook wiring, and
//! everywhere outside the workspace as the user may. The kernel enforces it on the
//! command and every process it starts, however it detaches (`setsid`, `nohup`, a
//! double fork): checks that run beside the agent can be raced, this one cannot.
//!
//! Landlock only grants, never subtracts, so the grants are the directories that
//! hold no protected path: a directory holding one is split into its entries (see
//! [`grants`]). Reading and running programs are not restricted.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};
use clap::Args;
use serde_json::json;

use crate::config::Config;
use crate::exit;

/// Arguments of `intent confine`.
#[derive(Debug, Args)]
pub struct ConfineArgs {
    /// The intent whose `owned_scope` the command may write.
    #[arg(long)]
    pub intent: String,
    /// Run the command even when the kernel cannot enforce the domain (no
    /// Landlock): the after-the-fact shell check is then the only one.
    #[arg(long)]
    pub best_effort: bool,
    /// Print what would be writable and exit, without running anything.
    #[arg(long)]
    pub explain: bool,
    /// The command and its arguments.
    #[arg(last = true, required_unless_present = "explain")]
    pub command: Vec<std::ffi::OsString>,
}

/// Paths in the workspace no confined command may write, whatever the scope.
const PROTECTED: &[&str] = &[
    ".git",
    ".orchestration",
    ".claude",
    ".codex",
    ".gemini",
    ".qwen",
    ".clinerules",
    ".cursor",
    ".github/hooks",
    ".mcp.json",
    ".opencode",
    "opencode.json",
    "opencode.jsonc",
    ".factory",
    ".windsurf/hooks.json",
    ".kilo",
    ".kilocode",
    "kilo.json",
    "kilo.jsonc",
];

/// What a confined command may write.
#[derive(Debug)]
pub struct Plan {
    /// Directories and files granted write access (each with everything below it).
    pub writable: Vec<PathBuf>,
    /// The temporary directory given to the command (`TMPDIR`), when the usual
    /// one holds the workspace and so cannot be granted whole.
    pub tmpdir: Option<PathBuf>,
    /// Scope entries that name nothing that exists yet (not granted: Landlock
    /// rules need an existing file).
    pub missing: Vec<String>,
    /// Directories whose files the command may not read (the helper's secret).
    pub unreadable: Vec<PathBuf>,
    /// Paths granted reading files (each with everything below it): everything
    /// but [`Plan::unreadable`].
    pub readable: Vec<PathBuf>,
}

/// The writable part of the workspace for `scope` (its globs cut at their first
/// wildcard) and `scratch`, plus everything outside it.
pub fn plan(
    root: &Path,
    extra_protected: &[PathBuf],
    unreadable: &[PathBuf],
    scope: &[String],
    scratch: &[String],
) -> Plan {
    let mut protected: Vec<PathBuf> = PROTECTED.iter().map(|p| root.join(p)).collect();
    protected.extend(extra_protected.iter().cloned());
    let mut writable = grants(Path::new("/"), &[root.to_path_buf()]);
    let mut missing = Vec::new();
    for (entry, in_scope) in scope
        .iter()
        .map(|s| (s, true))
        .chain(scratch.iter().map(|s| (s, false)))
    {
        let path = root.join(glob_base(entry));
        if path.symlink_metadata().is_err() {
            // A scratch path that does not exist is simply not there yet.
            if in_scope {
                missing.push(entry.clone());
            }
            continue;
        }
        writable.extend(grants(&path, &protected));
    }
    // The usual temporary directory, when it holds the workspace, is split like
    // any other: new files directly in it would be refused, so the command gets
    // one of its own.
    let tmp = std::env::temp_dir();
    let tmpdir = root.starts_with(&tmp).then(|| {
        let key = blake3::hash(root.as_os_str().as_encoded_bytes()).to_hex();
        tmp.join(format!("intent-confine-{}", &key[..12]))
    });
    if let Some(dir) = &tmpdir {
        writable.push(dir.clone());
    }
    writable.sort();
    writable.dedup();
    Plan {
        writable,
        tmpdir,
        missing,
        unreadable: unreadable.to_vec(),
        readable: grants(Path::new("/"), unreadable),
    }
}

/// `path` with symlinks resolved as far as it exists (the rest appended), so it
/// compares with the canonical paths the grants are made of.
fn canonical(path: &Path) -> PathBuf {
    if let Ok(path) = path.canonicalize() {
        return path;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => canonical(parent).join(name),
        _ => path.to_path_buf(),
    }
}

/// The longest leading part of a scope glob without a wildcard (`src/auth/**` →
/// `src/auth`, `**` → the workspace itself).
fn glob_base(glob: &str) -> PathBuf {
    let mut base = PathBuf::new();
    for part in glob.split('/') {
        if part.is_empty() || part == "." {
            continue;
        }
        if part.contains(['*', '?', '[', '{']) {
            break;
        }
        base.push(part);
    }
    base
}

/// The paths under `dir` (itself, when it holds nothing protected) that together
/// cover everything below it except the `protected` paths: a directory holding a
/// protected path is replaced by its entries, recursively.
pub fn grants(dir: &Path, protected: &[PathBuf]) -> Vec<PathBuf> {
    if protected.iter().any(|p| p == dir) {
        return Vec::new();
    }
    if !protected.iter().any(|p| p.starts_with(dir)) {
        return vec![dir.to_path_buf()];
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        out.extend(grants(&entry.path(), protected));
    }
    out
}

/// Restricts the calling thread (and all it will start) to `plan`; returns
/// whether the kernel enforces it fully. `intent confine` calls it just before
/// running the command; tests call it on a thread of their own.
#[cfg(target_os = "linux")]
pub fn restrict(plan: &Plan) -> anyhow::Result<landlock::RulesetStatus> {
    use landlock::{
        AccessFs, BitFlags, PathBeneath, PathFd, Ruleset, RulesetAttr, RulesetCreatedAttr,
        RulesetError, ABI,
    };
    let abi = ABI::V5;
    // One rule per path, with every right granted there: the directories on the
    // way to the workspace are split the same way for reading and writing.
    let mut rights: std::collections::BTreeMap<&Path, BitFlags<AccessFs>> = Default::default();
    // What may be written may be read (a file opened read-write, as `mktemp`
    // does): the unreadable directories are never writable.
    for path in &plan.writable {
        *rights.entry(path).or_default() |= AccessFs::from_write(abi) | AccessFs::ReadFile;
    }
    for path in &plan.readable {
        *rights.entry(path).or_default() |= AccessFs::ReadFile;
    }
    // A path gone since the plan was made (a file deleted meanwhile) is skipped:
    // nothing there to grant.
    // A file takes only the rights that apply to files.
    let rules = rights.into_iter().filter_map(|(path, access)| {
        let access = match path.is_dir() {
            true => access,
            false => access & AccessFs::from_file(abi),
        };
        PathFd::new(path)
            .ok()
            .map(|fd| Ok::<_, RulesetError>(PathBeneath::new(fd, access)))
    });
    let status = Ruleset::default()
        .handle_access(AccessFs::from_write(abi) | AccessFs::ReadFile)?
        .create()?
        .add_rules(rules)?
        .restrict_self()?;
    Ok(status.ruleset)
}

/// Runs `intent confine`.
pub fn run(config: &Config, args: ConfineArgs) -> anyhow::Result<u8> {
    let workspace = &config.workspace;
    let root = workspace
        .root()
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", workspace.root().display()))?;
    let specs = intent_spec::SpecDocument::load(&workspace.specs_path())
        .context("cannot read the intents")?;
    let Some(intent) = specs
        .file
        .active_intents
        .iter()
        .find(|i| i.id == args.intent)
    else {
        bail!(
            "no intent {} in {}: `intent status` lists them",
            args.intent,
            workspace.specs_path().display()
        );
    };
    let policy = intent_gate::Policy::load(&workspace.orchestration_dir().join("policy.yaml"))?;
    let mut extra = Vec::new();
    if let Some(store) = workspace.git_store_dir() {
        extra.push(store);
    }
    let hidden = [canonical(&crate::helper::secret::private_dir(workspace))];
    let plan = plan(
        &root,
        &extra,
        &hidden,
        &intent.owned_scope,
        &policy.scratch_paths,
    );
    if args.explain {
        if config.json() {
            println!(
                "{}",
                json!({"intent": intent.id, "writable": plan.writable, "tmpdir": plan.tmpdir,
                    "missing": plan.missing, "unreadable": plan.unreadable,
                    "landlock_abi": landlock_abi()})
            );
        } else {
            println!("{} may write (and everything below each):", intent.id);
            for p in plan.writable.iter().filter(|p| p.starts_with(&root)) {
                println!("  {}", p.display());
            }
            println!(
                "  and everything outside {} the user may write",
                root.display()
            );
            for m in &plan.missing {
                println!("  (scope `{m}` names nothing yet: not writable until it exists)");
            }
        }
        return Ok(exit::OK);
    }
    if let Some(dir) = &plan.tmpdir {
        use std::os::unix::fs::DirBuilderExt as _;
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
    }
    confine_and_exec(&plan, &args)
}

#[cfg(target_os = "linux")]
fn confine_and_exec(plan: &Plan, args: &ConfineArgs) -> anyhow::Result<u8> {
    use std::os::unix::process::CommandExt as _;
    let status = restrict(plan).context("cannot create the Landlock domain")?;
    if status != landlock::RulesetStatus::FullyEnforced {
        let what = match status {
            landlock::RulesetStatus::NotEnforced => "this kernel has no Landlock",
            _ => "this kernel enforces only part of the domain",
        };
        if !args.best_effort {
            crate::say::error(&format!(
                "{what}: not running {:?} (pass --best-effort to run it with only \
                 the after-the-fact check)",
                args.command[0]
            ));
            return Ok(exit::ERROR);
        }
        crate::say::warning(&format!(
            "{what}: running with only the after-the-fact check"
        ));
    }
    let mut command = std::process::Command::new(&args.command[0]);
    command.args(&args.command[1..]);
    if let Some(dir) = &plan.tmpdir {
        command.env("TMPDIR", dir);
    }
    let err = command.exec();
    crate::say::error(&format!("cannot run {:?}: {err}", args.command[0]));
    Ok(EXEC_FAILED)
}

#[cfg(not(target_os = "linux"))]
fn confine_and_exec(_plan: &Plan, args: &ConfineArgs) -> anyhow::Result<u8> {
    crate::say::error(&format!(
        "confinement needs Linux's Landlock; not running {:?} (macOS: not built yet, see docs/confine.md)",
        args.command[0]
    ));
    Ok(exit::ERROR)
}

/// Exit code when the command cannot be started (as a shell says it).
const EXEC_FAILED: u8 = 127;

/// Whether this kernel enforces Landlock, and which ABI (`None`: it does not),
/// found by restricting a short-lived thread (a domain binds only the thread
/// that creates it and what it starts).
pub fn landlock_abi() -> Option<i32> {
    #[cfg(target_os = "linux")]
    {
        use landlock::{AccessFs, LandlockStatus, Ruleset, RulesetAttr, ABI};
        let probe = std::thread::spawn(|| {
            let status = Ruleset::default()
                .handle_access(AccessFs::from_write(ABI::V1))
                .ok()?
                .create()
                .ok()?
                .restrict_self()
                .ok()?;
            match status.landlock {
                LandlockStatus::Available {
                    effective_abi,
                    kernel_abi,
                } => Some(kernel_abi.unwrap_or(effective_abi as i32)),
                _ => None,
            }
        });
        probe.join().ok().flatten()
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}
