use std::path::PathBuf;

const USAGE: &str = "Usage: backup [OPTIONS] <SOURCE> <DEST>

Copies SOURCE to DEST, skipping files whose size and mtime are unchanged.

Options:
  -n, --dry-run    show what would be copied
  -v, --verbose    list every file
  -h, --help       print this text
";

#[derive(Debug, Default, PartialEq)]
pub struct Args {
    pub dry_run: bool,
    pub verbose: bool,
    pub source: PathBuf,
    pub dest: PathBuf,
}

/// Parses the command line; `Err` holds the text to print before exiting.
pub fn parse(argv: &[String]) -> Result<Args, String> {
    let mut args = Args::default();
    let mut positional = Vec::new();
    for a in argv {
        match a.as_str() {
            "-n" | "--dry-run" => args.dry_run = true,
            "-v" | "--verbose" => args.verbose = true,
            "-h" | "--help" => return Err(USAGE.to_string()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n\n{USAGE}")),
            s => positional.push(PathBuf::from(s)),
        }
    }
    let [source, dest]: [PathBuf; 2] = positional.try_into().map_err(|_| {
        format!(
            "expected exactly two paths, SOURCE and DEST; \
             see --help\n\n{USAGE}"
        )
    })?;
    args.source = source;
    args.dest = dest;
    Ok(args)
}
