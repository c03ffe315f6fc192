//! The database clients and how each reads its arguments: which options
//! carry SQL (`psql -c`), name a file of SQL (`psql -f`), carry JavaScript
//! (`mongosh --eval`), take a harmless value (`-h HOST`), or write a file
//! or run a program (`psql -o`, `mysql --pager`): those, and every option
//! not listed, keep the command from being FREE.

use super::Dialect;

/// What one option of a client is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    /// Takes no value; changes nothing but how the client prints or connects.
    Flag,
    /// Takes a harmless value (a host, a user, a format).
    Value,
    /// Its value is SQL (or a client command) the client runs.
    Sql,
    /// Its value names a file of SQL the client runs.
    File,
    /// Its value is JavaScript the client runs (`mongosh --eval`).
    Js,
    /// A password given attached or not at all (`mysql -pSECRET`, `-p`).
    Password,
    /// Prints help or the version and runs nothing.
    Info,
    /// Writes a file or runs a program; its value (if it takes one) is
    /// the next word or attached. The text says what it does.
    Asks(&'static str, bool),
}

/// How a client reads its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// getopt_long: `-x`, clusters `-qAt`, attached `-cSQL`, `--long[=v]`.
    Getopt,
    /// sqlite3's and duckdb's: one-dash words (`-cmd`, `-csv`), `--x` the
    /// same as `-x`, no clusters.
    Words,
}

/// What a client's operands are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operands {
    /// Up to this many harmless ones (a database, a user).
    Names(usize),
    /// The first is the database file; the rest are SQL or dot-commands.
    FileThenSql,
    /// One address; a `.js` file runs it.
    MongoAddress,
}

/// One database client.
#[derive(Debug)]
pub struct Client {
    /// Its names (the lexicon's verb first).
    pub names: &'static [&'static str],
    /// The SQL it speaks.
    pub dialect: Dialect,
    /// It talks to a server over the network (psql, mysql), not a local
    /// file (sqlite3, duckdb).
    pub server: bool,
    /// How it reads its options.
    pub style: Style,
    /// Its options, by spelling.
    pub opts: &'static [(&'static str, Opt)],
    /// What its operands are.
    pub operands: Operands,
    /// It runs the SQL it is fed on stdin (psql, mysql, mycli): false for a
    /// client that opens its interactive session instead, or whose reading
    /// of a pipe is not known (pgcli), so that what it is fed is not judged
    /// as the SQL it runs.
    pub runs_stdin: bool,
    /// Its options that list the databases and read no input (`psql -l`).
    pub lists: &'static [&'static str],
}

use Opt::{Asks, File, Flag, Info, Js, Password, Sql, Value};

const WRITES_OUTPUT: &str = "writes the client's output to a file";
const RUNS_PAGER: &str = "runs a pager program";
const READS_CONFIG: &str = "reads client settings from a file, which can name a pager or a command";

#[rustfmt::skip]
static PSQL: &[(&str, Opt)] = &[
    ("--command", Sql), ("-c", Sql), ("--file", File), ("-f", File),
    ("--dbname", Value), ("-d", Value), ("--host", Value), ("-h", Value),
    ("--port", Value), ("-p", Value), ("--username", Value), ("-U", Value),
    ("--no-password", Flag), ("-w", Flag), ("--password", Flag), ("-W", Flag),
    ("--no-psqlrc", Flag), ("-X", Flag), ("--no-align", Flag), ("-A", Flag),
    ("--tuples-only", Flag), ("-t", Flag), ("--quiet", Flag), ("-q", Flag),
    ("--expanded", Flag), ("-x", Flag), ("--html", Flag), ("-H", Flag), ("--csv", Flag),
    ("--field-separator", Value), ("-F", Value), ("--record-separator", Value), ("-R", Value),
    ("--field-separator-zero", Flag), ("-z", Flag), ("--record-separator-zero", Flag), ("-0", Flag),
    ("--pset", Value), ("-P", Value), ("--set", Value), ("--variable", Value), ("-v", Value),
    ("--table-attr", Value), ("-T", Value), ("--single-transaction", Flag), ("-1", Flag),
    ("--echo-all", Flag), ("-a", Flag), ("--echo-errors", Flag), ("-b", Flag),
    ("--echo-queries", Flag), ("-e", Flag), ("--echo-hidden", Flag), ("-E", Flag),
    ("--no-readline", Flag), ("-n", Flag), ("--single-step", Flag), ("-s", Flag),
    ("--single-line", Flag), ("-S", Flag), ("--list", Flag), ("-l", Flag),
    ("--help", Info), ("-?", Info), ("--version", Info), ("-V", Info),
    ("--output", Asks(WRITES_OUTPUT, true)), ("-o", Asks(WRITES_OUTPUT, true)),
    ("--log-file", Asks("writes every query to a log file", true)),
    ("-L", Asks("writes every query to a log file", true)),
];

