//! The front-end `intent hook <name>` names: a built-in one, else an external
//! adapter's (`intent-adapter-<name>` on PATH, docs/frontends/external.md), checked
//! to be a file name and never a path.

use intent_engine::{ExternalFrontEnd, FrontEnd};

/// Reads `intent hook`'s front-end: a built-in one, else an external adapter's
/// name. Help lists the built-in ones.
#[derive(Debug, Clone, Copy)]
pub struct FrontEndParser;

impl clap::builder::TypedValueParser for FrontEndParser {
    type Value = FrontEnd;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<FrontEnd, clap::Error> {
        let invalid =
            |why: String| clap::Error::raw(clap::error::ErrorKind::InvalidValue, why + "\n");
        let text = value
            .to_str()
            .ok_or_else(|| invalid("the front-end's name is not UTF-8".to_string()))?;
        front_end_named(text).map_err(invalid)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        use clap::ValueEnum;
        Some(Box::new(
            FrontEnd::value_variants()
                .iter()
                .filter_map(FrontEnd::to_possible_value),
        ))
    }
}

/// The front-end `intent hook <name>` names: built in, else an external adapter
/// (its capabilities are filled in by its handshake).
pub fn front_end_named(name: &str) -> Result<FrontEnd, String> {
    if let Ok(front_end) = <FrontEnd as clap::ValueEnum>::from_str(name, false) {
        return Ok(front_end);
    }
    valid_name(name)?;
    Ok(FrontEnd::External(ExternalFrontEnd {
        // One adapter per hook process: the name lives as long as the process.
        name: Box::leak(name.to_string().into_boxed_str()),
        blocks_before_write: false,
        can_rewrite_input: false,
        refusal_cancels_task: false,
    }))
}

/// Checks an external adapter's name: lower-case letters, digits, `-` and `_`, so
/// that `intent-adapter-<name>` is a file name and never a path.
pub fn valid_name(name: &str) -> Result<(), String> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
        && !name.starts_with('-');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{name}` is neither a built-in front-end nor an external adapter's name \
             (lower-case letters, digits, `-`, `_`; at most 64)"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_file_names_never_paths() {
        for ok in ["example", "my-agent_2", "a"] {
            assert!(valid_name(ok).is_ok(), "{ok}");
        }
        let long = "x".repeat(65);
        for bad in ["", "../x", "a/b", "A", "-x", "a b", "é", long.as_str()] {
            assert!(valid_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn built_in_names_stay_built_in() {
        assert_eq!(front_end_named("generic"), Ok(FrontEnd::Generic));
        assert_eq!(front_end_named("claude-code"), Ok(FrontEnd::ClaudeCode));
        match front_end_named("example") {
            Ok(FrontEnd::External(external)) => assert_eq!(external.name, "example"),
            other => panic!("{other:?}"),
        }
    }
}
