//! Unit tests of the awk, sed, ex and jq scans.

use super::*;

fn words(args: &[&str]) -> Vec<Word> {
    args.iter().map(|a| Word::literal(a)).collect()
}

#[test]
fn awk_programs() {
    assert_eq!(awk(&words(&["{print $1}", "f"])), None);
    assert_eq!(
        awk(&words(&["-F:", "$3 > 1000 {print $1}", "/etc/passwd"])),
        None
    );
    assert_eq!(
        awk(&words(&["{print > \"out.txt\"}", "f"])),
        Some(WRITES_FILES)
    );
    assert_eq!(
        awk(&words(&["{system(\"rm \" $1)}", "f"])),
        Some(RUNS_COMMANDS)
    );
    assert_eq!(awk(&words(&["{print | \"sh\"}"])), Some(RUNS_COMMANDS));
    assert_eq!(
        awk(&words(&["BEGIN { \"date\" | getline d }"])),
        Some(RUNS_COMMANDS)
    );
    assert_eq!(awk(&words(&["$1 == \"a|b\" || $2 {print}"])), None);
    assert_eq!(awk(&words(&["NR==1 || /a|b/ {print}", "f"])), None);
    assert_eq!(awk(&words(&["$1 ~ /x|y/ {print $2 / 2}", "f"])), None);
    assert_eq!(
        awk(&words(&["{print $1 / 2 | \"sh\"}"])),
        Some(RUNS_COMMANDS)
    );
    assert_eq!(awk(&words(&["-f", "prog.awk"])), Some(PROGRAM_FILE));
}

#[test]
fn sed_scripts() {
    assert_eq!(sed(&words(&["-n", "1,5p", "f"])), None);
    assert_eq!(sed(&words(&["s/a/b/g", "f"])), None);
    assert_eq!(sed(&words(&["-n", "w copy.txt", "f"])), Some(WRITES_FILES));
    assert_eq!(sed(&words(&["s/a/b/w out", "f"])), Some(WRITES_FILES));
    assert_eq!(sed(&words(&["s/.*/date/e", "f"])), Some(RUNS_COMMANDS));
    assert_eq!(
        sed(&words(&["-e", "1e rm -rf x", "f"])),
        Some(RUNS_COMMANDS)
    );
    assert_eq!(sed(&words(&["/foo/w found.txt", "f"])), Some(WRITES_FILES));
    assert_eq!(sed(&words(&["s/w/x/", "f"])), None);
    assert_eq!(sed(&words(&["-n", "/^def /p", "f"])), None);
    assert_eq!(
        sed(&words(&["-i", "86,89c\\\n    else:\\\n        e = 1", "f"])),
        None
    );
    assert_eq!(sed(&words(&["-i", "/x/a \\\n    w = 2; e()", "f"])), None);
    assert_eq!(
        sed(&words(&["-i", "/x/a text\n/y/w out", "f"])),
        Some(WRITES_FILES)
    );
    assert_eq!(
        sed(&words(&["/x/e cat other.py", "f"])),
        Some(RUNS_COMMANDS)
    );
    assert_eq!(sed(&words(&["s/a;w x/b/", "f"])), None);
}

fn lines(dialect: Dialect, args: &[&str]) -> Parts {
    parts(dialect, &words(args))
}

