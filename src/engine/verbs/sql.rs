//! `psql`, `mysql`, `sqlite3`, `duckdb`, `clickhouse-client`, `mongosh`,
//! `mycli`, `pgcli`, `litecli`:
//! the database clients, judged whole by the SQL lane (`src/sql/`).
//!
//! Takes the words (the verb first); judges, at the `runs` step:
//! 1. the client's options (`sql::client`): one that writes a file, runs
//!    a program or is not known is SIGNED `sql.client-option`;
//! 2. the SQL it runs, in order: given in options and operands (`psql -c`,
//!    `sqlite3 DB SQL`), in files (`psql -f FILE`, read as scripts are),
//!    and on stdin when it reads it (a quoted heredoc, a here-string, a
//!    literal pipe, `< FILE`); each by `sql::judge_input`. SQL it cannot
//!    see (an interactive session, a pipe from a program) is SIGNED
//!    `sql.session`; `DROP DATABASE` meets the floor;
//! 3. `mongosh --eval JS`: SIGNED `sql.javascript`, and the code is read
//!    by the JavaScript lane (as `node -e JS`) for what it does outside
//!    the database;
//! 4. the workspace's trust: a client of a server reads the network even
//!    when it only reads (`rules/law.json` `network_reads`).
//!
//! Returns [`Handled::Judged`] for every client it knows.

use super::{Handled, Handler};
use crate::engine::Run;
use crate::engine::ctx::Ctx;
use crate::engine::scripts::Unreadable;
use crate::feeds::{self, Producer};
use crate::limits;
use crate::rule_id::Rule;
use crate::rules::FloorRule;
use crate::shell::{Stdin, Word};
use crate::sql::client::{self, Client, Place};
use crate::sql::{self, Finding, Kind};
use crate::verdict::{Effect, Verdict};

/// The handler of every database client.
pub(super) const HANDLER: Handler = Handler {
    runs: Some(judge),
    ..Handler::NONE
};

fn judge(run: &mut Run, ctx: &Ctx, verb: &str, words: &[Word]) -> Handled {
    let name = crate::lexicon::lookup(verb).map_or(verb, |s| s.name());
    let Some(client) = client::client(name).or_else(|| client::client(verb)) else {
        return Handled::No;
    };
    run.sql_client(client, words, ctx);
    Handled::Judged
}

/// The SQL a command runs: its text and where it came from.
struct Given {
    text: String,
    origin: String,
}

