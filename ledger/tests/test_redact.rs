//! The secrets redactor: one test per token format, ordinary ledger data untouched,
//! the entropy rule, and every field of every event kind redacted on its way into
//! the file. The tokens below are fake: random characters in each vendor's shape.

use intent_ledger::redact::{find, redact, redact_value, rule_report, shannon_entropy};
use intent_ledger::{kinds, read_events, verify_path, NewEvent};
use serde_json::{json, Value};

use crate::fast_ledger;

/// Asserts that `secret` between `before` and `after` is replaced, that nothing of
/// it long enough to matter survives, and that the text around it stays.
fn assert_redacted(before: &str, secret: &str, after: &str) {
    let text = format!("{before}{secret}{after}");
    let out = redact(&text);
    assert!(!out.contains(secret), "not redacted: {out}");
    let tail = &secret[secret.len().saturating_sub(6)..];
    assert!(!out.contains(tail), "a piece of the secret is left: {out}");
    assert!(out.contains("[REDACTED:"), "{out}");
    assert!(out.starts_with(before), "the text before changed: {out}");
    assert!(out.ends_with(after), "the text after changed: {out}");
}

macro_rules! redacts {
    ($($name:ident: $before:expr, $secret:expr, $after:expr;)*) => {$(
        #[test]
        fn $name() {
            assert_redacted($before, $secret, $after);
        }
    )*};
}

redacts! {
    github_classic_personal_token: "echo ", "ghp_qsR6RZ24lPoQj3oPUlieI2nVsbBi1RMar1jf", " | gh auth login --with-token";
    github_short_personal_token: "use ", "ghp_AbCdEfGhIjKlMnOpQrStUvWx1234", " to push";
    github_oauth_token: "token: ", "gho_3YZ4Zq0CVB8iY4qw2oF5WJKBQx4BOuPhw0MZ", "\n";
    github_user_to_server_token: "GH=", "ghu_OqSCJNViCRUCIlsmlHwqxDqMrz4iKFJpKp4m", " gh api user";
    github_server_to_server_token: "app token ", "ghs_SxieBPO9DyaUB73cojFZS1COqkUAV3q4WZwm", " expires in 1h";
    github_refresh_token: "refresh with ", "ghr_T2OxHTQi5TMpUFn3NcLSLcwLUKvlsmkYRJh5", ".";
    github_fine_grained_token: "gh auth login --with-token <<< ", "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", "";
    gitlab_personal_token: "curl -H 'PRIVATE-TOKEN: ", "glpat-Ny59XQhL3rsgoVuBNMXL", "' https://gitlab.example.com/api/v4/projects";
    npm_token: "//registry.npmjs.org/:_authToken=", "npm_cwigxFCL4LBcwIsi9Zduk54IVi5a5p63RjfE", "\nregistry=https://registry.npmjs.org/";
    stripe_live_secret_key: "Stripe::api_key = '", "sk_live_7xewqZ0ndTpQ07pHY6WCmKzN", "'";
    stripe_live_restricted_key: "charge with ", "rk_live_d1J5dhNi8IWZxIztj9Itqfxd", " then refund";
    google_api_key: "const key = '", "AIzadvbnIlQ2uLfomNZX8XItt5MadHJQCFV1u90", "';";
    slack_bot_token: "SLACK=", "xoxb-427987367309-078221092417-KHU1dnTV6PSBb9IbX3Rjt1Nj", " node bot.js";
    slack_user_token: "user token ", "xoxp-086437091358-809753908638-015275253491-2eefdbea85697c8246d046c973a8679b", " (admin)";
    slack_app_token: "socket mode: ", "xapp-1-AFQNAJ8UT7N-6840311218635-faffbb17f7c9edb5bfc73731237320dcfbd2e13dd98db7e91945da9cd28a7eae", " ok";
    slack_webhook_url: "curl -X POST ", "https://hooks.slack.com/services/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", " -d @msg.json";
    aws_access_key_id: "aws_access_key_id = ", "AKIA3ZSFPZKD54G4JCMB", "\nregion = eu-west-1";
    aws_secret_access_key_assignment: "aws_secret_access_key=", "E3f+I2fSy6Zu4A3YhYZCy2Aeec5YZq6l+/5kbh/w", "\nregion = eu-west-1";
    url_credentials: "git clone https://", "alice:s3cr3tpass", "@example.com/repo.git";
    database_url_credentials: "DATABASE_URL is postgres://", "app:Pa55w0rd!x", "@db.internal:5432/shop";
    quoted_db_password_assignment: "DB_PASSWORD=\"", "correct horse battery staple", "\" ./run.sh";
    token_assignment: "export GITHUB_TOKEN=", "abc123def456", " && make release";
    secret_assignment: "CLIENT_SECRET=", "s3cr3t-value", "\nNEXT=1";
    password_flag_with_space: "psql --password ", "Tr0ub4dor3x", " --host db";
    password_flag_with_equals: "mysqldump --password=", "hunter2", " shop > dump.sql";
    mysql_glued_password_flag: "mysql -uroot -p", "s3cretPw", " shop < schema.sql";
    authorization_bearer_header: "curl -H 'Authorization: Bearer ", "d9e8f7a6b5c4d3e2f1a0", "' https://api.example.com/v1";
    private_key_block: "key:\n", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\n-----END RSA PRIVATE KEY-----", "\nend";
    private_key_block_cut_short: "id_ed25519: ", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", "";
    json_web_token: "Cookie: session=", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "; Path=/";
    openai_project_key: "client = OpenAI(api_key=\"", "sk-proj-Eod1A79e1fzJ-tstcwiLv8y-aFi7oiiXwyhdWA5Qs5wrEj2v", "\")";
    openai_legacy_key: "key ", "sk-R9BdxjkWxX5Rypt3UGEnbgukdposwY5M1z1HOsaa", " works";
    anthropic_key: "claude --key ", "sk-ant-api03-Z0FNK5an46ExHc7BJaq2QE4cZImreQ4djjoUkw_7a7cRSk00kARtptjXL-K1z-ynXMfjN5z8bg2j8NApPbM8cvQeL3a2rAA", " -p hi";
}

