//! The public result types of one file's analysis.

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::hash::Hash128;
use crate::lang::{BlockKind, ImportInfo, TopLevelRole};

/// One file of an agent turn, as it was before or after the turn.
///
/// Owned (`String`s) so that a caller can build a turn from files it read and keep
/// the analysis around; the text must be UTF-8 (callers pass non-UTF-8 files through
/// lossy decoding or not at all).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SourceFile {
    /// Workspace-relative path with `/` separators (`src/auth/jwt.ts`).
    pub path: String,
    /// The file's full content.
    pub text: String,
}

impl SourceFile {
    /// Creates a source file.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            path: path.into(),
            text: text.into(),
        }
    }
}

/// The three hashes of a block (or of a whole file).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BlockHashes {
    /// Kind names and token text; whitespace, comments and punctuation dropped.
    pub exact: Hash128,
    /// Like `exact`, with bound local names replaced by their binding position.
    pub alpha: Hash128,
    /// Like `exact`, with every name and literal abstracted (candidates only).
    pub shape: Hash128,
}

/// A 1-based, inclusive line range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Lines {
    /// First line (1-based).
    pub start: u32,
    /// Last line (1-based, inclusive).
    pub end: u32,
}

/// A named declaration of a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    /// What it declares.
    pub kind: BlockKind,
    /// Its own name (`verify`; `default` for an anonymous default export).
    pub name: String,
    /// Its name qualified by the enclosing blocks (`AuthService.verify`).
    pub qualified_name: String,
    /// Byte range in the file.
    pub byte_range: Range<usize>,
    /// Line range in the file.
    pub lines: Lines,
    /// Index of the enclosing block in the same file's `blocks`.
    pub parent: Option<usize>,
    /// Part of the file's API: exported, or a non-private member of an exported block.
    pub exported: bool,
    /// The block's hashes.
    pub hashes: BlockHashes,
    /// The alpha hash of everything before the body (name, parameters, types): a
    /// change here on an exported block changes its signature. Equal to `hashes.alpha`
    /// for blocks without a body.
    pub signature: Hash128,
}

/// Whether a parse error is an unexpected stretch of text or a missing token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParseErrorKind {
    /// tree-sitter could not fit some text into the grammar (an `ERROR` node).
    Unexpected,
    /// tree-sitter assumed a missing token (a `MISSING` node).
    Missing,
}

/// One parse error, located.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParseError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes.
    pub column: u32,
    /// What went wrong.
    pub kind: ParseErrorKind,
    /// The unexpected text (clipped, whitespace squeezed) or the missing token.
    pub text: String,
}

/// Everything one file yields: blocks, hashes, parse errors.
#[derive(Debug, Clone, Serialize)]
pub struct FileAnalysis {
    /// The file's path.
    pub path: String,
    /// The grammar used (`typescript`, `tsx`, `javascript`), or `None` when the file
    /// has none and only text rules apply.
    pub language: Option<&'static str>,
    /// Named declarations in source order (parents before children).
    pub blocks: Vec<Block>,
    /// Parse errors in source order.
    pub errors: Vec<ParseError>,
    /// Hashes of the whole file (top-level statements in source order); `None` for
    /// text files.
    pub hashes: Option<BlockHashes>,
    #[serde(skip)]
    pub(crate) text: String,
    #[serde(skip)]
    pub(crate) detail: Detail,
}

impl FileAnalysis {
    /// Returns the file's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Returns the source text of a block.
    pub fn block_text(&self, block: &Block) -> &str {
        self.text.get(block.byte_range.clone()).unwrap_or("")
    }

    /// Returns the whole lines a block spans, from the start of its first line to
    /// the end of its last (newline excluded): what a line-based reader (`git blame`,
    /// a reviewer) sees of it, with the indentation before it and the `;`, `,` or
    /// comment after it on its last line.
    pub fn block_lines_text(&self, block: &Block) -> &str {
        let (start, end) = (block.byte_range.start, block.byte_range.end);
        let Some(before) = self.text.get(..start) else {
            return "";
        };
        let first = before.rfind('\n').map_or(0, |i| i + 1);
        let last = self
            .text
            .get(end..)
            .and_then(|rest| rest.find('\n'))
            .map_or(self.text.len(), |i| end + i);
        self.text.get(first..last.max(end)).unwrap_or("")
    }

    /// Returns a hash of a block's lines as written ([`Self::block_lines_text`]:
    /// whitespace, comments, quotes and trailing punctuation included): the first 16
    /// bytes of their BLAKE3. Unlike the AST hashes it changes with every edit a
    /// reader can see, so it says whether a write touched the block at all, and it
    /// finds the block again in a later text.
    pub fn block_text_hash(&self, block: &Block) -> Hash128 {
        let digest = blake3::hash(self.block_lines_text(block).as_bytes());
        let mut out = [0; 16];
        out.copy_from_slice(&digest.as_bytes()[..16]);
        Hash128(out)
    }

    /// Returns the keys of every block, in order (see [`Self::block_key`]), in one
    /// pass.
    pub fn block_keys(&self) -> Vec<String> {
        let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        self.blocks
            .iter()
            .map(|b| {
                let n = seen.entry(b.qualified_name.as_str()).or_default();
                *n += 1;
                if *n == 1 {
                    b.qualified_name.clone()
                } else {
                    format!("{}#{}", b.qualified_name, n)
                }
            })
            .collect()
    }

    /// Returns the key naming block `index` within its file: its qualified name,
    /// followed by `#2`, `#3`, … for the second, third, … block of that name in
    /// source order (overload signatures, duplicate members). Unlike the bare name,
    /// the key is unique within a file.
    pub fn block_key(&self, index: usize) -> String {
        let Some(block) = self.blocks.get(index) else {
            return String::new();
        };
        let earlier = self.blocks[..index]
            .iter()
            .filter(|b| b.qualified_name == block.qualified_name)
            .count();
        if earlier == 0 {
            block.qualified_name.clone()
        } else {
            format!("{}#{}", block.qualified_name, earlier + 1)
        }
    }
}

/// What classification needs beyond the public fields (crate-internal).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Detail {
    /// Top-level statements, in order.
    pub(crate) items: Vec<TopItem>,
    /// Comments that tools act on (pragmas), squeezed and sorted.
    pub(crate) pragmas: Vec<String>,
    /// Digest of the comments, as a multiset.
    pub(crate) comments: Hash128,
    /// Digest of the layout: whitespace and dropped punctuation, in order.
    pub(crate) layout: Hash128,
    /// Parse error signatures (kind and squeezed text), position-free.
    pub(crate) error_signatures: Vec<String>,
}

/// One top-level statement.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct TopItem {
    pub(crate) role: TopLevelRole,
    pub(crate) hashes: BlockHashes,
    /// Indices of the top-level blocks inside it.
    pub(crate) blocks: Vec<usize>,
    /// Module-level names it declares.
    pub(crate) declared: Vec<String>,
    /// Names it exports (`default` for a default export).
    pub(crate) exports: Vec<String>,
    /// Names it uses that are not bound inside it (sorted, deduplicated).
    pub(crate) free: Vec<String>,
    /// For imports: the bindings.
    pub(crate) import: Option<ImportInfo>,
    /// For `export * from "source"`: the source.
    pub(crate) reexport_all: Option<String>,
    /// An import or export statement (the file is a module, not a script).
    pub(crate) module_syntax: bool,
    /// Digest of its layout (whitespace and dropped punctuation inside it).
    pub(crate) layout: Hash128,
    /// Digest of the source order of the members of its order-insensitive containers.
    pub(crate) order: Hash128,
    pub(crate) lines: Lines,
}
