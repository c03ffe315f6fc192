//! The SQL lane: the SQL a database client runs (`psql -c`, `mysql -e`,
//! `sqlite3 DB "…"`, `duckdb -c`, `clickhouse-client -q`, or fed on stdin
//! by a heredoc or a pipe), read by the `sqlparser` crate, and the
//! client's own commands (psql `\d`, sqlite3 `.tables`, mysql `system`).
//!
//! Text in, [`Finding`]s out; the engine (`engine/verbs/sql.rs`) turns them
//! into verdicts. FREE is proven: a statement is [`Kind::Read`] only when
//! its syntax tree is one of the read-only kinds (a query, `EXPLAIN`
//! without `ANALYZE`, `SHOW`, `DESCRIBE`, a read-only `PRAGMA`,
//! transaction control), and, for a query, when none of its words is a
//! writing keyword (`INTO`, `INSERT` in a CTE, `FOR UPDATE`) and every
//! function it calls is on the closed list of harmless ones
//! ([`functions::HARMLESS`]). Everything else asks.
//!
//! Costs: the text is at most [`MAX_SQL_BYTES`]; nesting of parentheses
//! and `CASE` is at most [`MAX_NESTING`] before the parser runs (some of
//! its speculative paths cost more with each level), and the parser's own
//! recursion limit is [`RECURSION_LIMIT`]. Past either the SQL is
//! [`Kind::ParseError`].
#![deny(clippy::indexing_slicing)]

pub mod client;
mod functions;
mod script;

#[cfg(test)]
mod tests;

use sqlparser::ast::{ObjectType, Statement};
use sqlparser::dialect::{
    ClickHouseDialect, Dialect as SqlDialect, DuckDbDialect, MySqlDialect, PostgreSqlDialect,
    SQLiteDialect,
};
use sqlparser::parser::Parser;
use sqlparser::tokenizer::{Token, TokenWithSpan, Tokenizer, Whitespace};

/// Largest SQL text read, in bytes (256 KiB); longer is a parse error.
pub const MAX_SQL_BYTES: usize = 256 << 10;

/// Deepest nesting of parentheses and `CASE … END` read.
pub const MAX_NESTING: usize = 24;

/// The parser's recursion limit.
pub const RECURSION_LIMIT: usize = 48;

/// Most statements judged in one text.
pub const MAX_STATEMENTS: usize = 1_000;

/// The SQL a client speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// PostgreSQL (`psql`).
    Postgres,
    /// MySQL and MariaDB (`mysql`, `mariadb`).
    MySql,
    /// SQLite (`sqlite3`).
    Sqlite,
    /// DuckDB (`duckdb`).
    DuckDb,
    /// ClickHouse (`clickhouse-client`).
    ClickHouse,
}

impl Dialect {
    fn parser_dialect(self) -> Box<dyn SqlDialect> {
        match self {
            Dialect::Postgres => Box::new(PostgreSqlDialect {}),
            Dialect::MySql => Box::new(MySqlDialect {}),
            Dialect::Sqlite => Box::new(SQLiteDialect {}),
            Dialect::DuckDb => Box::new(DuckDbDialect {}),
            Dialect::ClickHouse => Box::new(ClickHouseDialect {}),
        }
    }
}

/// What one part of the SQL does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Only reads: FREE.
    Read,
    /// Writes or changes the database, or is not known to only read.
    Mutate,
    /// Calls a function not known to be harmless.
    Function,
    /// Client variables, only known when it runs.
    Variable,
    /// A client command not known to only read.
    ClientCommand,
    /// Does not parse, or past the lane's limits.
    ParseError,
    /// `DROP` of a table, view, index, column or other object.
    Drop,
    /// `TRUNCATE`.
    Truncate,
    /// `DELETE` without `WHERE`.
    UnboundedDelete,
    /// `UPDATE` without `WHERE`.
    UnboundedUpdate,
    /// `DROP DATABASE` or `DROP SCHEMA`: the floor.
    DropDatabase,
}

/// One finding of the lane: what was found, and the text it was found in
/// (a statement, a command or a function name), clipped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What the part does.
    pub kind: Kind,
    /// The part, as written (clipped to 120 bytes).
    pub what: String,
}

impl Finding {
    fn new(kind: Kind, what: &str) -> Finding {
        Finding {
            kind,
            what: clip_words(what, 120),
        }
    }
}

