//! The units two versions of a turn are compared by.
//!
//! A turn is an `AST_REFACTOR` iff the multiset of units is the same before and after
//! (and parse errors agree). Per side, over all files with a grammar:
//!
//! * **declaration** units: each top-level declaration (function, class, interface,
//!   type, enum, `const`/`let`/`var` statement, default export, `export { .. }`) — its
//!   alpha hash, plus
//!   - its *environment*: for every free name it uses, what that name resolves to in
//!     its file: a declaration of the file (by name and the alpha hashes declaring
//!     it), an import (resolved to the exporting declaration when the module is a file
//!     of the turn, else by module and imported name), or a global. In a classic
//!     script (no import or export, not CommonJS, not `.mjs`/`.cjs`), names declared
//!     by the other scripts of the turn resolve like local declarations — but only
//!     when no script runs code at load time, which could call a moved function
//!     before the script defining it has run;
//!   - for declarations that export something, their *export surface*: the file's
//!     path, or the barrels of the turn that re-export it with `export *`. Moving an
//!     export to a module with another surface breaks its importers.
//!
//!   File paths take no other part, so a declaration moved to another file (imports
//!   updated) is equal. Function declarations sharing a name (overloads) form one
//!   unit, in order.
//! * **sequence** units: per file with any top-level statement that runs code at load
//!   time (a *barrier*: expression statements, side-effect imports, declarations with
//!   effectful initializers or class heritage, namespaces) or a directive prologue,
//!   the ordered list of barriers and directives, with the names of the pure
//!   declarations between two barriers as sorted runs (they may be reordered among
//!   themselves, but not across a barrier). Files without barriers have no runs:
//!   their declarations float freely.
//! * **module** units: the set of imported modules that are not files of the turn
//!   (dropping or adding the import of a module can change load-time behaviour).

use std::collections::BTreeSet;
use std::rc::Rc;

use rustc_hash::FxHashMap as HashMap;

use crate::hash::{digest, Domain, Hash128};
use crate::lang::{language_named, TopLevelRole};
use crate::model::FileAnalysis;
use crate::paths::normalize_source;

/// What a unit stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum UnitKind {
    /// Top-level declaration(s) of one file: the items.
    Decl { file: usize, items: Vec<usize> },
    /// The ordered top-level statements of one file.
    Sequence { file: usize },
    /// An imported module outside the turn.
    Module { source: String },
}

/// One unit of comparison.
#[derive(Debug, Clone)]
pub(crate) struct Unit<'a> {
    pub(crate) id: Hash128,
    /// The content without the environment (to tell a changed environment apart).
    pub(crate) content: Hash128,
    /// The environment: (free name, what it resolves to). A resolution is shared by
    /// every declaration of the file that uses the name.
    pub(crate) env: Vec<(&'a str, Rc<str>)>,
    pub(crate) kind: UnitKind,
}

/// Finds the file of the turn an import of `file` points at, the way its language's
/// tooling does.
pub(crate) fn resolve_module(
    file: &FileAnalysis,
    source: &str,
    paths: &HashMap<&str, usize>,
) -> Option<usize> {
    let spec = file.language.and_then(language_named)?;
    spec.resolve_module(&file.path, source, &mut |path| paths.get(path).copied())
}

/// An imported name: its module source, its name there, and the file of the turn
/// the source resolves to.
type Imported<'a> = (&'a str, &'a str, Option<usize>);

struct Resolver<'a> {
    files: &'a [FileAnalysis],
    paths: HashMap<&'a str, usize>,
    /// Per file: name -> alpha hashes of the items declaring it.
    declared: Vec<HashMap<&'a str, Vec<Hash128>>>,
    /// Per file: local name -> (source, imported name, the file of the turn the
    /// source resolves to), resolved once per source.
    imported: Vec<HashMap<&'a str, Imported<'a>>>,
    /// Per file: exported name -> alpha hashes of the items exporting it.
    exported: Vec<HashMap<&'a str, Vec<Hash128>>>,
    /// Per file: the shared scope it declares its top-level names in (a classic
    /// script: the global one), by index in the turn's list of shared scopes.
    script: Vec<Option<u32>>,
    /// The shared scopes, by index.
    scope_names: Vec<String>,
    /// Declarations of each shared scope, when no file sharing one runs code at
    /// load time (or its language predeclares them).
    script_globals: HashMap<(u32, &'a str), Vec<Hash128>>,
    /// Per file: the barrels re-exporting all of it with `export *`, if any.
    barrels: Vec<Vec<&'a str>>,
}

