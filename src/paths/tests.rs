//! Unit tests of path resolution, places, patterns and links.

use super::*;

fn loc() -> Location {
    Location {
        cwd: Some("/home/u/proj".into()),
        home: Some("/home/u".into()),
    }
}

fn place(raw: &str, glob: bool) -> Place {
    let mut w = Word::literal(raw);
    w.glob = glob;
    w.tilde = raw.starts_with('~');
    w.dynamic = raw.contains('$');
    let l = loc();
    l.resolve(&w).place(l.home.as_deref())
}

#[test]
fn tables_are_sorted() {
    assert!(SYSTEM_FOLDERS.windows(2).all(|w| w[0] < w[1]));
    assert!(HARMLESS_DEVICES.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn places() {
    assert_eq!(place("/", false), Place::Root);
    assert_eq!(place("/*", true), Place::RootContents);
    assert_eq!(place("~", false), Place::Home);
    assert_eq!(place("~/", false), Place::Home);
    assert_eq!(place("$HOME", false), Place::Home);
    assert_eq!(place("${HOME}/*", true), Place::HomeContents);
    assert_eq!(place("../..", false), Place::System);
    assert_eq!(place("../../..", false), Place::Root);
    assert_eq!(place("..", false), Place::Home);
    assert_eq!(place("/usr", false), Place::System);
    assert_eq!(place("/etc/passwd", false), Place::System);
    assert_eq!(place("/etc/nginx/conf.d/old", false), Place::Ordinary);
    assert_eq!(place("/tmp/build", false), Place::Ordinary);
    assert_eq!(place("build", false), Place::Ordinary);
    assert_eq!(place("/dev/sda1", false), Place::Device);
    assert_eq!(place("$DIR/", false), Place::Root);
    assert_eq!(place("$DIR/*", true), Place::RootContents);
    assert_eq!(place("~root", false), Place::System);
    assert_eq!(place("/./bin/../bin", false), Place::System);
}

#[test]
fn patterns_read_by_value() {
    let l = loc();
    let pat = |raw: &str| {
        let mut w = Word::literal(raw);
        w.glob = raw.contains(['*', '?', '[']);
        w.dynamic = raw.contains('$');
        w.tilde = raw.starts_with('~');
        pattern_of(&w, &l, l.cwd.as_deref())
    };
    let place_of_pattern = |raw: &str| {
        pat(raw).map_or(Place::Ordinary, |p| {
            pattern_place(&p, l.home.as_deref(), true)
        })
    };
    assert_eq!(place_of_pattern("/???"), Place::System);
    assert_eq!(place_of_pattern("/h*"), Place::System);
    assert_eq!(place_of_pattern("/ho?e/*"), Place::Home);
    assert_eq!(place_of_pattern("/home/$X"), Place::Home);
    assert_eq!(place_of_pattern("/[!a]tc"), Place::System);
    assert_eq!(place_of_pattern("/tmp/*"), Place::Ordinary);
    assert_eq!(place_of_pattern("./build/*"), Place::Ordinary);
    assert_eq!(place_of_pattern("~/${X:?}"), Place::Ordinary);
    assert_eq!(pat("$X/y"), None);
    assert_eq!(place("/home/$USER", false), Place::Home);
    assert_eq!(place("~+/..", false), Place::Home);
}

#[test]
fn names_match_as_bash_globs_do() {
    assert!(name_matches("p?rt*", "portcullis"));
    assert!(name_matches("[a-p]ort*", "portcullis"));
    assert!(!name_matches("[!p]ort*", "portcullis"));
    assert!(name_matches("*", ".claude"));
    assert!(!name_matches("x*", "home"));
    assert!(name_matches("[[:alpha:]]", "u"));
    assert!(pattern_matches(&["**"], &["home", "u"]));
    assert!(!pattern_matches(&["home"], &["home", "u"]));
}

#[test]
fn devices_by_every_name() {
    for dev in [
        "/dev/block/8:0",
        "/dev/mapper/root",
        "/dev/vg0/lv",
        "/dev/watchdog",
        "/proc/self/root/dev/sda",
        "/dev/disk/by-id/x",
    ] {
        assert_eq!(place(dev, false), Place::Device, "{dev}");
    }
    for dev in [
        "/dev/null",
        "/dev/ttyUSB0",
        "/dev/shm/x",
        "/dev/tcp/h/1",
        "/dev/pts/0",
    ] {
        assert_ne!(place(dev, false), Place::Device, "{dev}");
    }
}

#[test]
fn parents_are_kept_for_the_kernel() {
    let l = loc();
    let t = l.resolve(&Word::literal("hooklink/../config"));
    assert_eq!(t.path, Some(PathBuf::from("/home/u/proj/config")));
    assert_eq!(
        t.physical,
        Some(PathBuf::from("/home/u/proj/hooklink/../config"))
    );
    assert_eq!(l.resolve(&Word::literal("a/./b")).physical, None);
    assert_eq!(l.resolve(&Word::literal("/../etc")).physical, None);
}

#[test]
fn process_folders_are_the_shell_s() {
    let l = loc();
    let at = |raw: &str| {
        let mut w = Word::literal(raw);
        w.dynamic = raw.contains('$');
        l.resolve_in(&w, Some(Path::new("/home/u/proj/sub")))
    };
    for own in [
        "/proc/self/cwd/x",
        "/proc/thread-self/cwd/x",
        "/proc/$$/cwd/x",
        "/proc/self/task/7/cwd/x",
    ] {
        assert_eq!(
            at(own).path,
            Some(PathBuf::from("/home/u/proj/sub/x")),
            "{own}"
        );
    }
    let up = at("/proc/self/cwd/../.git/config");
    assert_eq!(up.path, Some(PathBuf::from("/home/u/proj/.git/config")));
    for other in ["/proc/1/cwd/x", "/dev/fd/3/x", "/proc/self/fd/3/x"] {
        let t = at(other);
        assert!(t.opaque && t.path.is_none(), "{other}");
    }
    assert!(!at("/dev/fd/3").opaque);
    assert!(is_sink("/dev/fd/2") && is_sink("/proc/self/fd/1"));
    assert!(!is_sink("/dev/fd/3/config") && !is_sink("/dev/fd/"));
}

#[test]
fn links_are_read_before_parents() {
    let l = loc();
    let mut links = Links::default();
    let args: Vec<Word> = ["-s", ".git/hooks", "h"]
        .iter()
        .map(|a| Word::literal(a))
        .collect();
    links.record("ln", &args, &l);
    let through = |p: &str, last| links.through(Path::new(p), last, "later");
    assert_eq!(
        through("/home/u/proj/h/../config", true),
        Some(PathBuf::from("/home/u/proj/.git/config"))
    );
    assert_eq!(
        through("/home/u/proj/h", true),
        Some(PathBuf::from("/home/u/proj/.git/hooks"))
    );
    assert_eq!(through("/home/u/proj/h", false), None);
    assert_eq!(through("/home/u/proj/x/../config", true), None);
    links.made_by("ln -s .git/hooks h");
    assert_eq!(
        links.through(Path::new("/home/u/proj/h"), true, "ln -s .git/hooks h"),
        None
    );
}

#[test]
fn links_lead_where_they_point() {
    let l = loc();
    let mut links = Links::default();
    let args: Vec<Word> = ["-s", "~", "h"]
        .iter()
        .map(|a| {
            let mut w = Word::literal(a);
            w.tilde = a.starts_with('~');
            w
        })
        .collect();
    links.record("ln", &args, &l);
    let h = Path::new("/home/u/proj/h");
    assert_eq!(links.follow(h, false), None);
    assert_eq!(links.follow(h, true), Some(PathBuf::from("/home/u")));
    assert_eq!(
        links.follow(&h.join("x"), false),
        Some(PathBuf::from("/home/u/x"))
    );
    let mut relative = Links::default();
    let up: Vec<Word> = ["-s", "../..", "up"]
        .iter()
        .map(|a| Word::literal(a))
        .collect();
    relative.record("ln", &up, &l);
    assert_eq!(
        relative.follow(Path::new("/home/u/proj/up/x"), false),
        Some(PathBuf::from("/home/x"))
    );
}

/// `normalise` gives what a walk over `Path::components` gives: `/` and
/// each name pushed, `..` popping one, for any mix of names, `.`, `..`
/// and repeated or trailing slashes, absolute or relative.
#[test]
fn normalise_agrees_with_path_components() {
    use proptest::prelude::*;
    fn by_components(path: &Path) -> PathBuf {
        let mut out = PathBuf::from("/");
        for component in path.components() {
            match component {
                Component::ParentDir => {
                    out.pop();
                }
                Component::Normal(part) => out.push(part),
                _ => {}
            }
        }
        out
    }
    let part = prop_oneof![
        Just(String::new()),
        Just(".".to_string()),
        Just("..".to_string()),
        Just("...".to_string()),
        "[a-z.]{1,4}",
        "é[a-z]?",
    ];
    let path =
        (any::<bool>(), proptest::collection::vec(part, 0..8)).prop_map(|(rooted, parts)| {
            let joined = parts.join("/");
            if rooted { format!("/{joined}") } else { joined }
        });
    proptest!(ProptestConfig::with_cases(2_000), |(text in path)| {
        let p = Path::new(&text);
        prop_assert_eq!(normalise(p), by_components(p), "{:?}", text);
    });
    for text in ["", "/", "//", "a", "./a/../..", "/a/./b//c/", "a/../../b"] {
        assert_eq!(
            normalise(Path::new(text)),
            by_components(Path::new(text)),
            "{text:?}"
        );
    }
}
