//! Path patterns for the path law: the cage's glob dialect (`*` and `?`
//! within one segment, `**` at any depth, `**/x` also matching a top-level
//! `x`, `[…]` classes), a write target that is only partly known (a shell
//! glob, a variable whose value is unknown), and the one question the law
//! asks of two patterns: can a single path match both?
//!
//! Takes pattern text; returns a [`Pattern`], and answers [`intersects`].
//! Matching is ASCII case-insensitive, as on the case-insensitive file
//! systems many agents run on (`.ENV` is `.env` there). Nothing here
//! touches the filesystem.

use std::borrow::Cow;

/// One step of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// A literal character (compared ASCII case-insensitively).
    Char(char),
    /// `?`: one character, not `/`.
    One,
    /// `*`: any run of characters within a segment.
    Star,
    /// Any run of characters, `/` included (a variable whose value is
    /// unknown, or `/**` at the end).
    Any,
    /// `**/`: nothing, or any run of folders ending in `/`. Always followed
    /// by [`Tok::DirsBody`]: `Dirs` skips both or enters the body.
    Dirs,
    /// The body of `**/`: any characters, left after a `/`.
    DirsBody,
    /// `[…]`: a character class; `true` when negated.
    Class(Cow<'static, [(char, char)]>, bool),
}

impl Tok {
    /// Rust source for this step (see [`Pattern::to_rust`]).
    #[allow(dead_code)]
    fn to_rust(&self) -> String {
        match self {
            Tok::Char(c) => format!("Tok::Char({c:?})"),
            Tok::One => "Tok::One".to_string(),
            Tok::Star => "Tok::Star".to_string(),
            Tok::Any => "Tok::Any".to_string(),
            Tok::Dirs => "Tok::Dirs".to_string(),
            Tok::DirsBody => "Tok::DirsBody".to_string(),
            Tok::Class(ranges, negated) => {
                format!("Tok::Class(std::borrow::Cow::Borrowed(&{ranges:?}), {negated})")
            }
        }
    }
}

/// A compiled path pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// Borrowed for the built-in rules, compiled by build.rs.
    toks: Cow<'static, [Tok]>,
    /// Shell globbing: `*`, `?` and classes do not match a leading `.` of a
    /// segment (`rm *` leaves `.env` alone).
    hidden_dots: bool,
    /// Letters match only in the same case (an area a task may write, where
    /// matching `src/Billing` for `src/billing` would widen it).
    exact_case: bool,
}

impl Pattern {
    /// How many tokens the pattern has (what matching it costs grows with).
    pub fn len(&self) -> usize {
        self.toks.len()
    }

    /// Whether the pattern has no token (it matches only the empty path).
    pub fn is_empty(&self) -> bool {
        self.toks.is_empty()
    }

    /// A literal path: no character is special.
    pub fn literal(text: &str) -> Pattern {
        Pattern {
            toks: text.chars().map(Tok::Char).collect(),
            hidden_dots: false,
            exact_case: false,
        }
    }

    /// A pattern compiled ahead of time (build.rs writes these for the
    /// built-in rules from [`Pattern::to_rust`]).
    pub(crate) const fn from_static(
        toks: &'static [Tok],
        hidden_dots: bool,
        exact_case: bool,
    ) -> Pattern {
        Pattern {
            toks: Cow::Borrowed(toks),
            hidden_dots,
            exact_case,
        }
    }

    /// Rust source that builds this pattern with [`Pattern::from_static`]
    /// (for build.rs, which includes this file).
    #[allow(dead_code)]
    pub(crate) fn to_rust(&self) -> String {
        let toks: Vec<String> = self.toks.iter().map(Tok::to_rust).collect();
        format!(
            "Pattern::from_static(&[{}], {}, {})",
            toks.join(", "),
            self.hidden_dots,
            self.exact_case
        )
    }

    /// A glob in the cage's dialect (also gitignore's and the seeds').
    pub fn glob(text: &str) -> Pattern {
        Pattern {
            toks: Cow::Owned(compile_glob(text)),
            hidden_dots: false,
            exact_case: false,
        }
    }

    /// A glob whose letters match only in the same case.
    pub fn glob_exact_case(text: &str) -> Pattern {
        Pattern {
            exact_case: true,
            ..Pattern::glob(text)
        }
    }

