//! Turning ledger events into index operations (see the table in the module docs
//! of [`super`]).

use std::collections::BTreeSet;

use intent_ledger::{kinds, Event};
use serde_json::Value;
use tantivy::schema::Field;
use tantivy::TantivyDocument;

use super::schema::{glob_root, normalize_path, prefixes, Fields};

/// One change to the index, applied in ledger order.
pub(crate) enum Op {
    /// Drop the document of this intent's spec (a newer snapshot replaces it).
    DeleteSpec(String),
    /// Add a document.
    Add(TantivyDocument),
}

/// Returns the operations `event` makes: none for kinds with nothing to search.
pub(crate) fn ops(event: &Event, fields: &Fields) -> Vec<Op> {
    let data = &event.data;
    match event.kind.as_str() {
        kinds::GENESIS | kinds::SESSION_START | kinds::TOOL_POST | "session.stop" => Vec::new(),
        kinds::INTENT_SPEC => spec_ops(event, fields),
        kinds::TRACE => vec![Op::Add(trace_doc(event, fields))],
        // Allowed reads and writes carry nothing but a path (the write's trace says
        // more); refusals carry reasons, and shell commands are worth finding.
        kinds::TOOL_PRE
            if str_of(data, "decision") != Some("allow") || data["command"].is_string() =>
        {
            vec![Op::Add(decision_doc(event, fields))]
        }
        kinds::TOOL_PRE => Vec::new(),
        kinds::PROMPT | kinds::LESSON => match str_of(data, "text") {
            Some(text) if !text.trim().is_empty() => {
                let mut doc = Doc::new(event, fields);
                doc.push(text);
                vec![Op::Add(doc.finish())]
            }
            _ => Vec::new(),
        },
        kinds::INTENT_SELECTED | kinds::INTENT_CLEARED | kinds::INTENT_STATUS => {
            vec![Op::Add(lifecycle_doc(event, fields))]
        }
        _ => other_doc(event, fields).map(Op::Add).into_iter().collect(),
    }
}

/// A document under construction: the envelope's fields, filters, and the body.
struct Doc<'a> {
    fields: &'a Fields,
    doc: TantivyDocument,
    body: String,
    path: Option<String>,
    prefixes: BTreeSet<String>,
}

