use super::client::{self, Place};
use super::functions::HARMLESS;
use super::*;

/// The kinds found in `text`, sorted, without repeats.
fn kinds(dialect: Dialect, text: &str) -> Vec<Kind> {
    let mut kinds: Vec<Kind> = judge_input(dialect, text)
        .into_iter()
        .map(|f| f.kind)
        .collect();
    kinds.sort();
    kinds.dedup();
    kinds
}

macro_rules! sql {
    ($($name:ident: $dialect:ident, $text:expr => $($kind:ident)|+;)*) => {
        $(
            #[test]
            fn $name() {
                let mut want = vec![$(Kind::$kind),+];
                want.sort();
                assert_eq!(kinds(Dialect::$dialect, $text), want, "{}", $text);
            }
        )*
    };
}

sql! {
    select: Postgres, "SELECT 1" => Read;
    select_where: Postgres, "SELECT a, b FROM t WHERE a = 1 ORDER BY b LIMIT 3" => Read;
    join_subquery: Postgres, "SELECT * FROM a JOIN b USING (id) WHERE id IN (SELECT id FROM c)" => Read;
    cte: Postgres, "WITH x AS (SELECT 1 AS a) SELECT a FROM x" => Read;
    aggregate_window: Postgres, "SELECT count(*), row_number() OVER (PARTITION BY a ORDER BY b) FROM t GROUP BY a, b" => Read;
    cast_type: Postgres, "SELECT CAST(a AS varchar(10)), a::text FROM t" => Read;
    string_is_data: Postgres, "SELECT 'DROP TABLE t; DELETE FROM u'" => Read;
    comment_is_data: Postgres, "SELECT 1 -- DROP TABLE t\n" => Read;
    block_comment_is_data: Postgres, "SELECT 1 /* ; DROP TABLE t; */" => Read;
    nested_comment: Postgres, "SELECT 1 /* /* */ DROP TABLE t */" => Read;
    explain: Postgres, "EXPLAIN SELECT * FROM t" => Read;
    explain_delete_runs_nothing: Postgres, "EXPLAIN DELETE FROM t" => Read;
    explain_analyze_delete: Postgres, "EXPLAIN ANALYZE DELETE FROM t" => UnboundedDelete;
    show: Postgres, "SHOW search_path" => Read;
    transaction: Postgres, "BEGIN; SELECT 1; COMMIT;" => Read;
    describe: MySql, "DESCRIBE t" => Read;
    show_tables: MySql, "SHOW TABLES" => Read;
    vertical: MySql, "SELECT 1\\G" => Read;
    sqlite_pragma_read: Sqlite, "PRAGMA table_info(users)" => Read;
    sqlite_pragma_plain: Sqlite, "PRAGMA user_version" => Read;
    sqlite_pragma_set: Sqlite, "PRAGMA user_version = 3" => Mutate;
    sqlite_pragma_unknown: Sqlite, "PRAGMA writable_schema" => Mutate;
    duckdb_select: DuckDb, "SELECT 42" => Read;
    clickhouse_select: ClickHouse, "SELECT count() FROM events" => Read;

    insert: Postgres, "INSERT INTO t VALUES (1)" => Mutate;
    update_where: Postgres, "UPDATE t SET a = 1 WHERE id = 2" => Mutate;
    delete_where: Postgres, "DELETE FROM t WHERE 1 = 1" => Mutate;
    create: Postgres, "CREATE TABLE t (id int)" => Mutate;
    alter_add: Postgres, "ALTER TABLE t ADD COLUMN a int" => Mutate;
    alter_drop: Postgres, "ALTER TABLE t DROP COLUMN a" => Drop;
    select_into: Postgres, "SELECT * INTO t2 FROM t" => Mutate;
    modifying_cte: Postgres, "WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d" => Mutate;
    for_update: Postgres, "SELECT * FROM t FOR UPDATE" => Mutate;
    copy_program: Postgres, "COPY t TO PROGRAM 'rm -rf ~'" => Mutate;
    grant: Postgres, "GRANT ALL ON t TO bob" => Mutate;
    set: Postgres, "SET search_path = x" => Mutate;
    do_block: Postgres, "DO $$ BEGIN EXECUTE 'DROP DATABASE x'; END $$" => ParseError;

    drop: Postgres, "DROP TABLE t" => Drop;
    drop_case: Postgres, "dRoP tAbLe t" => Drop;
    drop_index: Postgres, "DROP INDEX i" => Drop;
    drop_after_select: Postgres, "SELECT 1; DROP TABLE x" => Drop;
    drop_after_comment: Postgres, "SELECT 1 /* ; */; DROP TABLE x" => Drop;
    truncate: Postgres, "TRUNCATE t" => Truncate;
    unbounded_delete: Postgres, "DELETE FROM t" => UnboundedDelete;
    unbounded_update: MySql, "UPDATE t SET a = 1" => UnboundedUpdate;
    drop_database: Postgres, "DROP DATABASE prod" => DropDatabase;
    drop_schema: MySql, "drop schema app" => DropDatabase;
    drop_database_sqlite_case: ClickHouse, "DROP DATABASE x" => DropDatabase;

    parse_error: Postgres, "SELEC 1" => ParseError;
    line_comment_hides_nothing: Postgres, "SELECT 1 --\nDROP TABLE x" => ParseError;
    unclosed_string: Postgres, "SELECT 'a" => ParseError;

    pg_read_file: Postgres, "SELECT pg_read_file('/etc/passwd')" => Function;
    lo_export: Postgres, "SELECT lo_export(1, '/tmp/x')" => Function;
    dblink: Postgres, "SELECT * FROM dblink('h', 'q') AS t(a int)" => Function;
    qualified: Postgres, "SELECT s.lower(a) FROM t" => Function;
    quoted_function: Postgres, "SELECT \"lower\"(a) FROM t" => Function;
    load_extension: Sqlite, "SELECT load_extension('x')" => Function;
    writefile: Sqlite, "SELECT writefile('f', 'x')" => Function;
    pg_sleep: Postgres, "SELECT pg_sleep(100)" => Function;
    function_in_where: Postgres, "SELECT 1 FROM t WHERE set_config('a', 'b', false) = 'b'" => Function;

    psql_describe: Postgres, "\\dt" => Read;
    psql_describe_table: Postgres, "\\d+ users" => Read;
    psql_list_then_sql: Postgres, "\\l\nSELECT 1;" => Read;
    psql_g_sends: Postgres, "SELECT 1 \\g" => Read;
    psql_g_file: Postgres, "SELECT 1 \\g out.txt" => ClientCommand;
    psql_shell: Postgres, "\\! rm -rf ~" => ClientCommand;
    psql_output: Postgres, "\\o out" => ClientCommand;
    psql_copy: Postgres, "\\copy t to f.csv" => ClientCommand;
    psql_include: Postgres, "\\i x.sql" => ClientCommand;
    psql_gexec: Postgres, "SELECT 'DROP TABLE x' \\gexec" => ClientCommand;
    psql_backticks: Postgres, "\\echo `rm -rf ~`" => ClientCommand;
    psql_two_commands: Postgres, "\\x \\! rm -rf ~" => ClientCommand;
    psql_variable: Postgres, "SELECT :'x'" => Variable | ParseError;
    psql_variable_name: Postgres, "SELECT * FROM :t" => Variable | ParseError;
    psql_cast_is_not_a_variable: Postgres, "SELECT '1'::int" => Read;
    psql_backslash_in_string: Postgres, "SELECT '\\! rm'" => Read;
    psql_escaped_quote: Postgres, "SELECT 'a\\'' ; \\! rm -rf ~ '" => ParseError;
    psql_dollar_quote: Postgres, "SELECT $$ \\! rm $$" => Read;
    psql_e_string: Postgres, "SELECT E'\\' \\! rm'" => Read;

    sqlite_dot_tables: Sqlite, ".tables" => Read;
    sqlite_dot_schema: Sqlite, ".schema users\nSELECT 1;" => Read;
    sqlite_dot_shell: Sqlite, ".shell rm -rf ~" => ClientCommand;
    sqlite_dot_system: Sqlite, ".system rm -rf ~" => ClientCommand;
    sqlite_dot_output: Sqlite, ".output out.txt" => ClientCommand;
    sqlite_dot_import: Sqlite, ".import f t" => ClientCommand;
    sqlite_dot_load: Sqlite, ".load ./x" => ClientCommand;
    sqlite_dot_once: Sqlite, ".once f" => ClientCommand;
    sqlite_pending_statement: Sqlite, "SELECT 1\n.schema x; DROP TABLE y" => Drop;
    sqlite_nested_comment: Sqlite, "SELECT 1 /* /* */ DROP TABLE t; /* */" => ParseError;

    mysql_system: MySql, "system rm -rf ~" => ClientCommand;
    mysql_system_late: MySql, "SELECT 1;\nSYSTEM rm -rf ~" => ClientCommand;
    mysql_shell_escape: MySql, "\\! rm -rf ~" => ClientCommand;
    mysql_source: MySql, "source evil.sql" => ClientCommand;
    mysql_tee: MySql, "tee out.txt" => ClientCommand;
    mysql_string_is_data: MySql, "SELECT 'system rm'" => Read;
    mysql_escaped_quote: MySql, "SELECT 'a\\' \\! rm'" => Read;
    mysql_executable_comment: MySql, "SELECT 1 /*! ; DROP TABLE x */" => ParseError | Drop;
    mysql_dash_dash: MySql, "SELECT 1 --1; DROP TABLE t" => ParseError | Drop;
}