    /// A shell glob as bash expands it: wildcards skip hidden names.
    pub fn shell_glob(text: &str) -> Pattern {
        let mut pattern = Pattern::glob(text);
        // Without `globstar`, bash reads `**/` as `*/`.
        let mut toks = Vec::with_capacity(pattern.toks.len());
        for tok in pattern.toks.iter().cloned() {
            match tok {
                Tok::Dirs => toks.push(Tok::Star),
                Tok::DirsBody => toks.push(Tok::Char('/')),
                Tok::Any => toks.push(Tok::Star),
                other => toks.push(other),
            }
        }
        pattern.toks = Cow::Owned(toks);
        pattern.hidden_dots = true;
        pattern
    }

    /// A git pathspec glob (`git checkout -- '*.yml'`): git matches `*`
    /// across folders.
    /// Read here as a name at any depth when it has no `/` (`*.yml` is
    /// `**/*.yml`), its wildcards skipping hidden names like the shell's
    /// (a simplification: git's own `*` would match `.env.rs`).
    pub fn git_pathspec(text: &str) -> Pattern {
        let mut pattern = if text.contains('/') {
            Pattern::glob(text)
        } else {
            Pattern::glob(&format!("**/{text}"))
        };
        pattern.hidden_dots = true;
        pattern
    }

    /// Appends literal text.
    pub fn push_literal(&mut self, text: &str) {
        self.toks.to_mut().extend(text.chars().map(Tok::Char));
    }

    /// Appends another pattern.
    pub fn append(&mut self, other: &Pattern) {
        self.toks.to_mut().extend(other.toks.iter().cloned());
        self.hidden_dots |= other.hidden_dots;
        self.exact_case |= other.exact_case;
    }

    /// The literal text before the first wildcard or unknown part.
    pub fn literal_prefix(&self) -> String {
        self.toks
            .iter()
            .map_while(|t| match t {
                Tok::Char(c) => Some(*c),
                _ => None,
            })
            .collect()
    }

    /// The pattern without a leading literal `prefix` (compared exactly),
    /// or `None` when it does not start with it.
    pub fn strip_literal_prefix(&self, prefix: &str) -> Option<Pattern> {
        let n = prefix.chars().count();
        let starts = self.toks.len() >= n
            && prefix
                .chars()
                .zip(self.toks.iter())
                .all(|(c, t)| *t == Tok::Char(c));
        starts.then(|| Pattern {
            toks: Cow::Owned(self.toks.get(n..).unwrap_or_default().to_vec()),
            hidden_dots: self.hidden_dots,
            exact_case: self.exact_case,
        })
    }

    /// Appends glob text (wildcards active).
    pub fn push_glob(&mut self, text: &str) {
        self.toks.to_mut().extend(compile_glob(text));
    }

    /// Appends a part whose value is unknown: any text, `/` included.
    pub fn push_unknown(&mut self) {
        if self.toks.last() != Some(&Tok::Any) {
            self.toks.to_mut().push(Tok::Any);
        }
    }

    /// This pattern followed by `/` and anything: everything beneath it.
    pub fn beneath(&self) -> Pattern {
        let mut below = self.clone();
        // Beneath the root ("") is everything.
        if !below.toks.is_empty() {
            below.toks.to_mut().push(Tok::Char('/'));
        }
        below.toks.to_mut().push(Tok::Any);
        below
    }

    /// Whether the pattern may name a folder: anything but a literal whose
    /// last part has an extension (`azure-pipelines.yml`, `.cage.yaml`).
    pub fn names_folder(&self) -> bool {
        if !self.is_literal() {
            return true;
        }
        let text = self.literal_prefix();
        let last = text.rsplit('/').next().unwrap_or(&text);
        !last.get(1..).is_some_and(|rest| rest.contains('.'))
    }

    /// Whether the pattern is a plain path (no wildcard, nothing unknown).
    pub fn is_literal(&self) -> bool {
        self.toks.iter().all(|t| matches!(t, Tok::Char(_)))
    }

    /// Whether the pattern contains a part whose value is unknown.
    pub fn has_unknown(&self) -> bool {
        self.toks.contains(&Tok::Any)
    }

