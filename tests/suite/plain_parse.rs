//! The fast path for plain lines (`shell::plain`) against the tree-sitter
//! walk it stands in for: wherever the fast path reads a line, its script
//! must be the walk's, field for field (words, redirections, stdin, spans,
//! subshell scopes, problems). Checked over every labelled case, the
//! history fixtures and the shared corpora when present, over lines built
//! from the grammar's own pieces and its edges (proptest), and over cases
//! that once differed.

use crate::common;

use portcullis::shell::parse::parse_with_tree_sitter;
use portcullis::shell::plain;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use std::path::Path;

/// Compares the two readings of `line`; true when the fast path read it.
fn agrees(line: &str) -> bool {
    match plain::parse(line) {
        Some(fast) => {
            let reference = parse_with_tree_sitter(line);
            assert!(
                plain::same_reading(&fast, &reference),
                "the fast path and tree-sitter differ on {line:?}:\n{fast:#?}\n{reference:#?}"
            );
            true
        }
        None => false,
    }
}

/// Lines of every text file under `dir` (JSONL lines give their command).
fn corpus_lines(dir: &Path) -> Vec<String> {
    let mut lines = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return lines;
    };
    let mut paths: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            lines.extend(corpus_lines(&path));
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        for line in text.lines() {
            let command = serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| {
                    ["cmd", "command"]
                        .iter()
                        .find_map(|k| v.get(k).and_then(|c| c.as_str()).map(str::to_string))
                });
            lines.push(command.unwrap_or_else(|| line.to_string()));
        }
    }
    lines
}

#[test]
fn labelled_cases_read_alike() {
    let cases = common::load_cases();
    let read = cases.iter().filter(|c| agrees(&c.command)).count();
    // Most labelled cases are tricks the fast path leaves to tree-sitter;
    // the plain ones must still be a real share, or this checks nothing.
    assert!(
        read >= 1_000,
        "only {read} of {} labelled cases were read by the fast path",
        cases.len()
    );
}

#[test]
fn history_fixtures_read_alike() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/history");
    let lines = corpus_lines(&dir);
    let read = lines.iter().filter(|l| agrees(l)).count();
    assert!(
        read >= 5,
        "only {read} of {} fixture lines read",
        lines.len()
    );
}

#[test]
fn shared_corpora_read_alike() {
    // The shared corpora, or their sample in tests/data/corpora-sample.
    let corpora = common::shared_corpora();
    let lines = corpus_lines(&corpora.dir);
    assert!(
        lines.len() >= corpora.pick(10_000, 500),
        "only {} lines in {}",
        lines.len(),
        corpora.dir.display()
    );
    let read = lines.iter().filter(|l| agrees(l)).count();
    eprintln!(
        "fast path: {read} of {} corpus lines read, all as tree-sitter reads them",
        lines.len()
    );
    assert!(
        read * 2 > lines.len(),
        "only {read} of {} read",
        lines.len()
    );
}

