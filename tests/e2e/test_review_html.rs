//! `intent review --html` (issue #32) rendered in headless Chromium (Debian's
//! `chromium`, which CI installs): screenshotted, its DOM checked for every
//! changed file, class and intent, and Chromium's network log checked for any
//! request the page made. A control page with an image proves the network check
//! sees a page's requests.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::test_review::branch_with_agent_work;

/// Runs headless Chromium on `page` with `extra` flags; returns stdout.
fn chromium(page: &Path, extra: &[String]) -> String {
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
        ])
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("Debian's chromium is installed (.ci/run installs it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The URLs of requests a page (its origin is `null` under file://) started,
/// from Chromium's network log of loading `page`.
fn page_requests(page: &Path, dir: &Path) -> Vec<String> {
    let log = dir.join(format!(
        "{}.netlog.json",
        page.file_name().unwrap().to_string_lossy()
    ));
    chromium(
        page,
        &[
            format!("--log-net-log={}", log.display()),
            "--dump-dom".into(),
        ],
    );
    let log: Value = serde_json::from_slice(&std::fs::read(&log).unwrap()).unwrap();
    log["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["params"]["initiator"] == "null")
        .filter_map(|e| e["params"]["url"].as_str().map(str::to_string))
        .collect()
}

#[test]
#[cfg_attr(
    not(intent_ci),
    ignore = "runs Debian's chromium, which .ci/run installs; elsewhere: CI=true cargo test"
)]
fn the_html_review_renders_every_file_class_and_intent_without_the_network() {
    let dir = tempfile::tempdir().unwrap();
    let c = branch_with_agent_work(dir.path(), "  return 2; // <b>&</b>");

    let page = dir.path().join("review.html");
    let review: Value =
        serde_json::from_str(&c.intent_ok(&["--json", "review", "--html", page.to_str().unwrap()]))
            .unwrap();

    let shot = dir.path().join("review.png");
    chromium(
        &page,
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1200,1600".into(),
        ],
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{} bytes",
        png.len()
    );

    let dom = chromium(&page, &["--dump-dom".into()]);
    for file in review["files"].as_array().unwrap() {
        let path = file["path"].as_str().unwrap();
        assert!(
            dom.contains(&format!("data-path=\"{path}\"")),
            "{path} missing"
        );
    }
    for class in ["line behaviour", "line refactor", "line untraced"] {
        assert!(
            dom.contains(&format!("class=\"{class}\"")),
            "{class} missing"
        );
    }
    assert!(dom.contains("data-intent=\"INT-001\""));
    assert!(dom.contains("<section class=\"intent\" data-intent=\"INT-001\">"));
    // The human's line is text, not markup.
    assert!(dom.contains("// &lt;b&gt;&amp;&lt;/b&gt;"), "escaped");

    // No request from the page; the same check sees a control page's image.
    assert_eq!(page_requests(&page, dir.path()), Vec::<String>::new());
    let control = dir.path().join("control.html");
    std::fs::write(&control, "<img src=\"http://127.0.0.1:9/x.png\">").unwrap();
    let seen = page_requests(&control, dir.path());
    assert!(seen.iter().any(|u| u.contains("127.0.0.1:9")), "{seen:?}");
}