    /// Whether `path` (a literal) matches: a simulation of the pattern's
    /// steps as a bit set (patterns of up to 127 steps; longer ones fall
    /// back to [`intersects`]).
    pub fn matches(&self, path: &str) -> bool {
        self.simulate(path, false)
    }

    /// A faster equivalent of [`Pattern::covers_path`] for the two shapes
    /// most rules have: a literal path (`.github/workflows`) and a literal
    /// name at any depth (`**/Cargo.lock`); `None` for any other shape.
    pub fn quick(&self) -> Option<Quick> {
        let literal = |toks: &[Tok]| -> Option<String> {
            toks.iter()
                .map(|t| match t {
                    Tok::Char(c) => Some(*c),
                    _ => None,
                })
                .collect()
        };
        if self.exact_case || self.hidden_dots {
            return None;
        }
        let segment_only = |toks: &[Tok]| {
            !toks.is_empty()
                && toks
                    .iter()
                    .all(|t| !matches!(t, Tok::Char('/') | Tok::Any | Tok::Dirs | Tok::DirsBody))
        };
        match &*self.toks {
            [Tok::Dirs, Tok::DirsBody, rest @ ..] => match literal(rest) {
                Some(name) if !name.is_empty() && !name.contains('/') => {
                    Some(Quick::Name(Cow::Owned(name)))
                }
                Some(path) if !path.is_empty() => Some(Quick::Segments(Cow::Owned(path))),
                _ if segment_only(rest) => Some(Quick::NameGlob(Pattern {
                    toks: Cow::Owned(rest.to_vec()),
                    ..self.clone()
                })),
                _ => None,
            },
            toks => match literal(toks) {
                Some(path) if !path.is_empty() => Some(Quick::Path(Cow::Owned(path))),
                _ => {
                    let prefix = self.literal_prefix();
                    let folder = &prefix[..prefix.rfind('/').map_or(0, |i| i + 1)];
                    (!folder.is_empty())
                        .then(|| Quick::Prefixed(Cow::Owned(folder.to_string()), self.clone()))
                }
            },
        }
    }

    /// Whether the pattern matches `path` or a folder above it
    /// (`.github/workflows` covers `.github/workflows/ci.yml`), in one pass.
    pub fn covers_path(&self, path: &str) -> bool {
        self.simulate(path, true)
    }

    fn simulate(&self, path: &str, or_folder_above: bool) -> bool {
        let n = self.toks.len();
        if n >= 128 {
            let literal = Pattern::literal(path);
            return intersects(self, &literal)
                || or_folder_above && intersects(&self.beneath(), &literal);
        }
        let mut states = self.closure(1);
        let mut at_start = true;
        for c in path.chars() {
            if or_folder_above && c == '/' && states & (1 << n) != 0 {
                return true;
            }
            let mut next = 0u128;
            let mut rest = states;
            while rest != 0 {
                let i = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let Some(tok) = self.toks.get(i) else {
                    continue;
                };
                let hidden = at_start && c == '.' && self.hidden_dots;
                let (stay, advance) = match tok {
                    Tok::Char(x) => (
                        false,
                        if self.exact_case {
                            *x == c
                        } else {
                            x.eq_ignore_ascii_case(&c)
                        },
                    ),
                    Tok::One => (false, c != '/' && !hidden),
                    Tok::Star => (c != '/' && !hidden, false),
                    Tok::Any => (true, false),
                    Tok::Dirs => (false, false),
                    Tok::DirsBody => (true, c == '/'),
                    Tok::Class(..) => (false, set_of(tok).contains(c) && !hidden),
                };
                if stay {
                    next |= 1 << i;
                }
                if advance {
                    next |= 1 << (i + 1);
                }
            }
            states = self.closure(next);
            if states == 0 {
                return false;
            }
            at_start = c == '/';
        }
        states & (1 << n) != 0
    }

    /// The states reachable from `states` without consuming a character.
    fn closure(&self, mut states: u128) -> u128 {
        for (i, tok) in self.toks.iter().enumerate() {
            if states & (1 << i) == 0 {
                continue;
            }
            match tok {
                Tok::Star | Tok::Any => states |= 1 << (i + 1),
                Tok::Dirs => states |= (1 << (i + 1)) | (1 << (i + 2)),
                _ => {}
            }
        }
        states
    }
}

