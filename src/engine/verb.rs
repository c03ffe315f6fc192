//! The verb stage: one peeled argv whose first word is the program in,
//! findings out. [`Run::verb`] is the pipeline; its doc comment gives the
//! order of the steps. What a few verbs need beyond the lexicon (`cd`,
//! `source`, `ssh`, `find`, `git`, `awk`, `sed`) is in their handlers
//! (`engine/verbs/`), which the pipeline looks up in one table and calls
//! at their steps; every other step is generic.
//!
//! It may touch only the [`Run`] it is given: findings, notes, the links and
//! the laws. What it knows of the command (site, depth, folders, wrappers)
//! comes in one [`Ctx`].

use super::ctx::Ctx;
use super::scripts::ScriptKind;
use super::verbs::{self, Handled, Handler};
use super::{Run, suffix};
use crate::floor::{self, Invocation};
use crate::law::Reach;
use crate::lexicon::{self, Classified, Written};
use crate::paths::Location;
use crate::peel;
use crate::rule_id::{Rule, RuleId};
use crate::shell::{self, Word};
use crate::verdict::{Effect, Verdict};
use std::borrow::Cow;

/// A command as the write-target step reads it: the verb, its handler,
/// its arguments as written, and the words the lexicon classified (`find`
/// without its `-exec` commands).
struct Target<'w> {
    verb: &'w str,
    handler: &'static Handler,
    args: &'w [Word],
    words: &'w [Word],
}

