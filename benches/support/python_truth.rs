//! Ground truth from a parser that is not the one under test: the blocks of Python
//! files by CPython's own `ast` module (`python3`), named and spanned the way `intent`
//! names blocks — functions and classes (a decorated one from its first decorator),
//! methods as `Class.method`, single-name assignments at module and class level,
//! looking through module- and class-level `if`/`try`/`with` bodies.

use std::io::Write as _;
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::replay_truth::{FileTruth, TBlock};

const SCRIPT: &str = r#"
import ast, json, sys

def blocks(body, prefix, in_class, out):
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            if isinstance(node, ast.ClassDef):
                kind = "class"
            else:
                kind = "method" if in_class else "function"
            name = prefix + node.name
            out.append({"name": name, "kind": kind, "start": start, "end": node.end_lineno})
            if isinstance(node, ast.ClassDef):
                blocks(node.body, name + ".", True, out)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out.append({"name": prefix + node.targets[0].id, "kind": "field" if in_class else "variable",
                        "start": node.lineno, "end": node.end_lineno})
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.append({"name": prefix + node.target.id, "kind": "field" if in_class else "variable",
                        "start": node.lineno, "end": node.end_lineno})
        elif isinstance(node, ast.If):
            blocks(node.body, prefix, in_class, out)
            blocks(node.orelse, prefix, in_class, out)
        elif isinstance(node, ast.Try):
            blocks(node.body, prefix, in_class, out)
            for handler in node.handlers:
                blocks(handler.body, prefix, in_class, out)
            blocks(node.orelse, prefix, in_class, out)
            blocks(node.finalbody, prefix, in_class, out)
        elif isinstance(node, ast.With):
            blocks(node.body, prefix, in_class, out)

files = json.load(sys.stdin)
result = {}
for path, text in files.items():
    out = []
    try:
        blocks(ast.parse(text).body, "", False, out)
        result[path] = out
    except SyntaxError as e:
        result[path] = {"error": str(e)}
json.dump(result, sys.stdout)
"#;

/// The blocks of `files` ((path, text)) by Python's `ast`; a file Python cannot
/// parse gets no blocks (its lines are not sampled) and is named in the error list.
pub fn analyze(files: &[(String, String)]) -> Result<(Vec<FileTruth>, Vec<String>), String> {
    let input: serde_json::Map<String, Value> = files
        .iter()
        .map(|(p, t)| (p.clone(), Value::String(t.clone())))
        .collect();
    let mut child = Command::new("python3")
        .args(["-c", SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("python3: {e}"))?;
    let body = serde_json::to_vec(&input).map_err(|e| e.to_string())?;
    child
        .stdin
        .take()
        .ok_or("python3: no stdin")?
        .write_all(&body)
        .map_err(|e| format!("python3 stdin: {e}"))?;
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(format!(
            "python3 ast: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let parsed: Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    let mut truths = Vec::new();
    let mut errors = Vec::new();
    for (path, text) in files {
        let entry = &parsed[path.as_str()];
        let blocks = match entry.as_array() {
            Some(blocks) => blocks
                .iter()
                .map(|b| TBlock {
                    name: b["name"].as_str().unwrap_or("").to_string(),
                    kind: b["kind"].as_str().unwrap_or("").to_string(),
                    start: b["start"].as_u64().unwrap_or(0) as u32,
                    end: b["end"].as_u64().unwrap_or(0) as u32,
                })
                .collect(),
            None => {
                errors.push(format!("{path}: {}", entry["error"]));
                Vec::new()
            }
        };
        truths.push(FileTruth {
            path: path.clone(),
            lines: text.lines().count() as u32,
            blocks,
        });
    }
    Ok((truths, errors))
}
