//! Minimal in-place edits of one intent in `.orchestration/active_intents.yaml`.
//!
//! The file is written by humans, so a tool that changes one field must leave
//! every other byte alone: comments, ordering, blank lines, quoting and list
//! styles. Instead of re-serialising the document, this module finds the
//! intent's lines and splices only the bytes of the edited fields. Only block
//! items (`- id: …` followed by `key: value` lines) are edited; anything it does
//! not understand is refused rather than guessed at. Every edit is checked by
//! parsing the old and new text: the edited keys must read back exactly as
//! requested and everything else must be equal as YAML values.

use serde_norway::Value;

use super::SpecDocument;

/// One change to one field of an intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldEdit<'a> {
    /// Sets `key` to the string `value`, replacing the old value or adding the key.
    Set {
        /// Names the field, e.g. `status`.
        key: &'a str,
        /// Gives the new value; it is written as a YAML string.
        value: &'a str,
    },
    /// Removes `key` and its value; nothing happens when the key is absent.
    Remove {
        /// Names the field, e.g. `blocked_reason`.
        key: &'a str,
    },
}

impl FieldEdit<'_> {
    fn key(&self) -> &str {
        match self {
            FieldEdit::Set { key, .. } | FieldEdit::Remove { key } => key,
        }
    }
}

/// Explains why an intent could not be edited in place; the text is then left unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecEditError {
    /// Reports that the file is not valid YAML to begin with.
    #[error("the intents file is not valid YAML ({0}); fix it, run `intent validate`, then retry")]
    Parse(String),
    /// Reports that no intent has the requested id.
    #[error("intent `{0}` is not in active_intents; check the id (it is case-sensitive)")]
    NotFound(String),
    /// Reports that the id is used by more than one intent, so the target is ambiguous.
    #[error("intent id `{0}` appears more than once in active_intents; give each intent a unique id by hand, then run `intent validate`")]
    DuplicateId(String),
    /// Reports an edit list that cannot be applied as given.
    #[error("invalid edit: {0}")]
    BadEdit(String),
    /// Reports a layout this module does not edit (flow mapping, anchors, tags, several documents, ...).
    #[error("cannot edit intent `{id}` in place: {reason}; change `{key}` by hand, then run `intent validate`")]
    NotInPlace {
        /// Names the intent.
        id: String,
        /// Names the first field that was to be edited.
        key: String,
        /// Says what in the file prevents the edit.
        reason: String,
    },
    /// Reports that the edited text failed the safety check (would not parse or would change something else).
    #[error("refusing to edit intent `{id}`: {reason}; the file was left unchanged, change `{key}` by hand, then run `intent validate`")]
    Unsafe {
        /// Names the intent.
        id: String,
        /// Names the first field that was to be edited.
        key: String,
        /// Says what the check found.
        reason: String,
    },
}