impl Run<'_> {
    /// Judges `words` (the verb first) in `ctx`; `ctx.cwd` is the
    /// command's own folder (`env -C`, `git -C`). Returns
    /// [`Handled::Moved`] when the command changed the shell's folder
    /// (`cd`).
    ///
    /// The steps, in order; a step marked (handler) is the verb's
    /// [`Handler`] field of that name, where it has one:
    /// 1. a program name only known at run time: SIGNED, and done;
    ///    `[[` without `]]`: SIGNED;
    /// 2. a function defined in the line: judged as one, done when surely
    ///    one;
    /// 3. `builtin` (handler, by the name as written): `cd` and its kin,
    ///    done;
    /// 4. the program is resolved (`/usr/bin/rm` is `rm`; a project
    ///    runner such as `bin/rails` is `rails`); a script run by path is
    ///    read by its lane, done when judged, else `verb.exec`;
    /// 5. the trust of the paths it names, its secret reads, what it
    ///    defines for later commands (`export`, `alias`, `git -c`);
    /// 6. `folder` (handler): the command's own folder (`git -C`);
    /// 7. in-place edits of perl and ruby; the inline-code lanes of an
    ///    interpreter, done when they judged the program;
    /// 8. `runs` (handler): a file run in this shell (`source`), done;
    /// 9. `elsewhere` (handler): commands run elsewhere (`ssh`, `find
    ///    -exec`);
    /// 10. the blocked floor, and the links the command makes;
    /// 11. `lexicon_words` (handler), then the lexicon: a verb it does not
    ///     list is the runner's class (`npx`) or UNKNOWN, done;
    /// 12. `program` (handler, by the lexicon's name): the class the
    ///     verb's program gives (`awk`, `sed`), where stricter; the
    ///     program's parts (commands, files) are judged;
    /// 13. trust narrowed by the class, the folders options name, unknown
    ///     options, option values that are code, the project's recipes,
    ///     the lexicon's finding, the wrappers' own class;
    /// 14. dependency freezes, copies into folders, extraction folders,
    ///     key files, patched files, git's routes into git control, files
    ///     rewritten in place;
    /// 15. the write targets for the path law, less `script_operand`
    ///     (handler, by the lexicon's name) and with each operand offered
    ///     first to `write_operand` (handler).
    pub(super) fn verb(&mut self, words: &[Word], mut ctx: Ctx) -> Handled {
        let depth = ctx.depth;
        let part = ctx.part();
        let wrapping = ctx.wrapping;
        let head = &words[0];
        if head.dynamic {
            self.dynamic_verb(head, part, depth);
            return Handled::Judged;
        }
        let written = head.value.as_str();
        self.unclosed_conditional(words, part);
        if self.function_call(written, &ctx) {
            return Handled::Judged;
        }
        if let Some(builtin) = verbs::handler(written).builtin {
            match builtin(self, &ctx, written, words) {
                Handled::No => {}
                done => return done,
            }
        }
        let (verb, is_script) = peel::verb_of(written);
        let project_verb = self.project_runner(written, ctx.cwd());
        let verb = project_verb.unwrap_or(verb);
        let is_script =
            is_script && project_verb.is_none() && !self.is_project_tool(written, ctx.cwd());
        if is_script && self.script_by_path(written, head, &ctx) {
            self.wrapper_floor(wrapping.wrapper, wrapping.class, Effect::Inspect, part);
            return Handled::Judged;
        }
        let handler = verbs::handler(verb);
        let args = &words[1..];
        self.named_trust(args, ctx.cwd(), part, depth);
        self.secret_reads(verb, args, ctx.site.script, part, depth, ctx.cwd());
        if !matches!(ctx.site.command.stdin, shell::Stdin::Inherited) {
            self.stdin_secret_reads(verb, args, &ctx);
        }
        self.definitions(verb, args, &ctx);
        if let Some(folder) = handler.folder {
            ctx.cwd = folder(self, &ctx, words);
        }
        let interpreter = lexicon::lookup(verb).map_or(verb, |s| s.name());
        self.in_place_edits(interpreter, args, &ctx);
        if crate::inline::route::is_interpreter(interpreter)
            && self.code_route(interpreter, args, &ctx)
        {
            self.wrapper_floor(wrapping.wrapper, wrapping.class, Effect::Inspect, part);
            return Handled::Judged;
        }
        if let Some(runs) = handler.runs {
            match runs(self, &ctx, verb, words) {
                Handled::No => {}
                done => return done,
            }
        }
        if let Some(elsewhere) = handler.elsewhere {
            elsewhere(self, &ctx, verb, words);
        }
        self.command_floor(verb, args, &ctx);
        if self.settled {
            // The floor decided the request: nothing after it can change
            // the decision (`Run::record`).
            return Handled::Judged;
        }
        let verb_words: Cow<[Word]> = match handler.lexicon_words {
            Some(lexicon_words) => Cow::Owned(lexicon_words(words)),
            None => Cow::Borrowed(words),
        };
        let Some(classified) = lexicon::classify(verb, &verb_words) else {
            // An unknown dependency tool still meets the freeze
            // (`npx npm-check-updates -u`, `pip-compile`).
            if !is_script {
                self.frozen_dependencies(verb, args, part, depth);
            }
            self.unlisted_verb(verb, args, is_script, &ctx);
            return Handled::Judged;
        };
        let classified = refined_by_program(classified, args);
        self.program_parts(verb, args, &ctx);
        let effect = classified.effect;
        self.narrowed_trust(effect, &classified.path, ctx.cwd(), part, depth);
        self.folder_option_trust(args, &classified, &ctx);
        self.note(depth, || {
            format!("lexicon: {} ({})", classified.rule, effect.as_str())
        });
        self.unknown_options(&classified, &verb_words, part, depth);
        self.option_scripts(&classified, &verb_words, &ctx);
        let tool = classified.path.first().map_or(verb, |p| &**p);
        let recipes_read = !is_script && self.project_recipes(tool, args, &ctx);
        if !is_script && !recipes_read {
            self.lexicon_finding(&classified, part);
        }
        self.lexicon_secret(&classified, part, depth);
        self.wrapper_floor(wrapping.wrapper, wrapping.class, effect, part);
        self.frozen_dependencies(verb, args, part, depth);
        self.copies_into_folder(verb, args, &ctx);
        self.extraction_folder(verb, args, &ctx);
        self.key_file(verb, args, &ctx);
        self.patched_files(verb, args, &ctx);
        self.git_control_routes(verb, args, &ctx);
        self.rewrites_in_place(&classified, &verb_words, &ctx);
        let target = Target {
            verb,
            handler,
            args,
            words: &verb_words,
        };
        self.written_targets(&target, &classified, &ctx);
        Handled::Judged
    }

    /// `time [[`: a conditional that never closes, which bash rejects.
    fn unclosed_conditional(&mut self, words: &[Word], part: &str) {
        let head = &words[0];
        if head.value == "[[" && head.source == "[[" && words.last().is_none_or(|w| w.value != "]]")
        {
            self.find(
                Verdict::Signed,
                Rule::ParseError,
                "the command does not parse as shell: `[[` without `]]`".into(),
                "Rewrite the command in plain shell (one command per line, quotes closed) so it can be checked.",
                part,
            );
        }
    }

    /// A function defined earlier in the line, as bash resolves it there
    /// (`shell::Callee`). A wrapper (`command rm`, `sudo rm`, `env rm`) runs
    /// the program, never a function of that name. Returns true when the
    /// name is surely the function (nothing more to judge); a name that
    /// may or may not be one is judged both ways.
    fn function_call(&mut self, written: &str, ctx: &Ctx) -> bool {
        let (site, depth) = (ctx.site, ctx.depth);
        let callee = match site.command.words.first() {
            Some(first) if !ctx.wrapped && first.value == written => site.command.callee,
            _ => shell::Callee::Program,
        };
        if callee == shell::Callee::Program {
            return false;
        }
        self.note(depth, || match callee {
            shell::Callee::Function => {
                format!("verb: {written} is a function defined in this command")
            }
            _ => format!("verb: {written} may be a function or a program: judged as both"),
        });
        self.find(
            Verdict::Free,
            Rule::VerbFunction,
            format!("calls {written}, defined in this command"),
            "",
            &site.command.text,
        );
        callee == shell::Callee::Function
    }

    /// A program run by path (`./run.sh`, `tests/runtests.py`): its
    /// content is read where a lane can (true: judged), else the command
    /// is exec and the lexicon still judges its name.
    fn script_by_path(&mut self, written: &str, head: &Word, ctx: &Ctx) -> bool {
        let (site, depth) = (ctx.site, ctx.depth);
        if self.script_file(written, ScriptKind::ByName, head, ctx) {
            return true;
        }
        self.note(depth, || {
            format!("verb: {written} is a program run by path")
        });
        self.find(
            Effect::Exec.verdict(),
            Rule::VerbExec,
            format!("runs {written}, whose content portcullis does not check"),
            Effect::Exec.remediation(),
            &site.command.text,
        );
        false
    }

    /// The blocked floor on the command, then the links it makes
    /// (`ln -s ~ h`) are recorded for later commands. Case-insensitive file
    /// systems (macOS) run `RM` as `rm`: the floor judges the name as such
    /// a system would find it.
    fn command_floor(&mut self, verb: &str, args: &[Word], ctx: &Ctx) {
        let (site, depth, local_cwd) = (ctx.site, ctx.depth, &ctx.cwd);
        let floor_verb = verb.to_ascii_lowercase();
        let floor_location = Location {
            cwd: local_cwd.clone(),
            home: self.location.home.clone(),
        };
        let invocation = Invocation {
            verb: &floor_verb,
            args,
            location: &floor_location,
            links: &self.links,
            site: Some((site.script, site.command)),
        };
        for rule in floor::check_command(&invocation) {
            self.floor(rule, &site.command.text, depth);
        }
        self.links.record(&floor_verb, args, &floor_location);
        self.links.made_by(&site.command.text);
    }

    /// A verb the lexicon does not list: the class of the runner that
    /// fetched it (`npx`), or UNKNOWN (with the wrappers' own class, where
    /// stricter). A script run by path was judged already.
    fn unlisted_verb(&mut self, verb: &str, args: &[Word], is_script: bool, ctx: &Ctx) {
        let (runner, wrapping) = (ctx.runner, ctx.wrapping);
        let (part, depth) = (ctx.part(), ctx.depth);
        if let Some((w, class)) = runner.and_then(|w| w.unknown.map(|c| (w, c))) {
            self.find(
                class.verdict(),
                RuleId::Wrapper(w.name),
                format!(
                    "{} runs {verb}, which portcullis does not know{}",
                    w.name,
                    suffix(w.note)
                ),
                class.remediation(),
                part,
            );
            return;
        }
        if is_script {
            return;
        }
        self.note(depth, || format!("verb: {verb} is not in the lexicon"));
        if wrapping.class.verdict() > Verdict::Unknown {
            self.wrapper_floor(wrapping.wrapper, wrapping.class, Effect::Inspect, part);
        }
        // The program's own name may say it (`drop-tables`, `DELETE FROM t`).
        let named = Word::literal(verb);
        let destructive = crate::unknown::destructive_word(std::slice::from_ref(&named))
            .or_else(|| crate::unknown::destructive_word(args));
        if let Some(word) = destructive {
            self.find(
                Verdict::Signed,
                Rule::UnknownDestructive,
                format!(
                    "{verb} is not in portcullis's lexicon, and `{}` says it destroys",
                    crate::limits::clip(&word.value, 40)
                ),
                "portcullis cannot vouch for this program, and the word says it deletes or resets something: a person should confirm it; if only a listing or a dry run is needed, run that instead.",
                part,
            );
            return;
        }
        self.find(
            Verdict::Unknown,
            Rule::UnknownVerb,
            format!("{verb} is not in portcullis's lexicon"),
            "portcullis cannot vouch for this program; the host's permission prompt decides.",
            part,
        );
    }

    /// The lexicon's finding: the command's class, with the flag that set
    /// it.
    fn lexicon_finding(&mut self, classified: &Classified, part: &str) {
        let effect = classified.effect;
        let command = match classified.flag {
            Some(flag) => format!("{} {flag}", classified.command),
            None => classified.command.clone(),
        };
        self.find(
            effect.verdict(),
            &classified.rule,
            format!(
                "{command} is classed {}{}",
                effect.as_str(),
                suffix(classified.note)
            ),
            effect.remediation(),
            part,
        );
    }

    /// A command the lexicon marks `secret` (`aws secretsmanager
    /// get-secret-value`, `ssm get-parameter --with-decryption`): what it
    /// prints would enter the model's context.
    fn lexicon_secret(&mut self, classified: &Classified, part: &str, depth: usize) {
        let Some(note) = classified.secret else {
            return;
        };
        let command = &classified.command;
        self.note(depth, || format!("secrets: {command} prints secrets"));
        self.find(
            Verdict::Signed,
            Rule::CageSecretsRead,
            format!(
                "`{command}` prints secrets or credentials{}; they would enter the model's context",
                suffix(note)
            ),
            "Ask the person for the one value you need, or let them run the command themselves.",
            part,
        );
    }

    /// Every file the command writes, for the path law: the lexicon's
    /// write operands and option values (`sort -o F`, `--output=F`,
    /// `-oF`), and the working folder for commands that write into it
    /// (`tar -x`).
    fn written_targets(&mut self, target: &Target, classified: &Classified, ctx: &Ctx) {
        let (part, depth, cwd) = (ctx.part(), ctx.depth, ctx.cwd.clone());
        let Target {
            verb,
            handler,
            args,
            words: verb_words,
        } = *target;
        let reach = crate::law::reach_of(verb, args);
        let script = verbs::handler(classified.spec.name())
            .script_operand
            .and_then(|operand| operand(classified, verb_words));
        for write in &classified.writes {
            if matches!(write, Written::Arg(i) if Some(*i) == script) {
                continue;
            }
            // `mv a b`: the sources go away whole; the destination is
            // written, not emptied. Files written into the working folder
            // (`tar -x`, `patch`): the folder itself is judged; rules
            // covering it cover them.
            let last = classified.writes.last() == Some(write);
            let into_cwd = matches!(write, Written::Cwd);
            let reach = if into_cwd {
                let here = Word::literal(".");
                Some(self.unpacking_reach(&here, cwd.as_deref()))
            } else if verb == "mv" && last {
                Some(Reach::Path)
            } else {
                reach
            };
            if let (Some(word), Some(reach)) = (written_word(write, verb_words), reach) {
                if super::law::remote_operand(verb, &word) {
                    continue;
                }
                if let Some(write_operand) = handler.write_operand
                    && write_operand(self, ctx, &word, args)
                {
                    continue;
                }
                self.write_target(&word, cwd.clone(), reach, part, depth);
                if classified.effect.verdict() == Verdict::Free && !into_cwd {
                    self.free_write_outside(verb, &word, cwd.as_deref(), part);
                }
            }
        }
    }
}