fn compile_glob(text: &str) -> Vec<Tok> {
    let chars: Vec<char> = text.chars().collect();
    let mut toks = Vec::with_capacity(chars.len());
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        match c {
            '*' if chars.get(i + 1) == Some(&'*') => {
                let at_start = i == 0 || chars.get(i - 1) == Some(&'/');
                let mut end = i + 2;
                while chars.get(end) == Some(&'*') {
                    end += 1;
                }
                if at_start && chars.get(end) == Some(&'/') {
                    toks.push(Tok::Dirs);
                    toks.push(Tok::DirsBody);
                    i = end + 1;
                } else if at_start && end == chars.len() {
                    toks.push(Tok::Any);
                    i = end;
                } else {
                    toks.push(Tok::Star);
                    i = end;
                }
                continue;
            }
            '*' => {
                if toks.last() != Some(&Tok::Star) {
                    toks.push(Tok::Star);
                }
            }
            '?' => toks.push(Tok::One),
            '[' => {
                if let Some((class, next)) = parse_class(&chars, i) {
                    toks.push(class);
                    i = next;
                    continue;
                }
                toks.push(Tok::Char('['));
            }
            '\\' if i + 1 < chars.len() => {
                toks.extend(chars.get(i + 1).map(|&escaped| Tok::Char(escaped)));
                i += 2;
                continue;
            }
            _ => toks.push(Tok::Char(c)),
        }
        i += 1;
    }
    toks
}

/// `[abc]`, `[a-z]`, `[!x]`, `[^x]` starting at `chars[start]`; the token
/// and the index after `]`.
fn parse_class(chars: &[char], start: usize) -> Option<(Tok, usize)> {
    let mut i = start + 1;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let first = i;
    while let Some(&c) = chars.get(i) {
        if c == ']' && i > first {
            return Some((Tok::Class(Cow::Owned(ranges), negated), i + 1));
        }
        if chars.get(i + 1) == Some(&'-')
            && let Some(&end) = chars.get(i + 2).filter(|e| **e != ']')
        {
            ranges.push((c.to_ascii_lowercase(), end.to_ascii_lowercase()));
            ranges.push((c.to_ascii_uppercase(), end.to_ascii_uppercase()));
            i += 3;
        } else {
            ranges.push((c.to_ascii_lowercase(), c.to_ascii_lowercase()));
            i += 1;
        }
    }
    None
}

