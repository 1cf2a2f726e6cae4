//! Lists a file's parse errors and times its analysis:
//! `cargo run --release -p intent-ast-hash --example parse_errors -- FILE...`.

use std::time::Instant;

use intent_ast_hash::{analyze, SourceFile};

fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("readable UTF-8 file");
        let file = SourceFile::new(&path, text);
        let started = Instant::now();
        let analysis = analyze(&file);
        let ms = started.elapsed().as_secs_f64() * 1e3;
        println!(
            "{path}: {} blocks, {} errors, {ms:.1} ms",
            analysis.blocks.len(),
            analysis.errors.len()
        );
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into())
            .expect("grammar loads");
        let started = Instant::now();
        let tree = parser.parse(&file.text, None).expect("a tree");
        println!(
            "  tree-sitter parse alone: {:.1} ms (errors: {})",
            started.elapsed().as_secs_f64() * 1e3,
            tree.root_node().has_error()
        );
        for error in analysis.errors.iter().take(5) {
            println!(
                "  {}:{} {:?} {}",
                error.line, error.column, error.kind, error.text
            );
        }
    }
}
