//! Turning ledger events into index operations (see the table in the module docs
//! of [`super`]).

use std::collections::BTreeSet;

use intent_ledger::payload::{
    BlockSide, IntentSpec as SpecSnapshot, Lesson, Prompt, ToolPre, Trace,
};
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
    match event.kind.as_str() {
        kinds::GENESIS | kinds::SESSION_START | kinds::TOOL_POST | kinds::SESSION_STOP => {
            Vec::new()
        }
        kinds::INTENT_SPEC => spec_ops(event, fields),
        kinds::TRACE => match event.payload::<Trace>() {
            Some(trace) => vec![Op::Add(trace_doc(event, &trace, fields))],
            None => other_doc(event, fields).map(Op::Add).into_iter().collect(),
        },
        // Allowed reads and writes carry nothing but a path (the write's trace says
        // more); refusals carry reasons, and shell commands are worth finding.
        kinds::TOOL_PRE => match event.payload::<ToolPre>() {
            Some(pre) if pre.decision != "allow" || pre.command.is_some() => {
                vec![Op::Add(decision_doc(event, &pre, fields))]
            }
            _ => Vec::new(),
        },
        kinds::PROMPT | kinds::LESSON => {
            let text = match event.kind.as_str() {
                kinds::PROMPT => event.payload::<Prompt>().map(|p| p.text),
                _ => event.payload::<Lesson>().map(|l| l.text),
            };
            match text {
                Some(text) if !text.trim().is_empty() => {
                    let mut doc = Doc::new(event, fields);
                    doc.push(&text);
                    vec![Op::Add(doc.finish())]
                }
                _ => Vec::new(),
            }
        }
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
    let Some(snapshot) = event.payload::<SpecSnapshot>() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for intent in snapshot.intents() {
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
fn trace_doc(event: &Event, trace: &Trace, fields: &Fields) -> TantivyDocument {
    let mut doc = Doc::new(event, fields);
    let path = trace.path.as_str();
    doc.path(path);
    let class = trace.mutation_class.as_str();
    doc.filter(fields.class, &class.to_ascii_lowercase());
    doc.push(&format!("{path} {class}:"));
    let reason = trace.classification.reason.as_deref().unwrap_or_default();
    doc.push(reason);
    let api_changes = trace.classification.extra.get("api_changes");
    for change in api_changes.and_then(Value::as_array).into_iter().flatten() {
        // The reason often quotes the first change already.
        let detail = str_of(change, "detail").unwrap_or_default();
        if !reason.contains(detail) {
            doc.push(detail);
        }
    }
    let mut blocks = Vec::new();
    for block in trace.blocks() {
        let what = match block.event.as_str() {
            "" => "touched",
            event => event,
        };
        let nowhere = BlockSide::default();
        let side = block.current().unwrap_or(&nowhere);
        let kind = if side.kind.is_empty() {
            "block"
        } else {
            &side.kind
        };
        let name = if side.name.is_empty() {
            "?"
        } else {
            &side.name
        };
        let mut text = format!("{what} {kind} {name}");
        let before = block.before.as_ref();
        if let Some(was) = before.map(|b| b.name.as_str()).filter(|b| *b != name) {
            text.push_str(&format!(" (was {was})"));
        }
        if let Some(from) = before.map(|b| b.path.as_str()).filter(|from| *from != path) {
            text.push_str(&format!(" from {from}"));
        }
        for side in [&block.before, &block.after].into_iter().flatten() {
            doc.path(&side.path);
        }
        blocks.push(text);
    }
    if !blocks.is_empty() {
        doc.push(&format!("Blocks: {}.", blocks.join("; ")));
    }
    if let Some(intent) = &trace.intent_id {
        doc.push(&format!("Intent {intent}."));
    }
    doc.finish()
}

/// A gate decision: what was attempted, the verdict and the reason given.
fn decision_doc(event: &Event, pre: &ToolPre, fields: &Fields) -> TantivyDocument {
    let mut doc = Doc::new(event, fields);
    doc.filter(fields.class, &pre.class.to_ascii_lowercase());
    let paths: &[String] = pre.paths.as_deref().unwrap_or_default();
    for path in paths {
        doc.path(path);
    }
    let reason = pre.reason.clone().unwrap_or_default();
    if let Some(attempted) = reason.extra.get("attempted_path").and_then(Value::as_str) {
        doc.path(attempted);
    }
    let target = pre
        .command
        .as_ref()
        .map(|c| format!("`{c}`"))
        .unwrap_or_else(|| paths.join(", "));
    let decision = if pre.decision.is_empty() {
        "decision"
    } else {
        &pre.decision
    };
    doc.push(&format!(
        "{decision} {} {target} ({}).",
        pre.tool.as_deref().unwrap_or_default(),
        pre.class
    ));
    if !reason.kind.is_empty() {
        doc.push(&format!("{}:", reason.kind));
    }
    doc.push(&reason.message);
    doc.push(
        reason
            .extra
            .get("next_step")
            .and_then(Value::as_str)
            .unwrap_or_default(),
    );
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
