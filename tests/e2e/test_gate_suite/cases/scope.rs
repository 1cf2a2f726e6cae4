//! Writes through the shell judged by where they land: programs that write the files
//! their arguments name, outside the workspace, out of and in scope, unknown effects.

use super::{Cases, A, NAI, OUT, OUT_N, PB, PROT_N, SV};

/// Programs that write files their arguments name (issue #29): patchers,
/// in-place interpreters, editors, archives, mirrors, splitters, FIFOs.
pub(super) fn file_writing_programs(c: &mut Cases) {
    c.sh_each(
        "file_tool",
        &[
            ("patch README.md fix.diff", SV),
            ("patch src/a.ts fix.diff", A),
            ("patch -p1 -d lib < fix.diff", A),
            ("perl -i -pe 's/a/b/' README.md", SV),
            ("perl -pi -e 's/a/b/' src/a.ts", A),
            ("ruby -i -pe 'x' lib/a.ts", SV),
            ("vim -es -c '%s/a/b/' -c wq README.md", SV),
            ("vim -es -c '%s/a/b/' -c wq src/a.ts", A),
            ("ed -s lib/a.ts < s.ed", SV),
            ("split -l 10 src/a.ts part_", SV),
            ("split -l 10 src/a.ts src/part_", A),
            ("csplit -f lib/p src/a.ts 3", SV),
            ("mkfifo lib/pipe", SV),
            ("mkfifo src/pipe", A),
            ("mknod lib/null c 1 3", SV),
            ("tar -xf a.tar -C lib", SV),
            ("tar -xf a.tar -C src", A),
            ("tar -czf lib/a.tgz src", SV),
            ("unzip -o a.zip -d lib", SV),
            ("unzip -o a.zip -d src/x", A),
            ("rsync -a --delete src/ lib/", SV),
            ("rsync -a lib/ src/", A),
            ("less -o lib/log.txt src/a.ts", SV),
            ("intent confine --intent INT-001 -- touch lib/x.ts", SV),
            ("intent confine --intent INT-001 -- make", A),
        ],
    );

    // The workspace root holds protected files an archive could replace.
    c.sh("file_tool", PROT_N, PB, &["tar xzf a.tgz", "unzip a.zip"]);
}

/// Writes outside the workspace.
pub(super) fn outside_the_workspace(c: &mut Cases) {
    c.sh(
        "outside_workspace",
        OUT_N,
        OUT,
        &[
            "touch ../outside.ts",
            "echo x > /tmp/intent-suite-x.txt",
            "cp src/a.ts ../copy.ts",
            "mv src/a.ts /tmp/",
            "cp -t /tmp src/a.ts",
            "mv --target-directory=/tmp src/a.ts",
            "cp -t ~ src/a.ts",
            "touch ~/x.txt",
            "echo x > $HOME/.bashrc",
            "cp src/a.ts ${HOME}/a.ts",
            "echo x > ~root/.profile",
            "install -m 644 src/a.ts /usr/local/bin/x",
            "cd .. && touch outside.ts",
            "cd /tmp && touch x",
            "tee /etc/hosts < src/a.ts",
            "echo x >&/tmp/x.txt",
            "ln -s src/a.ts /tmp/link",
            "dd if=src/a.ts of=/tmp/a.ts",
            "sort -o /tmp/s.txt src/a.ts",
            "cp src/a.ts {ROOT}/../x.ts",
            "bash -c 'touch /tmp/x'",
            "find / -delete",
            "find ~ -exec rm -rf {} +",
            "echo x > /etc/passwd",
            "rm -rf ~/.ssh",
            "rm -f ../x.ts",
            "rm -rf $HOME/..",
            "rm -rf ../..",
        ],
    );
}

/// Out of scope through the shell.
pub(super) fn out_of_scope(c: &mut Cases) {
    c.sh(
        "scope_escape",
        NAI,
        SV,
        &[
            "echo x > docs/b.md",
            "mv src/a.ts lib/a.ts",
            "cp -r src lib",
            "rm -rf lib",
            "touch README.md",
            "mkdir lib/new",
            "rmdir docs",
            "ln -s src/a.ts lib/link.ts",
            "chmod 600 README.md",
            "truncate -s 0 README.md",
            "install -D src/a.ts lib/a.ts",
            "cp src/a.ts ./README.md",
            "tee -a README.md < src/a.ts",
            "echo x | tee src/a.ts docs/b.md",
            "rm -f src/a.ts lib/a.ts",
            "mv -t lib src/a.ts",
            "cp --target-directory=lib src/a.ts",
            "dd if=src/a.ts of=lib/a.ts",
            "echo x > src/out/new.ts",
            "rm lib/*.ts",
            "touch {src,lib}/z.ts",
            "echo x > {ROOT}/lib/a.ts",
            "cp src/a.ts src/../lib/a.ts",
            "mv src lib/src",
            "rm -rf src/../lib",
            "cp src/a.ts lib",
            "mv src/a.ts lib",
        ],
    );
}

/// In scope through the shell: allowed under the intent (c).
pub(super) fn in_scope(c: &mut Cases) {
    c.sh(
        "in_scope",
        NAI,
        A,
        &[
            "echo x > src/a.ts",
            "sed -i s/a/b/ src/a.ts",
            "mv src/a.ts src/b.ts",
            "cp src/a.ts src/c.ts",
            "rm -rf src/tmp",
            "touch src/new.ts",
            "mkdir -p src/util",
            "tee src/out.txt < README.md",
            "echo x >> ./src/a.ts",
            "rm src/*.bak",
            "touch src/{a,b}.ts",
            "truncate -s 0 src/a.ts",
            "ln -sf a.ts src/link.ts",
            "chmod +x src/a.ts",
            "cp -r src/a.ts src/util/",
            "echo x > {ROOT}/src/a.ts",
            "sed -i.bak -e s/a/b/ src/a.ts src/b.ts",
            "echo x > src/./deep/../c.ts",
        ],
    );
}

/// Effects unknown: allowed only under an intent (then checked after the fact).
pub(super) fn unknown_effects(c: &mut Cases) {
    c.sh(
        "unknown_effect",
        NAI,
        A,
        &[
            "npm install",
            "python script.py",
            "make",
            "cargo build",
            "./configure",
            "node build.js",
            "pip install -r requirements.txt",
            "git commit -m x",
            "git checkout -b feature",
            "npx prettier --write src",
            "git branch feature",
            "git stash",
            "pytest -x",
            "go generate ./...",
        ],
    );
}
