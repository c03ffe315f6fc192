//! The corpus among hostile files. portcullis reads the working folder
//! (scripts a command runs, modules Python imports, package scripts, the
//! law's policy files), so a case's verdict may depend on what lies there.
//! The corpus runs in an empty temporary folder; these tests fill one with
//! hostile files (every script the corpus names, `json.py`, `types.py`,
//! `Makefile`, `package.json`, … each deleting the home folder) and hold:
//!
//! - no case turns FREE that is not labelled FREE, and none gets a weaker
//!   verdict than in the empty folder;
//! - the cases run at the fixed `/home/u/proj` (`tests/data/fixed-folder.tsv`)
//!   and the cases that name that folder get the same verdict and rule in a
//!   `/home/u/proj`-shaped temporary tree full of hostile files as in an
//!   empty one: their decision is the place's, not the files' (the cases
//!   that do read a file there are moved into the temporary folder:
//!   `tests/data/moved-folder.tsv`).

use portcullis::{Location, Verdict, evaluate};

use crate::common;

use common::{Case, Places, Scratch, fill_hostile, load_cases};

/// Cases that hostile files may make weaker, by design, and why. Each must
/// still happen (the list is checked both ways).
const BY_DESIGN: &[(&str, &str)] = &[(
    "./gradlew test",
    "a project's own gradlew runs as gradle does, as `make test` runs its \
     Makefile (FREE, the project's build is trusted); absent, ./gradlew is a \
     program portcullis cannot see (SIGNED verb.exec, the corpus label)",
)];

#[test]
fn hostile_files_in_the_working_folder_make_no_case_weaker() {
    let cases = load_cases();
    let places = Places::load();
    let empty = Scratch::new("hostile-empty");
    let hostile = Scratch::new("hostile");
    let written = fill_hostile(&hostile.cwd(), &cases);
    assert!(written >= 40, "only {written} hostile files written");
    let mut weaker = Vec::new();
    let mut expected = Vec::new();
    let mut changed = 0usize;
    let mut judged = 0usize;
    for case in cases.iter().filter(|c| !places.is_fixed(&c.command)) {
        let (command, location) = places.of(case, &empty);
        let before = evaluate(&command, &location);
        let (command, location) = places.of(case, &hostile);
        let after = evaluate(&command, &location);
        judged += 1;
        if after.verdict() != before.verdict() {
            changed += 1;
        }
        let new_free = after.verdict() == Verdict::Free && case.verdict != Verdict::Free;
        if new_free || after.verdict() < before.verdict() {
            if BY_DESIGN.iter().any(|(c, _)| *c == case.command) {
                expected.push(case.command.as_str());
                continue;
            }
            weaker.push(format!(
                "{}:{}\tlabel {}\tempty {} {}\thostile {} {}\t{:?}",
                case.file,
                case.line,
                case.verdict,
                before.verdict(),
                before.top.rule,
                after.verdict(),
                after.top.rule,
                case.command
            ));
        }
    }
    println!(
        "{judged} cases among {written} hostile files: {changed} verdicts changed, {} weaker",
        weaker.len()
    );
    assert!(
        weaker.is_empty(),
        "hostile files made these weaker:\n{}",
        weaker.join("\n")
    );
    for (command, why) in BY_DESIGN {
        assert!(
            expected.contains(command),
            "{command:?} is listed as made weaker by design ({why}) but was not"
        );
    }
    // A moved case is there because files in the folder change it.
    for entry in &places.moved {
        let case = cases
            .iter()
            .find(|c| c.command == entry.command)
            .expect("a corpus case");
        let (command, location) = places.of(case, &hostile);
        let after = evaluate(&command, &location);
        assert!(
            (after.verdict(), after.top.rule.to_string().as_str())
                != (case.verdict, case.rule.as_deref().unwrap_or("")),
            "moved-folder.tsv:{}: {:?} gets its label among hostile files too; \
             files do not change it: remove it from the list",
            entry.line,
            entry.command
        );
    }
}

/// A `/home/u/proj`-shaped tree under `scratch`: working folder
/// `<root>/home/u/proj`, home `<root>/home/u`.
fn mirror(scratch: &Scratch) -> Location {
    let home = scratch.root().join("home/u");
    std::fs::create_dir_all(home.join("proj")).expect("create the mirror");
    Location {
        cwd: Some(home.join("proj")),
        home: Some(home),
    }
}