#[test]
fn harmless_functions_are_sorted_lower_case() {
    for pair in HARMLESS.windows(2) {
        if let [a, b] = pair {
            assert!(a < b, "{a} before {b}");
        }
    }
    for name in HARMLESS {
        assert_eq!(*name, name.to_ascii_lowercase());
    }
}

#[test]
fn too_long_and_too_deep_are_parse_errors() {
    let long = format!("SELECT {}", "1 + ".repeat(MAX_SQL_BYTES / 4));
    assert_eq!(kinds(Dialect::Postgres, &long), vec![Kind::ParseError]);
    let deep = format!("SELECT {}1{}", "(".repeat(200), ")".repeat(200));
    assert_eq!(kinds(Dialect::Postgres, &deep), vec![Kind::ParseError]);
    let cases = format!(
        "SELECT {} 1 {}",
        "CASE WHEN 1 THEN ".repeat(100),
        " END".repeat(100)
    );
    assert_eq!(kinds(Dialect::Postgres, &cases), vec![Kind::ParseError]);
}

#[test]
fn nesting_within_the_limit_is_read_quickly() {
    // Paths in the parser that cost more with each level stay bounded.
    for dialect in [
        Dialect::Postgres,
        Dialect::MySql,
        Dialect::Sqlite,
        Dialect::DuckDb,
        Dialect::ClickHouse,
    ] {
        let n = MAX_NESTING - 1;
        for text in [
            format!("SELECT 1 FROM {}t{}", "(".repeat(n), ")".repeat(n)),
            format!(
                "SELECT {}1{}",
                "replace(".repeat(n),
                ", 'a', 'b')".repeat(n)
            ),
            format!("SELECT {}1{}", "(".repeat(n), ")".repeat(n)),
        ] {
            let start = std::time::Instant::now();
            let _ = judge_input(dialect, &text);
            assert!(
                start.elapsed() < std::time::Duration::from_secs(2),
                "{dialect:?}: {text}"
            );
        }
    }
}