#[test]
fn a_secret_keeps_its_context_and_names_its_rule() {
    assert_eq!(
        redact(
            "git push https://bot:ghp_AbCdEfGhIjKlMnOpQrStUvWx1234@example.com/r.git && rm -rf src"
        ),
        "git push https://[REDACTED:url-credentials]@example.com/r.git && rm -rf src"
    );
    assert_eq!(
        redact("DB_PASSWORD=\"hunter2\" npm start"),
        "DB_PASSWORD=\"[REDACTED:env-secret-assignment]\" npm start"
    );
    let found = find("use sk_live_7xewqZ0ndTpQ07pHY6WCmKzN now");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].range, 4..36);
}

/// The choice: a quoted literal assigned to a password is always a password (even a
/// weak one: a weak password is still a secret). Other `key = value` assignments
/// whose key names a secret are redacted when the value looks random: more than 3.5
/// bits a character, 8 characters or more, and a digit.
#[test]
fn the_entropy_rule_and_password_assignments() {
    for secret in [
        r#"password = "Xk9#mQ2$vL7pR4""#,
        r#"password = "changeme""#,
        r#"{"password": "changeme"}"#,
        "password=hunter2",
        "password: Xk9mQ2vL7pR4",
        "api_key = 9f8e7d6c5b4a",
        "auth_token: Zx81Qm4Lp0Rt",
    ] {
        let out = redact(secret);
        assert!(out.contains("[REDACTED:"), "{secret} -> {out}");
    }
    assert!(shannon_entropy("Xk9mQ2vL7pR4") > 3.5);
    assert!(shannon_entropy("changeme") < 3.5);
    for kept in [
        "password: changeme",
        "token = getTokenFromHeader(request)",
        "secret = aaaaaaaa1",
        "api_key = process.env.API_KEY",
        r#"password = "${DB_PASSWORD}""#,
        "DB_PASSWORD=$DB_PASSWORD",
    ] {
        assert_eq!(redact(kept), kept);
    }
}