/// Judges `text`, the input of a client speaking `dialect`: its client
/// commands (psql backslash commands, sqlite3 and duckdb dot-commands,
/// mysql's `system`, `tee` …) and its SQL. No finding but [`Kind::Read`]
/// means it only reads. Always at least one finding.
pub fn judge_input(dialect: Dialect, text: &str) -> Vec<Finding> {
    if text.len() > MAX_SQL_BYTES {
        return vec![Finding::new(Kind::ParseError, "SQL longer than 256 KiB")];
    }
    let split = script::split(dialect, text);
    let mut findings = split.findings;
    findings.extend(judge_sql(dialect, &split.sql));
    if findings.is_empty() {
        findings.push(Finding::new(Kind::Read, text));
    }
    findings
}

/// Judges plain SQL text (no client commands): each statement.
pub fn judge_sql(dialect: Dialect, text: &str) -> Vec<Finding> {
    let parser_dialect = dialect.parser_dialect();
    let tokens = match Tokenizer::new(parser_dialect.as_ref(), text).tokenize_with_location() {
        Ok(tokens) => tokens,
        Err(e) => return vec![Finding::new(Kind::ParseError, &e.to_string())],
    };
    if let Some(depth) = too_deep(&tokens) {
        return vec![Finding::new(
            Kind::ParseError,
            &format!("SQL nested {depth} deep"),
        )];
    }
    let mut findings = Vec::new();
    let mut statements = 0usize;
    for chunk in tokens.split(|t| t.token == Token::SemiColon) {
        if chunk.iter().all(|t| is_blank(&t.token)) {
            continue;
        }
        statements += 1;
        if statements > MAX_STATEMENTS {
            findings.push(Finding::new(
                Kind::ParseError,
                "more than 1,000 SQL statements",
            ));
            break;
        }
        let shown = chunk_text(chunk);
        if let Some(kind) = pragma(chunk) {
            if kind != Kind::Read {
                findings.push(Finding::new(kind, &shown));
            }
            continue;
        }
        let parsed = Parser::new(parser_dialect.as_ref())
            .with_recursion_limit(RECURSION_LIMIT)
            .with_tokens_with_locations(chunk.to_vec())
            .parse_statements();
        match parsed {
            Ok(parsed) if !parsed.is_empty() => {
                for statement in &parsed {
                    let kind = statement_kind(statement);
                    if kind == Kind::Read {
                        if !skips_scan(statement) {
                            findings.extend(scan(chunk));
                        }
                    } else {
                        findings.push(Finding::new(kind, &shown));
                    }
                }
            }
            Ok(_) => {}
            Err(_) => findings.push(Finding::new(Kind::ParseError, &shown)),
        }
    }
    findings
}

/// Whitespace and comments.
fn is_blank(token: &Token) -> bool {
    matches!(token, Token::Whitespace(_) | Token::EOF)
}

/// The nesting of parentheses and `CASE … END` past [`MAX_NESTING`], if
/// it goes past.
fn too_deep(tokens: &[TokenWithSpan]) -> Option<usize> {
    let mut depth = 0usize;
    for t in tokens {
        match &t.token {
            Token::LParen | Token::LBracket | Token::LBrace => depth += 1,
            Token::RParen | Token::RBracket | Token::RBrace => depth = depth.saturating_sub(1),
            Token::Word(w) if w.quote_style.is_none() => {
                if w.value.eq_ignore_ascii_case("CASE") {
                    depth += 1;
                } else if w.value.eq_ignore_ascii_case("END") {
                    depth = depth.saturating_sub(1);
                }
            }
            _ => continue,
        }
        if depth > MAX_NESTING {
            return Some(depth);
        }
    }
    None
}

/// A statement's text for reasons, from its tokens.
fn chunk_text(chunk: &[TokenWithSpan]) -> String {
    let mut out = String::new();
    for t in chunk {
        if out.len() > 160 {
            break;
        }
        match &t.token {
            Token::Whitespace(Whitespace::SingleLineComment { .. })
            | Token::Whitespace(Whitespace::MultiLineComment(_)) => out.push(' '),
            token => out.push_str(&token.to_string()),
        }
    }
    out.trim().to_string()
}

/// At most `max` bytes of `s` with runs of white space made one space.
fn clip_words(s: &str, max: usize) -> String {
    let joined = s.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::limits::clip(&joined, max).to_string()
}