/// The class awk and sed take from their program (`awk '{system(…)}'`,
/// `sed 'w f'`), where stricter than the lexicon's.
fn refined_by_program(mut classified: Classified, args: &[Word]) -> Classified {
    let program = verbs::handler(classified.spec.name())
        .program
        .and_then(|program| program(args));
    if let Some(found) = program.filter(|p| p.effect.rank() > classified.effect.rank()) {
        classified.effect = found.effect;
        classified.rule = RuleId::lexicon(&[classified.spec.name()], Some(found.id));
        classified.note = found.note;
    }
    classified
}

/// The word a write names: an operand, the value of `KEY=VALUE`, the rest
/// of an option with its value attached (`-oFILE`), or `.` for the working
/// folder.
fn written_word(write: &Written, words: &[Word]) -> Option<Word> {
    match *write {
        Written::Arg(i) => words.get(i).cloned(),
        Written::KeyValue(i) => words.get(i).map(|w| {
            let mut v = w.clone();
            v.value = w
                .value
                .split_once('=')
                .map(|(_, v)| v.to_string())
                .unwrap_or_default();
            v
        }),
        Written::Attached(i, at) => words.get(i).map(|w| {
            let mut v = w.clone();
            v.value = w.value.get(at..).unwrap_or_default().to_string();
            v
        }),
        Written::Cwd => Some(Word::literal(".")),
    }
}