#[rustfmt::skip]
static MYSQL: &[(&str, Opt)] = &[
    ("--execute", Sql), ("-e", Sql), ("--init-command", Sql),
    ("--host", Value), ("-h", Value), ("--port", Value), ("-P", Value),
    ("--user", Value), ("-u", Value), ("--password", Password), ("-p", Password),
    ("--database", Value), ("-D", Value), ("--socket", Value), ("-S", Value),
    ("--protocol", Value), ("--ssl-mode", Value), ("--ssl-ca", Value), ("--ssl-cert", Value),
    ("--ssl-key", Value), ("--default-character-set", Value), ("--login-path", Value),
    ("--connect-timeout", Value), ("--max-allowed-packet", Value),
    ("--batch", Flag), ("-B", Flag), ("--skip-column-names", Flag), ("-N", Flag),
    ("--column-names", Flag), ("--silent", Flag), ("-s", Flag), ("--table", Flag), ("-t", Flag),
    ("--verbose", Flag), ("-v", Flag), ("--vertical", Flag), ("-E", Flag), ("--raw", Flag),
    ("-r", Flag), ("--html", Flag), ("-H", Flag), ("--xml", Flag), ("-X", Flag),
    ("--no-auto-rehash", Flag), ("-A", Flag), ("--auto-rehash", Flag), ("--force", Flag),
    ("-f", Flag), ("--quick", Flag), ("-q", Flag), ("--unbuffered", Flag), ("-n", Flag),
    ("--safe-updates", Flag), ("--i-am-a-dummy", Flag), ("-U", Flag), ("--compress", Flag),
    ("-C", Flag), ("--show-warnings", Flag), ("--no-beep", Flag), ("-b", Flag),
    ("--skip-pager", Flag), ("--no-defaults", Flag), ("--ssl", Flag), ("--skip-ssl", Flag),
    ("--help", Info), ("-?", Info), ("-I", Info), ("--version", Info), ("-V", Info),
    ("--tee", Asks("copies the session's output to a file", true)),
    ("--pager", Asks(RUNS_PAGER, false)),
    ("--defaults-file", Asks(READS_CONFIG, true)),
    ("--defaults-extra-file", Asks(READS_CONFIG, true)),
    ("--plugin-dir", Asks("loads client plugins from a folder", true)),
    ("--local-infile", Asks("lets the server read local files", false)),
    ("--system-command", Asks("allows the client's `system` command", false)),
];

#[rustfmt::skip]
static SQLITE: &[(&str, Opt)] = &[
    ("-cmd", Sql), ("-init", File),
    ("-ascii", Flag), ("-bail", Flag), ("-batch", Flag), ("-box", Flag), ("-column", Flag),
    ("-csv", Flag), ("-echo", Flag), ("-header", Flag), ("-noheader", Flag), ("-html", Flag),
    ("-json", Flag), ("-line", Flag), ("-list", Flag), ("-markdown", Flag), ("-quote", Flag),
    ("-table", Flag), ("-tabs", Flag), ("-readonly", Flag), ("-safe", Flag), ("-nofollow", Flag),
    ("-stats", Flag), ("-interactive", Flag),
    ("-nullvalue", Value), ("-separator", Value), ("-newline", Value),
    ("-help", Info), ("-version", Info),
];