/// A rule shape that needs no simulation (see [`Pattern::quick`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Quick {
    /// A literal root-relative path: covers it and everything beneath.
    Path(Cow<'static, str>),
    /// A literal name at any depth: covers every path with that segment.
    Name(Cow<'static, str>),
    /// A literal run of segments at any depth (`**/.github/workflows`):
    /// covers every path holding that run.
    Segments(Cow<'static, str>),
    /// A one-segment glob at any depth (`**/.env.*`): some segment matches.
    NameGlob(Pattern),
    /// A glob under a literal folder (`.agent/**/*.json`): the path must
    /// start with the folder before the glob is tried.
    Prefixed(Cow<'static, str>, Pattern),
}

impl Quick {
    /// Rust source that builds this shape (see [`Pattern::to_rust`]).
    #[allow(dead_code)]
    pub(crate) fn to_rust(&self) -> String {
        let text = |t: &str| format!("std::borrow::Cow::Borrowed({t:?})");
        match self {
            Quick::Path(p) => format!("Quick::Path({})", text(p)),
            Quick::Name(n) => format!("Quick::Name({})", text(n)),
            Quick::Segments(s) => format!("Quick::Segments({})", text(s)),
            Quick::NameGlob(p) => format!("Quick::NameGlob({})", p.to_rust()),
            Quick::Prefixed(f, p) => format!("Quick::Prefixed({}, {})", text(f), p.to_rust()),
        }
    }

    /// For a literal rule path: whether it lies strictly beneath `folder`
    /// (a write reaching the whole folder reaches it). Rules that name a
    /// file at any depth never do (that needs the folder's listing); a
    /// prefixed glob answers conservatively from its folder.
    pub fn lies_beneath(&self, folder: &str) -> bool {
        let inside = |p: &str| {
            folder.is_empty()
                || p.len() > folder.len()
                    && p.get(..folder.len())
                        .is_some_and(|h| h.eq_ignore_ascii_case(folder))
                    && p.as_bytes().get(folder.len()) == Some(&b'/')
        };
        match self {
            Quick::Path(p) => inside(p),
            Quick::Prefixed(prefix, _) => {
                inside(prefix.trim_end_matches('/'))
                    || Quick::Path(Cow::Owned(prefix.trim_end_matches('/').to_string()))
                        .covers(folder)
            }
            Quick::Name(_) | Quick::NameGlob(_) | Quick::Segments(_) => false,
        }
    }

    /// Whether the rule covers `path` (ASCII case-insensitively).
    pub fn covers(&self, path: &str) -> bool {
        match self {
            Quick::Path(p) => {
                path.get(..p.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(p))
                    && (path.len() == p.len() || path.as_bytes().get(p.len()) == Some(&b'/'))
            }
            Quick::Name(n) => path
                .split('/')
                .any(|segment| segment.eq_ignore_ascii_case(n)),
            Quick::Segments(run) => {
                let bytes = path.as_bytes();
                (0..=path.len().saturating_sub(run.len())).any(|at| {
                    (at == 0 || bytes.get(at - 1) == Some(&b'/'))
                        && path
                            .get(at..at + run.len())
                            .is_some_and(|part| part.eq_ignore_ascii_case(run))
                        && (at + run.len() == path.len()
                            || bytes.get(at + run.len()) == Some(&b'/'))
                })
            }
            Quick::NameGlob(name) => path.split('/').any(|segment| name.matches(segment)),
            Quick::Prefixed(folder, pattern) => {
                path.get(..folder.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(folder))
                    && pattern.covers_path(path)
            }
        }
    }
}

/// Which characters one step may consume next.
#[derive(Clone, Copy)]
enum Set<'t> {
    Exactly(char),
    NotSlash,
    Anything,
    Class(&'t [(char, char)], bool),
}

impl Set<'_> {
    fn contains(self, c: char) -> bool {
        self.contains_in(c, false)
    }

    fn contains_in(self, c: char, exact_case: bool) -> bool {
        match self {
            Set::Exactly(e) if exact_case => e == c,
            Set::Exactly(e) => e.eq_ignore_ascii_case(&c),
            Set::NotSlash => c != '/',
            Set::Anything => true,
            Set::Class(ranges, negated) => {
                let c = c.to_ascii_lowercase();
                let inside = ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi);
                inside != negated && c != '/'
            }
        }
    }

    /// Whether the set holds some character other than `/` and `.` (true
    /// for every wildcard; a class is assumed to).
    fn has_plain(self) -> bool {
        !matches!(self, Set::Exactly(_))
    }
}

/// Whether some path matches both patterns.
///
/// A search over pairs of positions (one in each pattern) and whether the
/// path so far ends a segment; at most `(|a|+1)·(|b|+1)·2` states, each
/// visited once.
pub fn intersects(a: &Pattern, b: &Pattern) -> bool {
    let (la, lb) = (a.toks.len(), b.toks.len());
    let index = |i: usize, j: usize, start: bool| ((i * (lb + 1)) + j) * 2 + usize::from(start);
    let mut seen = vec![false; (la + 1) * (lb + 1) * 2];
    let mut stack = vec![(0usize, 0usize, true)];
    while let Some((i, j, start)) = stack.pop() {
        let Some(visited) = seen.get_mut(index(i, j, start)) else {
            continue;
        };
        if *visited {
            continue;
        }
        *visited = true;
        if i == la && j == lb {
            return true;
        }
        // Steps that match the empty string.
        for ni in empty_moves(&a.toks, i) {
            stack.push((ni, j, start));
        }
        for nj in empty_moves(&b.toks, j) {
            stack.push((i, nj, start));
        }
        // At the end of either pattern, nothing more is consumed.
        let (Some(ta), Some(tb)) = (a.toks.get(i), b.toks.get(j)) else {
            continue;
        };
        if *ta == Tok::Dirs || *tb == Tok::Dirs {
            // `Dirs` consumes nothing itself; its moves are above.
            continue;
        }
        let (sa, sb) = (set_of(ta), set_of(tb));
        // The characters both may consume, sorted into `/`, `.` and others.
        let mut choices: [Option<char>; 3] = [None; 3];
        match (sa, sb) {
            (Set::Exactly(c), other) | (other, Set::Exactly(c)) => {
                if other.contains_in(c, a.exact_case || b.exact_case) {
                    choices[0] = Some(c);
                }
            }
            _ => {
                if sa.contains('/') && sb.contains('/') {
                    choices[0] = Some('/');
                }
                if sa.contains('.') && sb.contains('.') {
                    choices[1] = Some('.');
                }
                if sa.has_plain() && sb.has_plain() {
                    choices[2] = Some('x');
                }
            }
        }
        for c in choices.into_iter().flatten() {
            let hidden = start && c == '.';
            if hidden && (hides_dot(a, i) || hides_dot(b, j)) {
                continue;
            }
            for ni in next_of(&a.toks, i, c) {
                for nj in next_of(&b.toks, j, c) {
                    stack.push((ni, nj, c == '/'));
                }
            }
        }
    }
    false
}

/// Where step `i` may go without consuming a character.
fn empty_moves(toks: &[Tok], i: usize) -> impl Iterator<Item = usize> {
    let moves: [Option<usize>; 2] = match toks.get(i) {
        Some(Tok::Star | Tok::Any) => [Some(i + 1), None],
        // Skip `**/` entirely, or enter its body.
        Some(Tok::Dirs) => [Some(i + 2), Some(i + 1)],
        _ => [None, None],
    };
    moves.into_iter().flatten()
}

fn set_of(tok: &Tok) -> Set<'_> {
    match tok {
        Tok::Char(c) => Set::Exactly(*c),
        Tok::One | Tok::Star => Set::NotSlash,
        Tok::Any | Tok::Dirs | Tok::DirsBody => Set::Anything,
        Tok::Class(ranges, negated) => Set::Class(ranges, *negated),
    }
}

