//! The command tables: `programs/*.toml` (data citing manuals) generate
//! `tables.rs` (Rust constants the gate reads, so no hook parses TOML). This test
//! fails when the two disagree; `INTENT_BLESS=1` rewrites `tables.rs`.

use std::path::PathBuf;

use serde::Deserialize;

/// The data files, in the order their entries are generated.
pub(super) const DATA_FILES: &[&str] = &[
    "readers.toml",
    "writers.toml",
    "file_tools.toml",
    "interpreters.toml",
];

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct DataFile {
    #[serde(default)]
    pub(super) reader: Vec<Reader>,
    #[serde(default)]
    pub(super) writer: Vec<Writer>,
    #[serde(default)]
    pub(super) file_tool: Vec<FileTool>,
    #[serde(default)]
    pub(super) interpreter: Vec<Plain>,
    #[serde(default)]
    pub(super) shell: Vec<Plain>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Manual {
    pub(super) page: String,
    pub(super) checked: Checked,
    #[serde(default)]
    pub(super) package: Option<String>,
    pub(super) version: String,
    #[serde(default)]
    pub(super) url: Option<String>,
    pub(super) text: Vec<String>,
}

#[derive(Deserialize, PartialEq, Eq, Clone, Copy, Debug)]
#[serde(rename_all = "snake_case")]
pub(super) enum Checked {
    Local,
    Upstream,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Reader {
    pub(super) names: Vec<String>,
    #[serde(default)]
    pub(super) guarded: Vec<String>,
    #[serde(default)]
    pub(super) output: Vec<String>,
    #[serde(default)]
    pub(super) effect: Option<String>,
    #[serde(default)]
    pub(super) plus_commands: bool,
    #[serde(default)]
    pub(super) max_operands: Option<usize>,
    #[serde(default)]
    pub(super) values: Vec<String>,
    #[serde(default)]
    pub(super) note: Option<String>,
    pub(super) manual: Vec<Manual>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Writer {
    pub(super) names: Vec<String>,
    #[serde(default)]
    pub(super) values: Vec<String>,
    #[serde(default)]
    pub(super) recursive: Vec<String>,
    #[serde(default)]
    pub(super) output: Vec<String>,
    #[serde(default)]
    pub(super) opaque: Vec<String>,
    #[serde(default)]
    pub(super) opaque_why: Option<String>,
    #[serde(default)]
    pub(super) read_only: Vec<String>,
    #[serde(default)]
    pub(super) logic: Vec<String>,
    #[serde(default)]
    pub(super) note: Option<String>,
    pub(super) manual: Vec<Manual>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileTool {
    pub(super) names: Vec<String>,
    #[serde(default)]
    pub(super) values: Vec<String>,
    pub(super) writes: Writes,
    #[serde(default)]
    pub(super) read_only: Vec<String>,
    #[serde(default)]
    pub(super) opaque: Vec<String>,
    #[serde(default)]
    pub(super) logic: Vec<String>,
    #[serde(default)]
    pub(super) note: Option<String>,
    pub(super) manual: Vec<Manual>,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Writes {
    Operands,
    FirstOperand,
    Custom,
    TreeUnder(Vec<String>),
    Pieces {
        #[serde(default)]
        options: Vec<String>,
        #[serde(default)]
        operand: Option<usize>,
        default: String,
    },
}

/// An interpreter or a shell.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Plain {
    pub(super) names: Vec<String>,
    #[serde(default)]
    pub(super) logic: Vec<String>,
    #[serde(default)]
    pub(super) note: Option<String>,
    pub(super) manual: Vec<Manual>,
}

/// Any entry, as the citation checks see it.
pub(super) struct Entry<'a> {
    pub(super) class: &'static str,
    pub(super) names: &'a [String],
    /// Every option the gate relies on for the program.
    pub(super) relied: Vec<&'a str>,
    /// Options that take a value.
    pub(super) values: &'a [String],
    pub(super) manual: &'a [Manual],
    /// What a reviewer should know.
    pub(super) note: Option<&'a str>,
}

impl DataFile {
    pub(super) fn entries(&self) -> Vec<Entry<'_>> {
        fn all<'a>(lists: &[&'a [String]]) -> Vec<&'a str> {
            lists
                .iter()
                .flat_map(|l| l.iter().map(String::as_str))
                .collect()
        }
        let mut out = Vec::new();
        for r in &self.reader {
            let mut relied = all(&[&r.guarded, &r.output, &r.values]);
            if r.plus_commands {
                relied.push("+cmd");
            }
            let (names, values, manual) = (&r.names[..], &r.values[..], &r.manual[..]);
            out.push(Entry {
                class: "reader",
                names,
                relied,
                values,
                manual,
                note: r.note.as_deref(),
            });
        }
        for w in &self.writer {
            let lists = [
                &w.values[..],
                &w.recursive,
                &w.output,
                &w.opaque,
                &w.read_only,
                &w.logic,
            ];
            let (names, values, manual) = (&w.names[..], &w.values[..], &w.manual[..]);
            out.push(Entry {
                class: "writer",
                names,
                relied: all(&lists),
                values,
                manual,
                note: w.note.as_deref(),
            });
        }
        for t in &self.file_tool {
            let mut relied = all(&[&t.values, &t.read_only, &t.opaque, &t.logic]);
            match &t.writes {
                Writes::TreeUnder(options) | Writes::Pieces { options, .. } => {
                    relied.extend(options.iter().map(String::as_str))
                }
                _ => {}
            }
            let (names, values, manual) = (&t.names[..], &t.values[..], &t.manual[..]);
            out.push(Entry {
                class: "file tool",
                names,
                relied,
                values,
                manual,
                note: t.note.as_deref(),
            });
        }
        for (class, list) in [("interpreter", &self.interpreter), ("shell", &self.shell)] {
            for p in list {
                let relied = all(&[&p.logic]);
                out.push(Entry {
                    class,
                    names: &p.names,
                    relied,
                    values: &[],
                    manual: &p.manual,
                    note: p.note.as_deref(),
                });
            }
        }
        out
    }
}