#[test]
fn no_input_panics() {
    for text in [
        "",
        ";",
        ";;;",
        "\\",
        "\\\\",
        ".",
        "'",
        "\"",
        "$",
        "$$",
        "$a",
        "/*",
        "--",
        "#",
        "E'",
        ":",
        "::",
        "\u{0}",
        "SELECT '\u{1F600}'",
        "\\d\u{e9}",
        ".\u{e9}",
    ] {
        for dialect in [
            Dialect::Postgres,
            Dialect::MySql,
            Dialect::Sqlite,
            Dialect::DuckDb,
            Dialect::ClickHouse,
        ] {
            assert!(!judge_input(dialect, text).is_empty(), "{text:?}");
        }
    }
}

fn read(verb: &str, args: &[&str]) -> client::Reading {
    client::read(client::client(verb).expect("a client"), args)
}

#[test]
fn psql_options() {
    let r = read("psql", &["-qAt", "-d", "app", "-c", "SELECT 1"]);
    assert_eq!(r.sql, vec![Place { word: 4, at: 0 }]);
    assert!(r.asks.is_empty() && !r.stdin);
    let r = read("psql", &["-cSELECT 1"]);
    assert_eq!(r.sql, vec![Place { word: 0, at: 2 }]);
    let r = read("psql", &["--command=SELECT 1"]);
    assert_eq!(r.sql, vec![Place { word: 0, at: 10 }]);
    assert_eq!(read("psql", &["-o", "f", "-c", "x"]).asks.len(), 1);
    assert_eq!(
        read("psql", &["--comm=x"]).asks.len(),
        1,
        "abbreviations ask"
    );
    assert_eq!(read("psql", &["-Z"]).asks.len(), 1);
    assert!(read("psql", &["app"]).stdin);
    assert!(!read("psql", &["-l"]).stdin);
    assert_eq!(
        read("psql", &["-f", "x.sql"]).files,
        vec![Place { word: 1, at: 0 }]
    );
    assert_eq!(read("psql", &["a", "b", "c"]).asks.len(), 1);
}