#[test]
fn ordinary_ledger_values_and_code_pass_unchanged() {
    for plain in [
        "sha256:2290ade41ba3b49867852d889a152366a9909044f59009b3369bf03f79b4ad04",
        "ee7fa7bdb8a21e4c929e1ec3a9eeb798",
        "49c2227c23d644c0bb950882f6425c0196d579c0ed494f8ea176a95d8342f14c",
        "01a201a8-8ef4-7620-9de6-8cead10236e7",
        "014df517-39d1-4453-b7b3-9930c563627c",
        "3129814d6b4a2e0f5c6b7a8d9e0f1a2b3c4d5e6f",
        "toolu_01XFDUDYJgAACzvnptvVoYEL",
        "anthropic/claude-sonnet-4-5",
        "src/auth/token.ts",
        ".orchestration/agent_trace.jsonl",
        "const token = getToken(req);",
        "function verifyPassword(password: string): boolean {",
        "let apiKey = process.env.API_KEY;",
        "if (password == confirm) { return true; }",
        "tokens.push(token); keys.sort();",
        "mkdir -p src/app && git log -p -- src",
        "cargo test -p intent-ledger -- redact",
        "the token bucket refills; see https://example.com/a:b",
        "Tokens expire after 15 minutes.",
        "Never export secrets.",
        "Add token expiry to verify()",
        "API change: exported `verify` added in src/auth/jwt.ts",
        "author: Jane Doe <jane@example.com>",
        "ssh://git@github.com/o/r.git",
        "the [REDACTED:github-token] was here",
    ] {
        assert_eq!(redact(plain), plain, "changed");
    }
}

/// A real `trace` event (from `intent demo`): hashes, ids, paths, block keys.
fn ordinary_trace() -> Value {
    json!({"path": "src/auth/jwt.ts", "before_sha256": "sha256:d310f2d5a0ee6c16e32d7f8562b0adbe8a94ae16b1f892a9e71b7e7325311d6a", "after_sha256": "sha256:a60b59475c813e5aead43ddfe641e2f3ad6e734b92edcb32ca62afd7391f3982", "ranges": [{"start_line": 2, "end_line": 7, "content_hash": "sha256:18317b5c9f463eee8c05dfb2e0db86afd95b159acd515895b6e0e46c62a99a70"}], "mutation_class": "INTENT_EVOLUTION", "classification": {"method": "ast", "reason": "behaviour changed in `verify` (src/auth/jwt.ts:1-4)", "refactor_kinds": [], "api_changes": [], "parse_errors": [], "text_files": [], "turn_files": 1, "scheme": 2}, "intent_id": "INT-001", "tool": "Write", "tool_use_id": "toolu_01XFDUDYJgAACzvnptvVoYEL", "prompt_id": "prompt-2", "turn": "prompt-2", "front_end": "claude-code", "model": "anthropic/claude-sonnet-4-5", "vcs": {"revision": "3129814d6b4a2e0f5c6b7a8d9e0f1a2b3c4d5e6f", "dirty": false}, "blocks": [{"event": "modified", "matched_by": "name", "change": ["behaviour"], "behaviour": true, "before": {"path": "src/auth/jwt.ts", "kind": "function", "name": "verify", "key": "verify", "start_line": 1, "end_line": 3, "exact": "ee7fa7bdb8a21e4c929e1ec3a9eeb798", "alpha": "eb124f9eee5be07d72f1cd93204d0841", "shape": "f936a059b2406c426ead7f102cd9d225", "text": "b9e8c1bd23b2cc53ca242759af2ad4c6"}, "after": {"path": "src/auth/jwt.ts", "kind": "function", "name": "verify", "key": "verify", "start_line": 1, "end_line": 4, "exact": "c4a883c1230052815d617d242cb76640", "alpha": "2990519eb104fcceff6e4f652fe11cf4", "shape": "c6c0507642f78844a6e6006e59ae3474", "text": "38f6ed6d352baa1584dbeeac5ea834e3"}, "id": "31bd1bc3f403ba2177f105e88954aae3", "origins": null}, {"event": "created", "matched_by": null, "change": ["behaviour"], "behaviour": true, "before": null, "after": {"path": "src/auth/jwt.ts", "kind": "function", "name": "expiresAt", "key": "expiresAt", "start_line": 6, "end_line": 8, "exact": "bd6fe81ebe8a9adf6e8e4bd7ae96cbe0", "alpha": "f10758051fe91d4a658fc2110de38176", "shape": "e236fa295b6f175e66e01c88a49574c9", "text": "208b294a2f7783187fb496dfc21fff58"}, "id": "a9c9c0233a3c998d84f86ef1dab0d826", "origins": null}]})
}

