//! Tool names to gate actions, per front-end table.
//!
//! Each front-end names its tools differently (`Write`, `write_file`,
//! `write_to_file`, …) and keeps the path under a different key; a [`ToolTable`]
//! says which is which. A tool no table knows is `Action::Other`: destructive, so an
//! unknown tool needs an intent like any write.

use intent_gate::Action;
use serde_json::Value;

use super::fields::type_name;
use super::{patch, PayloadError, HANDSHAKE_TOOLS, MCP_SERVER, QUERY_TOOLS};

/// A front-end's tools.
pub struct ToolTable {
    /// Tools that write the file named under one of the keys.
    pub writes: &'static [(&'static str, &'static [&'static str])],
    /// Tools whose input holds a patch (under one of the keys) naming the files it
    /// touches.
    pub patches: &'static [(&'static str, &'static [&'static str])],
    /// Shell tools and the key of their command line.
    pub shells: &'static [(&'static str, &'static str)],
    /// Read-only tools and the keys of the paths they read.
    pub reads: &'static [(&'static str, &'static [&'static str])],
    /// Whether the handshake tools are native tools of the front-end (the seeds'
    /// fork has `select_active_intent` built in) rather than MCP tools.
    pub native_handshake: bool,
}

impl ToolTable {
    /// Whether the table names `tool` (a fork's table may hold only the tools it
    /// adds, and defer the rest to its parent's).
    pub fn knows(&self, tool: &str) -> bool {
        let names = self.writes.iter().map(|(t, _)| t);
        let names = names.chain(self.patches.iter().map(|(t, _)| t));
        let names = names.chain(self.shells.iter().map(|(t, _)| t));
        let mut names = names.chain(self.reads.iter().map(|(t, _)| t));
        names.any(|t| *t == tool)
    }
}

/// What a tool call is, for the gate.
pub struct Classified {
    /// The action.
    pub action: Action,
    /// For handshake tools: which one.
    pub handshake: Option<String>,
}

/// Classifies tool `name` with `input` by `table`.
pub fn classify(table: &ToolTable, name: &str, input: &Value) -> Result<Classified, PayloadError> {
    let tool = name.to_string();
    let plain = |action| {
        Ok(Classified {
            action,
            handshake: None,
        })
    };
    if let Some((_, keys)) = table.writes.iter().find(|(t, _)| *t == name) {
        let paths = paths_under(input, keys)?;
        if paths.is_empty() {
            return Err(PayloadError::Missing {
                what: format!("{name} input"),
                field: format!("file path (expected `{}`)", keys.join("` or `")),
            });
        }
        return plain(Action::Write { tool, paths });
    }
    if let Some((_, keys)) = table.patches.iter().find(|(t, _)| *t == name) {
        let text = keys
            .iter()
            .find_map(|key| input.get(*key).and_then(Value::as_str))
            .ok_or_else(|| PayloadError::Missing {
                what: format!("{name} input"),
                field: format!("string `{}` holding the patch", keys.join("` or `")),
            })?;
        let paths = patch::touched_paths(text).map_err(|e| PayloadError::Unreadable {
            what: format!("{name}:"),
            why: e.to_string(),
        })?;
        return plain(Action::Write { tool, paths });
    }
    if let Some((_, key)) = table.shells.iter().find(|(t, _)| *t == name) {
        let command = match input.get(*key) {
            Some(Value::String(line)) => line.clone(),
            // An argv (Codex's `shell{command: [..]}`): the line that runs it.
            Some(Value::Array(argv)) if !argv.is_empty() && argv.iter().all(Value::is_string) => {
                argv.iter()
                    .filter_map(Value::as_str)
                    .map(shell_word)
                    .collect::<Vec<_>>()
                    .join(" ")
            }
            _ => {
                return Err(PayloadError::Missing {
                    what: format!("{name} input"),
                    field: format!("string `{key}`"),
                })
            }
        };
        return plain(Action::Shell { tool, command });
    }
    if let Some((_, keys)) = table.reads.iter().find(|(t, _)| *t == name) {
        let paths = paths_under(input, keys)?;
        return plain(Action::Read { tool, paths });
    }
    if let Some((own, prefixed)) = own_tool(name, table.native_handshake) {
        if HANDSHAKE_TOOLS.contains(&own) {
            return Ok(Classified {
                action: Action::Handshake { tool },
                handshake: Some(own.to_string()),
            });
        }
        // A bare `search` may be anyone's tool: only our prefixed names are reads.
        if prefixed && QUERY_TOOLS.contains(&own) {
            return plain(Action::Read {
                tool,
                paths: Vec::new(),
            });
        }
    }
    let paths = path_arguments(input);
    plain(Action::Other { tool, paths })
}

/// `word` as the shell reads it back: as is when it holds only safe characters,
/// else single-quoted.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Argument names that hold a path in the tools of MCP servers seen in the field
/// (filesystem, git, GitHub, editors).
const PATH_KEYS: &[&str] = &[
    "path",
    "paths",
    "file_path",
    "filePath",
    "file_paths",
    "filepath",
    "file",
    "files",
    "filename",
    "target",
    "target_file",
    "targetFile",
    "destination",
    "dest",
    "source",
    "src",
    "from",
    "to",
    "old_path",
    "new_path",
    "oldPath",
    "newPath",
    "directory",
    "dir",
    "cwd",
    "relative_workspace_path",
    "uri",
    // Serena, JetBrains, editors' MCP servers.
    "relative_path",
    "relativePath",
    "pathInProject",
    "notebook_path",
    "file_name",
    "fileName",
    "directory_path",
    "dirPath",
    "root",
    "location",
    "output",
    "output_path",
    "outputPath",
];