/// A shell wildcard at the start of a segment does not match a hidden name.
fn hides_dot(p: &Pattern, i: usize) -> bool {
    p.hidden_dots && matches!(p.toks.get(i), Some(Tok::Star | Tok::One | Tok::Class(..)))
}

/// Where step `i` may go after consuming `c`: up to two positions.
fn next_of(toks: &[Tok], i: usize, c: char) -> impl Iterator<Item = usize> {
    let (stay, advance) = match toks.get(i) {
        Some(Tok::Star | Tok::Any) => (true, false),
        Some(Tok::DirsBody) => (true, c == '/'),
        _ => (false, true),
    };
    stay.then_some(i)
        .into_iter()
        .chain(advance.then_some(i + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(p: &str) -> Pattern {
        Pattern::glob(p)
    }

    #[test]
    fn cage_dialect() {
        assert!(g("**/.env").matches(".env"));
        assert!(g("**/.env").matches("app/config/.env"));
        assert!(!g("**/.env").matches("app/.envrc"));
        assert!(g("**/.env.*").matches("a/.env.local"));
        assert!(g("src/*.rs").matches("src/main.rs"));
        assert!(!g("src/*.rs").matches("src/a/main.rs"));
        assert!(g("src/**").matches("src/a/b.rs"));
        assert!(g("src/**/*.rs").matches("src/main.rs"));
        assert!(g("src/**/*.rs").matches("src/a/b/main.rs"));
        assert!(g("**/requirements*.txt").matches("requirements-dev.txt"));
        assert!(g("[Mm]akefile").matches("makefile"));
        assert!(!g("[!M]akefile").matches("Makefile"));
        assert!(
            g(".GitHub/Workflows").matches(".github/workflows"),
            "case-insensitive"
        );
        assert!(g("a?c").matches("abc") && !g("a?c").matches("a/c"));
        assert!(
            !g("**/.env.*").matches("x.env.log"),
            "`**/` ends at a slash"
        );
        assert!(!intersects(&g("**/.env.*"), &Pattern::shell_glob("*.log")));
        assert!(g("**/x").matches("/x") && g("a/**/b").matches("a/b"));
    }

    #[test]
    fn shell_globs_skip_hidden_names() {
        let star = Pattern::shell_glob("*");
        assert!(intersects(&star, &g("src")));
        assert!(!intersects(&star, &g(".env")));
        assert!(intersects(&Pattern::shell_glob(".env*"), &g("**/.env")));
        assert!(intersects(
            &Pattern::shell_glob(".github/*/ci.yml"),
            &g(".github/workflows").beneath()
        ));
        assert!(!intersects(
            &Pattern::shell_glob("src/*.rs"),
            &g(".git/hooks").beneath()
        ));
    }

    #[test]
    fn unknown_parts_match_anything() {
        let mut p = Pattern::literal("");
        p.push_unknown();
        assert!(intersects(&p, &g("**/.env")));
        let mut q = Pattern::literal("out/");
        q.push_unknown();
        q.push_literal(".txt");
        assert!(!intersects(&q, &g("**/.env")));
        assert!(intersects(&q, &g("out/a/b.txt")));
        assert!(p.has_unknown() && !g("x").has_unknown());
    }

    #[test]
    fn matching_agrees_with_intersection() {
        let patterns = [
            "**/.env",
            "**/.env.*",
            ".github/workflows/**",
            "src/*.rs",
            "a/**/b",
            "[a-c]?x",
            "**/requirements*.txt",
            "x/**",
        ];
        let paths = [
            ".env",
            "a/.env",
            ".env.local",
            "x.env.log",
            ".github/workflows/ci.yml",
            "src/main.rs",
            "src/a/b.rs",
            "a/b",
            "a/x/y/b",
            "bzx",
            "dzx",
            "requirements-dev.txt",
            "x",
            "x/y",
            "",
        ];
        for p in patterns {
            for path in paths {
                let g = Pattern::glob(p);
                assert_eq!(
                    g.matches(path),
                    intersects(&g, &Pattern::literal(path)),
                    "{p} vs {path}"
                );
            }
        }
        let star = Pattern::shell_glob("*");
        assert!(!star.matches(".env") && star.matches("env"));
        assert!(Pattern::glob(".github/workflows").covers_path(".github/workflows/ci.yml"));
        assert!(!Pattern::glob(".github/workflows").covers_path(".github/workflowsx/ci.yml"));
    }

    #[test]
    fn quick_shapes_agree_with_simulation() {
        let paths = [
            "",
            "/tmp/x/.github/workflows/ci.yml",
            "/x.github/workflows",
            ".env.local",
            "a/.env.x/y",
            "requirements-dev.txt",
            "x/requirements.txt",
            ".agent/a/b.json",
            ".agent/b.json",
            ".agentx/b.json",
            ".github/workflows",
            ".github/workflows/ci.yml",
            ".github/workflowsx",
            "a/Cargo.lock",
            "Cargo.lock/x",
            "cargo.lockx",
            "é/x",
            "src/Cargo.lock",
        ];
        for rule in [
            ".github/workflows",
            "**/.github/workflows",
            "**/Cargo.lock",
            ".claude/settings.json",
            "**/.env.*",
            "**/requirements*.txt",
            ".agent/**/*.json",
        ] {
            let p = Pattern::glob(rule);
            let quick = p.quick().expect(rule);
            for path in paths {
                assert_eq!(quick.covers(path), p.covers_path(path), "{rule} vs {path}");
            }
        }
        assert!(Pattern::glob("**/a/*.x").quick().is_none());
        for (rule, folder) in [
            (".github/workflows", ""),
            (".github/workflows", ".github"),
            (".github/workflows", ".git"),
            (".agent/**/*.json", ".agent/x"),
            (".agent/**/*.json", "src"),
            ("**/Cargo.lock", ""),
        ] {
            let p = Pattern::glob(rule);
            let quick = p.quick().unwrap();
            let beneath = Pattern::literal(folder).beneath();
            assert_eq!(
                quick.lies_beneath(folder),
                !rule.starts_with("**/") && intersects(&p, &beneath),
                "{rule} beneath {folder}"
            );
        }
    }

    #[test]
    fn two_globs() {
        assert!(intersects(&g("src/*.rs"), &g("**/main.*")));
        assert!(!intersects(&g("src/*.rs"), &g("**/*.py")));
        assert!(intersects(
            &g("**/vendor/**"),
            &g("a/vendor/b/package.json")
        ));
        assert!(!intersects(&g("docs/**"), &g("src/**")));
    }
}