#[rustfmt::skip]
static DUCKDB: &[(&str, Opt)] = &[
    ("-c", Sql), ("-s", Sql), ("-cmd", Sql), ("-init", File),
    ("-ascii", Flag), ("-bail", Flag), ("-batch", Flag), ("-box", Flag), ("-column", Flag),
    ("-csv", Flag), ("-echo", Flag), ("-header", Flag), ("-noheader", Flag), ("-html", Flag),
    ("-json", Flag), ("-line", Flag), ("-list", Flag), ("-markdown", Flag), ("-quote", Flag),
    ("-table", Flag), ("-readonly", Flag), ("-safe", Flag), ("-no-stdin", Flag),
    ("-nullvalue", Value), ("-separator", Value), ("-newline", Value),
    ("-help", Info), ("-version", Info),
    ("-unsigned", Asks("allows unsigned extensions, which run code", false)),
];

#[rustfmt::skip]
static CLICKHOUSE: &[(&str, Opt)] = &[
    ("--query", Sql), ("-q", Sql), ("--queries-file", File),
    ("--host", Value), ("-h", Value), ("--port", Value), ("--user", Value), ("-u", Value),
    ("--password", Value), ("--database", Value), ("-d", Value), ("--format", Value),
    ("-f", Value), ("--multiline", Flag), ("-m", Flag), ("--multiquery", Flag), ("-n", Flag),
    ("--time", Flag), ("-t", Flag), ("--stacktrace", Flag), ("--secure", Flag), ("-s", Flag),
    ("--help", Info), ("--version", Info), ("-V", Info),
];

#[rustfmt::skip]
static MONGOSH: &[(&str, Opt)] = &[
    ("--eval", Js), ("--host", Value), ("--port", Value), ("--username", Value), ("-u", Value),
    ("--password", Value), ("-p", Value), ("--authenticationDatabase", Value),
    ("--authenticationMechanism", Value), ("--quiet", Flag), ("--norc", Flag),
    ("--nodb", Flag), ("--tls", Flag), ("--json", Value),
    ("--help", Info), ("-h", Info), ("--version", Info),
    ("--file", Asks("runs a JavaScript file", true)), ("-f", Asks("runs a JavaScript file", true)),
    ("--shell", Asks("stays in an interactive shell", false)),
];

/// mycli (the dbcli project's MySQL client, a click program): `-e` runs
/// SQL and its special commands, which the MySQL reading flags
/// (`system`, `\!`, `tee`, `\fs` …); `-p` takes the next word.
#[rustfmt::skip]
static MYCLI: &[(&str, Opt)] = &[
    ("--execute", Sql), ("-e", Sql), ("--init-command", Sql),
    ("--host", Value), ("-h", Value), ("--port", Value), ("-P", Value),
    ("--user", Value), ("-u", Value), ("--socket", Value), ("-S", Value),
    ("--password", Value), ("-p", Value), ("--pass", Value), ("--password-file", Value),
    ("--database", Value), ("-D", Value), ("--dsn", Value), ("-d", Value),
    ("--login-path", Value), ("-g", Value), ("--charset", Value), ("--prompt", Value), ("-R", Value),
    ("--ssl-ca", Value), ("--ssl-capath", Value), ("--ssl-cert", Value), ("--ssl-key", Value),
    ("--ssl-cipher", Value), ("--tls-version", Value), ("--ssl-verify-server-cert", Flag),
    ("--ssh-user", Value), ("--ssh-host", Value), ("--ssh-port", Value), ("--ssh-password", Value),
    ("--ssh-key-filename", Value), ("--ssh-config-host", Value),
    ("--verbose", Flag), ("-v", Flag), ("--auto-vertical-output", Flag), ("--table", Flag),
    ("-t", Flag), ("--csv", Flag), ("--warn", Flag), ("--no-warn", Flag),
    ("--help", Info), ("--version", Info), ("-V", Info),
    ("--logfile", Asks("writes every query and its results to a log file", true)),
    ("-l", Asks("writes every query and its results to a log file", true)),
    ("--myclirc", Asks(READS_CONFIG, true)),
    ("--defaults-file", Asks(READS_CONFIG, true)),
    ("--defaults-group-suffix", Asks(READS_CONFIG, true)),
    ("--ssh-config-path", Asks("reads an ssh configuration, which can name a proxy command", true)),
    ("--local-infile", Asks("lets the server read local files", true)),
    ("--list-dsn", Asks("prints the DSN aliases of the config file, passwords included", false)),
    ("--list-ssh-config", Asks("prints the hosts of the ssh configuration", false)),
];