#[test]
fn an_ordinary_trace_event_is_stored_unchanged() {
    let mut data = ordinary_trace();
    assert_eq!(redact_value(&mut data), 0);
    assert_eq!(data, ordinary_trace());

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("agent_trace.jsonl");
    fast_ledger(&path)
        .append(NewEvent::new(kinds::TRACE, "test", ordinary_trace()).with_session("s1"))
        .unwrap();
    let events: Vec<_> = read_events(&path).unwrap().map(Result::unwrap).collect();
    assert_eq!(events[1].data, ordinary_trace());
}

#[test]
fn redacting_twice_changes_nothing() {
    let text = "export GITHUB_TOKEN=ghp_qsR6RZ24lPoQj3oPUlieI2nVsbBi1RMar1jf; curl -H 'Authorization: Bearer d9e8f7a6b5c4d3e2f1a0' https://u:p4ssw0rd@x.example/ password=\"x\"";
    let once = redact(text).into_owned();
    assert_ne!(once, text);
    assert_eq!(redact(&once), once);
    let mut value = json!({"a": [once.clone()]});
    assert_eq!(redact_value(&mut value), 0);
}

#[test]
fn redact_value_walks_arrays_and_objects_but_keeps_keys() {
    let mut value = json!({
        "password": "plain words",
        "nested": {"list": ["ok", "CLIENT_SECRET=abc123", {"deep": "sk_live_7xewqZ0ndTpQ07pHY6WCmKzN"}]},
        "n": 3,
        "flag": true,
    });
    assert_eq!(redact_value(&mut value), 2);
    assert_eq!(value["password"], "plain words");
    assert_eq!(
        value["nested"]["list"][1],
        "CLIENT_SECRET=[REDACTED:env-secret-assignment]"
    );
    assert!(value["nested"]["list"][2]["deep"]
        .as_str()
        .unwrap()
        .starts_with("[REDACTED:"));
    assert_eq!(value["n"], 3);
}

#[test]
fn multibyte_text_around_secrets_stays_valid() {
    let text = "clé: ghp_qsR6RZ24lPoQj3oPUlieI2nVsbBi1RMar1jf — mot de passe=«hunter2»é";
    let out = redact(text);
    assert!(!out.contains("ghp_qsR6"));
    assert!(out.starts_with("clé: "));
}

/// The number of gitleaks rules this engine cannot use is pinned, so it cannot
/// grow silently when the vendored file is updated.
#[test]
fn the_rule_set_compiles_with_known_skips() {
    let report = rule_report();
    let invalid: Vec<&str> = report.invalid.iter().map(|(id, _)| *id).collect();
    assert_eq!(invalid, Vec::<&str>::new(), "{:#?}", report.invalid);
    assert_eq!(
        report.invalid_allowlist_regexes,
        Vec::<(&str, &str)>::new(),
        "allowlist regexes this engine rejects"
    );
    assert_eq!(
        report.path_scoped,
        [
            "freemius-secret-key",
            "hashicorp-tf-password",
            "kubernetes-secret-yaml",
            "nuget-config-password",
            "pkcs12-file",
        ],
        "rules scoped to file paths"
    );
    // gitleaks v8.30.1: 222 rules, 5 of them scoped to paths; 22 of our own.
    assert_eq!(report.compiled.len(), 217 + 22);
}