/// Shapes that once differed, or sit on the grammar's edges.
#[test]
fn edge_cases_read_alike_or_go_to_tree_sitter() {
    // Read by the fast path, and equal.
    for line in [
        "a | b | c > o || d",
        "a | b | c | d > o; e",
        "tr -s \" \" | cut -d\" \" -f2",
        "cd src && cargo test 2>&1 | tail -50",
        "a | b > f 2>&1 && c < g",
        "a 2>&1 | b > f 2>&1 && c < g",
        "a && b && c > f",
        "a || b < f; c",
        "cat < in.txt | sort >> o",
        "ls a 2>/dev/null >> log &> all",
        "grep -rn 'def f(x):' --include=\"*.py\" . | head -5",
        "echo '' \"\" x''y",
        "python3 -m pytest -q tests/test_x.py::T::test_y 2>&1 | tail -20",
        "a;b|c&&d||e",
        "ls;",
        "cat <<'EOF' > x.py\nimport os\nEOF",
        "cat <<'EOF' > x.py\nimport os\nEOF\npython x.py",
        "cat <<'EOF' > x.py\nimport os\nEOF\npython x.py && rm x.py",
        "cat > x.py <<'EOF'\n\n    indented()\n\t\nEOF\n",
        "cat <<\"END\" >> notes.txt\n$HOME `x` \\ 'q'\nEND",
        "python3 <<'EOF'\nprint(1)\nEOF",
        "cat <<'EOF' > x\nbody\nEOF\nls\nls",
        "ls\nrm x",
        "rm a.py\n\n  python3 b.py\n",
        "a | b\nc;\nd",
        "ls ~",
        "rm -rf ~",
        "ls -la ~/.ssh/ > ~/out.txt",
        "cp ~/'a b' ~/*.py ~/\"c\"",
        "bash -c 'rm -rf ~'",
        "python3 - <<'EOF'\nprint(1)\nEOF",
        "cat - <<'EOF'\nbody\nEOF",
        "python3  -  <<'EOF' > out.txt\nprint(1)\nEOF\nls",
        "cat -n - <<'EOF'\nbody\nEOF",
    ] {
        assert!(agrees(line), "the fast path should read {line:?}");
    }
    // Left to tree-sitter.
    for line in [
        "yes x|head -200>myFile.txt",
        "ls a2>x",
        "x=1 ls",
        "export A=1",
        "time ls",
        "ls &",
        "ls |& cat",
        "ls >| f",
        "ls <> f",
        "ls <<< x",
        "ls 2>&-",
        "> f ls",
        "ls > f x",
        "echo \"$HOME\"",
        "echo \"a\\\"b\"",
        "echo $'x'",
        "ls ~user",
        "ls ~+",
        "ls a~",
        "ls x=~/y",
        "ls ~'a'",
        "~/bin/tool",
        "ls # c",
        "echo !x",
        "[ -f x ]",
        "ls | sort | uniq\nrm -rf build && mkdir build",
        "a |\nb",
        "a &&\nb",
        "a\n&& b",
        "a ;; b",
        "",
        "  ",
        "ls 12>f",
        "ls > f 0>&1",
        "ls 0<x",
        "a | b 2>/dev/null | c",
        "echo é",
        "cat <<EOF > x\n$HOME\nEOF",
        "cat <<'EOF' > x && python x\nbody\nEOF",
        "cat <<'EOF' > x\n\\rm -rf /\nEOF",
        "cat <<'EOF' > x\nEOF",
        "cat <<'EOF' > x\nbody\r\nEOF",
        "cat <<-'EOF' > x\n\tbody\n\tEOF",
        "cat <<'EOF' > x\nbody",
        "cat - > x <<'EOF'\nbody\nEOF",
        "cat -<<'EOF'\nbody\nEOF",
        // A first pipeline of four stages or more ending in a redirection
        // before `&&`/`||`: tree-sitter nests its last stages.
        "a | b | c | d > o || e",
        "a | b | c | d 2>&1 && e | f",
    ] {
        let fast = plain::parse(line);
        assert!(fast.is_none(), "{line:?} is not plain: {fast:?}");
    }
}

/// The misparse the differential check found in the walk: a redirection on
/// the last command of an and-or list before `|` put `cd` in a pipeline
/// stage. Both readings now keep the `cd` outside the pipeline.
#[test]
fn a_list_before_a_pipe_keeps_its_cd() {
    let line = "cd .git/hooks && echo x 2>&1 | tee pre-commit";
    for script in [
        parse_with_tree_sitter(line),
        plain::parse(line).unwrap_or_default(),
    ] {
        let scopes: Vec<(String, Vec<u32>)> = script
            .commands
            .iter()
            .map(|c| (c.text.clone(), c.scopes.clone()))
            .collect();
        assert_eq!(
            scopes,
            vec![
                ("cd .git/hooks".to_string(), vec![]),
                ("echo x".to_string(), vec![1]),
                ("tee pre-commit".to_string(), vec![2]),
            ]
        );
    }
}

/// A heredoc's body is every line after the `<<` line, as bash reads it:
/// tree-sitter's body node leaves out leading blank lines and the first
/// line's indentation, which the walk now puts back.
#[test]
fn heredoc_bodies_keep_their_leading_blanks() {
    let line = "cat <<'EOF' > x.py\n\n    indented()\nEOF";
    for script in [
        parse_with_tree_sitter(line),
        plain::parse(line).unwrap_or_default(),
    ] {
        let stdin = script.commands.first().map(|c| c.stdin.clone());
        assert_eq!(
            stdin,
            Some(portcullis::shell::Stdin::Heredoc {
                body: "\n    indented()\n".into(),
                literal: true
            })
        );
    }
}

/// Where tree-sitter ends a heredoc at a body line that only starts like
/// the delimiter, the fast path reads on to the end line as bash does; the
/// walk flags the line and puts bash's body back, and the two agree on the
/// body and on what runs after it.
#[test]
fn look_alike_end_lines_are_body() {
    use portcullis::shell::Stdin;
    for (line, body, after) in [
        ("cat <<'EOF' > x\nEOF2\nEOF", "EOF2\n", vec![]),
        ("cat <<'EOF' > x\n  EOF\nEOF", "  EOF\n", vec![]),
        (
            "cat <<'EOF' > x.py\n    EOF = 1\nEOF\npython x.py",
            "    EOF = 1\n",
            vec!["python x.py"],
        ),
    ] {
        let Some(fast) = plain::parse(line) else {
            panic!("{line:?} is plain");
        };
        assert_eq!(
            fast.commands[0].stdin,
            Stdin::Heredoc {
                body: body.into(),
                literal: true
            },
            "{line:?}"
        );
        let texts: Vec<&str> = fast.commands[1..].iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, after, "{line:?}");
        let walked = parse_with_tree_sitter(line);
        assert!(plain::same_reading(&fast, &walked), "{line:?}: {walked:#?}");
        // The comparison sees a different body.
        let mut wrong = fast.clone();
        wrong.commands[0].stdin = Stdin::Heredoc {
            body: "other\n".into(),
            literal: true,
        };
        assert!(!plain::same_reading(&wrong, &walked), "{line:?}");
    }
}