/// Applies `edits` to the intent `intent_id` in `text`; returns the new text.
pub fn edit_intent(
    text: &str,
    intent_id: &str,
    edits: &[FieldEdit<'_>],
) -> Result<String, SpecEditError> {
    for (i, edit) in edits.iter().enumerate() {
        let key = edit.key();
        let reason = if !plain_ok(key) || key.contains([':', '#', '\t']) {
            "is not a plain YAML key"
        } else if edits[..i].iter().any(|other| other.key() == key) {
            "is edited twice"
        } else {
            continue;
        };
        return Err(SpecEditError::BadEdit(format!("`{key}` {reason}")));
    }
    let id = intent_id.to_string();
    let key = edits.first().map_or("status", FieldEdit::key).to_string();
    let lines = split_lines(text);
    if let Err(reason) = check_features(&lines) {
        return Err(SpecEditError::NotInPlace {
            id,
            key,
            reason: reason.to_string(),
        });
    }
    let old: Value =
        serde_norway::from_str(text).map_err(|err| SpecEditError::Parse(err.to_string()))?;
    let intents = old
        .get("active_intents")
        .and_then(Value::as_sequence)
        .map_or(&[][..], Vec::as_slice);
    let mut hits = (0..intents.len())
        .filter(|&i| intents[i].get("id").and_then(Value::as_str) == Some(intent_id));
    let index = hits
        .next()
        .ok_or_else(|| SpecEditError::NotFound(id.clone()))?;
    if hits.next().is_some() {
        return Err(SpecEditError::DuplicateId(id));
    }
    let out = match splice(text, &lines, intents.len(), index, edits) {
        Ok(out) => out,
        Err(reason) => return Err(SpecEditError::NotInPlace { id, key, reason }),
    };
    match verify(text, &old, &out, index, edits) {
        Ok(()) => Ok(out),
        Err(reason) => Err(SpecEditError::Unsafe { id, key, reason }),
    }
}

type Splice = (usize, usize, String);

/// Computes the byte changes of the edits and applies them to `text`.
fn splice(
    text: &str,
    lines: &[Line<'_>],
    count: usize,
    index: usize,
    edits: &[FieldEdit<'_>],
) -> Result<String, String> {
    let items = list_items(lines)?;
    if items.len() != count {
        return Err("the list items could not be matched to the text".into());
    }
    let (dash, end) = items[index];
    let (key_indent, fields) = item_fields(text, lines, dash, end)?;
    let eol = lines
        .first()
        .map_or("\n", |l| if l.eol.is_empty() { "\n" } else { l.eol });
    let mut splices: Vec<Splice> = Vec::new();
    for edit in edits {
        let field = fields.iter().find(|f| f.key == edit.key());
        splices.push(match (edit, field) {
            (FieldEdit::Remove { .. }, None) => continue,
            (FieldEdit::Remove { .. }, Some(f)) => removal(text, lines, &fields, f, dash)?,
            (FieldEdit::Set { value, .. }, Some(f)) => replacement(text, lines, f, value)?,
            (FieldEdit::Set { key, value }, None) => {
                // After `status` when there is one, else after the item's last value line.
                let anchor = fields.iter().find(|f| f.key == "status").or(fields.last());
                let at = &lines[anchor.map_or(dash, |f| f.last)];
                let line = format!("{}{key}: {}", " ".repeat(key_indent), render(value, 0));
                let new = if at.eol.is_empty() {
                    format!("{eol}{line}")
                } else {
                    format!("{line}{}", at.eol)
                };
                (at.end, at.end, new)
            }
        });
    }
    // A stable sort keeps insertions at the same place in edit order.
    splices.sort_by_key(|&(start, end, _)| (start, end));
    let (mut out, mut pos) = (String::with_capacity(text.len() + 64), 0);
    for (start, end, new) in splices {
        if start < pos {
            return Err("two of the edits overlap".into());
        }
        out.push_str(&text[pos..start]);
        out.push_str(&new);
        pos = end;
    }
    out.push_str(&text[pos..]);
    Ok(out)
}

/// One line of the text: `body` excludes the line ending, `end` includes it.
struct Line<'t> {
    start: usize,
    body: &'t str,
    eol: &'t str,
    end: usize,
}

impl Line<'_> {
    fn indent(&self) -> usize {
        self.body.len() - self.body.trim_start_matches(' ').len()
    }
    fn is_content(&self) -> bool {
        let trimmed = self.body.trim_start();
        !trimmed.is_empty() && !trimmed.starts_with('#')
    }
    fn body_end(&self) -> usize {
        self.start + self.body.len()
    }
}

fn split_lines(text: &str) -> Vec<Line<'_>> {
    let mut start = 0;
    let lines = text.split_inclusive('\n').map(|raw| {
        let body = raw.strip_suffix('\n').unwrap_or(raw);
        let body = body.strip_suffix('\r').unwrap_or(body);
        start += raw.len();
        Line {
            start: start - raw.len(),
            body,
            eol: &raw[body.len()..],
            end: start,
        }
    });
    lines.collect()
}

fn is_dash(s: &str) -> bool {
    s == "-" || s.starts_with("- ")
}

