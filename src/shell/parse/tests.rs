//! Unit tests of the shell parser: the tree-sitter walk and its guards.

use super::*;
use crate::shell::types::Stdin;
use tree_sitter::Parser;

fn argv(script: &Script) -> Vec<Vec<String>> {
    script
        .commands
        .iter()
        .map(|c| c.words.iter().map(|w| w.value.clone()).collect())
        .collect()
}

#[test]
fn grammar_loads() {
    let mut parser = Parser::new();
    assert!(
        parser
            .set_language(&tree_sitter_bash::LANGUAGE.into())
            .is_ok()
    );
}

#[test]
fn collects_commands_everywhere() {
    let s = parse("cd src && cargo test 2>&1 | tail -50; echo $(rm -rf x) `ls` <(cat y)");
    let a = argv(&s);
    assert!(a.contains(&vec!["cargo".into(), "test".into()]));
    assert!(a.contains(&vec!["rm".into(), "-rf".into(), "x".into()]));
    assert!(a.contains(&vec!["ls".into()]));
    assert!(a.contains(&vec!["cat".into(), "y".into()]));
    assert!(s.problems.is_empty(), "{:?}", s.problems);
}

#[test]
fn unquotes_like_bash() {
    for line in [
        "r''m -rf x",
        "\"rm\" -rf x",
        "\\rm -rf x",
        "$'\\x72m' -rf x",
        "r\\m -rf x",
    ] {
        let s = parse(line);
        assert_eq!(s.commands[0].words[0].value, "rm", "{line}");
    }
}

#[test]
fn guards_known_misparses() {
    let s = parse("ls | sort | uniq\nrm -rf build && mkdir build");
    assert!(
        s.problems
            .iter()
            .any(|p| matches!(p, Problem::MergedLine(_))),
        "{:?}",
        s.problems
    );
    // The dropped `-` before a heredoc is put back where bash has it.
    for line in ["python3 - <<'PY'\nprint(1)\nPY", "cat -<<X\na\nX"] {
        let s = parse(line);
        assert!(s.problems.is_empty(), "{line}: {:?}", s.problems);
        assert_eq!(s.commands[0].words.last().unwrap().value, "-", "{line}");
    }
    // Elsewhere it is still a dropped token.
    let s = parse("x=1 - <<X\na\nX");
    assert!(
        s.problems
            .iter()
            .any(|p| matches!(p, Problem::DroppedText(_))),
        "{:?}",
        s.problems
    );
    let s = parse("for f in a b; do\n  echo \"$f\"\ndone");
    assert!(s.problems.is_empty(), "{:?}", s.problems);
}

#[test]
fn heredoc_feeds_stdin_and_redirect_is_recorded() {
    let s = parse("cat <<'EOF' > a.py\nprint(1)\nEOF");
    let c = &s.commands[0];
    assert_eq!(c.redirects[0].target.value, "a.py");
    assert!(
        matches!(&c.stdin, Stdin::Heredoc { literal: true, body } if body.contains("print(1)"))
    );
}

/// The sixth misparse: tree-sitter ends a heredoc at `  EOF`; bash
/// reads on to `EOF` alone. The walk keeps bash's body, flags the
/// line, and hands what follows bash's end line back to be judged.
#[test]
fn a_heredoc_ends_where_bash_ends_it() {
    let s = parse_with_tree_sitter("cat <<'EOF' > a.txt\nx\n  EOF\ncat <<'B'\nEOF\nrm -rf ~\nB\n");
    assert!(
        s.problems
            .iter()
            .any(|p| matches!(p, Problem::HeredocEnd(line) if line == "  EOF")),
        "{:?}",
        s.problems
    );
    assert!(
        matches!(&s.commands[0].stdin, Stdin::Heredoc { body, .. } if body == "x\n  EOF\ncat <<'B'\n"),
        "{:?}",
        s.commands[0].stdin
    );
    assert_eq!(s.after_heredoc, vec!["rm -rf ~\nB\n".to_string()]);
    // What tree-sitter made of bash's body is not walked: the `cat
    // <<'B'` it found there is text.
    let texts: Vec<&str> = s.commands.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts.len(), 1, "{texts:?}");
    // Nor is a redirection it hung on the command from there.
    let hung = parse_with_tree_sitter("cat <<'EOF' > n\n  EOF > other.txt\nEOF\n");
    let targets: Vec<&str> = hung.commands[0]
        .redirects
        .iter()
        .map(|r| r.target.value.as_str())
        .collect();
    assert_eq!(targets, ["n"]);
    // `<<-` strips tabs, not spaces; a body with no end line runs to
    // the end of the text, and nothing comes after it.
    let tabs = parse_with_tree_sitter("cat <<-EOF\n\tx\n\tEOF\nls\n");
    assert!(tabs.problems.is_empty(), "{:?}", tabs.problems);
    // Inside `$( )` and backticks the heredoc ends at the closing
    // character at the latest, as bash reads it: no misplaced end.
    for line in [
        "x=$(cat <<EOF\nhi\nEOF)\nls\n",
        "echo `cat <<EOF\nhi\nEOF`\nls\n",
    ] {
        let s = parse_with_tree_sitter(line);
        assert!(s.problems.is_empty(), "{line:?}: {:?}", s.problems);
        assert!(s.commands.iter().any(|c| c.text == "ls"), "{line:?}");
    }
    let open = parse_with_tree_sitter("cat <<EOF\nEOF = 1\n");
    assert!(
        open.problems
            .iter()
            .any(|p| matches!(p, Problem::HeredocEnd(_)))
    );
    assert!(open.after_heredoc.is_empty());
    assert!(matches!(&open.commands[0].stdin, Stdin::Heredoc { body, .. } if body == "EOF = 1\n"));
}