fn shell_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/shell")
}

/// Every data file, merged in [`DATA_FILES`] order.
pub(super) fn load() -> DataFile {
    let mut all = DataFile::default();
    for name in DATA_FILES {
        let path = shell_dir().join("programs").join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let file: DataFile = toml::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        all.reader.extend(file.reader);
        all.writer.extend(file.writer);
        all.file_tool.extend(file.file_tool);
        all.interpreter.extend(file.interpreter);
        all.shell.extend(file.shell);
    }
    all
}

fn is_short(option: &str) -> bool {
    option.len() == 2 && option.starts_with('-') && option != "--"
}

/// The letters of the short options among `options` (`-o`, `-T` → `oT`).
fn letters<'a>(options: impl IntoIterator<Item = &'a String>) -> String {
    options
        .into_iter()
        .filter(|o| is_short(o))
        .map(|o| &o[1..])
        .collect()
}

/// The long options among `options`, each once, in order.
fn longs<'a>(options: impl IntoIterator<Item = &'a String>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for o in options {
        if o.starts_with("--") && !out.contains(&o.as_str()) {
            out.push(o);
        }
    }
    out
}

/// `&["a", "b"]`, wrapped to fit after `indent` spaces.
fn list<S: AsRef<str>>(items: &[S], indent: usize) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("{:?}", s.as_ref())).collect();
    let flat = format!("&[{}]", quoted.join(", "));
    if flat.len() + indent <= 100 {
        return flat;
    }
    let pad = " ".repeat(indent + 4);
    let mut out = String::from("&[\n");
    let mut line = String::new();
    for q in quoted {
        if !line.is_empty() && pad.len() + line.len() + q.len() + 2 > 100 {
            out += &format!("{pad}{}\n", line.trim_end());
            line.clear();
        }
        line += &format!("{q}, ");
    }
    out += &format!("{pad}{}\n{}]", line.trim_end(), " ".repeat(indent));
    out
}

/// `// sort(1): coreutils 9.1-1`, one per citation.
fn cites(manual: &[Manual]) -> String {
    let parts: Vec<String> = manual
        .iter()
        .map(|m| match (&m.package, &m.url) {
            (Some(package), _) => format!("{}: {package} {}", m.page, m.version),
            (None, url) => format!(
                "{}: {} (upstream, {})",
                m.page,
                m.version,
                url.as_deref().unwrap_or("")
            ),
        })
        .collect();
    format!("    // {}\n", parts.join("; "))
}

fn render_reader(r: &Reader) -> String {
    let mut fields = vec![format!("names: {}", list(&r.names, 8))];
    let short = letters(&r.guarded);
    if !short.is_empty() {
        fields.push(format!("guarded_short: {short:?}"));
    }
    let long = longs(&r.guarded);
    if !long.is_empty() {
        fields.push(format!("guarded_long: {}", list(&long, 8)));
    }
    if !r.output.is_empty() {
        fields.push(format!("output: {}", list(&r.output, 8)));
    }
    if let Some(effect) = &r.effect {
        fields.push(format!("effect: {effect:?}"));
    }
    if r.plus_commands {
        fields.push("plus_commands: true".into());
    }
    if let Some(max) = r.max_operands {
        fields.push(format!("max_operands: Some({max})"));
    }
    let short = letters(&r.values);
    if !short.is_empty() {
        fields.push(format!("short_values: {short:?}"));
    }
    let long = longs(&r.values);
    if !long.is_empty() {
        fields.push(format!("long_values: {}", list(&long, 8)));
    }
    let one_line = format!("    Reader {{ {}, ..Reader::PURE }},\n", fields.join(", "));
    if one_line.len() <= 101 && one_line.matches('\n').count() == 1 {
        return cites(&r.manual) + &one_line;
    }
    let body: String = fields.iter().map(|f| format!("        {f},\n")).collect();
    format!(
        "{}    Reader {{\n{body}        ..Reader::PURE\n    }},\n",
        cites(&r.manual)
    )
}

/// Every long option an entry names, for reading abbreviations.
fn long_options(lists: &[&[String]]) -> Vec<String> {
    longs(lists.iter().flat_map(|l| l.iter()))
        .into_iter()
        .map(String::from)
        .collect()
}