/// Refuses documents whose meaning cannot be edited line by line.
fn check_features(lines: &[Line<'_>]) -> Result<(), &'static str> {
    let mut seen_content = false;
    let mut block_above: Option<usize> = None;
    for line in lines {
        if let Some(col) = block_above {
            if line.body.trim().is_empty() || line.indent() > col {
                continue;
            }
            block_above = None;
        }
        if !line.is_content() {
            continue;
        }
        let mark = |m: &str| {
            line.body
                .strip_prefix(m)
                .is_some_and(|r| r.is_empty() || r.starts_with(' '))
        };
        if mark("...") || (mark("---") && seen_content) || line.body.starts_with('%') {
            return Err("the file holds several YAML documents or directives");
        }
        seen_content = true;
        match scan_line(line.body) {
            Scan::Property => return Err("the file uses YAML anchors, aliases or tags"),
            Scan::Block(col) => block_above = Some(col),
            Scan::Plain => {}
        }
    }
    Ok(())
}

enum Scan {
    Plain,
    /// The line opens a block scalar whose key starts at this column.
    Block(usize),
    Property,
}

/// Looks at every place on a line where a node may start for `&`, `*`, `!`, `|` or `>`.
fn scan_line(body: &str) -> Scan {
    let b = body.as_bytes();
    let (mut i, mut at_node, mut depth, mut key_col) = (0, true, 0usize, None);
    while i < b.len() {
        let c = b[i];
        if c == b' ' {
            i += 1;
            continue;
        }
        let spaced = b.get(i + 1).is_none_or(|&n| n == b' ');
        if at_node {
            at_node = false;
            match c {
                b'-' | b'?' if spaced && depth == 0 => {
                    (i, at_node) = (i + 1, true);
                    continue;
                }
                b'&' | b'*' | b'!' => return Scan::Property,
                b'|' | b'>' if depth == 0 => return Scan::Block(key_col.unwrap_or(i)),
                b'"' | b'\'' => match closing(&body[i..]) {
                    Some(n) => {
                        i += n;
                        continue;
                    }
                    None => return Scan::Plain,
                },
                _ => {}
            }
            key_col.get_or_insert(i);
        }
        match c {
            b'#' if i == 0 || b[i - 1] == b' ' => break,
            b'[' | b'{' => (depth, at_node) = (depth + 1, true),
            b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if depth > 0 => at_node = true,
            b':' if spaced => at_node = true,
            _ => {}
        }
        i += 1;
    }
    Scan::Plain
}

/// Returns the length of the quoted scalar or flow collection that opens `v`, if it closes on this line.
fn closing(v: &str) -> Option<usize> {
    let b = v.as_bytes();
    let (mut depth, mut quote, mut prev, mut i) = (0usize, 0u8, b'[', 0);
    while i < b.len() {
        let c = b[i];
        match (quote, c) {
            (b'"', b'\\') => i += 1,
            (b'\'', b'\'') if b.get(i + 1) == Some(&b'\'') => i += 1,
            (q, _) if q != 0 => quote = if c == q { 0 } else { q },
            (_, b'"' | b'\'') if matches!(prev, b'[' | b'{' | b',' | b':') => quote = c,
            (_, b'[' | b'{') => depth += 1,
            (_, b']' | b'}') => depth = depth.saturating_sub(1),
            (_, b'#') if i > 0 && b[i - 1] == b' ' => return None,
            _ => {}
        }
        prev = if c == b' ' { prev } else { c };
        i += 1;
        if quote == 0 && depth == 0 {
            return Some(i);
        }
    }
    None
}

/// The lines of each block item of `active_intents`: (dash line, end line exclusive).
fn list_items(lines: &[Line<'_>]) -> Result<Vec<(usize, usize)>, &'static str> {
    let head = lines
        .iter()
        .position(|l| l.body.starts_with("active_intents:"))
        .ok_or("`active_intents:` is not a plain key at the start of a line")?;
    let rest = lines[head].body["active_intents:".len()..].trim_start();
    if !rest.is_empty() && !rest.starts_with('#') {
        return Err("`active_intents` is written as a flow list `[...]`");
    }
    let (mut dashes, mut seq_indent, mut end) = (Vec::new(), None, lines.len());
    for (i, line) in lines.iter().enumerate().skip(head + 1) {
        if !line.is_content() {
            continue;
        }
        let indent = line.indent();
        let seq = *seq_indent.get_or_insert(indent);
        let dash = is_dash(&line.body[indent..]);
        if indent < seq || (indent == seq && !dash) {
            end = i;
            break;
        }
        if indent == seq {
            dashes.push(i);
        }
    }
    Ok((0..dashes.len())
        .map(|k| (dashes[k], dashes.get(k + 1).copied().unwrap_or(end)))
        .collect())
}

/// One `key: value` of the intent; `after` is the byte offset just past the colon.
struct Field {
    key: String,
    line: usize,
    last: usize,
    col: usize,
    after: usize,
}

fn item_fields(
    text: &str,
    lines: &[Line<'_>],
    dash: usize,
    end: usize,
) -> Result<(usize, Vec<Field>), String> {
    let first = &lines[dash];
    let after_dash = &first.body[first.indent() + 1..];
    let col = first.indent() + 1 + after_dash.len() - after_dash.trim_start_matches(' ').len();
    let rest = &first.body[col..];
    if rest.starts_with('{') {
        return Err("it is written as a flow mapping `- {id: …}`".into());
    }
    let key_on_dash = !rest.is_empty() && !rest.starts_with('#');
    let key_indent = match key_on_dash {
        true => col,
        false => lines[dash + 1..end]
            .iter()
            .find(|l| l.is_content())
            .map(Line::indent)
            .ok_or("the item is empty")?,
    };
    let mut fields: Vec<Field> = Vec::new();
    let mut block = false;
    for (i, line) in lines.iter().enumerate().take(end).skip(dash) {
        let indent = line.indent();
        let is_key = match i == dash {
            true => key_on_dash,
            false => line.is_content() && indent == key_indent && !is_dash(&line.body[indent..]),
        };
        if is_key {
            let c = if i == dash { col } else { indent };
            let (key, colon) = parse_key(&line.body[c..])
                .ok_or_else(|| format!("line {} is not a simple `key: value` line", i + 1))?;
            let after = line.start + c + colon + 1;
            block = matches!(value_extent(&text[after..line.body_end()]), Extent::Block);
            fields.push(Field {
                key,
                line: i,
                last: i,
                col: c,
                after,
            });
        } else if let Some(field) = fields.last_mut() {
            let deeper = indent > key_indent && !line.body.trim().is_empty();
            if (deeper && (block || line.is_content()))
                || (line.is_content() && indent == key_indent)
            {
                field.last = i;
            }
        }
    }
    Ok((key_indent, fields))
}

/// Reads `key:` at the start of `s`; returns the key and the colon's index.
fn parse_key(s: &str) -> Option<(String, usize)> {
    let quoted = s.starts_with(['"', '\'']);
    let raw_end = match quoted {
        true => closing(s)?,
        false => s
            .match_indices(':')
            .map(|(i, _)| i)
            .find(|&i| s[i + 1..].is_empty() || s[i + 1..].starts_with(' '))?,
    };
    let raw = s[..raw_end].trim_end();
    let colon = raw_end + s[raw_end..].len() - s[raw_end..].trim_start_matches(' ').len();
    let spaced = s[colon..]
        .strip_prefix(':')
        .is_some_and(|r| r.is_empty() || r.starts_with(' '));
    if !spaced
        || raw.is_empty()
        || raw.starts_with(['?', '-', '#', '&', '*', '!', '[', '{', '|', '>'])
    {
        return None;
    }
    let key = if quoted {
        serde_norway::from_str::<String>(raw).ok()?
    } else {
        raw.to_string()
    };
    Some((key, colon))
}

enum Extent {
    Empty,
    /// A value that ends on this line, as byte range relative to the slice.
    Scalar(usize, usize),
    Block,
    Other,
}

/// Finds where the value after a colon starts and ends, leaving out a trailing comment.
fn value_extent(s: &str) -> Extent {
    let lead = s.len() - s.trim_start_matches(' ').len();
    let v = &s[lead..];
    let len = match v.as_bytes().first() {
        None | Some(b'#') => return Extent::Empty,
        Some(b'|' | b'>') => return Extent::Block,
        Some(b'&' | b'*' | b'!') => return Extent::Other,
        Some(b'"' | b'\'' | b'[' | b'{') => match closing(v) {
            Some(n) => n,
            None => return Extent::Other,
        },
        Some(_) => v.find(" #").unwrap_or(v.len()),
    };
    let tail = v[len..].trim_start();
    if !tail.is_empty() && !tail.starts_with('#') {
        return Extent::Other;
    }
    Extent::Scalar(lead, lead + v[..len].trim_end().len())
}

fn replacement(text: &str, lines: &[Line<'_>], f: &Field, value: &str) -> Result<Splice, String> {
    let (after, one_line) = (f.after, f.last == f.line);
    match value_extent(&text[after..lines[f.line].body_end()]) {
        // Keep the old quote style: its first byte is `'`, `"` or part of a plain value.
        Extent::Scalar(from, to) if one_line => Ok((
            after + from,
            after + to,
            render(value, text.as_bytes()[after + from]),
        )),
        Extent::Empty if one_line => Ok((after, after, format!(" {}", render(value, 0)))),
        Extent::Other => Err(format!(
            "the value of `{}` is not a plain, quoted or block value",
            f.key
        )),
        _ => Ok((
            after,
            lines[f.last].body_end(),
            format!(" {}", render(value, b'"')),
        )),
    }
}

fn removal(
    text: &str,
    lines: &[Line<'_>],
    fields: &[Field],
    f: &Field,
    dash: usize,
) -> Result<Splice, String> {
    if f.line == dash {
        // The key shares the `- ` line: pull the next key up onto that line.
        let next = fields
            .get(1)
            .ok_or_else(|| format!("`{}` is the intent's only key", f.key))?;
        return Ok((
            lines[dash].start + f.col,
            lines[next.line].start + next.col,
            String::new(),
        ));
    }
    let (mut start, end) = (lines[f.line].start, lines[f.last].end);
    if end == text.len() && lines[f.last].eol.is_empty() {
        // Keep a missing final newline missing.
        start -= lines[f.line - 1].eol.len();
    }
    Ok((start, end, String::new()))
}

/// Writes `value` in the style of `quote` (`'`, `"`, or anything else for plain) when it fits, else double-quoted.
fn render(value: &str, quote: u8) -> String {
    match quote {
        b'\'' if value.chars().all(|c| c != '\t' && printable(c)) => {
            format!("'{}'", value.replace('\'', "''"))
        }
        b'"' | b'\'' => double_quoted(value),
        _ if plain_ok(value) => value.to_string(),
        _ => double_quoted(value),
    }
}

/// Characters YAML lets stand as themselves inside a quoted scalar on one line.
fn printable(c: char) -> bool {
    matches!(c, ' '..='~' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
        && !matches!(c, '\u{2028}' | '\u{2029}' | '\u{FEFF}')
}

fn double_quoted(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if printable(c) => out.push(c),
            c if u32::from(c) <= 0xFFFF => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push_str(&format!("\\U{:08X}", u32::from(c))),
        }
    }
    out.push('"');
    out
}

/// Tells whether `value` can be written without quotes and still read back as the same string.
fn plain_ok(value: &str) -> bool {
    !value.is_empty()
        && value.chars().all(|c| c == ' ' || c.is_ascii_graphic())
        && value.trim() == value
        && !value.starts_with(|c| "-?:,[]{}#&*!|>'\"%@`".contains(c))
        && !value.contains(": ")
        && !value.contains(" #")
        && !value.ends_with(':')
        && serde_norway::from_str::<Value>(value).ok() == Some(Value::String(value.to_string()))
}

/// Checks that the new text reads back as the old one with exactly the requested changes.
fn verify(
    old_text: &str,
    old: &Value,
    new_text: &str,
    index: usize,
    edits: &[FieldEdit<'_>],
) -> Result<(), String> {
    let new: Value = serde_norway::from_str(new_text)
        .map_err(|err| format!("the result would not parse ({err})"))?;
    let mut expected = old.clone();
    let intent = expected
        .get_mut("active_intents")
        .and_then(|list| list.get_mut(index));
    let intent = intent
        .and_then(Value::as_mapping_mut)
        .ok_or("the intent is not a mapping")?;
    for edit in edits {
        match *edit {
            FieldEdit::Set { key, value } => intent.insert(key.into(), value.into()),
            FieldEdit::Remove { key } => intent.shift_remove(key),
        };
    }
    if expected != new {
        return Err("the result would not read back as exactly the requested change".into());
    }
    if SpecDocument::parse(old_text.as_bytes()).is_ok()
        && SpecDocument::parse(new_text.as_bytes()).is_err()
    {
        return Err("the result would no longer fit the intents schema".into());
    }
    Ok(())
}