/// What a statement does, by its syntax tree.
fn statement_kind(statement: &Statement) -> Kind {
    match statement {
        Statement::Query(query) => {
            if query.locks.is_empty() {
                Kind::Read
            } else {
                Kind::Mutate
            }
        }
        Statement::Explain {
            analyze, statement, ..
        } => {
            if *analyze {
                statement_kind(statement)
            } else {
                Kind::Read
            }
        }
        Statement::ExplainTable { .. }
        | Statement::ShowFunctions { .. }
        | Statement::ShowVariable { .. }
        | Statement::ShowStatus { .. }
        | Statement::ShowVariables { .. }
        | Statement::ShowCreate { .. }
        | Statement::ShowColumns { .. }
        | Statement::ShowCatalogs { .. }
        | Statement::ShowDatabases { .. }
        | Statement::ShowProcessList { .. }
        | Statement::ShowSchemas { .. }
        | Statement::ShowCharset(_)
        | Statement::ShowObjects(_)
        | Statement::ShowTables { .. }
        | Statement::ShowViews { .. }
        | Statement::ShowCollation { .. }
        | Statement::StartTransaction { .. }
        | Statement::Commit { .. }
        | Statement::Rollback { .. }
        | Statement::Savepoint { .. }
        | Statement::ReleaseSavepoint { .. }
        | Statement::Use(_) => Kind::Read,
        Statement::Pragma {
            name, value, is_eq, ..
        } => pragma_kind(&name.to_string(), value.is_some(), *is_eq),
        Statement::Update(update) if update.selection.is_none() => Kind::UnboundedUpdate,
        Statement::Delete(delete) if delete.selection.is_none() => Kind::UnboundedDelete,
        Statement::Truncate(_) => Kind::Truncate,
        Statement::Drop { object_type, .. } => match object_type {
            ObjectType::Database | ObjectType::Schema => Kind::DropDatabase,
            _ => Kind::Drop,
        },
        Statement::DropFunction(_)
        | Statement::DropDomain(_)
        | Statement::DropProcedure { .. }
        | Statement::DropSecret { .. }
        | Statement::DropPolicy(_)
        | Statement::DropRule(_)
        | Statement::DropConnector { .. }
        | Statement::DropExtension(_)
        | Statement::DropOperator(_)
        | Statement::DropOperatorFamily(_)
        | Statement::DropOperatorClass(_)
        | Statement::DropTrigger(_) => Kind::Drop,
        Statement::AlterTable(alter) => {
            // `ALTER TABLE … DROP COLUMN`, `DROP CONSTRAINT`, `DROP
            // PARTITION` …: every operation whose name starts with Drop.
            if alter
                .operations
                .iter()
                .any(|op| format!("{op:?}").starts_with("Drop"))
            {
                Kind::Drop
            } else {
                Kind::Mutate
            }
        }
        _ => Kind::Mutate,
    }
}

/// `EXPLAIN` without `ANALYZE` runs nothing: its words are not scanned.
fn skips_scan(statement: &Statement) -> bool {
    matches!(statement, Statement::Explain { analyze: false, .. })
        || !matches!(statement, Statement::Query(_) | Statement::Explain { .. })
}

/// SQLite pragmas that only read: with an argument in parentheses (the
/// table or index they describe), or with none.
const PRAGMA_WITH_ARGUMENT: &[&str] = &[
    "foreign_key_check",
    "foreign_key_list",
    "index_info",
    "index_list",
    "index_xinfo",
    "integrity_check",
    "quick_check",
    "table_info",
    "table_xinfo",
];

/// SQLite pragmas that only read when given no value.
const PRAGMA_WITHOUT_VALUE: &[&str] = &[
    "application_id",
    "collation_list",
    "compile_options",
    "database_list",
    "encoding",
    "foreign_keys",
    "freelist_count",
    "function_list",
    "journal_mode",
    "module_list",
    "page_count",
    "page_size",
    "pragma_list",
    "schema_version",
    "table_list",
    "user_version",
];