/// Every local rule has keywords: one without them would run on every string.
#[test]
fn the_local_rules_follow_the_files_conventions() {
    let local = include_str!("../src/redact/rules/local.toml");
    let rules = local.matches("[[rules]]").count();
    assert_eq!(
        local.matches("\nkeywords = [").count(),
        rules,
        "every rule has keywords"
    );
}

// ---------------------------------------------------------------------------
// Every field of every event kind.

/// Fake secrets, one of each family, planted in turn.
const PLANTED: &[&str] = &[
    "ghp_qsR6RZ24lPoQj3oPUlieI2nVsbBi1RMar1jf",
    "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",
    "glpat-Ny59XQhL3rsgoVuBNMXL",
    "npm_cwigxFCL4LBcwIsi9Zduk54IVi5a5p63RjfE",
    "sk_live_7xewqZ0ndTpQ07pHY6WCmKzN",
    "AIzadvbnIlQ2uLfomNZX8XItt5MadHJQCFV1u90",
    "xoxb-427987367309-078221092417-KHU1dnTV6PSBb9IbX3Rjt1Nj",
    "AKIA3ZSFPZKD54G4JCMB",
    "sk-ant-api03-Z0FNK5an46ExHc7BJaq2QE4cZImreQ4djjoUkw_7a7cRSk00kARtptjXL",
    "sk-proj-Eod1A79e1fzJ-tstcwiLv8y-aFi7oiiXwyhdWA5Qs5wrEj2v",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
];

/// Appends a planted secret (or a secret-bearing phrase) to every string in `value`.
fn plant(value: &mut Value, next: &mut usize, planted: &mut Vec<String>) {
    match value {
        Value::String(text) => {
            let secret = match *next % (PLANTED.len() + 3) {
                i if i < PLANTED.len() => PLANTED[i].to_string(),
                i if i == PLANTED.len() => format!("https://ci:Zq8mK2vP{next}@git.example.com"),
                i if i == PLANTED.len() + 1 => format!("DB_PASSWORD=\"pw{next}x\""),
                _ => format!("--password s3cret{next}Q"),
            };
            planted.push(match secret.split_once("://") {
                Some((_, rest)) => rest.split('@').next().unwrap().to_string(),
                None => secret
                    .trim_start_matches("DB_PASSWORD=\"")
                    .trim_start_matches("--password ")
                    .trim_end_matches('"')
                    .to_string(),
            });
            *text = format!("{text} {secret} end");
            *next += 1;
        }
        Value::Array(items) => items.iter_mut().for_each(|v| plant(v, next, planted)),
        Value::Object(map) => map.values_mut().for_each(|v| plant(v, next, planted)),
        _ => {}
    }
}

