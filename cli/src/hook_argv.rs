//! The argument lists the front-ends' hook wiring passes (`intent hook claude-code`,
//! `intent hook copilot --event preToolUse`), recognized without building clap's
//! command tree.
//!
//! Building the tree of every subcommand's arguments is about a third of the
//! `intent` process's page faults at start (measured with `perf record -e
//! page-faults`), and a hook process is started for every tool call of every agent.
//! Only exactly the shapes the wiring writes take this path; anything else (help,
//! `--workspace`, a typo) goes to clap, which parses, explains and fails as usual.
//! A test checks that both agree on every shape.

use std::ffi::OsString;

use clap::ValueEnum;

use crate::config::GlobalArgs;
use crate::hook_answer::HookArgs;
use crate::{Cli, Command};

/// The [`Cli`] of `intent hook [FRONT-END] [--event EVENT]`, or `None` for any
/// other argument list.
pub fn parse(args: &[OsString]) -> Option<Cli> {
    let words: Vec<&str> = args
        .iter()
        .skip(1)
        .map(|a| a.to_str())
        .collect::<Option<_>>()?;
    let (front_end, event) = match words.as_slice() {
        ["hook"] => (None, None),
        ["hook", front_end] => (Some(*front_end), None),
        ["hook", front_end, "--event", event] => (Some(*front_end), Some(*event)),
        _ => return None,
    };
    // Values clap would read as options, or reject, are clap's to judge.
    if front_end.is_some_and(|f| f.starts_with('-')) || event.is_some_and(|e| e.starts_with('-')) {
        return None;
    }
    let front_end = match front_end {
        Some(name) => Some(crate::engine::FrontEnd::from_str(name, false).ok()?),
        None => None,
    };
    Some(Cli {
        global: GlobalArgs {
            workspace: None,
            json: false,
        },
        command: Command::Hook(HookArgs {
            front_end,
            event: event.map(str::to_string),
        }),
    })
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    fn argv(words: &[&str]) -> Vec<OsString> {
        std::iter::once("intent")
            .chain(words.iter().copied())
            .map(OsString::from)
            .collect()
    }

    /// Every shape the wiring writes, for every front-end, parses as clap parses it.
    #[test]
    fn the_wiring_shapes_parse_as_clap_parses_them() {
        let mut shapes = vec![vec!["hook".to_string()]];
        for front_end in crate::engine::FrontEnd::value_variants() {
            let name = front_end
                .to_possible_value()
                .unwrap()
                .get_name()
                .to_string();
            shapes.push(vec!["hook".into(), name.clone()]);
            for event in ["preToolUse", "postToolUse", "sessionStart", "x"] {
                shapes.push(vec![
                    "hook".into(),
                    name.clone(),
                    "--event".into(),
                    event.into(),
                ]);
            }
        }
        for shape in shapes {
            let words: Vec<&str> = shape.iter().map(String::as_str).collect();
            let fast = parse(&argv(&words)).unwrap_or_else(|| panic!("{words:?} not recognized"));
            let clap = Cli::try_parse_from(argv(&words)).unwrap();
            assert_eq!(format!("{fast:?}"), format!("{clap:?}"), "{words:?}");
        }
    }

    /// Anything else is left to clap: other commands, options, unknown front-ends.
    #[test]
    fn other_argument_lists_are_left_to_clap() {
        for words in [
            &[][..],
            &["--version"],
            &["hook", "--help"],
            &["hook", "claude-code", "--json"],
            &["--workspace", "/tmp", "hook", "claude-code"],
            &["hook", "claude-code", "--event"],
            &["hook", "claude-code", "--event", "--json"],
            &["hook", "claude-code", "extra"],
            &["hook", "no-such-agent"],
            &["hook", "claude-code", "--event=preToolUse"],
            &["why", "src/a.ts:1"],
        ] {
            assert!(parse(&argv(words)).is_none(), "{words:?}");
        }
    }
}