impl Run<'_> {
    fn sql_client(&mut self, client: &'static Client, words: &[Word], ctx: &Ctx) {
        let (part, depth) = (ctx.part(), ctx.depth);
        let verb = client.name();
        let args = words.get(1..).unwrap_or(&[]);
        let values: Vec<&str> = args.iter().map(|w| w.value.as_str()).collect();
        let reading = client::read(client, &values);
        let mut worst = Effect::Inspect;
        for (_, why) in &reading.asks {
            worst = Effect::Mutate;
            self.find(
                Verdict::Signed,
                Rule::SqlClientOption,
                format!("{verb}: {why}"),
                OPTION_REMEDIATION,
                part,
            );
        }
        // Words only known at run time where the client reads options.
        for word in args.iter().filter(|w| w.dynamic) {
            if !reading
                .sql
                .iter()
                .chain(&reading.files)
                .chain(&reading.js)
                .any(|p| args.get(p.word).is_some_and(|w| std::ptr::eq(w, word)))
            {
                worst = Effect::Mutate;
                self.find(
                    Verdict::Signed,
                    Rule::SqlClientOption,
                    format!(
                        "{verb} is given `{}`, only known when the command runs",
                        limits::clip(&word.source, 80)
                    ),
                    "Write the client's arguments out literally so they can be checked.",
                    part,
                );
            }
        }
        let mut given: Vec<Given> = Vec::new();
        for place in &reading.sql {
            if let Some(text) = self.sql_value(verb, args, *place, part) {
                given.push(Given {
                    text,
                    origin: format!("given to {verb} on the command line"),
                });
            } else {
                worst = Effect::Mutate;
            }
        }
        for place in &reading.files {
            match self.sql_file(verb, args, *place, ctx) {
                Some(g) => given.push(g),
                None => worst = Effect::Mutate,
            }
        }
        if reading.stdin && !client.runs_stdin {
            worst = Effect::Mutate;
            self.find(
                Verdict::Signed,
                Rule::SqlSession,
                format!(
                    "{verb} takes no SQL on its command line and opens an interactive session, whose SQL portcullis cannot see"
                ),
                SESSION_REMEDIATION,
                part,
            );
        } else if reading.stdin {
            match self.sql_stdin(verb, ctx) {
                Some(g) => given.push(g),
                None => worst = Effect::Mutate,
            }
        }
        for place in &reading.js {
            worst = Effect::Mutate;
            let Some(text) = self.sql_value(verb, args, *place, part) else {
                continue;
            };
            self.find(
                Verdict::Signed,
                Rule::SqlJavaScript,
                format!("{verb} runs JavaScript against the database: `{}`", limits::clip(&text, 80)),
                "Ask the person to sign off, or read with a query the SQL lane can check (psql -c 'SELECT …').",
                part,
            );
            if let Ok(code) = shlex::try_quote(&text) {
                self.script(&format!("node -e {code}"), depth + 1, ctx.cwd.clone());
            }
        }
        for g in &given {
            let findings = sql::judge_input(client.dialect, &g.text);
            self.note(depth, || {
                format!("sql: {} ({} findings)", g.origin, findings.len())
            });
            for finding in findings {
                let effect = self.sql_finding(verb, &finding, &g.origin, part, depth);
                if effect.rank() > worst.rank() {
                    worst = effect;
                }
            }
        }
        if worst == Effect::Inspect {
            let what = if reading.info {
                format!("{verb} only prints its help or version")
            } else {
                format!("{verb} runs SQL that only reads")
            };
            self.find(Verdict::Free, Rule::SqlRead, what, "", part);
        }
        let trust_path: &[&str] = if client.server && !reading.info {
            &[verb]
        } else {
            &["sql-file"]
        };
        self.narrowed_trust(worst, trust_path, ctx.cwd(), part, depth);
        let wrapping = ctx.wrapping;
        self.wrapper_floor(wrapping.wrapper, wrapping.class, worst, part);
    }

    /// The text of an option's or operand's value; `None` (and a SIGNED
    /// finding) when it is only known at run time.
    fn sql_value(&mut self, verb: &str, args: &[Word], place: Place, part: &str) -> Option<String> {
        let word = args.get(place.word)?;
        if word.dynamic {
            self.find(
                Verdict::Signed,
                Rule::ParseDynamicScript,
                format!(
                    "{verb} runs code that is only known when the command runs: `{}`",
                    limits::clip(&word.source, 80)
                ),
                "Write the SQL out literally so it can be checked.",
                part,
            );
            return None;
        }
        Some(word.value.get(place.at..).unwrap_or("").to_string())
    }

    /// A file of SQL (`psql -f FILE`): read as scripts are; `-` is stdin.
    fn sql_file(&mut self, verb: &str, args: &[Word], place: Place, ctx: &Ctx) -> Option<Given> {
        let word = args.get(place.word)?;
        let mut file = word.clone();
        if place.at > 0 {
            file = Word::literal(word.value.get(place.at..).unwrap_or(""));
            file.dynamic = word.dynamic;
        }
        if file.value == "-" || crate::feeds::is_stdin_device(&file.value) {
            return self.sql_stdin(verb, ctx);
        }
        match self.read_script(&file, ctx.cwd()) {
            Ok(text) => Some(Given {
                text,
                origin: format!("read by {verb} from {}", limits::clip(&file.value, 80)),
            }),
            Err(why) => {
                let why = match why {
                    Unreadable::Dynamic => "only known when the command runs".to_string(),
                    Unreadable::Outside => "outside the working folder".to_string(),
                    Unreadable::TooLarge(n) => format!("too large to read ({n} bytes)"),
                    Unreadable::Missing(e) => format!("not readable ({e})"),
                    Unreadable::Replaced(_) => {
                        "written earlier in this command with content portcullis cannot see"
                            .to_string()
                    }
                };
                self.find(
                    Verdict::Signed,
                    Rule::SqlSession,
                    format!(
                        "{verb} runs the SQL in {}, which is {why}",
                        limits::clip(&file.value, 80)
                    ),
                    SESSION_REMEDIATION,
                    ctx.part(),
                );
                None
            }
        }
    }

    /// The SQL a client reads on stdin, when it can be seen.
    fn sql_stdin(&mut self, verb: &str, ctx: &Ctx) -> Option<Given> {
        let site = ctx.site;
        let part = ctx.part();
        let origin = format!("read by {verb} from stdin");
        match &site.command.stdin {
            Stdin::Inherited
                if !matches!(
                    feeds::stdin_producer(site.script, site.command),
                    Producer::Network(_)
                ) =>
            {
                self.find(
                    Verdict::Signed,
                    Rule::SqlSession,
                    format!("{verb} opens an interactive session, whose SQL portcullis cannot see"),
                    SESSION_REMEDIATION,
                    part,
                );
                return None;
            }
            Stdin::File(file) => {
                return match self.read_script(file, ctx.cwd()) {
                    Ok(text) => Some(Given {
                        text,
                        origin: format!("read by {verb} from {}", limits::clip(&file.value, 80)),
                    }),
                    Err(_) => {
                        self.find(
                            Verdict::Signed,
                            Rule::SqlSession,
                            format!(
                                "{verb} reads SQL from {}, which portcullis cannot read",
                                limits::clip(&file.value, 80)
                            ),
                            SESSION_REMEDIATION,
                            part,
                        );
                        None
                    }
                };
            }
            Stdin::Heredoc {
                body,
                literal: false,
            } => {
                self.find(
                    Verdict::Signed,
                    Rule::ParseDynamicScript,
                    format!("the heredoc {verb} reads expands shell variables or commands, so its SQL is only known when the command runs"),
                    "Quote the heredoc's delimiter (<<'SQL') so the SQL is exactly what is written.",
                    part,
                );
                // What can be read of it is still judged.
                let findings = sql::judge_input(client_dialect(verb), body);
                for finding in findings.iter().filter(|f| f.kind != Kind::Read) {
                    self.sql_finding(verb, finding, &origin, part, ctx.depth);
                }
                return None;
            }
            _ => {}
        }
        match feeds::stdin_producer(site.script, site.command) {
            Producer::Literal(text) => Some(Given { text, origin }),
            // SQL from the network or a decoder is code nobody has read:
            // the floor, as for a shell.
            Producer::Network(what) => {
                self.note(ctx.depth, || {
                    format!("{verb} reads SQL from the network ({what})")
                });
                self.floor(FloorRule::PipeNetworkShell, part, ctx.depth);
                None
            }
            Producer::Opaque(what) => {
                self.note(ctx.depth, || format!("{verb} reads SQL produced by {what}"));
                self.floor(FloorRule::PipeOpaqueShell, part, ctx.depth);
                None
            }
            Producer::File | Producer::Dynamic => {
                self.find(
                    Verdict::Signed,
                    Rule::SqlSession,
                    format!("{verb} reads SQL from stdin that portcullis cannot see"),
                    SESSION_REMEDIATION,
                    part,
                );
                None
            }
        }
    }

    /// One finding of the lane as the engine's; returns its class.
    fn sql_finding(
        &mut self,
        verb: &str,
        finding: &Finding,
        origin: &str,
        part: &str,
        depth: usize,
    ) -> Effect {
        let what = &finding.what;
        let (rule, reason, remediation, effect) = match finding.kind {
            Kind::Read => return Effect::Inspect,
            Kind::DropDatabase => {
                self.note(depth, || format!("sql: {what}"));
                self.floor(FloorRule::SqlDropDatabase, part, depth);
                return Effect::Destroy;
            }
            Kind::Mutate => (
                Rule::SqlMutate,
                format!(
                    "the SQL {origin} changes the database or is not known to only read: `{what}`"
                ),
                "Ask the person to sign off on this change to the database, or run a query that only reads (SELECT).",
                Effect::Mutate,
            ),
            Kind::Function => (
                Rule::SqlFunction,
                format!("the SQL {origin} calls `{what}`, a function not known to be harmless"),
                "Call only built-in functions known to be harmless, or ask the person to sign off.",
                Effect::Mutate,
            ),
            Kind::Variable => (
                Rule::SqlVariable,
                format!(
                    "the SQL {origin} uses client variables, only known when it runs: `{what}`"
                ),
                "Write the values into the SQL literally so it can be checked.",
                Effect::Mutate,
            ),
            Kind::ClientCommand => (
                Rule::SqlClientCommand,
                format!("{verb} runs a client command not known to only read: `{what}`"),
                "Use the client's read-only commands (psql \\d, \\dt, \\l; sqlite3 .tables, .schema), or ask the person to sign off; write output with a shell redirection instead of \\o or .output.",
                Effect::Exec,
            ),
            Kind::ParseError => (
                Rule::SqlParseError,
                format!("the SQL {origin} cannot be read: {what}"),
                "Write the SQL so it parses (statements ended by `;`, quotes and comments closed), or ask the person to sign off.",
                Effect::Mutate,
            ),
            Kind::Drop => (
                Rule::SqlDrop,
                format!("the SQL {origin} drops: `{what}`"),
                "Dropping cannot be undone: back the object up first (pg_dump -t, sqlite3 .dump) and ask the person to sign off.",
                Effect::Destroy,
            ),
            Kind::Truncate => (
                Rule::SqlTruncate,
                format!("the SQL {origin} empties a table: `{what}`"),
                "Emptying a table cannot be undone: back it up first and ask the person to sign off.",
                Effect::Destroy,
            ),
            Kind::UnboundedDelete => (
                Rule::SqlUnboundedDelete,
                format!("the SQL {origin} deletes every row: `{what}` has no WHERE"),
                "Add a WHERE clause naming the rows you mean, or ask the person to sign off on deleting every row.",
                Effect::Destroy,
            ),
            Kind::UnboundedUpdate => (
                Rule::SqlUnboundedUpdate,
                format!("the SQL {origin} changes every row: `{what}` has no WHERE"),
                "Add a WHERE clause naming the rows you mean, or ask the person to sign off on changing every row.",
                Effect::Destroy,
            ),
        };
        self.note(depth, || format!("sql: {rule}: {what}"));
        self.find(Verdict::Signed, rule, reason, remediation, part);
        effect
    }
}

/// The dialect of a client by its name (Postgres when unknown).
fn client_dialect(verb: &str) -> sql::Dialect {
    client::client(verb).map_or(sql::Dialect::Postgres, |c| c.dialect)
}

const OPTION_REMEDIATION: &str = "Drop the option (write output with a shell redirection, which the path law can judge), or ask the person to sign off.";

const SESSION_REMEDIATION: &str = "Give the SQL on the command line (psql -c, mysql -e, sqlite3 DB 'SQL') or in a quoted heredoc (<<'SQL') so it can be checked.";