/// One realistic payload per kind, as the CLI writes them.
fn sample(kind: &str) -> Value {
    let reason = json!({"type": "policy_block", "message": "this command is dangerous", "intent_id": "INT-001",
        "attempted_path": "src/a.ts", "attempted_command": "rm -rf .", "allowed_scope": ["src/auth/**"],
        "available_intents": [{"id": "INT-001", "name": "JWT authentication", "status": "IN_PROGRESS"}],
        "next_step": "Do not retry it."});
    match kind {
        kinds::GENESIS => {
            json!({"ledger_id": "49c2227c23d644c0bb950882f6425c0196d579c0ed494f8ea176a95d8342f14c", "format": 1, "created_by": "intent-ledger 0.1.0"})
        }
        kinds::INTENT_SPEC => json!({"path": ".orchestration/active_intents.yaml",
            "content_hash": "sha256:69799b104f1fc56cede0db40bf715624dc9a64d1a7fb95d8eb13ad6f9f76c8d6", "intents": 1,
            "spec": {"active_intents": [{"id": "INT-001", "name": "JWT authentication", "description": "Signed JWTs.",
                "status": "IN_PROGRESS", "owner": "alice", "created_at": "2026-11-01T09:00:00Z", "updated_at": null,
                "owned_scope": ["src/auth/**"], "constraints": ["Tokens expire after 15 minutes."],
                "acceptance_criteria": ["verify() rejects expired tokens."], "dependencies": [], "references": ["docs/auth.md"],
                "blocked_reason": null, "priority": null, "parent_intent": null, "x-extra": {"note": "kept"}}], "metadata": null}}),
        kinds::INTENT_SELECTED => {
            json!({"intent_id": "INT-001", "via": "mcp", "previous": "INT-002", "reasoning": "the auth work"})
        }
        kinds::INTENT_CLEARED => {
            json!({"intent_id": "INT-001", "via": "prompt", "reason": "session reset"})
        }
        kinds::INTENT_STATUS => {
            json!({"intent_id": "INT-001", "from": "IN_PROGRESS", "status": "DONE", "reason": "shipped",
            "note": "all green", "by": "agent", "session": "s1", "front_end": "claude-code", "model": "claude",
            "checklist": [{"criterion": "verify() rejects expired tokens.", "evidence": "tests/auth/verify.test.ts"}]})
        }
        kinds::INTENT_COMPLETION_PROPOSED => json!({"intent_id": "INT-001", "notes": "done",
            "checklist": [{"criterion": "verify() rejects expired tokens.", "evidence": null}]}),
        kinds::SESSION_START => {
            json!({"front_end": "claude-code", "source": "startup", "model": "anthropic/claude-sonnet-4-5", "cwd": "/tmp/demo1"})
        }
        kinds::PROMPT => {
            json!({"front_end": "claude-code", "prompt_id": "prompt-1", "text": "Add token expiry", "intent_id": "INT-001"})
        }
        kinds::TOOL_PRE => {
            json!({"front_end": "claude-code", "tool": "Bash", "tool_use_id": "toolu_07", "prompt_id": null,
            "model": "claude", "intent_id": "INT-001", "decision": "deny", "class": "dangerous", "paths": ["src/a.ts"],
            "command": "rm -rf .", "reason": reason})
        }
        kinds::TOOL_POST => {
            json!({"front_end": "claude-code", "tool": "Read", "tool_use_id": "toolu_05", "prompt_id": null,
            "intent_id": "INT-001", "ok": false, "error": "exit status 1",
            "file_hashes": {"src/auth/jwt.ts": "sha256:2290ade41ba3b49867852d889a152366a9909044f59009b3369bf03f79b4ad04"}})
        }
        kinds::TRACE => ordinary_trace(),
        kinds::LESSON => {
            json!({"intent_id": "INT-001", "text": "Bash was denied", "origin": "gate"})
        }
        kinds::TURN_VERDICT => {
            json!({"turn": "prompt-1", "mutation_class": "AST_REFACTOR", "reason": "renamed",
            "first_seq": 12, "last_seq": 14, "traces": 2, "paths": ["src/a.ts", "src/b.ts"], "ended_by": "stop",
            "front_end": "claude-code"})
        }
        kinds::SESSION_STOP => json!({"front_end": "claude-code"}),
        kinds::HOOK_WARNING => {
            json!({"message": "PreToolUse: cannot read the specs; denied (fail closed)"})
        }
        kinds::HOOK_UNRECORDED => json!({"hook": "PostToolUse", "front_end": "claude-code",
            "tool": "Write", "tool_use_id": "toolu_09", "paths": ["src/a.ts"],
            "why": "No space left on device (os error 28)", "failed_at": "2026-11-27T00:30:00Z"}),
        kinds::LEDGER_REPAIRED => json!({"kind": "foreign_lines", "since_seq": 41,
            "detail": "2 line(s) after the recorded head", "previous_head": {"seq": 40}, "by": "human",
            "action": "set_aside", "set_aside": {"file": "agent_trace.quarantine-1.jsonl", "bytes": 312,
            "lines": 2, "sha256": "sha256:00"}}),
        kinds::VIOLATION_ACCEPTED => json!({"event_id": "0193aa", "ledger": null, "seq": 12,
            "violation": "scope_violation", "paths": ["docs/notes.md"],
            "reason": "notes belong to the release", "by": "Ana <ana@example.com>"}),
        other => panic!("no sample for kind {other}: add one"),
    }
}

