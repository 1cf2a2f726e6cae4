use std::collections::BTreeMap;
use std::env;
use std::fs::File;
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

/// Counts words in the files given on the command line (or stdin) and prints
/// the most frequent ones.
fn main() -> ExitCode {
    let args: Vec<String> = env::args().skip(1).collect();
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let result = if args.is_empty() {
        count(io::stdin().lock(), &mut counts)
    } else {
        args.iter().try_for_each(|path| {
            let file = File::open(path)?;
            count(io::BufReader::new(file), &mut counts)
        })
    };
    if let Err(err) = result {
        eprintln!("wordfreq: {err}");
        return ExitCode::FAILURE;
    }
    let mut top: Vec<(&String, &usize)> = counts.iter().collect();
    top.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
    let mut out = io::stdout().lock();
    for (word, n) in top.into_iter().take(20) {
        if writeln!(out, "{n:>7} {word}").is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn count(reader: impl BufRead, counts: &mut BTreeMap<String, usize>) -> io::Result<()> {
    for line in reader.lines() {
        for word in line?
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            *counts.entry(word.to_lowercase()).or_insert(0) += 1;
        }
    }
    Ok(())
}
