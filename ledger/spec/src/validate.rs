//! Semantic checks over a parsed intents file.
//!
//! Every problem is collected rather than stopping at the first, so a human
//! fixes the file in one pass. Output order is deterministic: file-level
//! findings, then per-intent findings in file order, then dependency cycles,
//! then scope overlaps.

use std::collections::{BTreeSet, HashMap};
use std::fmt;

use serde::Serialize;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime};

use super::model::{
    literal_prefix, IntentSpec, IntentStatus, IntentsFile, ScopeMatcher, ACCEPTED_STATUSES,
};

/// Ranks a diagnostic: errors make the file unusable for gating, warnings do not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Marks a problem that must be fixed before the file can gate work.
    Error,
    /// Marks a likely mistake that does not block gating.
    Warning,
}

impl Severity {
    /// Returns the lower-case label used in output.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Reports one validation finding about one intent field (or the file as a whole).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Tells whether the finding blocks gating.
    pub severity: Severity,
    /// Names the intent concerned, as written; `None` for file-level findings or a missing id.
    pub intent_id: Option<String>,
    /// Locates the field within the intent, e.g. `owned_scope[2]`; for findings without an intent id it starts at `active_intents`.
    pub field: String,
    /// Gives a stable machine-readable code such as `invalid_id`.
    pub code: &'static str,
    /// Explains the finding, starting with the intent and field it concerns.
    pub message: String,
}

impl Diagnostic {
    /// Tells whether this finding is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}] {}", self.severity, self.code, self.message)
    }
}

/// Checks a parsed intents file and returns every finding, in a deterministic order.
pub fn validate(file: &IntentsFile) -> Vec<Diagnostic> {
    let mut v = Validator {
        file,
        out: Vec::new(),
        first_index: HashMap::new(),
    };
    if file.active_intents.is_empty() {
        v.out.push(Diagnostic {
            severity: Severity::Warning,
            intent_id: None,
            field: "active_intents".to_string(),
            code: "no_intents",
            message: "active_intents: the file declares no intents, so no agent work can be \
                      authorised; add an intent under `active_intents:`"
                .to_string(),
        });
        return v.out;
    }
    for (index, intent) in file.active_intents.iter().enumerate() {
        if !intent.id.trim().is_empty() {
            v.first_index.entry(intent.id.as_str()).or_insert(index);
        }
    }
    for (index, intent) in file.active_intents.iter().enumerate() {
        v.check_id(index, intent);
        v.check_status(index, intent);
        v.check_scope(index, intent);
        v.check_dependencies(index, intent);
        v.check_parent(index, intent);
        v.check_timestamps(index, intent);
        v.check_lists(index, intent);
    }
    v.check_cycles();
    v.check_overlaps();
    v.out
}

struct Validator<'a> {
    file: &'a IntentsFile,
    out: Vec<Diagnostic>,
    first_index: HashMap<&'a str, usize>,
}

