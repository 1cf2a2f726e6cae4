//! Tool calls other than the shell: foreign MCP tools and the write tools' path tricks.

use super::{Cases, A, NAI, OUT, OUT_N, PB, PROT_N, SV};

/// Foreign MCP tools: destructive, path-like arguments scope-checked.
pub(super) fn foreign_mcp(c: &mut Cases) {
    c.mcp(
        "mcp_foreign",
        NAI,
        A,
        &[
            ("fs", "write_file", r#"{"path":"src/a.ts","content":"x"}"#),
            (
                "fs",
                "write_file",
                r#"{"path":"{ROOT}/src/c.ts","content":"x"}"#,
            ),
            ("github", "create_issue", r#"{"title":"x","body":"y"}"#),
            ("fs", "read_file", r#"{"path":"src/a.ts"}"#),
            ("other", "search", r#"{"query":"x"}"#),
            ("db", "execute_sql", r#"{"sql":"DROP TABLE users"}"#),
        ],
    );
    c.mcp(
        "mcp_foreign",
        NAI,
        SV,
        &[
            ("fs", "write_file", r#"{"path":"docs/a.md","content":"x"}"#),
            (
                "fs",
                "write_file",
                r#"{"file_path":"README.md","content":"x"}"#,
            ),
            ("fs", "edit_file", r#"{"filePath":"lib/a.ts","edits":[]}"#),
            (
                "fs",
                "write_multiple_files",
                r#"{"paths":["src/a.ts","lib/a.ts"]}"#,
            ),
            (
                "fs",
                "move_file",
                r#"{"source":"src/a.ts","destination":"lib/a.ts"}"#,
            ),
            (
                "fs",
                "move_file",
                r#"{"source":"lib/a.ts","destination":"src/a.ts"}"#,
            ),
            ("fs", "create_directory", r#"{"target":"lib/new"}"#),
            ("fs", "delete_file", r#"{"path":"lib/a.ts"}"#),
            (
                "fs",
                "write_file",
                r#"{"path":"{ROOT}/lib/b.ts","content":"x"}"#,
            ),
        ],
    );
    c.mcp(
        "mcp_foreign",
        PROT_N,
        PB,
        &[
            (
                "fs",
                "write_file",
                r#"{"path":".orchestration/active_intents.yaml","content":"x"}"#,
            ),
            (
                "fs",
                "write_file",
                r#"{"path":"src/../.orchestration/agent_trace.jsonl","content":""}"#,
            ),
            (
                "fs",
                "write_file",
                r#"{"path":".claude/settings.json","content":"{}"}"#,
            ),
            (
                "fs",
                "write_file",
                r#"{"path":".git/hooks/pre-commit","content":"x"}"#,
            ),
            (
                "fs",
                "write_file",
                r#"{"path":"src/notes.ts","content":"x"}"#,
            ),
            (
                "fs",
                "move_file",
                r#"{"source":"src/a.ts","destination":".mcp.json"}"#,
            ),
            (
                "fs",
                "copy_file",
                r#"{"source":"src/a.ts","destination":".codex/config.toml"}"#,
            ),
        ],
    );
    c.mcp(
        "mcp_foreign",
        OUT_N,
        OUT,
        &[
            (
                "fs",
                "write_file",
                r#"{"path":"/etc/passwd","content":"x"}"#,
            ),
            (
                "fs",
                "write_file",
                r#"{"path":"../outside.ts","content":"x"}"#,
            ),
        ],
    );
}

/// Write tools: path tricks.
pub(super) fn write_tool_paths(c: &mut Cases) {
    c.write(
        PROT_N,
        PB,
        &[
            ".git/config",
            ".git/hooks/pre-commit",
            ".git/HEAD",
            ".claude/settings.json",
            ".claude/settings.local.json",
            ".mcp.json",
            ".codex/hooks.json",
            ".codex/config.toml",
            ".gemini/settings.json",
            ".qwen/settings.json",
            ".cursor/hooks.json",
            ".cursor/mcp.json",
            ".clinerules/hooks/PreToolUse",
            ".cline/hooks/PreToolUse",
            ".github/hooks/intent.json",
            ".github/hooks/mine.json",
            ".opencode/plugin/intent-ledger.js",
            ".opencode/plugins/mine.js",
            "opencode.json",
            ".orchestration/active_intents.yaml",
            ".orchestration/.intentignore",
            "src/../.orchestration/agent_trace.jsonl",
            "src/notes.ts",
            "src/cfg/settings.json",
            // `src/cfg -> ../.claude`: the kernel applies `..` after the link,
            // so this is the workspace's `.mcp.json` (not `src/.mcp.json`).
            "src/cfg/../.mcp.json",
            "{ROOT}/.orchestration/agent_trace.jsonl",
            "./.claude/settings.json",
            "src/../.git/config",
        ],
    );
    c.write(
        OUT_N,
        OUT,
        &[
            "../outside.ts",
            "/etc/passwd",
            "src/../../x",
            "{ROOT}/../x.ts",
            // Through the link: `.claude/../../.mcp.json` is outside the workspace.
            "src/cfg/../../.mcp.json",
        ],
    );
    c.write(
        NAI,
        SV,
        &["docs/a.md", "README.md", "src/../lib/a.ts", "src/out/a.ts"],
    );
    c.write(
        NAI,
        A,
        &[
            "src/a.ts",
            "./src/new.ts",
            "src/./deep/../b.ts",
            "{ROOT}/src/c.ts",
        ],
    );
    c.edit(
        PROT_N,
        PB,
        &[
            ".claude/settings.json",
            ".git/config",
            ".orchestration/active_intents.yaml",
        ],
    );
    c.edit(NAI, SV, &["README.md"]);
    c.edit(NAI, A, &["src/a.ts"]);
}