/// pgcli (the dbcli project's PostgreSQL client): it takes no SQL on the
/// command line; `-l` lists the databases.
#[rustfmt::skip]
static PGCLI: &[(&str, Opt)] = &[
    ("--host", Value), ("-h", Value), ("--port", Value), ("-p", Value),
    ("--username", Value), ("-U", Value), ("--user", Value), ("-u", Value),
    ("--password", Flag), ("-W", Flag), ("--no-password", Flag), ("-w", Flag),
    ("--dbname", Value), ("-d", Value), ("--dsn", Value), ("-D", Value),
    ("--single-connection", Flag), ("--less-chatty", Flag), ("--auto-vertical-output", Flag),
    ("--row-limit", Value), ("--prompt", Value), ("--prompt-dsn", Value), ("--warn", Value),
    ("--list", Flag), ("-l", Flag),
    ("--help", Info), ("--version", Info), ("-v", Info),
    ("--pgclirc", Asks(READS_CONFIG, true)),
    ("--log-file", Asks("writes every query to a log file", true)),
    ("--ssh-tunnel", Asks("opens an ssh tunnel", true)),
    ("--list-dsn", Asks("prints the DSN aliases of the config file, passwords included", false)),
];

/// litecli (the dbcli project's SQLite client): `-e` runs SQL and its
/// special commands, which the SQLite reading flags but for the
/// dot-commands that only read.
#[rustfmt::skip]
static LITECLI: &[(&str, Opt)] = &[
    ("--execute", Sql), ("-e", Sql),
    ("--database", Value), ("-D", Value), ("--prompt", Value), ("-R", Value),
    ("--auto-vertical-output", Flag), ("--table", Flag), ("-t", Flag), ("--csv", Flag),
    ("--warn", Flag), ("--no-warn", Flag),
    ("--help", Info), ("--version", Info), ("-V", Info),
    ("--logfile", Asks("writes every query and its results to a log file", true)),
    ("-l", Asks("writes every query and its results to a log file", true)),
    ("--liteclirc", Asks(READS_CONFIG, true)),
];

/// Every client the lane reads, by the lexicon's name.
pub static CLIENTS: &[Client] = &[
    Client {
        names: &["psql"],
        dialect: Dialect::Postgres,
        server: true,
        style: Style::Getopt,
        opts: PSQL,
        operands: Operands::Names(2),
        runs_stdin: true,
        lists: &["-l", "--list"],
    },
    Client {
        names: &["mysql", "mariadb"],
        dialect: Dialect::MySql,
        server: true,
        style: Style::Getopt,
        opts: MYSQL,
        operands: Operands::Names(1),
        runs_stdin: true,
        lists: &[],
    },
    Client {
        names: &["sqlite3"],
        dialect: Dialect::Sqlite,
        server: false,
        style: Style::Words,
        opts: SQLITE,
        operands: Operands::FileThenSql,
        runs_stdin: true,
        lists: &[],
    },
    Client {
        names: &["duckdb"],
        dialect: Dialect::DuckDb,
        server: false,
        style: Style::Words,
        opts: DUCKDB,
        operands: Operands::FileThenSql,
        runs_stdin: true,
        lists: &[],
    },
    Client {
        names: &["clickhouse-client"],
        dialect: Dialect::ClickHouse,
        server: true,
        style: Style::Getopt,
        opts: CLICKHOUSE,
        operands: Operands::Names(0),
        runs_stdin: true,
        lists: &[],
    },
    Client {
        names: &["mongosh"],
        dialect: Dialect::Postgres,
        server: true,
        style: Style::Getopt,
        opts: MONGOSH,
        operands: Operands::MongoAddress,
        runs_stdin: true,
        lists: &[],
    },
    Client {
        names: &["mycli"],
        dialect: Dialect::MySql,
        server: true,
        style: Style::Getopt,
        opts: MYCLI,
        operands: Operands::Names(1),
        runs_stdin: true,
        lists: &[],
    },
    Client {
        names: &["pgcli"],
        dialect: Dialect::Postgres,
        server: true,
        style: Style::Getopt,
        opts: PGCLI,
        operands: Operands::Names(2),
        runs_stdin: false,
        lists: &["-l", "--list"],
    },
    Client {
        names: &["litecli"],
        dialect: Dialect::Sqlite,
        server: false,
        style: Style::Getopt,
        opts: LITECLI,
        operands: Operands::Names(1),
        runs_stdin: true,
        lists: &[],
    },
];