/// The command with the fixed home folder's literal path moved into the
/// mirror (`/home/u/proj/.env` → `<root>/home/u/proj/.env`).
fn moved(command: &str, location: &Location) -> String {
    let home = location.home.as_ref().expect("mirror home");
    command.replace("/home/u/", &format!("{}/", home.display()))
}

/// Whether a case names the fixed working folder itself.
fn names_the_fixed_folder(case: &Case) -> bool {
    [
        "/home/u/proj",
        "~/proj",
        "$HOME/proj",
        "${HOME}/proj",
        "${HOME:?}/proj",
    ]
    .iter()
    .any(|p| case.command.contains(p))
}

#[test]
fn fixed_place_cases_ignore_hostile_files() {
    let cases = load_cases();
    let places = Places::load();
    let empty = Scratch::new("mirror-empty");
    let hostile = Scratch::new("mirror-hostile");
    let (empty_at, hostile_at) = (mirror(&empty), mirror(&hostile));
    let written = fill_hostile(hostile_at.cwd.as_ref().expect("cwd"), &cases)
        + fill_hostile(hostile_at.home.as_ref().expect("home"), &cases);
    let mut differ = Vec::new();
    let mut judged = 0usize;
    for case in cases.iter().filter(|c| {
        places.is_fixed(&c.command) || names_the_fixed_folder(c) && !places.is_moved(&c.command)
    }) {
        let before = evaluate(&moved(&case.command, &empty_at), &empty_at);
        let after = evaluate(&moved(&case.command, &hostile_at), &hostile_at);
        judged += 1;
        if (before.verdict(), &before.top.rule) != (after.verdict(), &after.top.rule) {
            differ.push(format!(
                "{}:{}\tempty {} {}\thostile {} {}\t{:?}",
                case.file,
                case.line,
                before.verdict(),
                before.top.rule,
                after.verdict(),
                after.top.rule,
                case.command
            ));
        }
    }
    println!("{judged} fixed-place cases among {written} hostile files");
    assert!(written >= 40, "only {written} hostile files written");
    assert!(judged >= places.fixed.len(), "only {judged} cases judged");
    assert!(
        differ.is_empty(),
        "files on disk change these fixed-place cases:\n{}",
        differ.join("\n")
    );
}

/// A repository with an unreadable policy file (`.cage.yaml`) is read in
/// the strictest way: every write in it is BLOCKED. Such a folder at the
/// fixed place does change the cases that write there (SIGNED
/// `rm -rf ~/proj/build` becomes BLOCKED `cage.cage_config`), so their
/// labels assume no policy file there; what must hold is that a policy
/// file never makes any of them weaker, nor FREE.
#[test]
fn a_hostile_policy_file_at_the_fixed_place_makes_nothing_weaker() {
    let cases = load_cases();
    let places = Places::load();
    let empty = Scratch::new("policy-empty");
    let hostile = Scratch::new("policy-hostile");
    let (empty_at, hostile_at) = (mirror(&empty), mirror(&hostile));
    let cwd = hostile_at.cwd.clone().expect("cwd");
    fill_hostile(&cwd, &cases);
    std::fs::create_dir_all(cwd.join(".git")).expect("a .git folder");
    std::fs::write(cwd.join(".cage.yaml"), "protect: [[[\n").expect("a policy file");
    let mut weaker = Vec::new();
    let mut stricter = 0usize;
    let mut judged = 0usize;
    for case in cases
        .iter()
        .filter(|c| places.is_fixed(&c.command) || names_the_fixed_folder(c))
    {
        let before = evaluate(&moved(&case.command, &empty_at), &empty_at);
        let after = evaluate(&moved(&case.command, &hostile_at), &hostile_at);
        judged += 1;
        stricter += usize::from(after.verdict() > before.verdict());
        if after.verdict() < before.verdict()
            || after.verdict() == Verdict::Free && case.verdict != Verdict::Free
        {
            weaker.push(format!(
                "{}:{}\tempty {} {}\tpolicy {} {}\t{:?}",
                case.file,
                case.line,
                before.verdict(),
                before.top.rule,
                after.verdict(),
                after.top.rule,
                case.command
            ));
        }
    }
    println!("{judged} fixed-place cases beside a hostile policy file: {stricter} stricter");
    assert!(stricter > 0, "the policy file was not read");
    assert!(
        weaker.is_empty(),
        "a policy file made these weaker:\n{}",
        weaker.join("\n")
    );
}
