//! `intent classify` on files and directories, as a CI check would run it.

use serde_json::Value;

use crate::common::{stderr, stdout, TestWorkspace};

fn corpus(case: &str) -> (String, String) {
    let base = format!(
        "{}/../ast-hash/tests/corpus/{case}",
        env!("CARGO_MANIFEST_DIR")
    );
    (format!("{base}/before"), format!("{base}/after"))
}

#[test]
fn a_cross_file_move_is_a_refactor_and_an_operator_change_fails_the_check() {
    let ws = TestWorkspace::empty();
    let (before, after) = corpus("40-move-function-between-barrel-modules");
    let out = ws.run(&["--json", "classify", "--check", &before, &after], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(body["classification"]["mutation_class"], "AST_REFACTOR");
    assert!(body["classification"]["refactor_kinds"]
        .as_array()
        .unwrap()
        .iter()
        .any(|k| k == "move"));
    assert!(body["matches"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["event"] == "moved"));

    let (before, after) = corpus("46-operator-less-than-to-less-equal");
    let out = ws.run(&["classify", "--check", &before, &after], None);
    assert_eq!(out.status.code(), Some(5));
    assert!(
        stdout(&out).starts_with("INTENT_EVOLUTION: behaviour changed in `recordFailure`"),
        "{}",
        stdout(&out)
    );
    // Without --check the verdict is information, not failure.
    assert_eq!(
        ws.run(&["classify", &before, &after], None).status.code(),
        Some(0)
    );
}

#[test]
fn single_files_and_bad_input() {
    let ws = TestWorkspace::empty();
    let a = ws.root().join("a.ts");
    let b = ws.root().join("b.ts");
    std::fs::write(
        &a,
        "export function f(x: number) { const y = x + 1; return y; }\n",
    )
    .unwrap();
    std::fs::write(
        &b,
        "export function f(x: number) {\n  const z = x + 1;\n  return z;\n}\n",
    )
    .unwrap();
    let out = ws.run(
        &["classify", a.to_str().unwrap(), a.to_str().unwrap()],
        None,
    );
    assert!(stdout(&out).starts_with("AST_REFACTOR"), "{}", stdout(&out));
    // Same name, reformatted with a local renamed: a refactor.
    let renamed = ws.root().join("v2");
    std::fs::create_dir_all(&renamed).unwrap();
    std::fs::copy(&b, renamed.join("a.ts")).unwrap();
    let out = ws.run(
        &[
            "--json",
            "classify",
            a.to_str().unwrap(),
            renamed.join("a.ts").to_str().unwrap(),
        ],
        None,
    );
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        body["classification"]["mutation_class"], "AST_REFACTOR",
        "{body}"
    );
    // Another module name for an exported function is an API change.
    let out = ws.run(
        &[
            "--json",
            "classify",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ],
        None,
    );
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        body["classification"]["mutation_class"], "INTENT_EVOLUTION",
        "{body}"
    );
    assert_eq!(body["classification"]["api_changes"][0]["kind"], "moved");

    std::fs::write(&b, [0xff, 0xfe]).unwrap();
    let out = ws.run(
        &["classify", a.to_str().unwrap(), b.to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not UTF-8"));
    let out = ws.run(&["classify", "/no/such/dir", a.to_str().unwrap()], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("cannot read /no/such/dir"));
}

#[test]
fn a_file_without_a_grammar_is_cannot_tell_with_its_own_exit_code() {
    let ws = TestWorkspace::new();
    let (old, new) = (ws.root().join("old"), ws.root().join("new"));
    std::fs::create_dir_all(&old).unwrap();
    std::fs::create_dir_all(&new).unwrap();
    // A re-indent: harmless here, but indentation is meaning in YAML, and there is
    // no YAML grammar, so nothing may call it a refactor or a behaviour change.
    std::fs::write(old.join("deploy.yaml"), "steps:\n  - build\n").unwrap();
    std::fs::write(new.join("deploy.yaml"), "steps:\n    - build\n").unwrap();
    let (o, n) = (old.join("deploy.yaml"), new.join("deploy.yaml"));
    for check in [false, true] {
        let mut args = vec!["classify"];
        if check {
            args.push("--check");
        }
        args.extend([o.to_str().unwrap(), n.to_str().unwrap()]);
        let out = ws.run(&args, None);
        assert_eq!(out.status.code(), Some(6), "{}", stderr(&out));
        assert!(
            stdout(&out).contains("cannot tell: deploy.yaml has no grammar"),
            "{}",
            stdout(&out)
        );
    }
    let out = ws.run(
        &[
            "--json",
            "classify",
            o.to_str().unwrap(),
            n.to_str().unwrap(),
        ],
        None,
    );
    let body: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        body["unsupported"],
        serde_json::json!(["deploy.yaml"]),
        "{body}"
    );
    // Trailing spaces only: a text rule vouches for it, so it is an answer.
    std::fs::write(&n, "steps:  \n  - build\n").unwrap();
    let out = ws.run(
        &[
            "classify",
            "--check",
            o.to_str().unwrap(),
            n.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    // Python has a grammar: the same kind of re-indent there is an answer.
    std::fs::write(old.join("greet.py"), "def f(x):\n    return x\n").unwrap();
    std::fs::write(new.join("greet.py"), "def f(x):\n        return x\n").unwrap();
    let (o, n) = (old.join("greet.py"), new.join("greet.py"));
    let out = ws.run(
        &["classify", o.to_str().unwrap(), n.to_str().unwrap()],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("AST_REFACTOR"), "{}", stdout(&out));
}
