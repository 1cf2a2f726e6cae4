//! `intent review --check`: the range against the `review:` rules of
//! `.orchestration/policy.yaml`, for CI. One line per finding; exit 5 when a rule
//! set to `fail` is broken, 0 otherwise (warnings included).

use intent_gate::{CheckAction, Policy, ReviewPolicy};
use intent_spec::ScopeMatcher;
use serde::Serialize;

use super::Review;
use crate::config::Config;
use crate::exit;

/// Exit code of a failed check (as `classify --check`).
pub const FAILED: u8 = 5;

/// One finding of the check.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    /// `fail`, `warn` or `accepted` (a recorded violation a person accepted).
    pub level: &'static str,
    /// The rule: `untraced`, `outside_scope`, `behaviour` or `violations`.
    pub rule: &'static str,
    /// `PATH:LINES`.
    pub at: String,
    /// One sentence.
    pub reason: String,
}

/// The findings of `review` under `policy`, in file order.
pub fn findings(review: &Review, policy: &ReviewPolicy) -> Vec<Finding> {
    let expected = ScopeMatcher::new(&policy.untraced_paths).ok();
    let mut out = Vec::new();
    for a in &review.attention {
        let (rule, action) = match a.kind {
            "untraced" => {
                if expected.as_ref().is_some_and(|m| m.is_match(&a.path)) {
                    continue;
                }
                ("untraced", policy.untraced)
            }
            "outside-scope" => ("outside_scope", policy.outside_scope),
            "behaviour" => ("behaviour", policy.behaviour),
            "violation" => ("violations", policy.violations),
            _ => continue,
        };
        let level = match action {
            CheckAction::Allow => continue,
            CheckAction::Warn => "warn",
            CheckAction::Fail => "fail",
        };
        let at = if a.start == a.end {
            format!("{}:{}", a.path, a.start)
        } else {
            format!("{}:{}-{}", a.path, a.start, a.end)
        };
        out.push(Finding {
            level,
            rule,
            at,
            reason: a.reason.clone(),
        });
    }
    for v in &review.violations {
        if let Some(accepted) = &v.accepted {
            let by = accepted.by.as_deref().unwrap_or("a person");
            out.push(Finding {
                level: "accepted",
                rule: "violations",
                at: v.path.clone(),
                reason: format!(
                    "the {} of event {} was accepted by {by}: {}",
                    v.kind, v.event_id, accepted.reason
                ),
            });
        }
    }
    out
}

/// Prints the findings and returns the exit code.
pub fn run(config: &Config, review: &Review) -> anyhow::Result<u8> {
    let path = config.workspace.orchestration_dir().join("policy.yaml");
    let policy = Policy::load(&path)?;
    let found = findings(review, &policy.review);
    let failed = found.iter().filter(|f| f.level == "fail").count();
    if config.json() {
        let report = serde_json::json!({
            "base": review.base, "head": review.head,
            "passed": failed == 0, "findings": found,
        });
        println!("{}", serde_json::to_string(&report)?);
    } else {
        for f in &found {
            println!(
                "{} {} {}: {} (policy review.{})",
                f.level.to_uppercase(),
                f.rule,
                intent_sync::sanitize(&f.at),
                intent_sync::sanitize(&f.reason),
                f.rule
            );
        }
        let warned = found.iter().filter(|f| f.level == "warn").count();
        let accepted = found.len() - failed - warned;
        println!(
            "review check {}: {failed} failing, {warned} warnings, {accepted} accepted over {} files",
            if failed == 0 { "passed" } else { "FAILED" },
            review.files.len()
        );
    }
    Ok(if failed == 0 { exit::OK } else { FAILED })
}
