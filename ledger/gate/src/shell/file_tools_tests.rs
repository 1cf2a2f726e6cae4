use std::path::Path;

use super::super::{analyze, ShellAnalysis};

fn analysis(cmd: &str) -> ShellAnalysis {
    analyze(cmd, Path::new("/w"), Path::new("/w"))
}

/// The named targets, as `path` or `path/**` when the whole tree below is written.
fn writes(cmd: &str) -> Vec<String> {
    analysis(cmd)
        .writes
        .iter()
        .map(|w| {
            let path = w.path.to_string_lossy().into_owned();
            if w.recursive {
                format!("{path}/**")
            } else {
                path
            }
        })
        .collect()
}

fn opaque(cmd: &str) -> bool {
    !analysis(cmd).opaque.is_empty()
}

#[test]
fn patchers_and_in_place_editors_write_the_files_they_name() {
    assert_eq!(writes("patch src/other.ts fix.diff"), ["/w/src/other.ts"]);
    assert_eq!(writes("patch -o out.ts a.ts < d"), ["/w/out.ts"]);
    assert_eq!(writes("patch -d src a.ts d.diff"), ["/w/src/a.ts"]);
    assert_eq!(
        writes("patch -r rej.txt a.ts d.diff"),
        ["/w/rej.txt", "/w/a.ts"]
    );
    assert!(writes("patch -p1 < fix.diff").is_empty() && opaque("patch -p1 < fix.diff"));
    assert!(analysis("patch --dry-run a.ts d.diff").is_read_only());

    assert_eq!(
        writes("perl -i -pe 's/a/b/' src/other.ts"),
        ["/w/src/other.ts"]
    );
    assert_eq!(writes("perl -pi.bak -e 's/x/y/' a b"), ["/w/a", "/w/b"]);
    assert_eq!(writes("perl -0777 -i -pe 's/a/b/gs' f"), ["/w/f"]);
    assert_eq!(writes("perl -i fix.pl f"), ["/w/f"]);
    assert_eq!(writes("perl -lane -i 'print' f"), Vec::<String>::new());
    assert!(opaque("perl -i -pe 's/a/b/' src/other.ts"));
    assert!(writes("perl -ne 'print' f").is_empty() && opaque("perl -ne 'print' f"));
    assert_eq!(writes("ruby -i -pe 'x' a.rb"), ["/w/a.rb"]);
    assert_eq!(writes("ruby -C src -i -pe 'x' a.rb"), ["/w/src/a.rb"]);

    assert_eq!(writes("ed -s src/other.ts < script"), ["/w/src/other.ts"]);
    assert!(opaque("ed -s f < script"));
    assert_eq!(
        writes("vim -es -c '%s/a/b/' -c wq src/other.ts"),
        ["/w/src/other.ts"]
    );
    assert_eq!(writes("ex +wq -W out.vim f"), ["/w/f", "/w/out.vim"]);
}

#[test]
fn archives_and_mirrors_write_the_tree_they_land_in() {
    assert_eq!(writes("rsync -a --delete src/auth/ src/"), ["/w/src/**"]);
    assert_eq!(
        writes("rsync -a --remove-source-files a/ b/"),
        ["/w/a/**", "/w/b/**"]
    );
    assert!(writes("rsync -a src/ host:/backup").is_empty() && opaque("rsync -a src host:x"));
    assert_eq!(writes("rsync -a host:/x/ lib/"), ["/w/lib/**"]);
    assert!(analysis("rsync -a src/").is_read_only());
    assert!(analysis("rsync -an src/ lib/").is_read_only());

    assert_eq!(writes("tar -xf a.tar -C src"), ["/w/src/**"]);
    assert_eq!(writes("tar xzf a.tgz -C lib"), ["/w/lib/**"]);
    assert_eq!(writes("tar --extract --file=a.tar"), ["/w/**"]);
    assert_eq!(writes("tar -czf out.tgz src"), ["/w/out.tgz"]);
    assert_eq!(
        writes("tar -cf a.tar --remove-files src"),
        ["/w/a.tar", "/w/src/**"]
    );
    assert!(analysis("tar -tvf a.tar").is_read_only());
    assert!(analysis("tar -cf - src").is_read_only());
    assert!(opaque("tar -I 'sh -c x' -xf a.tar -C src"));
    assert!(opaque("tar -tf a.tar --to-command=sh"));
    assert!(opaque("tar --checkpoint-action=exec=sh -tf a.tar"));

    assert_eq!(writes("unzip -o a.zip -d src"), ["/w/src/**"]);
    assert_eq!(writes("unzip a.zip"), ["/w/**"]);
    assert!(analysis("unzip -l a.zip").is_read_only());

    // Writing over the whole workspace is a scope question; deleting it, or
    // writing outside it, is dangerous.
    assert!(analysis("tar -xf a.tar").dangerous.is_none());
    assert!(analysis("rsync -a lib/ .").dangerous.is_none());
    assert!(analysis("rsync -a --delete lib/ .").dangerous.is_some());
    assert!(analysis("tar -xf a.tar -C /").dangerous.is_some());
}