/// Path-like arguments of an unknown tool, at any depth (`edits[].path`), `file://`
/// URIs unwrapped (any case). Bounded: an argument tree is walked to 16 levels and
/// 1024 paths; beyond, an empty path is added, which the gate refuses as unusable
/// (nothing is let through unjudged).
fn path_arguments(input: &Value) -> Vec<String> {
    fn walk(value: &Value, depth: usize, out: &mut Vec<String>) {
        if depth > 16 || out.len() >= 1024 {
            if out.last().is_none_or(|p: &String| !p.is_empty()) {
                out.push(String::new());
            }
            return;
        }
        match value {
            Value::Object(map) => {
                for (key, value) in map {
                    if PATH_KEYS.contains(&key.as_str()) {
                        match value {
                            Value::String(s) => push(s, out),
                            Value::Array(items) => items
                                .iter()
                                .filter_map(Value::as_str)
                                .for_each(|s| push(s, out)),
                            _ => {}
                        }
                    }
                    walk(value, depth + 1, out);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, depth + 1, out)),
            _ => {}
        }
    }
    fn push(text: &str, out: &mut Vec<String>) {
        let path = match text.get(..7) {
            Some(scheme) if scheme.eq_ignore_ascii_case("file://") => &text[7..],
            _ => text,
        };
        // URLs of other schemes (https://, git@) name no workspace file.
        if !path.is_empty() && !path.contains("://") && out.len() < 1024 {
            out.push(path.to_string());
        }
    }
    let mut out = Vec::new();
    walk(input, 0, &mut out);
    out
}

/// The name of one of our MCP tools as front-ends spell it: `mcp__intent__why`
/// (Claude Code, Codex), `mcp_intent_why`, `intent__why` (Gemini), or bare where the
/// front-end has the handshake built in; `true` when the name carried our prefix.
fn own_tool(name: &str, native: bool) -> Option<(&str, bool)> {
    let prefixes = [
        format!("mcp__{MCP_SERVER}__"),
        format!("mcp_{MCP_SERVER}_"),
        format!("{MCP_SERVER}__"),
    ];
    for prefix in &prefixes {
        if let Some(rest) = name.strip_prefix(prefix.as_str()) {
            return Some((rest, true));
        }
    }
    native.then_some((name, false))
}

fn paths_under(input: &Value, keys: &[&str]) -> Result<Vec<String>, PayloadError> {
    let mut paths = Vec::new();
    for key in keys {
        match input.get(*key) {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) => paths.push(s.clone()),
            Some(Value::Array(items)) => {
                for item in items {
                    match item.as_str() {
                        Some(s) => paths.push(s.to_string()),
                        None => {
                            return Err(PayloadError::WrongType {
                                field: format!("tool_input.{key}"),
                                expected: "hold strings",
                                found: type_name(item),
                            })
                        }
                    }
                }
            }
            Some(other) => {
                return Err(PayloadError::WrongType {
                    field: format!("tool_input.{key}"),
                    expected: "be a string",
                    found: type_name(other),
                })
            }
        }
    }
    Ok(paths)
}

/// The tool call of a classified tool: the agent's declared `mutation_class` is read
/// from the input, wherever the front-end put the input.
pub fn build_call(
    classified: Classified,
    input: Value,
    use_id: Option<String>,
    response: Option<Value>,
) -> crate::engine::ToolCall {
    crate::engine::ToolCall {
        action: classified.action,
        use_id,
        declared_mutation_class: input
            .get("mutation_class")
            .and_then(Value::as_str)
            .map(str::to_string),
        input,
        response: response
            .as_ref()
            .map(crate::engine::ToolResponse::from_json),
        handshake: classified.handshake,
        gated_later: false,
    }
}

/// Whether a normalized post-tool response says the tool failed.
pub fn failed(tool: Option<&crate::engine::ToolCall>) -> bool {
    tool.and_then(|t| t.response.as_ref())
        .is_some_and(|r| r.failed)
}

#[cfg(test)]
mod path_argument_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn path_arguments_are_found_at_depth_in_any_spelling() {
        let input = json!({
            "relative_path": ".orchestration/x",
            "edits": [{"pathInProject": ".claude/settings.json"}],
            "uri": "FILE:///w/src/a.ts",
            "url": "https://example.com/x",
        });
        let mut paths = path_arguments(&input);
        paths.sort();
        assert_eq!(
            paths,
            [".claude/settings.json", ".orchestration/x", "/w/src/a.ts"]
        );
        // Too many paths: an unusable one is added, so the gate refuses the call.
        let many: Vec<String> = (0..2000).map(|i| format!("src/{i}.ts")).collect();
        let paths = path_arguments(&json!({"paths": many}));
        assert!(paths.last().unwrap().is_empty());
    }

    #[test]
    fn an_argv_is_judged_as_the_line_that_runs_it() {
        let input = json!({"command": ["bash", "-lc", "echo it's > src/a.ts"]});
        let classified = classify(&super::super::codex::TOOLS, "shell", &input).unwrap();
        let Action::Shell { command, .. } = classified.action else {
            panic!("not a shell action");
        };
        assert_eq!(command, r"bash -lc 'echo it'\''s > src/a.ts'");
        assert!(classify(
            &super::super::codex::TOOLS,
            "shell",
            &json!({"command": [1]})
        )
        .is_err());
    }
}