impl Validator<'_> {
    fn push(
        &mut self,
        severity: Severity,
        index: usize,
        field: String,
        code: &'static str,
        text: String,
    ) {
        let intent = &self.file.active_intents[index];
        let (intent_id, field, who) = if intent.id.trim().is_empty() {
            let field = format!("active_intents[{index}].{field}");
            (None, field.clone(), field)
        } else {
            let who = format!("{} .{field}", intent.id);
            (Some(intent.id.clone()), field, who)
        };
        self.out.push(Diagnostic {
            severity,
            intent_id,
            field,
            code,
            message: format!("{who}: {text}"),
        });
    }

    fn error(&mut self, index: usize, field: impl Into<String>, code: &'static str, text: String) {
        self.push(Severity::Error, index, field.into(), code, text);
    }

    fn warning(
        &mut self,
        index: usize,
        field: impl Into<String>,
        code: &'static str,
        text: String,
    ) {
        self.push(Severity::Warning, index, field.into(), code, text);
    }

    fn check_id(&mut self, index: usize, intent: &IntentSpec) {
        let id = intent.id.as_str();
        if id.trim().is_empty() {
            let text = "the intent has no id; add one like `id: INT-001`".to_string();
            self.error(index, "id", "missing_id", text);
            return;
        }
        if !is_valid_id(id) {
            let text = format!(
                "id `{id}` must be `INT-` followed by at least three digits, e.g. `INT-001`"
            );
            self.error(index, "id", "invalid_id", text);
        }
        let first = self.first_index[id];
        if first != index {
            let text = format!(
                "id `{id}` is used by both active_intents[{first}] and active_intents[{index}]; give each intent its own id"
            );
            self.error(index, "id", "duplicate_id", text);
        }
    }

    fn check_status(&mut self, index: usize, intent: &IntentSpec) {
        if intent.status.trim().is_empty() {
            let text = format!(
                "the intent has no status; set one of {}",
                ACCEPTED_STATUSES.join(", ")
            );
            self.error(index, "status", "missing_status", text);
        } else if intent.status().is_none() {
            let text = format!(
                "status `{}` is not recognised; use one of {} (any case)",
                intent.status,
                ACCEPTED_STATUSES.join(", ")
            );
            self.error(index, "status", "unknown_status", text);
        }
    }

    fn check_scope(&mut self, index: usize, intent: &IntentSpec) {
        if intent.owned_scope.is_empty() {
            let text = "owned_scope is empty, so the intent authorises no files; list globs such as `src/auth/**`".to_string();
            self.error(index, "owned_scope", "empty_scope", text);
        }
        for (k, glob) in intent.owned_scope.iter().enumerate() {
            let field = format!("owned_scope[{k}]");
            let trimmed = glob.trim();
            if trimmed.is_empty() {
                let text =
                    "the pattern is empty; remove it or write a glob such as `src/**`".to_string();
                self.error(index, field, "invalid_glob", text);
            } else if is_absolute(trimmed) {
                let text = format!("`{glob}` is absolute; scopes are relative to the workspace root, e.g. `src/**`");
                self.error(index, field, "absolute_scope", text);
            } else if trimmed.split(['/', '\\']).any(|part| part == "..") {
                let text = format!("`{glob}` contains `..`; scopes must stay inside the workspace");
                self.error(index, field, "parent_scope", text);
            } else if let Err(err) = ScopeMatcher::check(std::slice::from_ref(glob)) {
                let text = format!("`{glob}` is not a valid glob: {err}");
                self.error(index, field, "invalid_glob", text);
            }
        }
    }

    fn check_dependencies(&mut self, index: usize, intent: &IntentSpec) {
        for (k, dep) in intent.dependencies.iter().enumerate() {
            let field = format!("dependencies[{k}]");
            if !intent.id.is_empty() && *dep == intent.id {
                let text =
                    format!("`{dep}` depends on itself; remove it from its own dependencies");
                self.error(index, field, "self_dependency", text);
            } else if !self.first_index.contains_key(dep.as_str()) {
                let text =
                    format!("`{dep}` is not an intent in this file; fix the id or add that intent");
                self.error(index, field, "unknown_dependency", text);
            }
        }
    }

    fn check_parent(&mut self, index: usize, intent: &IntentSpec) {
        let Some(parent) = intent.parent_intent.as_deref() else {
            return;
        };
        if !parent.trim().is_empty() && !self.first_index.contains_key(parent) {
            let text = format!(
                "parent `{parent}` is not an intent in this file; fix the id or drop parent_intent"
            );
            self.warning(index, "parent_intent", "unknown_parent", text);
        }
    }

    fn check_timestamps(&mut self, index: usize, intent: &IntentSpec) {
        let mut parsed = [None, None];
        for (slot, (field, raw)) in [
            ("created_at", &intent.created_at),
            ("updated_at", &intent.updated_at),
        ]
        .into_iter()
        .enumerate()
        {
            let Some(raw) = raw.as_deref().filter(|raw| !raw.trim().is_empty()) else {
                continue;
            };
            parsed[slot] = parse_stamp(raw);
            if parsed[slot].is_none() {
                let text = format!(
                    "`{raw}` is not a timestamp; use RFC 3339 (`2024-05-01T12:00:00Z`) or a date (`2024-05-01`)"
                );
                self.warning(index, field, "invalid_timestamp", text);
            }
        }
        if let [Some(created), Some(updated)] = parsed {
            if updated.is_before(created) {
                let text = format!(
                    "updated_at `{}` is earlier than created_at `{}`; one of them is wrong",
                    intent.updated_at.as_deref().unwrap_or_default(),
                    intent.created_at.as_deref().unwrap_or_default()
                );
                self.warning(index, "updated_at", "timestamps_out_of_order", text);
            }
        }
    }

    fn check_lists(&mut self, index: usize, intent: &IntentSpec) {
        if intent.constraints.is_empty() {
            let text =
                "no constraints are listed; agents work best with explicit rules".to_string();
            self.warning(index, "constraints", "missing_constraints", text);
        }
        if intent.acceptance_criteria.is_empty() {
            let text =
                "no acceptance criteria are listed, so nobody can tell when the intent is done"
                    .to_string();
            self.warning(
                index,
                "acceptance_criteria",
                "missing_acceptance_criteria",
                text,
            );
        }
    }

    fn check_cycles(&mut self) {
        let intents = &self.file.active_intents;
        let edges: Vec<Vec<usize>> = intents
            .iter()
            .enumerate()
            .map(|(index, intent)| {
                intent
                    .dependencies
                    .iter()
                    .filter_map(|dep| self.first_index.get(dep.as_str()).copied())
                    .filter(|&target| target != index)
                    .collect()
            })
            .collect();
        for mut cycle in find_cycles(&edges) {
            // Starting at the smallest id makes the message read the same
            // however the intents happen to be ordered in the file.
            let start = (0..cycle.len())
                .min_by_key(|&at| (intents[cycle[at]].id.as_str(), cycle[at]))
                .unwrap_or(0);
            cycle.rotate_left(start);
            let mut names: Vec<&str> = cycle.iter().map(|&i| intents[i].id.as_str()).collect();
            names.push(names[0]);
            let text = format!(
                "dependency cycle {}; remove one of these dependencies",
                names.join(" -> ")
            );
            self.error(cycle[0], "dependencies", "dependency_cycle", text);
        }
    }

    /// Warns when two IN_PROGRESS intents may let agents edit the same file.
    ///
    /// Overlap is decided conservatively: two globs overlap when one's literal
    /// prefix (the text before the first `*`, `?`, `[`, `{` or `\`) is a
    /// prefix of the other's. So `src/**` overlaps `src/auth/*.ts`, `**/*.md`
    /// overlaps everything, and `src/api/**` does not overlap `src/app/**`.
    /// Every path a glob matches starts with its literal prefix, so two globs
    /// sharing a path always have nested prefixes: there are false positives
    /// (`src/*.ts` against `src/a/b.rs`) but no false negatives. For the same
    /// reason a second test, "either glob matches the other's prefix", would
    /// never add a case and is left out. One warning is given per pair of
    /// intents, naming the first overlapping pair of globs.
    fn check_overlaps(&mut self) {
        let intents = &self.file.active_intents;
        let active: Vec<usize> = (0..intents.len())
            .filter(|&i| intents[i].status() == Some(IntentStatus::InProgress))
            .collect();
        // Each glob is checked once, not once per pair of intents: with 300
        // IN_PROGRESS intents owning `**`, checking per pair took 114 ms of every
        // hook (found replaying a 300-commit history, one intent per commit).
        let usable: Vec<Vec<bool>> = intents
            .iter()
            .map(|intent| intent.owned_scope.iter().map(|g| usable(g)).collect())
            .collect();
        let mut overlaps = 0;
        let mut first_unreported = None;
        for (n, &a) in active.iter().enumerate() {
            for &b in &active[n + 1..] {
                if let Some((ka, kb)) = first_overlap(
                    (&intents[a].owned_scope, &usable[a]),
                    (&intents[b].owned_scope, &usable[b]),
                ) {
                    overlaps += 1;
                    if overlaps <= MAX_OVERLAP_WARNINGS {
                        let text = format!(
                            "`{}` overlaps `{}` of {} .owned_scope[{kb}]; both intents are IN_PROGRESS, so two agents may edit the same files",
                            intents[a].owned_scope[ka],
                            intents[b].owned_scope[kb],
                            intents[b].id
                        );
                        self.warning(a, format!("owned_scope[{ka}]"), "overlapping_scope", text);
                    } else {
                        first_unreported.get_or_insert(a);
                    }
                }
            }
        }
        // Past a point more pairs say nothing new, and 300 intents owning `**`
        // make 44,850 of them (most of a hook's time formatting warnings it drops).
        if let Some(a) = first_unreported {
            let more = overlaps - MAX_OVERLAP_WARNINGS;
            self.warning(
                a,
                "owned_scope",
                "overlapping_scope",
                format!("and {more} more pair(s) of IN_PROGRESS intents whose scopes overlap, not listed"),
            );
        }
    }
}

