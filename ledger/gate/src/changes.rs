//! Judging changes that already happened, path by path: a front-end that reports
//! edits only afterwards (Cursor), and the files a shell command changed. The rules
//! are the gate's (protected files, the intent, its scope, `.intentignore`),
//! compiled once so thousands of paths cost little.

use intent_spec::{ScopeMatcher, SpecDocument};

use super::protected::protected;

/// The gate's verdict on one changed path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeVerdict {
    /// The gate would have allowed it.
    Fine,
    /// A protected file (what it is); `policy_block`.
    Protected(&'static str),
    /// No intent was selected; `no_active_intent`.
    NoIntent,
    /// Outside the intent's `owned_scope` and `.intentignore`; `scope_violation`.
    OutOfScope,
}

impl ChangeVerdict {
    /// The reason type a refusal of it would carry, `None` when fine.
    pub fn reason_type(self) -> Option<&'static str> {
        match self {
            ChangeVerdict::Fine => None,
            ChangeVerdict::Protected(_) => Some("policy_block"),
            ChangeVerdict::NoIntent => Some("no_active_intent"),
            ChangeVerdict::OutOfScope => Some("scope_violation"),
        }
    }
}

/// The session's rules, compiled for judging many paths.
pub struct ChangeJudge {
    intent: Option<String>,
    /// `None` when the specs or the intent's scope cannot be used: then only
    /// protected files and a missing intent are judged (the gate refused every
    /// destructive action in that state anyway).
    scope: Option<ScopeMatcher>,
    ignore: Option<ScopeMatcher>,
}

impl ChangeJudge {
    /// Rules of a session working under `intent` (if any).
    pub fn new(
        intent: Option<&str>,
        specs: Result<&SpecDocument, &str>,
        ignore: &[String],
    ) -> ChangeJudge {
        let scope = intent
            .and_then(|id| specs.ok()?.intent(id))
            .and_then(|spec| ScopeMatcher::new(&spec.owned_scope).ok());
        ChangeJudge {
            intent: intent.map(str::to_string),
            scope,
            ignore: ScopeMatcher::new(ignore).ok(),
        }
    }

    /// The intent the rules are for.
    pub fn intent(&self) -> Option<&str> {
        self.intent.as_deref()
    }

    /// Judges one workspace-relative path.
    pub fn judge(&self, rel: &str) -> ChangeVerdict {
        if let Some(what) = protected(rel, false) {
            return ChangeVerdict::Protected(what);
        }
        if self.intent.is_none() {
            return ChangeVerdict::NoIntent;
        }
        let Some(scope) = &self.scope else {
            return ChangeVerdict::Fine;
        };
        if scope.is_match(rel) || self.ignore.as_ref().is_some_and(|i| i.is_match(rel)) {
            ChangeVerdict::Fine
        } else {
            ChangeVerdict::OutOfScope
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protected_first_then_intent_then_scope() {
        let specs = SpecDocument::parse(
            b"active_intents:\n  - id: INT-1\n    name: a\n    status: IN_PROGRESS\n    owned_scope: [\"src/**\"]\n",
        )
        .unwrap();
        let judge = ChangeJudge::new(Some("INT-1"), Ok(&specs), &["dist/**".to_string()]);
        assert_eq!(judge.judge("src/a.ts"), ChangeVerdict::Fine);
        assert_eq!(judge.judge("dist/a.js"), ChangeVerdict::Fine);
        assert_eq!(judge.judge("lib/a.ts"), ChangeVerdict::OutOfScope);
        assert!(matches!(
            judge.judge(".orchestration/x"),
            ChangeVerdict::Protected(_)
        ));
        let none = ChangeJudge::new(None, Ok(&specs), &[]);
        assert_eq!(none.judge("src/a.ts"), ChangeVerdict::NoIntent);
        assert_eq!(
            none.judge(".git/config").reason_type(),
            Some("policy_block")
        );
    }
}
