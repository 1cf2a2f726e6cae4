//! Writes hidden in the shell's syntax: redirections, substitutions and subshells,
//! wrappers and nested shells, `cd`, `~`, `$HOME` and variables.

use super::{Cases, A, OUT, PROT_N, SV};

/// Every redirection operator and compound command.
pub(super) fn redirections(c: &mut Cases) {
    c.sh_each(
        "redirection",
        &[
            ("echo x > docs/a.md", SV),
            ("ls >> README.md", SV),
            ("echo hi >| README.md", SV),
            ("echo hi >| src/a.ts", A),
            ("ls &> lib/log.txt", SV),
            ("ls &> src/log.txt", A),
            ("ls &>> out.log", SV),
            ("cat src/a.ts >&out.txt", SV),
            ("cat src/a.ts >&src/out.txt", A),
            ("cat <>notes.txt", SV),
            ("cat src/a.ts <>src/c.ts", A),
            ("ls 2>err.txt", SV),
            ("ls 2>src/err.txt", A),
            ("ls 2>>lib/err.txt", SV),
            ("echo x 1>lib/a.ts", SV),
            ("exec 3>lib/fd.txt", SV),
            ("cat > lib/new.ts <<EOF\nx\nEOF", SV),
            ("cat <<EOF > docs/a.md\nx\nEOF", SV),
            ("cat > src/new.ts <<'EOF'\nx\nEOF", A),
            ("cat <<< x > lib/x.txt", SV),
            ("{ echo x; echo y; } > lib/a.ts", SV),
            ("if true; then echo x > lib/a.ts; fi", SV),
            ("for f in src/*.ts; do echo $f >> docs/list.md; done", SV),
            (
                "while read l; do echo $l; done < src/a.ts > docs/out.md",
                SV,
            ),
            ("true || rm -rf lib", SV),
            ("echo x > src/a.ts; echo y > lib/b.ts", SV),
            ("echo x > src/a.ts && rm lib/a.ts", SV),
            ("case x in x) touch lib/c.ts;; esac", SV),
            ("f() { touch lib/f.ts; }; f", SV),
            ("touch lib/bg.ts &", SV),
            (">lib/empty.ts", SV),
            ("> src/empty.ts", A),
            ("ls 2>&1 >lib/o.txt", SV),
            ("ls >src/o.txt 2>&1", A),
            ("echo a\necho b > lib/n.txt", SV),
            ("echo x > 'lib/q.ts'", SV),
            ("echo x > \"docs/a b.md\"", SV),
            ("echo x > lib/a\\ b.ts", SV),
            ("echo x >lib/a.ts", SV),
            ("echo x>lib/a.ts", SV),
            ("ls > src/a.ts > lib/b.ts", SV),
            ("ls 1>&2 2>lib/x.txt", SV),
            ("exec > lib/log.txt", SV),
            ("printf x > lib/p.ts", SV),
            ("cat src/a.ts | tee >(cat > lib/x.ts)", SV),
        ],
    );
}

/// Command and process substitution, subshells.
pub(super) fn substitutions(c: &mut Cases) {
    c.sh_each(
        "substitution",
        &[
            ("cat <(rm -rf src/tmp)", A),
            ("cat <(rm -rf lib)", SV),
            ("ls $(touch src/x.ts)", A),
            ("echo \"$(rm -rf lib)\"", SV),
            ("echo `rm -rf lib`", SV),
            ("diff <(echo a) >(tee lib/x.txt)", SV),
            ("echo $(echo x > docs/a.md)", SV),
            ("cat $(echo src/a.ts) > lib/copy.ts", SV),
            ("x=$(touch lib/y.ts)", SV),
            ("(cd lib && rm -f a.ts)", SV),
            ("(echo x > lib/a.ts)", SV),
            ("( (touch docs/x.md) )", SV),
            ("(touch src/sub.ts)", A),
        ],
    );
}