/// Most pairs of overlapping intents warned about one by one.
const MAX_OVERLAP_WARNINGS: usize = 64;

fn is_valid_id(id: &str) -> bool {
    id.strip_prefix("INT-")
        .is_some_and(|digits| digits.len() >= 3 && digits.bytes().all(|b| b.is_ascii_digit()))
}

fn is_absolute(glob: &str) -> bool {
    let bytes = glob.as_bytes();
    glob.starts_with(['/', '\\'])
        || (bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':')
}

/// Whether a glob of an `owned_scope` can be matched at all (the other checks
/// report the ones that cannot).
fn usable(glob: &str) -> bool {
    let glob = glob.trim();
    !glob.is_empty() && !is_absolute(glob) && ScopeMatcher::check(&[glob.to_string()]).is_ok()
}

/// The first pair of globs of two scopes that overlap, each scope with whether
/// each of its globs is usable.
fn first_overlap(
    (a, usable_a): (&[String], &[bool]),
    (b, usable_b): (&[String], &[bool]),
) -> Option<(usize, usize)> {
    for (ka, ga) in a.iter().enumerate() {
        for (kb, gb) in b.iter().enumerate() {
            if usable_a[ka] && usable_b[kb] && globs_overlap(ga, gb) {
                return Some((ka, kb));
            }
        }
    }
    None
}