#[test]
fn splitters_fifos_and_nodes_write_what_they_create() {
    assert_eq!(writes("split -l 10 big.txt src/part_"), ["/w/src/part_*"]);
    assert_eq!(writes("split big.txt"), ["/w/x*"]);
    assert!(opaque("split --filter='sh' big.txt"));
    assert_eq!(writes("csplit -f src/p f '/x/'"), ["/w/src/p*"]);
    assert_eq!(writes("csplit f 3"), ["/w/xx*"]);
    assert_eq!(writes("mkfifo -m 600 src/pipe"), ["/w/src/pipe"]);
    assert_eq!(writes("mknod src/dev c 1 3"), ["/w/src/dev"]);
}

#[test]
fn readers_with_a_log_option_and_code_in_prompt_variables() {
    assert_eq!(writes("less -o log.txt f"), ["/w/log.txt"]);
    assert_eq!(writes("less --log-file=l f"), ["/w/l"]);
    assert!(analysis("less -N f").is_read_only());
    for cmd in [
        "PS4='$(touch x)'; set -x; true",
        "PROMPT_COMMAND='touch x'",
        "export BASH_ENV=x.sh; bash -c true",
    ] {
        assert!(!analysis(cmd).is_read_only(), "{cmd}");
    }
    let holds_code = |cmd: &str| {
        analysis(cmd)
            .opaque
            .iter()
            .any(|why| why.contains("holds code"))
    };
    assert!(holds_code("PS4='$(touch x)'"));
    assert!(!holds_code("PS1='> '"));
}

#[test]
fn confine_is_judged_by_the_command_it_runs() {
    assert_eq!(
        writes("intent confine --intent INT-001 -- touch a"),
        ["/w/a"]
    );
    assert!(
        !analysis("intent confine --intent INT-001 -- intent status INT-001 DONE")
            .intent_acts
            .is_empty()
    );
    assert!(analysis("intent confine --intent INT-001 --explain").is_read_only());
    assert!(analysis("intent confine --intent INT-001 -- ls").is_read_only());
}

/// What the writers' and file tools' manuals say they write, found when their
/// tables became cited data (`programs/writers.toml`, `programs/file_tools.toml`).
#[test]
fn writes_their_manuals_document_are_found() {
    // wget: `--save-cookies FILE` takes a value; wgetrc commands can name any file.
    assert_eq!(
        writes("wget -O - --save-cookies .orchestration/x http://x"),
        ["/w/.orchestration/x"]
    );
    assert_eq!(
        writes("wget -O - --save-cook=.orchestration/x http://x"),
        ["/w/.orchestration/x"]
    );
    assert_eq!(
        writes("wget -O - --rejected-log=r.csv http://x"),
        ["/w/r.csv"]
    );
    assert!(opaque("wget -O - -e logfile=.orchestration/x http://x"));
    assert!(opaque("wget -O - --config=rc http://x"));
    assert!(opaque("wget -O - --use-askpass=./ask http://x"));
    assert!(analysis("wget -qO- http://x").is_read_only());
    // curl: `-w '%output{FILE}'` (8.3) and `--ssl-sessions FILE` (8.12) write.
    assert_eq!(
        writes("curl -w '%output{.orchestration/x}%{http_code}' http://x"),
        ["/w/.orchestration/x"]
    );
    assert_eq!(writes("curl -w '%output{>>log}' http://x"), ["/w/log"]);
    assert_eq!(writes("curl --ssl-sessions s.txt http://x"), ["/w/s.txt"]);
    assert!(opaque("curl -w @format.txt http://x"));
    assert!(analysis("curl -s -w '%{http_code}' http://x").is_read_only());
    // install --strip-program runs a program.
    assert!(opaque("install --strip-program=./evil -s a b"));
    // zstd: `-o FILE` wins over `-c`; `-r` and gzip's `-r` write whole trees.
    assert_eq!(
        writes("zstd -c -o .orchestration/x f"),
        ["/w/.orchestration/x"]
    );
    assert!(analysis("zstd -dc f.zst").is_read_only());
    assert!(analysis("gzip --to-stdout f").is_read_only());
    assert_eq!(writes("gzip -r src"), ["/w/src/**"]);
    assert_eq!(writes("zstd -r --rm src"), ["/w/src/**"]);
    // rmdir -p removes the parents it names.
    assert_eq!(writes("rmdir -p a/b/c"), ["/w/a/b/c", "/w/a/b", "/w/a"]);
    assert_eq!(writes("rmdir -p ./x"), ["/w/x"]);
    // patch: `-x NUM` and `--reject-format FORMAT` take values.
    assert_eq!(writes("patch -x 1 src/a.ts d.diff"), ["/w/src/a.ts"]);
    assert_eq!(
        writes("patch --reject-format unified src/a.ts d.diff"),
        ["/w/src/a.ts"]
    );
    // tar: an archive name with a colon is on another machine.
    assert!(opaque("tar -cf host:backup.tar src"));
    assert_eq!(writes("tar --force-local -cf host:x src"), ["/w/host:x"]);
    assert_eq!(writes("tar -cf ./host:x src"), ["/w/host:x"]);
    assert_eq!(
        writes("tar --remove-f -cf a.tar src"),
        ["/w/a.tar", "/w/src/**"]
    );
    // rsync: a batch comes with its replay script.
    assert_eq!(
        writes("rsync -a --write-batch=b src/ lib/"),
        ["/w/b", "/w/b.sh", "/w/lib/**"]
    );
}