/// The scope a file shares its top-level names with, if any: a classic script
/// shares the global one with every other script.
pub(crate) fn shared_scope(file: &FileAnalysis) -> Option<String> {
    let spec = file.language.and_then(language_named)?;
    let items = &file.detail.items;
    let uses = |name: &str| items.iter().any(|i| i.free.iter().any(|n| n == name));
    spec.shared_scope(&file.path, items.iter().any(|i| i.module_syntax), &uses)
}

impl<'a> Resolver<'a> {
    fn new(files: &'a [FileAnalysis]) -> Self {
        let mut scopes: Vec<String> = Vec::new();
        let mut resolver = Resolver {
            files,
            paths: files
                .iter()
                .enumerate()
                .filter(|(_, f)| f.language.is_some())
                .map(|(i, f)| (f.path.as_str(), i))
                .collect(),
            declared: Vec::new(),
            imported: Vec::new(),
            exported: Vec::new(),
            script: {
                files
                    .iter()
                    .map(|file| {
                        let scope = shared_scope(file)?;
                        let index = scopes.iter().position(|s| *s == scope).unwrap_or_else(|| {
                            scopes.push(scope);
                            scopes.len() - 1
                        });
                        Some(index as u32)
                    })
                    .collect()
            },
            scope_names: Vec::new(),
            script_globals: HashMap::default(),
            barrels: vec![Vec::new(); files.len()],
        };
        resolver.scope_names = scopes;
        let predeclared = |file: &FileAnalysis| {
            file.language
                .and_then(language_named)
                .is_some_and(|spec| spec.shared_scope_predeclared())
        };
        let quiet = files
            .iter()
            .zip(&resolver.script)
            .filter(|(_, s)| s.is_some())
            .all(|(f, _)| {
                f.detail
                    .items
                    .iter()
                    .all(|i| i.role != TopLevelRole::Barrier)
            });
        for (f, file) in files.iter().enumerate() {
            for item in &file.detail.items {
                if let (true, Some(scope)) = (quiet || predeclared(file), resolver.script[f]) {
                    for name in &item.declared {
                        resolver
                            .script_globals
                            .entry((scope, name))
                            .or_default()
                            .push(item.hashes.alpha);
                    }
                }
                // A re-export of everything of a module the file also exports under
                // its own name (Rust's `pub mod a; pub use a::*;`) leaves that path
                // reachable: no barrel.
                let shown = |name: &String| {
                    file.detail
                        .items
                        .iter()
                        .any(|i| i.exports.iter().any(|e| e == name))
                };
                if let Some(source) = item.reexport_all.as_ref().filter(|s| !shown(s)) {
                    if let Some(target) = resolve_module(file, source, &resolver.paths) {
                        resolver.barrels[target].push(&file.path);
                    }
                }
            }
        }
        for hashes in resolver.script_globals.values_mut() {
            hashes.sort();
            hashes.dedup();
        }
        for barrels in &mut resolver.barrels {
            barrels.sort();
            barrels.dedup();
        }
        for file in files {
            let mut declared: HashMap<&str, Vec<Hash128>> = HashMap::default();
            let mut imported = HashMap::default();
            let mut targets: HashMap<&str, Option<usize>> = HashMap::default();
            let mut exported: HashMap<&str, Vec<Hash128>> = HashMap::default();
            for item in &file.detail.items {
                for name in &item.declared {
                    declared.entry(name).or_default().push(item.hashes.alpha);
                }
                for name in &item.exports {
                    exported.entry(name).or_default().push(item.hashes.alpha);
                }
                if let Some(import) = &item.import {
                    let source = import.source.as_str();
                    let target = *targets
                        .entry(source)
                        .or_insert_with(|| resolve_module(file, source, &resolver.paths));
                    for (local, name) in &import.bindings {
                        imported.insert(local.as_str(), (source, name.as_str(), target));
                    }
                }
            }
            for hashes in declared.values_mut().chain(exported.values_mut()) {
                hashes.sort();
                hashes.dedup();
            }
            resolver.declared.push(declared);
            resolver.imported.push(imported);
            resolver.exported.push(exported);
        }
        resolver
    }

