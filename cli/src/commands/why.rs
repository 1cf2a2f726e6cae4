//! `intent why PATH:LINE | PATH::Symbol` and `intent blame PATH`.

use std::fmt::Write as _;

use clap::Args;
use intent_query::why::{BlameAnswer, Target, WhyAnswer};

use crate::config::Config;
use crate::engine::context::clip;
use crate::exit;

/// Arguments of `intent why`.
#[derive(Debug, Args)]
pub struct WhyArgs {
    /// `PATH:LINE` (src/auth/jwt.ts:12) or `PATH::Symbol` (src/auth/jwt.ts::verify).
    pub target: String,
}

/// Arguments of `intent blame`.
#[derive(Debug, Args)]
pub struct BlameArgs {
    /// The file, relative to the current directory or absolute.
    pub path: String,
}

/// Prints the history of the block holding a line (or of a named block).
pub fn run_why(config: &Config, args: WhyArgs) -> anyhow::Result<u8> {
    config.require_ledger()?;
    let target = Target::parse(&args.target)?;
    let answer = crate::union::why(&config.workspace, &target)?;
    if config.json() {
        println!("{}", serde_json::to_string(&answer)?);
    } else {
        print!("{}", render_why(&answer));
    }
    Ok(exit::OK)
}

/// The text form of a `why` answer.
pub fn render_why(a: &WhyAnswer) -> String {
    let mut out = String::new();
    match &a.block {
        Some(b) => {
            let id = b.id.as_deref().map_or("untraced".to_string(), |id| {
                format!("block {}", clip_id(id))
            });
            let _ = writeln!(
                out,
                "{}:{} is in {} `{}` (lines {}–{}, {id})",
                a.path, a.line, b.kind, b.name, b.start_line, b.end_line,
            );
            for outer in a.enclosing.iter().rev() {
                let _ = writeln!(
                    out,
                    "  inside {} `{}` (lines {}–{})",
                    outer.kind, outer.name, outer.start_line, outer.end_line
                );
            }
        }
        None => {
            let _ = writeln!(out, "{}:{} is in no traced block", a.path, a.line);
        }
    }
    let _ = writeln!(out, "  answered by: {}", level_text(a.level));
    if let Some(last) = &a.last_touched {
        let _ = writeln!(
            out,
            "  last touched:          #{} {} ({})",
            last.seq,
            last.intent_id.as_deref().unwrap_or("(no intent)"),
            label_text(last)
        );
        // After a move, the change before it is the one that wrote the text.
        if let Some(edit) = a.last_edit.as_ref().filter(|e| e.seq != last.seq) {
            let _ = writeln!(
                out,
                "  last edited:           #{} {} ({})",
                edit.seq,
                edit.intent_id.as_deref().unwrap_or("(no intent)"),
                label_text(edit)
            );
        }
        match &a.last_behaviour_change {
            Some(b) => {
                let _ = writeln!(
                    out,
                    "  last behaviour change: #{} {}",
                    b.seq,
                    b.intent_id.as_deref().unwrap_or("(no intent)")
                );
            }
            None => out.push_str("  last behaviour change: none recorded\n"),
        }
    }
    if a.outside_ledger {
        out.push_str("  ! changed outside the ledger since its last trace\n");
    }
    if let Some(note) = &a.note {
        let _ = writeln!(out, "  ({note})");
    }
    for newer in &a.newer {
        let _ = writeln!(out, "  > {}", newer.describe());
    }
    if a.history.is_empty() {
        out.push_str("  no recorded change\n");
    }
    for h in &a.history {
        let mut what = h.event.clone();
        if let Some(from) = &h.from_path {
            let _ = write!(what, " from {from}");
        }
        if let Some(from) = &h.from_name {
            let _ = write!(what, " (was `{from}`)");
        }
        for origin in &h.origins {
            let _ = write!(what, ", {origin}");
        }
        if let Some(from) = &h.inherited_from {
            let _ = write!(what, " (in {from})");
        }
        let _ = writeln!(
            out,
            "  #{:<6} {}  {:<10} {} {}  [{}: {}]",
            h.seq,
            h.ts.get(..19).unwrap_or(&h.ts).replace('T', " "),
            what,
            h.intent_id.as_deref().unwrap_or("(no intent)"),
            h.intent_name
                .as_deref()
                .map(|n| format!("“{n}”"))
                .unwrap_or_default(),
            h.mutation_class.as_deref().unwrap_or("?"),
            label_text(h),
        );
        let _ = writeln!(
            out,
            "           {}  session {}  {}  {}",
            h.path,
            h.session
                .as_deref()
                .map_or("-".to_string(), |s| clip(s, 12)),
            h.model.as_deref().unwrap_or("model unknown"),
            h.front_end.as_deref().unwrap_or(""),
        );
        if let Some(ledger) = &h.ledger {
            let _ = writeln!(out, "           from {ledger}");
        }
        if let Some(prompt) = &h.prompt {
            let _ = writeln!(out, "           prompt: {}", clip(prompt, 100));
        }
        if let Some(reason) = &h.reason {
            let _ = writeln!(
                out,
                "           the write's class, because: {}",
                clip(reason, 100)
            );
        }
    }
    for intent in &a.intents {
        if intent.constraints.is_empty() {
            continue;
        }
        let _ = writeln!(out, "  {} constraints:", intent.id);
        for c in &intent.constraints {
            let _ = writeln!(out, "    - {c}");
        }
    }
    out
}