impl<'a> Doc<'a> {
    /// Starts a document with seq, kind, time, session, and the intent, model and
    /// front-end the data names.
    fn new(event: &Event, fields: &'a Fields) -> Doc<'a> {
        let mut doc = TantivyDocument::new();
        doc.add_u64(fields.seq, event.seq);
        doc.add_text(fields.kind, &event.kind);
        doc.add_text(fields.ts, &event.ts);
        if let Some(ts) = event.timestamp() {
            doc.add_i64(fields.ts_us, (ts.unix_timestamp_nanos() / 1000) as i64);
        }
        let mut built = Doc {
            fields,
            doc,
            body: String::new(),
            path: None,
            prefixes: BTreeSet::new(),
        };
        if let Some(session) = &event.session {
            built.filter(fields.session, session);
        }
        for (key, field) in [("model", fields.model), ("front_end", fields.front_end)] {
            if let Some(value) = str_of(&event.data, key) {
                built.filter(field, value);
            }
        }
        if let Some(intent) = event.intent_id() {
            built.filter(fields.intent_id, intent);
        }
        built
    }

    /// Adds a raw filter value.
    fn filter(&mut self, field: Field, value: &str) {
        if !value.is_empty() {
            self.doc.add_text(field, value);
        }
    }

    /// Records a path the event names: the first becomes the displayed path, every
    /// one adds its ancestors to `path_prefix`.
    fn path(&mut self, path: &str) {
        let path = normalize_path(path);
        if path.is_empty() {
            return;
        }
        self.prefixes.extend(prefixes(&path));
        self.path.get_or_insert(path);
    }

    /// Appends words to the body.
    fn push(&mut self, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if !self.body.is_empty() {
            self.body.push(' ');
        }
        // Snippets are one line: newlines of prompts and specs become spaces.
        self.body
            .extend(text.chars().map(|c| if c.is_control() { ' ' } else { c }));
    }

    /// Appends `label` and the strings of `list`, `; `-separated, when there are any.
    fn push_list(&mut self, label: &str, list: Option<&Value>) {
        let items: Vec<&str> = list
            .and_then(Value::as_array)
            .map(|items| {
                let items = items.iter().filter_map(Value::as_str);
                items
                    .map(|item| item.trim().trim_end_matches('.'))
                    .collect()
            })
            .unwrap_or_default();
        if !items.is_empty() {
            self.push(&format!("{label} {}.", items.join("; ")));
        }
    }

    fn finish(mut self) -> TantivyDocument {
        if let Some(path) = &self.path {
            self.doc.add_text(self.fields.path, path);
        }
        for prefix in &self.prefixes {
            self.doc.add_text(self.fields.path_prefix, prefix);
        }
        self.doc.add_text(self.fields.body, &self.body);
        self.doc
    }
}

/// One document per intent of the snapshot, each replacing the intent's previous one.
fn spec_ops(event: &Event, fields: &Fields) -> Vec<Op> {
    let intents = event.data["spec"]["active_intents"].as_array();
    let mut out = Vec::new();
    for intent in intents.into_iter().flatten() {
        let Some(id) = str_of(intent, "id").filter(|id| !id.is_empty()) else {
            continue;
        };
        let mut doc = Doc::new(event, fields);
        doc.filter(fields.intent_id, id);
        doc.filter(fields.spec_of, id);
        let name = str_of(intent, "name").unwrap_or_default();
        let status = str_of(intent, "status").unwrap_or_default();
        doc.push(&format!("{id} {name} ({status})."));
        doc.push(str_of(intent, "description").unwrap_or_default());
        doc.push_list("Constraints:", intent.get("constraints"));
        doc.push_list("Acceptance criteria:", intent.get("acceptance_criteria"));
        doc.push_list("Scope:", intent.get("owned_scope"));
        doc.push_list("Depends on:", intent.get("dependencies"));
        if let Some(reason) = str_of(intent, "blocked_reason") {
            doc.push(&format!("Blocked: {reason}."));
        }
        if let Some(owner) = str_of(intent, "owner") {
            doc.push(&format!("Owner: {owner}."));
        }
        let scope = intent.get("owned_scope").and_then(Value::as_array);
        for glob in scope.into_iter().flatten().filter_map(Value::as_str) {
            if let Some(root) = glob_root(glob) {
                doc.prefixes.extend(prefixes(&root));
            }
        }
        out.push(Op::DeleteSpec(id.to_string()));
        out.push(Op::Add(doc.finish()));
    }
    out
}

/// A file mutation: where, which class and why, which blocks, under which intent.
fn trace_doc(event: &Event, fields: &Fields) -> TantivyDocument {
    let data = &event.data;
    let mut doc = Doc::new(event, fields);
    let path = str_of(data, "path").unwrap_or_default();
    doc.path(path);
    let class = str_of(data, "mutation_class").unwrap_or_default();
    doc.filter(fields.class, &class.to_ascii_lowercase());
    doc.push(&format!("{path} {class}:"));
    let classification = &data["classification"];
    let reason = str_of(classification, "reason").unwrap_or_default();
    doc.push(reason);
    for change in classification["api_changes"]
        .as_array()
        .into_iter()
        .flatten()
    {
        // The reason often quotes the first change already.
        let detail = str_of(change, "detail").unwrap_or_default();
        if !reason.contains(detail) {
            doc.push(detail);
        }
    }
    let mut blocks = Vec::new();
    for block in data["blocks"].as_array().into_iter().flatten() {
        let what = str_of(block, "event").unwrap_or("touched");
        let side = if block["after"].is_object() {
            &block["after"]
        } else {
            &block["before"]
        };
        let kind = str_of(side, "kind").unwrap_or("block");
        let name = str_of(side, "name").unwrap_or("?");
        let mut text = format!("{what} {kind} {name}");
        let before_path = str_of(&block["before"], "path");
        let before_name = str_of(&block["before"], "name");
        if before_name.is_some_and(|b| b != name) {
            text.push_str(&format!(" (was {})", before_name.unwrap_or_default()));
        }
        if let Some(from) = before_path.filter(|from| *from != path) {
            text.push_str(&format!(" from {from}"));
        }
        for side in [&block["before"], &block["after"]] {
            doc.path(str_of(side, "path").unwrap_or_default());
        }
        blocks.push(text);
    }
    if !blocks.is_empty() {
        doc.push(&format!("Blocks: {}.", blocks.join("; ")));
    }
    if let Some(intent) = event.intent_id() {
        doc.push(&format!("Intent {intent}."));
    }
    doc.finish()
}

/// A gate decision: what was attempted, the verdict and the reason given.
fn decision_doc(event: &Event, fields: &Fields) -> TantivyDocument {
    let data = &event.data;
    let mut doc = Doc::new(event, fields);
    let class = str_of(data, "class").unwrap_or_default();
    doc.filter(fields.class, &class.to_ascii_lowercase());
    let paths: Vec<&str> = data["paths"]
        .as_array()
        .map(|p| p.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for path in &paths {
        doc.path(path);
    }
    let reason = &data["reason"];
    if let Some(attempted) = str_of(reason, "attempted_path") {
        doc.path(attempted);
    }
    let target = str_of(data, "command")
        .map(|c| format!("`{c}`"))
        .unwrap_or_else(|| paths.join(", "));
    doc.push(&format!(
        "{} {} {target} ({class}).",
        str_of(data, "decision").unwrap_or("decision"),
        str_of(data, "tool").unwrap_or_default(),
    ));
    if let Some(kind) = str_of(reason, "type") {
        doc.push(&format!("{kind}:"));
    }
    doc.push(str_of(reason, "message").unwrap_or_default());
    doc.push(str_of(reason, "next_step").unwrap_or_default());
    doc.finish()
}

/// An intent selected, cleared or moved through its lifecycle.
fn lifecycle_doc(event: &Event, fields: &Fields) -> TantivyDocument {
    let data = &event.data;
    let mut doc = Doc::new(event, fields);
    let verb = event.kind.trim_start_matches("intent.");
    let intent = event.intent_id().unwrap_or("no intent");
    doc.push(&format!("Intent {intent} {verb}"));
    if let Some(status) = str_of(data, "status") {
        doc.push(status);
    }
    if let Some(via) = str_of(data, "via") {
        doc.push(&format!("via {via}"));
    }
    for key in ["reasoning", "reason", "blocked_reason"] {
        doc.push(str_of(data, key).unwrap_or_default());
    }
    doc.finish()
}

/// A kind this version does not know: indexed by its text-like strings, if any.
fn other_doc(event: &Event, fields: &Fields) -> Option<TantivyDocument> {
    let mut doc = Doc::new(event, fields);
    for key in ["text", "message", "reason", "description"] {
        doc.push(str_of(&event.data, key).unwrap_or_default());
    }
    if let Some(path) = str_of(&event.data, "path") {
        doc.path(path);
    }
    (!doc.body.is_empty()).then(|| doc.finish())
}

fn str_of<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}