impl Client {
    /// Its name as the lexicon has it.
    pub fn name(&self) -> &'static str {
        self.names.first().copied().unwrap_or("")
    }
}

/// The client named `verb`, if the lane reads it.
pub fn client(verb: &str) -> Option<&'static Client> {
    CLIENTS.iter().find(|c| c.names.contains(&verb))
}

/// Where a value sits: a word (its index among the arguments) and the
/// byte offset its value starts at (0, or past `--opt=` or `-c`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The index of the word among the arguments.
    pub word: usize,
    /// Where the value starts in it.
    pub at: usize,
}

/// What the client runs, as its arguments say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// SQL (or client commands) given as arguments, in order.
    pub sql: Vec<Place>,
    /// Files of SQL it reads.
    pub files: Vec<Place>,
    /// JavaScript it runs.
    pub js: Vec<Place>,
    /// Options and operands that keep it from being FREE: where, and why.
    pub asks: Vec<(usize, String)>,
    /// It only prints help or its version.
    pub info: bool,
    /// It reads SQL from stdin (no SQL given otherwise).
    pub stdin: bool,
}

/// Reads `args` (the words after the verb) as `client` does.
pub fn read(client: &Client, args: &[&str]) -> Reading {
    let mut reading = Reading::default();
    let mut operands: Vec<usize> = Vec::new();
    let mut i = 0usize;
    let mut only_operands = false;
    while let Some(&arg) = args.get(i) {
        let this = i;
        i += 1;
        if only_operands || arg == "-" || !arg.starts_with('-') {
            operands.push(this);
            continue;
        }
        if arg == "--" {
            only_operands = true;
            continue;
        }
        match client.style {
            Style::Words => {
                let (name, attached) = match arg.split_once('=') {
                    Some((n, _)) => (n, Some(n.len() + 1)),
                    None => (arg, None),
                };
                let name = name
                    .strip_prefix('-')
                    .filter(|n| n.starts_with('-'))
                    .unwrap_or(name);
                let Some(opt) = lookup(client, name) else {
                    reading.asks.push((
                        this,
                        format!("`{arg}` is not a known option of {}", client.name()),
                    ));
                    continue;
                };
                let value = match attached {
                    Some(at) => Some(Place { word: this, at }),
                    None if takes_value(opt) => {
                        i += 1;
                        args.get(this + 1).map(|_| Place {
                            word: this + 1,
                            at: 0,
                        })
                    }
                    None => None,
                };
                apply(&mut reading, opt, arg, this, value);
            }
            Style::Getopt => {
                if let Some(long) = arg.strip_prefix("--") {
                    let (name, attached) = match long.split_once('=') {
                        Some((n, _)) => (n, Some(n.len() + 3)),
                        None => (long, None),
                    };
                    let spelled = format!("--{name}");
                    let Some(opt) = lookup(client, &spelled) else {
                        reading.asks.push((
                            this,
                            format!("`{spelled}` is not a known option of {}", client.name()),
                        ));
                        continue;
                    };
                    let value = match (attached, opt) {
                        (Some(at), _) => Some(Place { word: this, at }),
                        (None, Opt::Password) => None,
                        (None, opt) if takes_value(opt) => {
                            i += 1;
                            args.get(this + 1).map(|_| Place {
                                word: this + 1,
                                at: 0,
                            })
                        }
                        (None, _) => None,
                    };
                    if attached.is_some() && !takes_value(opt) && opt != Opt::Password {
                        reading
                            .asks
                            .push((this, format!("`{spelled}` takes no value")));
                        continue;
                    }
                    apply(&mut reading, opt, arg, this, value);
                    continue;
                }
                // A cluster of short options: `-qAt`, `-cSQL`, `-c SQL`.
                let chars = arg.char_indices().skip(1);
                for (at, c) in chars {
                    let spelled = format!("-{c}");
                    let Some(opt) = lookup(client, &spelled) else {
                        reading.asks.push((
                            this,
                            format!("`{spelled}` is not a known option of {}", client.name()),
                        ));
                        break;
                    };
                    let rest = at + c.len_utf8();
                    if opt == Opt::Password {
                        apply(&mut reading, opt, arg, this, None);
                        break;
                    }
                    if takes_value(opt) {
                        let value = if rest < arg.len() {
                            Some(Place {
                                word: this,
                                at: rest,
                            })
                        } else {
                            i += 1;
                            args.get(this + 1).map(|_| Place {
                                word: this + 1,
                                at: 0,
                            })
                        };
                        apply(&mut reading, opt, arg, this, value);
                        break;
                    }
                    apply(&mut reading, opt, arg, this, None);
                }
            }
        }
    }
    match client.operands {
        Operands::Names(n) => {
            for &extra in operands.iter().skip(n) {
                reading.asks.push((
                    extra,
                    format!(
                        "{} takes no operand `{}`",
                        client.name(),
                        args.get(extra).unwrap_or(&"")
                    ),
                ));
            }
        }
        Operands::FileThenSql => {
            for &sql in operands.iter().skip(1) {
                reading.sql.push(Place { word: sql, at: 0 });
            }
        }
        Operands::MongoAddress => {
            for (n, &operand) in operands.iter().enumerate() {
                let word = args.get(operand).copied().unwrap_or("");
                if n > 0 || word.ends_with(".js") {
                    reading
                        .asks
                        .push((operand, format!("mongosh runs `{word}`")));
                }
            }
        }
    }
    let given = !reading.sql.is_empty() || !reading.files.is_empty() || !reading.js.is_empty();
    // psql -l lists the databases and reads no input.
    let lists = args.iter().any(|a| client.lists.contains(a));
    reading.stdin = !given && !reading.info && !lists;
    // sqlite3 and duckdb: `-cmd` and `-init` run first, and the input is
    // still read unless SQL is given as an operand (or by duckdb's `-c`).
    if client.operands == Operands::FileThenSql {
        let sql_operand = operands.len() > 1;
        let duckdb_c = client.dialect == Dialect::DuckDb
            && args
                .iter()
                .any(|a| matches!(*a, "-c" | "-s" | "--c" | "--s"));
        reading.stdin = !reading.info && !sql_operand && !duckdb_c;
    }
    reading
}

fn lookup(client: &Client, spelled: &str) -> Option<Opt> {
    client
        .opts
        .iter()
        .find(|(s, _)| *s == spelled)
        .map(|&(_, o)| o)
}

fn takes_value(opt: Opt) -> bool {
    matches!(
        opt,
        Opt::Value | Opt::Sql | Opt::File | Opt::Js | Opt::Asks(_, true)
    )
}

fn apply(reading: &mut Reading, opt: Opt, arg: &str, word: usize, value: Option<Place>) {
    match opt {
        Opt::Flag | Opt::Value | Opt::Password => {}
        Opt::Info => reading.info = true,
        Opt::Sql => reading.sql.extend(value),
        Opt::File => reading.files.extend(value),
        Opt::Js => reading.js.extend(value),
        Opt::Asks(why, _) => reading.asks.push((word, format!("`{arg}` {why}"))),
    }
}