fn render_writer(w: &Writer) -> String {
    let all = long_options(&[
        &w.values,
        &w.recursive,
        &w.output,
        &w.opaque,
        &w.read_only,
        &w.logic,
    ]);
    let fields = [
        format!("names: {}", list(&w.names, 8)),
        format!("short_values: {:?}", letters(&w.values)),
        format!("long_values: {}", list(&longs(&w.values), 8)),
        format!("long_options: {}", list(&all, 8)),
        format!("recursive: {}", list(&w.recursive, 8)),
        format!("output: {}", list(&w.output, 8)),
        format!("opaque: {}", list(&w.opaque, 8)),
        format!("opaque_why: {:?}", w.opaque_why.as_deref().unwrap_or("")),
        format!("read_only: {}", list(&w.read_only, 8)),
    ];
    let body: String = fields.iter().map(|f| format!("        {f},\n")).collect();
    format!("{}    Writer {{\n{body}    }},\n", cites(&w.manual))
}

fn render_file_tool(t: &FileTool) -> String {
    let writes = match &t.writes {
        Writes::Operands => "Writes::Operands".to_string(),
        Writes::FirstOperand => "Writes::FirstOperand".to_string(),
        Writes::Custom => "Writes::Custom".to_string(),
        Writes::TreeUnder(options) => format!("Writes::TreeUnder({})", list(options, 8)),
        Writes::Pieces {
            options,
            operand,
            default,
        } => format!(
            "Writes::Pieces {{ options: {}, operand: {operand:?}, default: {default:?} }}",
            list(options, 8)
        ),
    };
    let pieces: &[String] = match &t.writes {
        Writes::TreeUnder(options) | Writes::Pieces { options, .. } => options,
        _ => &[],
    };
    let all = long_options(&[&t.values, pieces, &t.read_only, &t.opaque, &t.logic]);
    let fields = [
        format!("names: {}", list(&t.names, 8)),
        format!("short_values: {:?}", letters(&t.values)),
        format!("long_values: {}", list(&longs(&t.values), 8)),
        format!("long_options: {}", list(&all, 8)),
        format!("writes: {writes}"),
        format!("read_only_with: {}", list(&t.read_only, 8)),
        format!("opaque_with: {}", list(&t.opaque, 8)),
    ];
    let body: String = fields.iter().map(|f| format!("        {f},\n")).collect();
    format!("{}    FileTool {{\n{body}    }},\n", cites(&t.manual))
}

fn names(entries: &[Plain]) -> String {
    let all: Vec<&String> = entries.iter().flat_map(|p| &p.names).collect();
    list(&all, 0)
}

/// The Rust `tables.rs` holds for this data.
pub(super) fn render(data: &DataFile) -> String {
    let mut out = String::from(
        "//! The gate's tables of programs, generated from the data in `programs/`\n\
         //! (`readers.toml`, `writers.toml`, `file_tools.toml`, `interpreters.toml`),\n\
         //! where every entry cites the manual its options were checked against.\n\
         //!\n\
         //! @generated by the test `the_program_tables_match_their_data_files`\n\
         //! (`gate/src/shell/tables_tests.rs`). Do not edit: change the data and run\n\
         //! `INTENT_BLESS=1 cargo test -p intent-gate the_program_tables`. One entry per\n\
         //! program, so longer than the hand-written files.\n\n\
         use super::commands::Reader;\n\
         use super::file_tools::{FileTool, Writes};\n\
         use super::writers::Writer;\n\n\
         /// Programs that read: read-only unless a guarded option, a `+command` or an\n\
         /// extra operand says otherwise (`programs/readers.toml`).\n\
         pub(super) const READERS: &[Reader] = &[\n",
    );
    out.extend(data.reader.iter().map(render_reader));
    out +=
        "];\n\n/// Programs whose operands are the files they write (`programs/writers.toml`).\n\
            pub(super) const WRITERS: &[Writer] = &[\n";
    out.extend(data.writer.iter().map(render_writer));
    out += "];\n\n/// Archives, mirrors, splitters, patchers and editors (`programs/file_tools.toml`).\n\
            pub(super) const FILE_TOOLS: &[FileTool] = &[\n";
    out.extend(data.file_tool.iter().map(render_file_tool));
    out += "];\n\n/// Programs that run code they are given: always opaque\n\
            /// (`programs/interpreters.toml`).\n";
    out += &format!(
        "pub(super) const INTERPRETERS: &[&str] = {};\n\n",
        names(&data.interpreter)
    );
    out += "/// Shells whose `-c` string is parsed as a script (`programs/interpreters.toml`).\n";
    out += &format!(
        "pub(super) const SHELLS: &[&str] = {};\n",
        names(&data.shell)
    );
    out
}

#[test]
fn the_program_tables_match_their_data_files() {
    let generated = render(&load());
    let path = shell_dir().join("tables.rs");
    if std::env::var_os("INTENT_BLESS").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == generated,
        "src/shell/tables.rs is not what src/shell/programs/*.toml generate: run \
         `INTENT_BLESS=1 cargo test -p intent-gate the_program_tables` and commit it"
    );
}