/// The kinds `intent_ledger::kinds` declares, read from its source so that a new
/// kind cannot be left out of the walk below.
fn declared_kinds() -> Vec<String> {
    let source = include_str!("../src/event.rs");
    let module = &source[source.find("pub mod kinds").unwrap()..];
    let module = &module[..module.find("\n}").unwrap()];
    module
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub const "))
        .map(|decl| decl.split('"').nth(1).unwrap().to_string())
        .collect()
}

#[test]
fn every_field_of_every_event_kind_is_redacted_before_it_is_stored() {
    let kinds = declared_kinds();
    assert!(kinds.len() >= 13, "{kinds:?}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("agent_trace.jsonl");
    let mut ledger = fast_ledger(&path);
    let mut next = 0;
    let mut planted = Vec::new();
    let mut events = Vec::new();
    for kind in &kinds {
        let mut data = sample(kind);
        plant(&mut data, &mut next, &mut planted);
        let session = format!("s1 ghp_qsR6RZ24lPoQj3oPUlieI2nVsbBi1RMar1jf {kind}");
        events.push(NewEvent::new(kind.as_str(), "hook:claude-code", data).with_session(session));
    }
    assert!(planted.len() > 100, "{}", planted.len());
    ledger.append_batch(events).unwrap();
    ledger
        .append(NewEvent::new(
            kinds::LESSON,
            "cli",
            json!({"text": "npm_cwigxFCL4LBcwIsi9Zduk54IVi5a5p63RjfE"}),
        ))
        .unwrap();
    drop(ledger);

    let file = std::fs::read_to_string(&path).unwrap();
    for secret in &planted {
        assert!(!file.contains(secret.as_str()), "{secret} is in the ledger");
    }
    assert!(!file.contains("ghp_qsR6"), "session redacted");
    let report = verify_path(&path).unwrap();
    assert!(report.is_intact(), "{report:?}");
    let stored: Vec<_> = read_events(&path).unwrap().map(Result::unwrap).collect();
    assert_eq!(stored.len(), kinds.len() + 2);
    for event in &stored[1..=kinds.len()] {
        let original = sample(&event.kind);
        assert_same_shape(&original, &event.data, &event.kind);
        assert!(event
            .session
            .as_deref()
            .unwrap()
            .starts_with("s1 [REDACTED:"));
    }
}

/// Every string of `original` still starts the stored string (only the planted
/// tail was redacted), and the structure is the same.
fn assert_same_shape(original: &Value, stored: &Value, kind: &str) {
    match (original, stored) {
        (Value::String(a), Value::String(b)) => {
            assert!(b.starts_with(a.as_str()), "{kind}: {a:?} -> {b:?}");
            assert!(
                b.contains("[REDACTED:") && b.ends_with(" end"),
                "{kind}: {b:?}"
            );
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{kind}");
            a.iter()
                .zip(b)
                .for_each(|(a, b)| assert_same_shape(a, b, kind));
        }
        (Value::Object(a), Value::Object(b)) => {
            assert_eq!(
                a.keys().collect::<Vec<_>>(),
                b.keys().collect::<Vec<_>>(),
                "{kind}"
            );
            a.iter()
                .for_each(|(k, v)| assert_same_shape(v, &b[k], kind));
        }
        (a, b) => assert_eq!(a, b, "{kind}"),
    }
}