#[test]
fn mysql_options() {
    let r = read(
        "mysql",
        &["-u", "root", "-pSECRET", "app", "-e", "SELECT 1"],
    );
    assert_eq!(r.sql, vec![Place { word: 5, at: 0 }]);
    assert!(r.asks.is_empty(), "{:?}", r.asks);
    let r = read("mysql", &["-p", "app"]);
    assert!(r.asks.is_empty() && r.stdin, "-p takes no next word");
    assert_eq!(read("mysql", &["--pager=less"]).asks.len(), 1);
    assert_eq!(read("mysql", &["--tee", "f"]).asks.len(), 1);
}

#[test]
fn sqlite_options_and_operands() {
    let r = read(
        "sqlite3",
        &["-csv", "--header", "app.db", "SELECT 1", ".tables"],
    );
    assert_eq!(r.sql.len(), 2);
    assert!(r.asks.is_empty() && !r.stdin);
    let r = read("sqlite3", &["-cmd", ".shell x", "app.db"]);
    assert_eq!(r.sql, vec![Place { word: 1, at: 0 }]);
    assert!(r.stdin, "-cmd runs first, then the input is read");
    assert_eq!(read("sqlite3", &["-A", "x"]).asks.len(), 1);
    assert!(!read("duckdb", &["-c", "SELECT 1"]).stdin);
}

#[test]
fn dbcli_clients() {
    let r = read(
        "mycli",
        &["-u", "app", "-p", "secret", "-e", "SELECT 1", "app"],
    );
    assert_eq!(r.sql, vec![Place { word: 5, at: 0 }]);
    assert!(r.asks.is_empty() && !r.stdin, "{:?}", r.asks);
    assert!(read("mycli", &["app"]).stdin);
    assert_eq!(read("mycli", &["-l", "q.log", "app"]).asks.len(), 1);
    assert_eq!(read("mycli", &["app", "other"]).asks.len(), 1);
    assert!(!read("pgcli", &["-l"]).stdin, "-l lists");
    assert!(read("pgcli", &["-h", "db", "app"]).stdin);
    assert!(
        read("pgcli", &["-c", "SELECT 1"]).asks.len() == 1,
        "pgcli has no -c"
    );
    let r = read("litecli", &["app.db", "-e", "SELECT 1"]);
    assert_eq!(r.sql, vec![Place { word: 2, at: 0 }]);
    assert!(r.asks.is_empty() && !r.stdin);
    assert!(!client::client("pgcli").expect("pgcli").runs_stdin);
}