    fn decl(name: &str, hashes: &[Hash128]) -> String {
        let hashes: Vec<String> = hashes.iter().map(Hash128::to_hex).collect();
        format!("decl {name} {}", hashes.join(","))
    }

    /// What `name`, free in a declaration of `file`, refers to.
    fn resolve(&self, file: usize, name: &str) -> String {
        if let Some(hashes) = self.declared[file].get(name) {
            return Self::decl(name, hashes);
        }
        let Some(&(source, imported, target)) = self.imported[file].get(name) else {
            if let Some(scope) = self.script[file] {
                if let Some(hashes) = self.script_globals.get(&(scope, name)) {
                    return Self::decl(name, hashes);
                }
            }
            return "global".to_string();
        };
        let importer = &self.files[file].path;
        match target {
            Some(target) => match self.exported[target].get(imported) {
                Some(hashes) => Self::decl(imported, hashes),
                None => format!("import {} {imported}", self.files[target].path),
            },
            None => format!("import {} {imported}", normalize_source(importer, source)),
        }
    }

    /// The environment of names free in a declaration of `file`; `memo` holds the
    /// file's resolutions made so far (its declarations share most free names).
    fn env(
        &self,
        file: usize,
        names: &[&'a str],
        memo: &mut HashMap<&'a str, Rc<str>>,
    ) -> Vec<(&'a str, Rc<str>)> {
        names
            .iter()
            .map(|&name| {
                let resolution = memo
                    .entry(name)
                    .or_insert_with(|| Rc::from(self.resolve(file, name)));
                (name, Rc::clone(resolution))
            })
            .collect()
    }

    /// Where importers find the exports of `file`: the barrels that `export *` it, or
    /// the file itself. Moving an exported declaration to another surface changes API.
    fn surface(&self, file: usize) -> String {
        if self.barrels[file].is_empty() {
            self.files[file].path.clone()
        } else {
            self.barrels[file].join(",")
        }
    }
}

fn encode(tag: &str, parts: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(tag.as_bytes());
    for part in parts {
        out.extend_from_slice(&(part.len() as u64).to_le_bytes());
        out.extend_from_slice(part);
    }
    out
}

/// `encode("", [name, resolution])` of every pair, concatenated.
fn env_bytes(env: &[(&str, Rc<str>)]) -> Vec<u8> {
    let size: usize = env.iter().map(|(n, r)| n.len() + r.len() + 16).sum();
    let mut out = Vec::with_capacity(size);
    for (name, resolution) in env {
        for part in [name.as_bytes(), resolution.as_bytes()] {
            out.extend_from_slice(&(part.len() as u64).to_le_bytes());
            out.extend_from_slice(part);
        }
    }
    out
}

/// Where importers find each file's exports (see `Resolver::surface`); for files
/// sharing a scope, its name (empty for scripts, whose declarations are global; a Go
/// package's directory).
pub(crate) fn surfaces(files: &[FileAnalysis]) -> Vec<String> {
    let resolver = Resolver::new(files);
    (0..files.len())
        .map(|f| match resolver.script[f] {
            Some(scope) => resolver.scope_names[scope as usize].clone(),
            None => resolver.surface(f),
        })
        .collect()
}

/// Builds the units of one side of a turn.
pub(crate) fn units(files: &[FileAnalysis]) -> Vec<Unit<'_>> {
    let resolver = Resolver::new(files);
    let mut out = Vec::new();
    let mut modules = BTreeSet::new();
    for (f, file) in files.iter().enumerate() {
        if file.language.is_none() {
            continue;
        }
        let items = &file.detail.items;
        // Function declarations sharing a name (overloads) form one ordered group.
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut group_of_name: HashMap<&str, usize> = HashMap::default();
        for (i, item) in items.iter().enumerate() {
            match item.role {
                TopLevelRole::Hoisted | TopLevelRole::Pure | TopLevelRole::Exports => {
                    let shared = (item.role == TopLevelRole::Hoisted)
                        .then(|| item.declared.first())
                        .flatten()
                        .and_then(|name| group_of_name.get(name.as_str()).copied());
                    match shared {
                        Some(g) => groups[g].push(i),
                        None => {
                            if item.role == TopLevelRole::Hoisted {
                                if let Some(name) = item.declared.first() {
                                    group_of_name.insert(name, groups.len());
                                }
                            }
                            groups.push(vec![i]);
                        }
                    }
                }
                TopLevelRole::Import => {
                    if let Some(import) = &item.import {
                        if resolve_module(file, &import.source, &resolver.paths).is_none() {
                            modules.insert(normalize_source(&file.path, &import.source));
                        }
                    }
                }
                TopLevelRole::Barrier | TopLevelRole::Directive => {}
            }
        }
        let mut memo = HashMap::default();
        for group in groups {
            let mut names: Vec<&str> = group
                .iter()
                .flat_map(|&i| items[i].free.iter().map(String::as_str))
                .collect();
            names.sort();
            names.dedup();
            let env = resolver.env(f, &names, &mut memo);
            let alphas: Vec<&[u8]> = group
                .iter()
                .map(|&i| &items[i].hashes.alpha.0[..])
                .collect();
            let content = digest(Domain::Unit, &encode("decl", &alphas));
            let exports = group.iter().any(|&i| !items[i].exports.is_empty());
            // A declaration of a shared scope belongs to it (a Go package: moving one
            // to another package is no refactor); the global scope of scripts is "".
            let surface = match resolver.script[f] {
                Some(scope) => resolver.scope_names[scope as usize].clone(),
                None if exports => resolver.surface(f),
                None => String::new(),
            };
            let id = digest(
                Domain::Unit,
                &encode(
                    "decl+env",
                    &[&content.0, &env_bytes(&env), surface.as_bytes()],
                ),
            );
            out.push(Unit {
                id,
                content,
                env,
                kind: UnitKind::Decl {
                    file: f,
                    items: group,
                },
            });
        }
        if items
            .iter()
            .any(|item| matches!(item.role, TopLevelRole::Barrier | TopLevelRole::Directive))
        {
            out.push(sequence(&resolver, f));
        }
    }
    for source in modules {
        out.push(Unit {
            id: digest(Domain::Unit, &encode("module", &[source.as_bytes()])),
            content: Hash128::default(),
            env: Vec::new(),
            kind: UnitKind::Module { source },
        });
    }
    out
}

