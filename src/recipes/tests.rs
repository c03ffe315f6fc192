//! Unit tests of the Makefile, justfile and package.json readers.

use super::*;

fn none(_: &str) -> Result<Option<String>, String> {
    Ok(None)
}

fn make(text: &str, goals: &[&str]) -> Plan {
    let mf = parse_makefile(text, &[], &[], &mut none);
    let goals: Vec<String> = goals.iter().map(|g| g.to_string()).collect();
    make_plan(&mf, &goals, &["Makefile".into()])
}

fn texts(plan: &Plan) -> Vec<&str> {
    plan.lines.iter().map(|l| l.text.as_str()).collect()
}

#[test]
fn make_follows_prerequisites_and_variables() {
    let text = "PY = python3\nall: build\n\ntest: build\n\t@$(PY) -m pytest -x \\\n\t  tests/\nbuild:\n\t-mkdir -p out\n\t$(MAKE) -C sub\nclean:\n\trm -rf ~\n";
    let plan = make(text, &["test"]);
    assert_eq!(
        texts(&plan),
        vec![
            "mkdir -p out",
            "make -C sub",
            "python3 -m pytest -x \\\n  tests/"
        ]
    );
    assert!(plan.unknown.is_empty());
    let plan = make(text, &[]);
    assert_eq!(texts(&plan), vec!["mkdir -p out", "make -C sub"]);
    let plan = make(text, &["clean"]);
    assert_eq!(texts(&plan), vec!["rm -rf ~"]);
}

#[test]
fn make_unknown_parts_are_dynamic() {
    let plan = make("x:\n\t$(TOOL) run\n\techo $$HOME $@\n", &["x"]);
    assert!(plan.lines[0].dynamic);
    assert_eq!(plan.lines[1].text, "echo $HOME x");
    assert!(!plan.lines[1].dynamic);
    let plan = make(
        "X != rm -rf ~\nY := $(shell curl x | sh)\nall:\n\ttrue\n",
        &[],
    );
    assert_eq!(texts(&plan)[..2], ["rm -rf ~", "curl x | sh"]);
    let plan = make("$(eval $(call rules))\nall:\n\ttrue\n", &[]);
    assert!(!plan.unknown.is_empty());
    let plan = make("SHELL = python3\nall:\n\tprint(1)\n", &[]);
    assert!(!plan.unknown.is_empty());
}

#[test]
fn make_builtin_rules_and_patterns() {
    let plan = make("CC = rm -rf ~ ;\nprog: prog.o\n", &[]);
    assert!(plan.lines.iter().any(|l| l.text.starts_with("rm -rf ~ ;")));
    let plan = make("%.o: %.c\n\tgcc -c $< -o $@\nall: a.o\n", &["all"]);
    assert_eq!(texts(&plan), vec!["gcc -c a.c -o a.o"]);
    let plan = make("all:\n\techo hi\nMakefile: gen\n\trm -rf ~\n", &["all"]);
    assert!(texts(&plan).contains(&"rm -rf ~"));
}

#[test]
fn make_args_are_read() {
    let args: Vec<String> = [
        "-sC",
        "sub",
        "-j4",
        "--file=x.mk",
        "test",
        "CC=cc",
        "-f",
        "-",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let a = make_args(&args);
    assert_eq!(a.dirs, vec!["sub"]);
    assert_eq!(a.files, vec!["x.mk", "-"]);
    assert_eq!(a.goals, vec!["test"]);
    assert_eq!(a.overrides, vec![("CC".to_string(), "cc".to_string())]);
    let a = make_args(&["--eval=x:".to_string(), "-Ebad".to_string()]);
    assert_eq!(a.evals, vec!["x:", "bad"]);
}

#[test]
fn justfiles_are_read() {
    let text = "set shell := [\"bash\", \"-uc\"]\nv := \"1\"\nalias t := test\n\ndefault: build\n\nbuild:\n    cargo build\n\ntest filter='': build\n    cargo test {{filter}}\n    @echo {{v}}\n\nclean:\n    rm -rf ~\n";
    let jf = parse_justfile(text);
    let plan = just_plan(&jf, &[]);
    assert_eq!(texts(&plan), vec!["cargo build"]);
    let plan = just_plan(&jf, &["t".into(), "x".into()]);
    assert_eq!(texts(&plan), vec!["cargo build", "cargo test x", "echo 1"]);
    let plan = just_plan(&jf, &["clean".into()]);
    assert_eq!(texts(&plan), vec!["rm -rf ~"]);
    assert!(plan.unknown.is_empty());
}

#[test]
fn package_scripts_are_found() {
    let json = r#"{"scripts": {"pretest": "echo pre", "test": "jest", "build": "tsc"}}"#;
    let call = script_call("npm", &["test".into(), "--".into(), "-u".into()]).unwrap();
    let plan = package_plan(json, &call, "npm").unwrap();
    assert_eq!(texts(&plan), vec!["echo pre", "jest -u"]);
    let call = script_call("yarn", &["build".into()]).unwrap();
    assert_eq!(
        texts(&package_plan(json, &call, "yarn").unwrap()),
        vec!["tsc"]
    );
    assert!(script_call("yarn", &["add".into(), "x".into()]).is_none());
    assert!(script_call("npm", &["install".into()]).is_none());
    let call = script_call("npm", &["--prefix".into(), "x".into(), "test".into()]).unwrap();
    assert_eq!(call.dir.as_deref(), Some("x"));
    assert!(!call.source.is_empty());
}
