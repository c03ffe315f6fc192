//! A client's input split into its SQL and its own commands, as the
//! client reads it: psql's backslash commands (anywhere outside quotes
//! and comments, to the end of the line), sqlite3's and duckdb's
//! dot-commands (a line starting with `.` when no statement is pending),
//! mysql's client commands (`\!`, `\.` … anywhere; `system`, `source`,
//! `tee` … starting a line). The quotes and comments are each client's
//! own; where a client and the SQL parser could read a comment apart
//! (mysql's `--x`, `/*! … */`), the text is a parse error.

use super::{Dialect, Finding, Kind};

/// The SQL of the input (commands replaced by a space, or `;` where they
/// send the statement, as psql's `\g`), and the findings of the commands.
pub(super) struct Split {
    pub sql: String,
    pub findings: Vec<Finding>,
}

/// Where the scanner is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Normal,
    /// In a quoted string or identifier closed by this character;
    /// `escapes`: a backslash escapes the next character.
    Quoted {
        close: char,
        escapes: bool,
    },
    /// In `-- …` or `# …`, to the end of the line.
    LineComment,
    /// In `/* … */`, this deep.
    BlockComment(usize),
}

/// psql's backslash commands that only read or only format: `\d` and
/// every `\d…` describe command are matched by their first letter.
const PSQL_READ: &[&str] = &[
    "?",
    "a",
    "C",
    "conninfo",
    "copyright",
    "encoding",
    "errverbose",
    "f",
    "g",
    "gx",
    "H",
    "h",
    "help",
    "l",
    "l+",
    "list",
    "list+",
    "lo_list",
    "p",
    "print",
    "pset",
    "q",
    "quit",
    "sf",
    "sf+",
    "sv",
    "sv+",
    "t",
    "T",
    "timing",
    "x",
    "z",
    "echo",
    "warn",
    "qecho",
    "dconfig",
];

/// psql commands that send the statement (read as `;`), when given no
/// argument.
const PSQL_SEND: &[&str] = &["g", "gx"];

/// sqlite3's and duckdb's dot-commands that only read or only format.
const DOT_READ: &[&str] = &[
    "bail",
    "changes",
    "databases",
    "dbinfo",
    "dump",
    "echo",
    "eqp",
    "exit",
    "explain",
    "fullschema",
    "header",
    "headers",
    "help",
    "indexes",
    "indices",
    "lint",
    "mode",
    "nullvalue",
    "print",
    "quit",
    "schema",
    "separator",
    "show",
    "stats",
    "tables",
    "timer",
    "version",
    "width",
];

/// mysql's client commands in their long form, recognised starting a
/// line (`use` is left to the SQL: it is a statement too).
const MYSQL_COMMANDS: &[&str] = &[
    "?",
    "charset",
    "clear",
    "connect",
    "delimiter",
    "edit",
    "ego",
    "exit",
    "go",
    "help",
    "nopager",
    "notee",
    "nowarning",
    "pager",
    "print",
    "prompt",
    "query_attributes",
    "quit",
    "rehash",
    "resetconnection",
    "source",
    "ssl_session_data_print",
    "status",
    "system",
    "tee",
    "warnings",
];