/// The top-level names code run at load time may reach: the free names of every
/// barrier, and through the declarations of those names, theirs, transitively.
///
/// A barrier that reaches code outside the file (a global other than the language's
/// builtins, or an import where [`LanguageSpec::imports_reenter`]) may come back for
/// whatever the file shows outside: its exports, or every declaration when it shares
/// its scope with other files.
///
/// [`LanguageSpec::imports_reenter`]: crate::lang::LanguageSpec::imports_reenter
fn reachable_from_barriers(
    file: &FileAnalysis,
    shares_scope: bool,
) -> std::collections::HashSet<&str> {
    let items = &file.detail.items;
    let builtins = file
        .language
        .and_then(language_named)
        .map_or(&[][..], |spec| spec.builtins());
    let imports_reenter = file
        .language
        .and_then(language_named)
        .is_none_or(|spec| spec.imports_reenter());
    let mut declaring: HashMap<&str, Vec<usize>> = HashMap::default();
    let mut imported: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for (i, item) in items.iter().enumerate() {
        for name in &item.declared {
            declaring.entry(name.as_str()).or_default().push(i);
        }
        if !imports_reenter {
            if let Some(import) = &item.import {
                imported.extend(import.bindings.iter().map(|(local, _)| local.as_str()));
            }
        }
    }
    let mut reached = std::collections::HashSet::new();
    let mut work: Vec<&str> = items
        .iter()
        .filter(|item| item.role == TopLevelRole::Barrier)
        .flat_map(|item| item.free.iter().map(String::as_str))
        .collect();
    let mut outside = false;
    while let Some(name) = work.pop() {
        if !reached.insert(name) {
            continue;
        }
        match declaring.get(name) {
            Some(declarations) => {
                for &i in declarations {
                    work.extend(items[i].free.iter().map(String::as_str));
                }
            }
            None if builtins.contains(&name) || imported.contains(name) => {}
            None => {
                if !outside {
                    outside = true;
                    let shown = items.iter().flat_map(|item| {
                        if shares_scope {
                            &item.declared
                        } else {
                            &item.exports
                        }
                    });
                    work.extend(shown.map(String::as_str));
                }
            }
        }
    }
    reached
}