/// Pieces of the fast path's grammar and its neighbours.
fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "ls",
        "cat",
        "grep",
        "rm",
        "-rf",
        "-",
        "-n",
        "20",
        "-20",
        "2",
        "x.py",
        "a/b",
        "*.py",
        "a?",
        "k=v",
        "--x=1",
        "==",
        "=~",
        "=",
        "!=",
        "@a",
        "%s",
        ":",
        ",",
        "+",
        "'a b'",
        "''",
        "'$x'",
        "\"a b\"",
        "\" \"",
        "\"\"",
        "\"*\"",
        "\"(\"",
        "\"#\"",
        "x'y'\"z\"",
        " ",
        " ",
        " ",
        "  ",
        "\t",
        "|",
        "||",
        "&&",
        ";",
        "&",
        ">",
        ">>",
        "<",
        "2>",
        "2>&1",
        ">&2",
        "&>",
        "1>",
        "2>>",
        ">f",
        "<f",
        "2>/dev/null",
        "time",
        "do",
        "done",
        "then",
        "export",
        "x=1",
        "{",
        "}",
        "(",
        ")",
        "$x",
        "~",
        "~/",
        "~/x",
        "~a",
        "a~",
        "#",
        "\\",
        "!",
        "é",
        "\n",
        "|&",
        ";;",
        ">|",
        "<<",
        "<<<",
        "[",
        "]",
        "'a\nb'",
        "\"a\n  b\"",
        "'\n'",
        "\"\n\"",
        "\n\n",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4_000, ..ProptestConfig::default() })]

    /// Any line made of the pieces: the fast path reads it as tree-sitter
    /// does, or leaves it.
    #[test]
    fn generated_lines_read_alike(pieces in prop::collection::vec(piece(), 1..12)) {
        let line = pieces.join(" ");
        agrees(&line);
        let glued = pieces.concat();
        agrees(&glued);
    }
}

/// Lines of heredoc bodies, the awkward ones included.
fn body_line() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "import os",
        "",
        "  ",
        "\t",
        "    x = 1",
        "EOF",
        "EOFX",
        " EOF",
        "EOF ",
        "    EOF = 1",
        "\tEOF",
        "\\rm -rf /",
        "$HOME",
        "`id`",
        "a\\",
        "'q'",
        "\"d\"",
        "END",
        "<<'EOF'",
        "#!/bin/sh",
        "é",
        "\r",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3_000, ..ProptestConfig::default() })]

    /// Heredoc commands built from the shape's pieces: read as tree-sitter
    /// reads them, or left to it.
    #[test]
    fn generated_heredocs_read_alike(
        head in prop::sample::select(vec![
            "cat", "cat -n", "python3", "tee a", "cat -", "python3 -", "cat - -", "cat -- -",
            "cat - > x", "cat -  ", "- -",
        ]),
        quote in prop::sample::select(vec!["'EOF'", "\"EOF\"", "EOF", "'END'"]),
        redirect in prop::sample::select(vec!["", " > x.py", " >> x.py", " 2>&1", " > a b"]),
        body in prop::collection::vec(body_line(), 0..6),
        end in prop::sample::select(vec!["EOF", "END", "EOF\n", "EOF\npython x.py", "EOF\nls | wc -l", "EOF\n\nls"]),
    ) {
        let mut line = format!("{head} <<{quote}{redirect}\n");
        for part in &body {
            line.push_str(part);
            line.push('\n');
        }
        line.push_str(end);
        agrees(&line);
    }
}

/// The generated lines are not all left to tree-sitter (which would make
/// the property above check nothing).
#[test]
fn generated_lines_are_often_plain() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = prop::collection::vec(piece(), 1..6);
    let mut read = 0;
    let total = 2_000;
    for _ in 0..total {
        let pieces = strategy
            .new_tree(&mut runner)
            .map(|t| t.current())
            .unwrap_or_default();
        if plain::parse(&pieces.join(" ")).is_some() {
            read += 1;
        }
    }
    assert!(
        read * 40 > total,
        "only {read} of {total} generated lines were plain"
    );
}