/// A `PRAGMA` statement, read by its words (the parser takes only
/// literals for its argument): `PRAGMA [schema.]name`, `PRAGMA
/// name(arg)`, `PRAGMA name = value`.
fn pragma(chunk: &[TokenWithSpan]) -> Option<Kind> {
    let solid: Vec<&Token> = chunk
        .iter()
        .map(|t| &t.token)
        .filter(|t| !is_blank(t))
        .collect();
    let word = |t: Option<&&Token>| match t {
        Some(Token::Word(w)) => Some(w.value.clone()),
        _ => None,
    };
    if !word(solid.first()).is_some_and(|w| w.eq_ignore_ascii_case("PRAGMA")) {
        return None;
    }
    let mut rest = solid.get(1..).unwrap_or(&[]);
    let mut name = word(rest.first()).unwrap_or_default();
    if rest.get(1) == Some(&&Token::Period) {
        name = word(rest.get(2)).unwrap_or_default();
        rest = rest.get(2..).unwrap_or(&[]);
    }
    let kind = match rest.get(1..).unwrap_or(&[]) {
        [] => pragma_kind(&name, false, false),
        [
            Token::LParen,
            Token::Word(_) | Token::SingleQuotedString(_),
            Token::RParen,
        ] => pragma_kind(&name, true, false),
        _ => Kind::Mutate,
    };
    Some(kind)
}

fn pragma_kind(name: &str, has_value: bool, is_eq: bool) -> Kind {
    let name = name.to_ascii_lowercase();
    let name = name.strip_prefix("main.").unwrap_or(&name);
    let read = if has_value {
        !is_eq && PRAGMA_WITH_ARGUMENT.contains(&name)
    } else {
        PRAGMA_WITHOUT_VALUE.contains(&name) || PRAGMA_WITH_ARGUMENT.contains(&name)
    };
    if read { Kind::Read } else { Kind::Mutate }
}

/// Words of a read-only statement that still write (`INTO`, a data-
/// modifying CTE, `FOR UPDATE`), matched on unquoted words.
const WRITING_WORDS: &[&str] = &[
    "ALTER", "ATTACH", "CALL", "COPY", "CREATE", "DELETE", "DETACH", "DO", "DROP", "DUMPFILE",
    "EXEC", "EXECUTE", "GRANT", "INSERT", "INSTALL", "INTO", "LOAD", "LOCK", "MERGE", "NOTIFY",
    "OUTFILE", "PREPARE", "REFRESH", "REINDEX", "REPLACE", "REVOKE", "TRUNCATE", "UPDATE",
    "UPSERT", "VACUUM",
];

/// Words that may stand before `(` without being a function call.
const PAREN_WORDS: &[&str] = &[
    "ALL",
    "AND",
    "ANY",
    "ARRAY",
    "AS",
    "BETWEEN",
    "BY",
    "CASE",
    "CUBE",
    "DISTINCT",
    "ELSE",
    "EXCEPT",
    "EXISTS",
    "EXPLAIN",
    "FILTER",
    "FROM",
    "GROUP",
    "GROUPING",
    "HAVING",
    "IN",
    "INTERSECT",
    "IS",
    "JOIN",
    "LATERAL",
    "LIKE",
    "ILIKE",
    "LIMIT",
    "NOT",
    "OFFSET",
    "ON",
    "OR",
    "OVER",
    "ROLLUP",
    "ROW",
    "SELECT",
    "SETS",
    "SOME",
    "THEN",
    "UNION",
    "USING",
    "VALUES",
    "WHEN",
    "WHERE",
    "WITH",
    "WITHIN",
];

/// The words of one read-only statement: writing words and calls of
/// functions not known to be harmless.
fn scan(chunk: &[TokenWithSpan]) -> Vec<Finding> {
    let solid: Vec<&Token> = chunk
        .iter()
        .map(|t| &t.token)
        .filter(|t| !is_blank(t))
        .collect();
    let mut findings = Vec::new();
    for (i, token) in solid.iter().enumerate() {
        let Token::Word(word) = token else {
            continue;
        };
        let called = solid.get(i + 1) == Some(&&Token::LParen);
        let qualified = i > 0 && solid.get(i - 1) == Some(&&Token::Period);
        let upper = word.value.to_ascii_uppercase();
        let unquoted = word.quote_style.is_none();
        if called {
            if unquoted && !qualified && PAREN_WORDS.contains(&upper.as_str()) {
                continue;
            }
            if unquoted && !qualified && functions::is_harmless(&word.value) {
                continue;
            }
            findings.push(Finding::new(Kind::Function, &word.value));
            continue;
        }
        if unquoted && !qualified && WRITING_WORDS.contains(&upper.as_str()) {
            findings.push(Finding::new(Kind::Mutate, &word.value));
        }
    }
    findings
}
