//! The tantivy schema of the search index and the handles of its fields.

use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, FAST, INDEXED, STORED, STRING,
};

use crate::projection::{QueryError, Result};

/// Version of the schema and of what goes into documents. An index committed with
/// another version is deleted and rebuilt.
pub(crate) const FORMAT: u32 = 2;

/// Tokenizer of `body`: lowercased words, English stemming (`tokens` finds `token`).
const BODY_TOKENIZER: &str = "en_stem";

/// Handles of the fields, resolved once per opened index.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields {
    /// Ledger seq (indexed, fast for ordering, stored).
    pub seq: Field,
    /// Event kind (raw).
    pub kind: Field,
    /// `data.intent_id`, or the intent of a spec document (raw).
    pub intent_id: Field,
    /// Agent session (raw).
    pub session: Field,
    /// Model that acted (raw).
    pub model: Field,
    /// Front-end the event came from (raw).
    pub front_end: Field,
    /// Lowercased mutation class or gate action class (raw).
    pub class: Field,
    /// Main path of the event (stored only, for display).
    pub path: Field,
    /// Every ancestor of every path the event names (raw, multi-valued).
    pub path_prefix: Field,
    /// The event's time as written in the ledger (stored only).
    pub ts: Field,
    /// The event's time in microseconds since the epoch (indexed, fast: ranges).
    pub ts_us: Field,
    /// Intent id of a spec document, the key that later snapshots delete (raw).
    pub spec_of: Field,
    /// What people search: tokenized, stemmed, with positions, stored for snippets.
    pub body: Field,
    /// The id of the fetched ledger the event is in (the team index only; raw).
    pub ledger: Field,
}

/// Builds the schema.
pub(crate) fn build() -> Schema {
    let mut b = Schema::builder();
    b.add_u64_field("seq", INDEXED | FAST | STORED);
    b.add_text_field("kind", STRING | STORED);
    b.add_text_field("intent_id", STRING | STORED);
    b.add_text_field("session", STRING | STORED);
    b.add_text_field("model", STRING);
    b.add_text_field("front_end", STRING);
    b.add_text_field("class", STRING);
    b.add_text_field("path", STORED);
    b.add_text_field("path_prefix", STRING);
    b.add_text_field("ts", STORED);
    b.add_i64_field("ts_us", INDEXED | FAST);
    b.add_text_field("spec_of", STRING);
    let body = TextOptions::default()
        .set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(BODY_TOKENIZER)
                .set_index_option(IndexRecordOption::WithFreqsAndPositions),
        )
        .set_stored();
    b.add_text_field("body", body);
    b.add_text_field("ledger", STRING | STORED);
    b.build()
}

impl Fields {
    /// Resolves the fields of `schema`; fails when one is missing (an index of
    /// another format).
    pub(crate) fn of(schema: &Schema) -> Result<Fields> {
        let get = |name: &str| {
            schema.get_field(name).map_err(|_| {
                QueryError::Index(format!("the index has no field {name:?}: wrong format"))
            })
        };
        Ok(Fields {
            seq: get("seq")?,
            kind: get("kind")?,
            intent_id: get("intent_id")?,
            session: get("session")?,
            model: get("model")?,
            front_end: get("front_end")?,
            class: get("class")?,
            path: get("path")?,
            path_prefix: get("path_prefix")?,
            ts: get("ts")?,
            ts_us: get("ts_us")?,
            spec_of: get("spec_of")?,
            body: get("body")?,
            ledger: get("ledger")?,
        })
    }
}

/// Normalizes a workspace-relative path the way documents and filters both see it:
/// no `./` in front, no `/` at the end, no empty or `.` components.
pub(crate) fn normalize_path(path: &str) -> String {
    let absolute = path.starts_with('/');
    let parts: Vec<&str> = path
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect();
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// Returns `path` and each of its ancestors: `src/auth/jwt.ts` gives `src`,
/// `src/auth` and `src/auth/jwt.ts`.
pub(crate) fn prefixes(path: &str) -> impl Iterator<Item = String> + '_ {
    let path = path.trim_end_matches('/');
    path.char_indices()
        .filter(|&(i, c)| c == '/' && i > 0)
        .map(|(i, _)| path[..i].to_string())
        .chain((!path.is_empty()).then(|| path.to_string()))
}

/// Returns the directory a glob such as `src/auth/**` is confined to (`src/auth`),
/// or the glob itself when it has no wildcard; `None` for a glob like `**/*.ts`.
pub(crate) fn glob_root(glob: &str) -> Option<String> {
    let glob = normalize_path(glob);
    let Some(wild) = glob.find(['*', '?', '[', '{']) else {
        return (!glob.is_empty()).then_some(glob);
    };
    let dir = &glob[..wild];
    let dir = &dir[..dir.rfind('/').unwrap_or(0)];
    (!dir.is_empty()).then(|| dir.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_every_ancestor() {
        let all: Vec<String> = prefixes("src/auth/jwt.ts").collect();
        assert_eq!(all, ["src", "src/auth", "src/auth/jwt.ts"]);
        let abs: Vec<String> = prefixes("/etc/passwd").collect();
        assert_eq!(abs, ["/etc", "/etc/passwd"]);
        assert_eq!(prefixes("").count(), 0);
    }

    #[test]
    fn paths_normalize_alike() {
        assert_eq!(normalize_path("./src//auth/"), "src/auth");
        assert_eq!(normalize_path("/etc/"), "/etc");
    }

    #[test]
    fn glob_roots() {
        assert_eq!(glob_root("src/auth/**").as_deref(), Some("src/auth"));
        assert_eq!(glob_root("src/auth*.ts").as_deref(), Some("src"));
        assert_eq!(glob_root("README.md").as_deref(), Some("README.md"));
        assert_eq!(glob_root("**/*.ts"), None);
    }

    #[test]
    fn schema_round_trips() {
        assert!(Fields::of(&build()).is_ok());
    }
}