/// Splits `text` as a client speaking `dialect` reads it.
pub(super) fn split(dialect: Dialect, text: &str) -> Split {
    let mut out = Split {
        sql: String::with_capacity(text.len()),
        findings: Vec::new(),
    };
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut state = State::Normal;
    // Anything but white space and comments since the last `;`.
    let mut pending = false;
    let mut line_start = true;
    let mut i = 0usize;
    let at = |k: usize| chars.get(k).map(|&(_, c)| c);
    let offset = |k: usize| chars.get(k).map_or(text.len(), |&(o, _)| o);
    while let Some(c) = at(i) {
        let next = at(i + 1);
        match state {
            State::Normal => {
                if line_start && matches!(dialect, Dialect::Sqlite | Dialect::DuckDb) && !pending {
                    let start = skip_blanks(&chars, i);
                    if at(start) == Some('.') {
                        let end = line_end(&chars, start);
                        let line = text.get(offset(start)..offset(end)).unwrap_or("");
                        out.findings.extend(dot_command(line));
                        out.sql.push('\n');
                        i = end;
                        continue;
                    }
                }
                if line_start && dialect == Dialect::MySql {
                    let start = skip_blanks(&chars, i);
                    let end = line_end(&chars, start);
                    let line = text.get(offset(start)..offset(end)).unwrap_or("");
                    let first = line
                        .split(|c: char| c.is_whitespace() || c == ';')
                        .next()
                        .unwrap_or("");
                    if !first.is_empty()
                        && MYSQL_COMMANDS.iter().any(|m| m.eq_ignore_ascii_case(first))
                    {
                        out.findings.push(Finding::new(Kind::ClientCommand, line));
                        out.sql.push('\n');
                        i = end;
                        continue;
                    }
                }
                line_start = false;
                match c {
                    '\n' => {
                        line_start = true;
                        out.sql.push(c);
                    }
                    ';' => {
                        pending = false;
                        out.sql.push(c);
                    }
                    '\\' if dialect == Dialect::Postgres => {
                        let end = psql_command_end(&chars, i + 1);
                        let command = text.get(offset(i)..offset(end)).unwrap_or("");
                        let (finding, sends) = psql_command(command);
                        out.findings.extend(finding);
                        out.sql.push(if sends { ';' } else { ' ' });
                        if sends {
                            pending = false;
                        }
                        i = end;
                        continue;
                    }
                    '\\' if dialect == Dialect::MySql => {
                        // `\G` and `\g` end a statement; every other
                        // backslash command asks.
                        if matches!(next, Some('g' | 'G')) {
                            out.sql.push(';');
                            pending = false;
                        } else {
                            let end = line_end(&chars, i);
                            let command = text.get(offset(i)..offset(end)).unwrap_or("");
                            out.findings
                                .push(Finding::new(Kind::ClientCommand, command));
                            out.sql.push(' ');
                            i = end;
                            continue;
                        }
                        i += 2;
                        continue;
                    }
                    ':' if dialect == Dialect::Postgres
                        && next.is_some_and(|n| n == '\'' || n == '"' || is_ident_start(n))
                        && (i == 0 || at(i - 1) != Some(':'))
                        && next != Some(':') =>
                    {
                        let end = line_end(&chars, i).min(i + 40);
                        let shown = text.get(offset(i)..offset(end)).unwrap_or("");
                        out.findings.push(Finding::new(Kind::Variable, shown));
                        out.sql.push(c);
                        pending = true;
                    }
                    '\'' => {
                        // E'…' (Postgres, DuckDB): backslash escapes.
                        let e_string = matches!(dialect, Dialect::Postgres | Dialect::DuckDb)
                            && i > 0
                            && matches!(at(i - 1), Some('e' | 'E'))
                            && (i < 2 || !at(i - 2).is_some_and(is_ident_char));
                        let escapes =
                            matches!(dialect, Dialect::MySql | Dialect::ClickHouse) || e_string;
                        state = State::Quoted {
                            close: '\'',
                            escapes,
                        };
                        pending = true;
                        out.sql.push(c);
                    }
                    '"' => {
                        let escapes = matches!(dialect, Dialect::MySql | Dialect::ClickHouse);
                        state = State::Quoted {
                            close: '"',
                            escapes,
                        };
                        pending = true;
                        out.sql.push(c);
                    }
                    '`' if dialect != Dialect::Postgres => {
                        state = State::Quoted {
                            close: '`',
                            escapes: false,
                        };
                        pending = true;
                        out.sql.push(c);
                    }
                    '$' if matches!(dialect, Dialect::Postgres | Dialect::DuckDb)
                        && !(i > 0 && at(i - 1).is_some_and(is_ident_char)) =>
                    {
                        // A dollar quote `$tag$ … $tag$`: copied whole.
                        if let Some(end) = dollar_quote_end(text, offset(i)) {
                            out.sql.push_str(text.get(offset(i)..end).unwrap_or(""));
                            pending = true;
                            while offset(i) < end {
                                if at(i) == Some('\n') {
                                    line_start = false;
                                }
                                i += 1;
                            }
                            continue;
                        }
                        out.sql.push(c);
                        pending = true;
                    }
                    '-' if next == Some('-') => {
                        if dialect == Dialect::MySql && !at(i + 2).is_none_or(|n| n.is_whitespace())
                        {
                            // mysql reads `--x` as minus minus x; the
                            // parser may read a comment.
                            out.findings.push(Finding::new(
                                Kind::ParseError,
                                "`--` not followed by a space",
                            ));
                        }
                        state = State::LineComment;
                        out.sql.push(c);
                    }
                    '#' if dialect == Dialect::MySql => {
                        state = State::LineComment;
                        out.sql.push(c);
                    }
                    '/' if next == Some('*') => {
                        if dialect == Dialect::MySql && matches!(at(i + 2), Some('!')) {
                            // `/*! … */` is run by MySQL, not a comment.
                            out.findings.push(Finding::new(
                                Kind::ParseError,
                                "an executable comment `/*! … */`",
                            ));
                        }
                        state = State::BlockComment(1);
                        out.sql.push_str("/*");
                        i += 2;
                        continue;
                    }
                    c => {
                        if !c.is_whitespace() {
                            pending = true;
                        }
                        out.sql.push(c);
                    }
                }
                i += 1;
            }
            State::Quoted { close, escapes } => {
                if c == '\\'
                    && matches!(next, Some('\'' | '\\'))
                    && close == '\''
                    && !escapes
                    && dialect == Dialect::Postgres
                {
                    // Under `standard_conforming_strings = off` psql and
                    // the server read `\'` as an escaped quote.
                    out.findings.push(Finding::new(
                        Kind::ParseError,
                        "a backslash in a string, read as an escape under standard_conforming_strings = off",
                    ));
                }
                out.sql.push(c);
                if escapes && c == '\\' {
                    if let Some(n) = next {
                        out.sql.push(n);
                    }
                    i += 2;
                    continue;
                }
                if c == close {
                    if next == Some(close) {
                        out.sql.push(close);
                        i += 2;
                        continue;
                    }
                    state = State::Normal;
                }
                if c == '\n' {
                    line_start = false;
                }
                i += 1;
            }
            State::LineComment => {
                if c == '\n' {
                    state = State::Normal;
                    line_start = true;
                } else if c == '\\' && dialect == Dialect::MySql {
                    // mysql's client may still see a command here.
                    out.findings.push(Finding::new(
                        Kind::ClientCommand,
                        "a backslash in a comment",
                    ));
                }
                out.sql.push(c);
                i += 1;
            }
            State::BlockComment(depth) => {
                if c == '*' && next == Some('/') {
                    out.sql.push_str("*/");
                    state = if depth > 1 {
                        State::BlockComment(depth - 1)
                    } else {
                        State::Normal
                    };
                    i += 2;
                    continue;
                }
                if c == '/' && next == Some('*') {
                    if dialect == Dialect::Postgres {
                        state = State::BlockComment(depth + 1);
                    } else {
                        // Clients that do not nest comments and a parser
                        // that might: not read.
                        out.findings.push(Finding::new(
                            Kind::ParseError,
                            "a comment opened in a comment",
                        ));
                    }
                    out.sql.push_str("/*");
                    i += 2;
                    continue;
                }
                if c == '\\' && dialect == Dialect::MySql {
                    out.findings.push(Finding::new(
                        Kind::ClientCommand,
                        "a backslash in a comment",
                    ));
                }
                out.sql.push(c);
                i += 1;
            }
        }
    }
    out
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first index at or after `i` that is not a blank (space or tab).
fn skip_blanks(chars: &[(usize, char)], mut i: usize) -> usize {
    while chars.get(i).is_some_and(|&(_, c)| c == ' ' || c == '\t') {
        i += 1;
    }
    i
}

/// The index of the next newline at or after `i`, or the end.
fn line_end(chars: &[(usize, char)], mut i: usize) -> usize {
    while chars.get(i).is_some_and(|&(_, c)| c != '\n') {
        i += 1;
    }
    i
}

/// Where a psql backslash command starting after `\` at `i` ends: the end
/// of the line, or the next backslash (psql reads `\x \dt` as two).
fn psql_command_end(chars: &[(usize, char)], mut i: usize) -> usize {
    // The command's name may itself be a backslash (`\\`).
    if chars.get(i).is_some_and(|&(_, c)| c == '\\') {
        return i + 1;
    }
    while chars.get(i).is_some_and(|&(_, c)| c != '\n' && c != '\\') {
        i += 1;
    }
    i
}

/// The byte offset just past the dollar quote opening at `start` (`$$` or
/// `$tag$`), if it is one and it closes.
fn dollar_quote_end(text: &str, start: usize) -> Option<usize> {
    let rest = text.get(start + 1..)?;
    let tag_len = rest.find('$')?;
    let tag = rest.get(..tag_len)?;
    if !tag.chars().all(is_ident_char) || tag.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let delimiter = format!("${tag}$");
    let body = start + delimiter.len();
    let close = text.get(body..)?.find(&delimiter)?;
    Some(body + close + delimiter.len())
}

/// One psql backslash command (`\dt+ users`): a finding unless it only
/// reads, and whether it sends the statement (`\g`).
fn psql_command(command: &str) -> (Option<Finding>, bool) {
    let body = command.get(1..).unwrap_or("");
    let (name, args) = match body.chars().next() {
        Some(c) if c.is_ascii_alphabetic() => {
            let end = body
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '+'))
                .unwrap_or(body.len());
            (body.get(..end).unwrap_or(""), body.get(end..).unwrap_or(""))
        }
        Some(c) => body.split_at(c.len_utf8()),
        None => ("", ""),
    };
    let args = args.trim();
    let read = name.starts_with('d') && name.chars().all(|c| c.is_ascii_alphabetic() || c == '+')
        || PSQL_READ.contains(&name);
    // Arguments are expanded: `` `cmd` `` runs a shell, `:x` a variable.
    let expands = args.contains('`') || args.contains(':');
    let sends = PSQL_SEND.contains(&name);
    if !read || expands || (sends && !args.is_empty()) {
        let kind = if args.contains(':') && read && !args.contains('`') {
            Kind::Variable
        } else {
            Kind::ClientCommand
        };
        return (Some(Finding::new(kind, command)), false);
    }
    (None, sends)
}

/// One sqlite3 or duckdb dot-command line (`.tables`, `.mode csv`).
fn dot_command(line: &str) -> Option<Finding> {
    let name = line
        .get(1..)
        .unwrap_or("")
        .split_whitespace()
        .next()
        .unwrap_or("");
    if DOT_READ.contains(&name) && !line.contains('|') {
        None
    } else {
        Some(Finding::new(Kind::ClientCommand, line))
    }
}