fn globs_overlap(a: &str, b: &str) -> bool {
    let (pa, pb) = (literal_prefix(a), literal_prefix(b));
    pa.starts_with(pb) || pb.starts_with(pa)
}

/// Finds dependency cycles by depth-first search; each is returned once,
/// however many of its members the search starts from.
fn find_cycles(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; edges.len()];
    let mut seen = BTreeSet::new();
    let mut cycles = Vec::new();
    for start in 0..edges.len() {
        if state[start] != NEW {
            continue;
        }
        // Iterative so a long dependency chain cannot overflow the stack.
        let mut path: Vec<(usize, usize)> = vec![(start, 0)];
        state[start] = ON_PATH;
        while let Some(top) = path.last_mut() {
            let (node, next_edge) = *top;
            let Some(&next) = edges[node].get(next_edge) else {
                state[node] = DONE;
                path.pop();
                continue;
            };
            top.1 += 1;
            match state[next] {
                NEW => {
                    state[next] = ON_PATH;
                    path.push((next, 0));
                }
                ON_PATH => {
                    let from = path.iter().position(|&(n, _)| n == next).unwrap_or(0);
                    let mut cycle: Vec<usize> = path[from..].iter().map(|&(n, _)| n).collect();
                    let min_at = cycle
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, &n)| n)
                        .map_or(0, |(at, _)| at);
                    cycle.rotate_left(min_at);
                    if seen.insert(cycle.clone()) {
                        cycles.push(cycle);
                    }
                }
                _ => {}
            }
        }
    }
    cycles
}

#[derive(Clone, Copy)]
enum Stamp {
    Date(Date),
    DateTime(OffsetDateTime),
}

impl Stamp {
    // A plain date carries no time of day, so against a full timestamp only
    // the calendar day is compared; anything finer would invent precision.
    fn is_before(self, other: Stamp) -> bool {
        match (self, other) {
            (Stamp::DateTime(a), Stamp::DateTime(b)) => a < b,
            (a, b) => a.date() < b.date(),
        }
    }

    fn date(self) -> Date {
        match self {
            Stamp::Date(date) => date,
            Stamp::DateTime(at) => at.date(),
        }
    }
}

fn parse_stamp(raw: &str) -> Option<Stamp> {
    let raw = raw.trim();
    if let Ok(at) = OffsetDateTime::parse(raw, &Rfc3339) {
        return Some(Stamp::DateTime(at));
    }
    Date::parse(raw, format_description!("[year]-[month]-[day]"))
        .ok()
        .map(Stamp::Date)
}