/// Wrappers and nested shells, parsed recursively.
pub(super) fn wrappers(c: &mut Cases) {
    c.sh_each(
        "wrapper",
        &[
            ("bash -c 'echo x > lib/a.ts'", SV),
            ("sh -c \"rm -f lib/a.ts\"", SV),
            ("bash -c 'echo x > src/a.ts'", A),
            ("eval \"rm -f lib/a.ts\"", SV),
            ("eval 'touch src/new.ts'", A),
            ("find src -name '*.ts' -exec cp {} lib/ \\;", SV),
            ("echo lib/a.ts | xargs rm -f", SV),
            ("env rm -f lib/a.ts", SV),
            ("env FOO=1 touch lib/x.ts", SV),
            ("command rm -f lib/a.ts", SV),
            ("nice -n 10 touch lib/x.ts", SV),
            ("timeout 5 touch lib/x.ts", SV),
            ("command -p rm -f lib/a.ts", SV),
            ("env -i rm -f lib/a.ts", SV),
            ("env -u HOME touch lib/x.ts", SV),
            ("nice -n10 rm -f lib/a.ts", SV),
            ("timeout --signal=KILL 5 touch lib/x.ts", SV),
            ("printf 'lib/a.ts\\n' | xargs rm", SV),
            ("\"bash\" -c 'touch lib/x.ts'", SV),
            ("/bin/sh -c 'touch lib/x.ts'", SV),
            ("eval touch lib/x.ts", SV),
            ("timeout -s KILL 5 rm -f lib/a.ts", SV),
            ("nohup rm -f lib/a.ts &", SV),
            ("time rm -f lib/a.ts", SV),
            ("time touch src/x.ts", A),
            ("nice timeout 5 env command rm -f lib/a.ts", SV),
            ("bash -c \"bash -c 'touch lib/deep.ts'\"", SV),
            ("sh -c 'cd lib && touch x.ts'", SV),
            ("find src -exec sh -c 'echo x > lib/y.ts' \\;", SV),
            ("bash -lc 'touch docs/x.md'", SV),
        ],
    );
    // `sudo` may also be refused as such.
    c.sh("wrapper", PROT_N, OUT, &["sudo touch lib/x.ts"]);
}

/// `cd` is followed.
pub(super) fn cd(c: &mut Cases) {
    c.sh_each(
        "cd",
        &[
            ("cd src && echo x > ../README.md", SV),
            ("cd src && rm -f old.ts", A),
            ("cd lib && rm -f a.ts", SV),
            ("cd src/../lib && touch x.ts", SV),
            ("cd src; cd ..; touch x.ts", SV),
            ("cd docs && echo x > a.md", SV),
            ("cd src && cd .. && cd lib && touch x.ts", SV),
            ("cd \"$PWD/lib\" && touch x.ts", SV),
            ("cd src && touch new.ts", A),
            ("cd src/ && echo x >> a.ts", A),
            ("cd {ROOT}/lib && touch x.ts", SV),
            ("cd {ROOT}/src && touch x.ts", A),
            ("cd src && (cd .. && touch top.ts)", SV),
            ("cd -- lib && touch x.ts", SV),
            ("cd lib || exit; touch x.ts", SV),
        ],
    );
}

/// `~`, `$HOME`, `$PWD` and variables set earlier in the command.
pub(super) fn home_and_variables(c: &mut Cases) {
    c.sh_each(
        "variables",
        &[
            ("D=lib; touch $D/x.ts", SV),
            ("F=README.md; echo x > $F", SV),
            ("F=src/a.ts; echo x > $F", A),
            ("echo x > $PWD/lib/a.ts", SV),
            ("echo x > ${PWD}/docs/a.md", SV),
            ("echo x > \"$PWD/src/a.ts\"", A),
            ("export T=lib; touch $T/x.ts", SV),
            ("D=lib F=x.ts; touch $D/$F", SV),
            ("D=lib && cp src/a.ts \"$D/\"", SV),
            ("P=$PWD; rm -f $P/lib/a.ts", SV),
            ("r=rm; $r -f lib/a.ts", SV),
            ("D=src; touch $D/ok.ts", A),
        ],
    );
}