#[test]
fn awk_hands_on_lines_and_files() {
    let p = lines(Dialect::Awk, &["BEGIN{system(\"rm -rf ~\")}"]);
    assert_eq!(p.lines, ["rm -rf ~"]);
    let p = lines(Dialect::Awk, &["BEGIN{print | \"sh\"}"]);
    assert_eq!(p.lines, ["sh"]);
    let p = lines(Dialect::Awk, &["BEGIN{\"rm -rf ~\" | getline}"]);
    assert_eq!(p.lines, ["rm -rf ~"]);
    let p = lines(Dialect::Awk, &["{print > \".git/hooks/pre-commit\"}", "x"]);
    assert_eq!(p.writes, [".git/hooks/pre-commit"]);
    let p = lines(Dialect::Awk, &["{print $1 >> \"out\" }"]);
    assert_eq!(p.writes, ["out"]);
    let p = lines(Dialect::Awk, &["--source=BEGIN{system(\"id\")}"]);
    assert_eq!(p.lines, ["id"]);
    let p = lines(Dialect::Awk, &["-e", "BEGIN{system(\"id\")}", "f"]);
    assert_eq!(p.lines, ["id"]);
    let p = lines(Dialect::Awk, &["-v", "x=1", "-f", "p.awk", "f"]);
    assert_eq!(p.files, [(3, 0)]);
    let p = lines(Dialect::Awk, &["-é", "{print}", "f"]);
    assert!(p.files.is_empty());
    let p = lines(Dialect::Awk, &["-fp.awk", "f"]);
    assert_eq!(p.files, [(0, 2)]);
    let p = lines(Dialect::Awk, &["BEGIN{print \"a\" | \"cat 1>&2\"}"]);
    assert_eq!(p.lines, ["cat 1>&2"]);
    let p = lines(Dialect::Awk, &["BEGIN{print \"rm -rf /\" | \"sh\"}"]);
    assert_eq!(p.lines, ["rm -rf /", "sh"]);
    let p = lines(Dialect::Awk, &["{print $1}", "f"]);
    assert_eq!(p, Parts::default());
    let p = lines(Dialect::Awk, &["$1 > 5 {print \"big\"}", "f"]);
    assert_eq!(p, Parts::default());
    let p = lines(Dialect::Awk, &["{system(\"rm \" $1)}"]);
    assert!(p.lines.is_empty());
    let p = lines(Dialect::Awk, &["BEGIN{system(\"r\" \"m -rf ~\")}"]);
    assert_eq!(p.lines, ["rm -rf ~"]);
}

#[test]
fn sed_hands_on_lines_and_files() {
    assert_eq!(
        lines(Dialect::Sed, &["1e rm -rf ~", "f"]).lines,
        ["rm -rf ~"]
    );
    assert_eq!(
        lines(Dialect::Sed, &["s/.*/rm -rf ~/e", "f"]).lines,
        ["rm -rf ~"]
    );
    assert_eq!(
        lines(Dialect::Sed, &["w .git/hooks/pre-commit", "x"]).writes,
        [".git/hooks/pre-commit"]
    );
    assert_eq!(
        lines(Dialect::Sed, &["s/a/b/w .git/config", "x"]).writes,
        [".git/config"]
    );
    assert_eq!(
        lines(Dialect::Sed, &["-n", "-e", "p", "-f", "x.sed", "f"]).files,
        [(4, 0)]
    );
    assert_eq!(lines(Dialect::Sed, &["s/a/b/g", "f"]), Parts::default());
    assert_eq!(
        lines(Dialect::Sed, &["-i", "s/e/w/", "f"]),
        Parts::default()
    );
}

#[test]
fn ex_commands_hand_on_lines() {
    assert_eq!(
        lines(Dialect::Ex, &["-c", "!rm -rf ~", "-c", "q"]).lines,
        ["rm -rf ~"]
    );
    assert_eq!(lines(Dialect::Ex, &["+%!sh", "f"]).lines, ["sh"]);
    assert_eq!(
        lines(Dialect::Ex, &["-c", "silent !id | q"]).lines,
        ["id | q"]
    );
    assert_eq!(
        lines(Dialect::Ex, &["-c", "call system('id')"]).lines,
        ["id"]
    );
    assert_eq!(lines(Dialect::Ex, &["-S", "x.vim"]).files, [(1, 0)]);
    assert_eq!(lines(Dialect::Ex, &["+10", "f"]), Parts::default());
    assert_eq!(lines(Dialect::Ex, &["-c", "wq", "f"]), Parts::default());
}

#[test]
fn queries_that_read_the_environment() {
    let q = |args: &[&str]| query_reads_environment("jq", &words(args));
    assert!(q(&["-n", "env"]));
    assert!(q(&["-n", "$ENV"]));
    assert!(q(&["-n", "$ENV.AWS_SECRET"]));
    assert!(q(&["env.HOME"]));
    assert!(!q(&[".env", "f.json"]));
    assert!(!q(&[".x", "f.json"]));
    assert!(!q(&["$ENVIRONMENT"]));
    assert!(!q(&["{\"env\": 1}"]));
    assert!(!q(&["--arg", "env", "prod", ".x", "f.json"]));
    assert!(q(&["--arg", "x", "1", "-n", "env"]));
    assert!(query_reads_environment(
        "yq",
        &words(&["-n", "strenv(TOKEN)"])
    ));
}