/// How the history was followed, for people.
fn level_text(level: &str) -> &'static str {
    match level {
        "block" => "block (the block's history, across moves and renames)",
        "line" => "line (the line's text, across moves; no traced block holds it)",
        "file" => "file (every traced write of the file; its lines cannot be followed)",
        _ => "nothing (the ledger holds no write of it)",
    }
}

fn clip_id(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}

/// What a change did to the block, for people: `behaviour`, or its refactor labels.
fn label_text(h: &intent_query::why::HistoryItem) -> String {
    if h.labels.is_empty() {
        return if h.behaviour { "behaviour" } else { "refactor" }.to_string();
    }
    h.labels.join(", ")
}

/// Prints every line of a file with its block and latest intent.
pub fn run_blame(config: &Config, args: BlameArgs) -> anyhow::Result<u8> {
    config.require_ledger()?;
    let answer = crate::union::blame(&config.workspace, &args.path)?;
    if config.json() {
        println!("{}", serde_json::to_string(&answer)?);
    } else {
        print!("{}", render_blame(&answer));
    }
    Ok(exit::OK)
}

/// The text form of a `blame` answer: intent, seq, block, line number, text
/// (control characters escaped, so a file cannot drive the terminal).
pub fn render_blame(a: &BlameAnswer) -> String {
    let mut out = String::new();
    for l in &a.lines {
        let intent = l.intent_id.as_deref().unwrap_or("-");
        let seq = match (l.seq, &l.ledger) {
            (Some(s), None) => format!("#{s}"),
            // Another clone's seq: marked so it is not read as one of this ledger.
            (Some(s), Some(_)) => format!("^{s}"),
            (None, _) => String::new(),
        };
        let block = l
            .block
            .as_ref()
            .map_or(String::new(), |b| clip(&b.name, 18));
        let mark = if l.outside_ledger { "!" } else { " " };
        let _ = writeln!(
            out,
            "{intent:<9} {seq:<7} {block:<18}{mark}{:>5} | {}",
            l.line,
            intent_sync::sanitize(&l.text).replace("\\u{9}", "\t")
        );
    }
    for (id, name) in &a.intents {
        let _ = writeln!(
            out,
            "{}: {}",
            intent_sync::sanitize(id),
            intent_sync::sanitize(name)
        );
    }
    let mut others: Vec<&str> = a.lines.iter().filter_map(|l| l.ledger.as_deref()).collect();
    others.sort_unstable();
    others.dedup();
    for other in others {
        let _ = writeln!(out, "^N: seq N of {other}");
    }
    if a.lines.iter().any(|l| l.outside_ledger) {
        out.push_str("! changed outside the ledger since the last trace\n");
    }
    out
}
