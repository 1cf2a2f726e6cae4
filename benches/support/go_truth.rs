//! Ground truth from a parser that is not the one under test: the blocks of Go files
//! by the standard library's `go/parser` and `go/ast` (a small Go program, run with
//! `go run`), named and spanned the way `intent` names blocks (ast-hash/src/lang/go/):
//!
//! - `func` → `function`; a method → `method`, a top-level block `Recv.M` (the
//!   receiver's type name without `*`, parentheses or type arguments);
//! - a type spec → `struct`, `interface` or `type_alias` (any other type, and every
//!   alias `type A = ..`, even of a struct or interface: its fields are no blocks);
//!   the fields of a struct are children `T.F` (kind `field`; `A, B int` is one
//!   field `T.A, B`; an embedded field is named after its type, without `*`, package
//!   or type arguments; fields of nested anonymous structs are no blocks); the
//!   methods of an interface are children `I.M` (kind `method`; embedded interfaces
//!   and type sets are no blocks);
//! - a package-level `const`/`var` spec → `const`/`var`, one block per spec, named by
//!   its names joined with ", " (`a, B`; intent names a `const` spec of several
//!   names `a, ,, B` — its commas are in the grammar's `name` field — a bug, not a
//!   convention); a spec declaring only `_` is no block;
//! - declarations inside function bodies are no blocks.
//!
//! Spans are those of the AST nodes, as tree-sitter's: a block starts at `func`, at a
//! type spec's name, at a value spec's first name, at a field's first name or type; doc
//! comments and the `type`/`const`/`var` keyword line of a grouped declaration are
//! outside (both parsers make the spec, not the declaration, the block), a struct
//! tag inside its field.

use std::path::PathBuf;
use std::process::Command;

use crate::replay_truth::FileTruth;
use crate::truth_tool;

const PROGRAM: &str = r#"
package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
)

type block struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

// typeName: the name of a receiver or embedded type, without `*`, package
// qualifier or type arguments.
func typeName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.Ident:
			return t.Name
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.SelectorExpr:
			e = t.Sel
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		default:
			return ""
		}
	}
}

func names(ids []*ast.Ident) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.Name
	}
	return strings.Join(out, ", ")
}

// The blocks of a file, in source order. A node's Pos() excludes its Doc comment and,
// for a spec, the `type`/`const`/`var` keyword; End() is just after its last token.
func analyze(fset *token.FileSet, f *ast.File) []block {
	out := []block{}
	add := func(name, kind string, n ast.Node) {
		out = append(out, block{name, kind, fset.Position(n.Pos()).Line, fset.Position(n.End()).Line})
	}
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				add(d.Name.Name, "function", d)
			} else if len(d.Recv.List) == 1 {
				if recv := typeName(d.Recv.List[0].Type); recv != "" {
					add(recv+"."+d.Name.Name, "method", d)
				}
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				switch s := spec.(type) {
				case *ast.TypeSpec:
					name := s.Name.Name
					switch t := s.Type.(type) {
					case *ast.StructType:
						// An alias (`type A = struct{..}`) is a type_alias without fields.
						if s.Assign.IsValid() {
							add(name, "type_alias", s)
							break
						}
						add(name, "struct", s)
						for _, field := range t.Fields.List {
							fname := names(field.Names)
							if len(field.Names) == 0 {
								fname = typeName(field.Type)
							}
							if fname != "" {
								add(name+"."+fname, "field", field)
							}
						}
					case *ast.InterfaceType:
						if s.Assign.IsValid() {
							add(name, "type_alias", s)
							break
						}
						add(name, "interface", s)
						for _, m := range t.Methods.List {
							// Unnamed: an embedded interface or a type set.
							if len(m.Names) == 1 {
								add(name+"."+m.Names[0].Name, "method", m)
							}
						}
					default:
						add(name, "type_alias", s)
					}
				case *ast.ValueSpec:
					// `var _ = ..` declares nothing: no block.
					blank := true
					for _, id := range s.Names {
						blank = blank && id.Name == "_"
					}
					if blank {
						continue
					}
					kind := "var"
					if d.Tok == token.CONST {
						kind = "const"
					}
					add(names(s.Names), kind, s)
				}
			}
		}
	}
	return out
}

func main() {
	var files map[string]string
	if err := json.NewDecoder(os.Stdin).Decode(&files); err != nil {
		os.Stderr.WriteString(err.Error())
		os.Exit(1)
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	result := map[string]interface{}{}
	for _, p := range paths {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, files[p], parser.SkipObjectResolution)
		if err != nil {
			result[p] = map[string]string{"error": err.Error()}
			continue
		}
		result[p] = analyze(fset, f)
	}
	if err := json.NewEncoder(os.Stdout).Encode(result); err != nil {
		os.Stderr.WriteString(err.Error())
		os.Exit(1)
	}
}
"#;

/// A `go` command with a persistent build cache under the workspace's `target/`
/// (repeated runs compile nothing), no network and no module.
fn go(dir: &std::path::Path) -> Command {
    let cache = truth_tool::target_dir().join("go-truth-cache");
    let mut command = Command::new("go");
    command
        .current_dir(dir)
        .env("GOCACHE", cache)
        .env("GOPATH", dir.join("gopath"))
        .env("GOFLAGS", "")
        .env("GOPROXY", "off")
        .env("GOTOOLCHAIN", "local")
        .env("GO111MODULE", "off");
    command
}

/// The Go release, major and minor (`go1.19`), for the report.
pub fn version() -> Result<String, String> {
    let out = Command::new("go")
        .args(["env", "GOVERSION"])
        .output()
        .map_err(|e| format!("go: {e}"))?;
    let full = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || full.is_empty() {
        return Err(format!(
            "go env GOVERSION: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(full.splitn(3, '.').take(2).collect::<Vec<_>>().join("."))
}

/// The blocks of `files` ((path, text)) by `go/ast`; a file Go cannot parse gets no
/// blocks (its lines are not sampled) and is named in the error list.
pub fn analyze(files: &[(String, String)]) -> Result<(Vec<FileTruth>, Vec<String>), String> {
    let dir = tempfile::tempdir().map_err(|e| format!("temp dir: {e}"))?;
    let main: PathBuf = dir.path().join("main.go");
    std::fs::write(&main, PROGRAM).map_err(|e| format!("{}: {e}", main.display()))?;
    let mut command = go(dir.path());
    command.args(["run", "main.go"]);
    truth_tool::run("go run (go/ast)", command, files)
}