/// tree-sitter reads a `==` or `=~` argument as an operator token;
/// to bash it is a word, or the start of one (`=='x'` is `==x`).
#[test]
fn test_operators_in_arguments_are_words() {
    let words = |line: &str| -> Vec<String> {
        parse_with_tree_sitter(line).commands[0]
            .words
            .iter()
            .map(|w| w.value.clone())
            .collect()
    };
    assert_eq!(words("echo a == b"), ["echo", "a", "==", "b"]);
    assert_eq!(words("echo a =~ b"), ["echo", "a", "=~", "b"]);
    assert_eq!(words("a =='x' == =="), ["a", "==x", "==", "=="]);
}

#[test]
fn pipe_records_producer() {
    let s = parse("curl -s x | sh");
    assert_eq!(s.commands[1].stdin, Stdin::Pipe(0..1));
}

/// Functions are in scope only where bash sees them.
#[test]
fn functions_resolve_where_bash_sees_them() {
    let callee = |line: &str| {
        parse(line)
            .commands
            .last()
            .map(|c| c.callee)
            .unwrap_or_default()
    };
    assert_eq!(callee("f() { :; }; f"), Callee::Function);
    assert_eq!(callee("f() { :; }; (f)"), Callee::Function);
    assert_eq!(callee("(f() { :; }); f"), Callee::Program);
    assert_eq!(callee("echo $(f() { :; }); f"), Callee::Program);
    assert_eq!(callee("f() { :; } & f"), Callee::Program);
    assert_eq!(callee("f() { :; } | cat; f"), Callee::Program);
    assert_eq!(callee("false && f() { :; }; f"), Callee::Either);
    assert_eq!(callee("if x; then f() { :; }; fi; f"), Callee::Either);
    assert_eq!(callee("f() { :; }; unset -f f; f"), Callee::Program);
    assert_eq!(callee("f() { :; }; unset f; f"), Callee::Either);
    assert_eq!(callee("f() { :; }; eval x; f"), Callee::Either);
    assert_eq!(callee("f() { :; }; command f"), Callee::Program);
}

/// A value only run time knows leaves the variable unknown.
#[test]
fn values_only_run_time_knows_are_forgotten() {
    for line in [
        "x=ls; read x; $x",
        "x=ls; printf -v x rm; $x",
        "x=ls; mapfile x; $x",
        "x=ls; for x in rm; do :; done; $x",
        "x=ls; f() { x=rm; }; f; $x",
        "f() { x=rm; }; x=ls; f; $x",
        "x=ls; for i in 1 2; do $x; x=rm; done",
        "x=r; x+=m; $x",
        "declare -n r=x; x=ls; r=rm; $x",
        "x=ls; eval x=rm; $x",
        "x=ls; ((x=1)); $x",
        "x=ls; let x=1; $x",
        "x=; : ${x:=rm}; $x",
    ] {
        let s = parse(line);
        let head = s
            .commands
            .iter()
            .find_map(|c| c.words.first().filter(|w| w.source == "$x"));
        assert!(head.is_some_and(|w| w.dynamic), "{line}: {head:?}");
    }
    // Straight-line assignments stay known; a subshell's do not leak.
    for line in ["x=rm; $x", "x=ls; x=rm; $x", "x=rm; (x=ls); $x"] {
        let s = parse(line);
        let head = s.commands.last().and_then(|c| c.words.first());
        assert_eq!(head.map(|w| w.value.as_str()), Some("rm"), "{line}");
    }
}

/// Arithmetic over a value with a substitution judges that command;
/// over an unknown value it is a dynamic script.
#[test]
fn arithmetic_reads_values_as_code() {
    let s = parse("x='a[$(rm -rf /)]'; [[ $x -eq 1 ]]");
    assert!(s.nested.iter().any(|n| n == "rm -rf /"), "{:?}", s.nested);
    let s = parse("[[ $n -gt 1 ]]");
    assert!(
        s.problems.iter().any(|p| matches!(p, Problem::Dynamic(_))),
        "{:?}",
        s.problems
    );
    for line in [
        "n=3; (( n > 1 ))",
        "for ((i=0; i<3; i++)); do :; done",
        "[[ $# -eq 0 ]]",
    ] {
        let s = parse(line);
        assert!(s.problems.is_empty(), "{line}: {:?}", s.problems);
    }
}

#[test]
fn literal_variables_resolve() {
    let s = parse("x=rm; $x -rf /");
    let last = s.commands.last().map(|c| c.words[0].value.clone());
    assert_eq!(last.as_deref(), Some("rm"));
}

mod bounded_tests {
    use crate::shell::Problem;
    use crate::shell::parse::parse;

    /// A parse stopped for reading too much must not leak into the next
    /// one: tree-sitter resumes a stopped parse unless the parser is reset.
    #[test]
    fn a_stopped_parse_leaves_the_parser_clean() {
        let heavy = format!("echo {}", ")".repeat(20_000));
        assert!(parse(&heavy).problems.contains(&Problem::TooComplex));
        let after = parse("ls -la");
        assert!(after.problems.is_empty(), "{:?}", after.problems);
        assert_eq!(after.commands.len(), 1);
        assert_eq!(after.commands[0].words[0].value, "ls");
    }
}