fn sequence<'a>(resolver: &Resolver<'a>, f: usize) -> Unit<'a> {
    let items = &resolver.files[f].detail.items;
    // Without code run at load time, pure declarations have nothing to be ordered against.
    let barriers = items.iter().any(|item| item.role == TopLevelRole::Barrier);
    let mut bytes = Vec::new();
    let mut envs = Vec::new();
    let mut run: BTreeSet<&str> = BTreeSet::new();
    let mut memo = HashMap::default();
    let file = &resolver.files[f];
    let reachable = file
        .language
        .and_then(language_named)
        .is_some_and(|spec| spec.barriers_are_code())
        .then(|| reachable_from_barriers(file, resolver.script[f].is_some()));
    // Files sharing a named scope (a Go package) run their load-time code in the
    // order of their names: where that code is matters. (Classic scripts share the
    // unnamed global scope, in an order no file says.)
    if let Some(scope) = resolver.script[f] {
        let name = &resolver.scope_names[scope as usize];
        if barriers && !name.is_empty() {
            let path = resolver.files[f].path.as_bytes();
            bytes.extend_from_slice(&encode("file", &[path]));
        }
    }
    let flush = |run: &mut BTreeSet<&str>, bytes: &mut Vec<u8>| {
        if !run.is_empty() {
            let names: Vec<&[u8]> = run.iter().map(|n| n.as_bytes()).collect();
            bytes.extend_from_slice(&encode("run", &names));
            run.clear();
        }
    };
    for item in items {
        match item.role {
            TopLevelRole::Barrier => {
                flush(&mut run, &mut bytes);
                let names: Vec<&str> = item.free.iter().map(String::as_str).collect();
                let env = resolver.env(f, &names, &mut memo);
                bytes.extend_from_slice(&encode(
                    "barrier",
                    &[&item.hashes.alpha.0, &env_bytes(&env)],
                ));
                envs.extend(env);
            }
            TopLevelRole::Directive => {
                flush(&mut run, &mut bytes);
                bytes.extend_from_slice(&encode("directive", &[&item.hashes.alpha.0]));
            }
            // A declaration no code run at load time reaches may stand anywhere.
            TopLevelRole::Pure if barriers => run.extend(
                item.declared
                    .iter()
                    .map(String::as_str)
                    .filter(|name| reachable.as_ref().is_none_or(|r| r.contains(name))),
            ),
            _ => {}
        }
    }
    flush(&mut run, &mut bytes);
    envs.sort();
    envs.dedup();
    let id = digest(Domain::Unit, &encode("sequence", &[&bytes]));
    Unit {
        id,
        content: id,
        env: envs,
        kind: UnitKind::Sequence { file: f },
    }
}
