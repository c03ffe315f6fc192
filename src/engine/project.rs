//! Project recipes: `make`, `just`, `npm run` and their kin run commands
//! written in the project's files (Makefile, justfile, package.json
//! scripts); the engine reads those files and hands each recipe to the
//! shell lane; package managers that fetch and run packages are judged
//! here too.
//!
//! Takes the verb's words and folder; adds findings; reads recipe files
//! on disk (bounded by `recipes::MAX_FILES` and `MAX_RECIPE_BYTES`).

use super::ctx::Ctx;
use super::scripts::Unreadable;
use super::{Run, Site};
use crate::feeds::{self, Producer};
use crate::limits;
use crate::rule_id::Rule;
use crate::rules::FloorRule;
use crate::shell::Word;
use crate::verdict::{Effect, Verdict};
use std::path::{Path, PathBuf};

impl Run<'_> {
    /// `make`, `just`, `npm`/`yarn`/`pnpm` run recipes from the project's
    /// files: those are read and each line judged through the shell lane.
    /// Returns true when the recipes were read whole and their verdict
    /// replaces the lexicon's (`just`, whose recipes are otherwise unseen).
    pub(super) fn project_recipes(&mut self, tool: &str, args: &[Word], ctx: &Ctx) -> bool {
        let (site, depth, cwd) = (ctx.site, ctx.depth, ctx.cwd.clone());
        match tool {
            "make" | "gmake" => {
                self.make_recipes(args, site, depth, cwd);
                false
            }
            "just" => self.just_recipes(args, site, depth, cwd),
            "npm" | "yarn" | "pnpm" | "bun" => {
                self.package_scripts(tool, args, site, depth, cwd);
                false
            }
            _ => false,
        }
    }

    /// One recipe file, relative to `dir`: the first of `names` that is
    /// there, read as scripts are (under the request's folder, bounded).
    fn recipe_file(&mut self, dir: &Path, names: &[&str]) -> RecipeFile {
        for name in names {
            let path = Word::literal(name);
            // Not there (nor written in this line): make, just and npm find
            // nothing either.
            let full = self.location.resolve_in(&path, Some(dir)).path;
            let written = full.as_ref().is_some_and(|f| self.was_written(Some(f)));
            // Named outside the request's folder (`make -f /tmp/x.mk`,
            // `make -C ..`): not the project's recipes, present or not.
            if let (Some(root), Some(f)) = (self.location.cwd.as_deref(), full.as_ref())
                && !f.starts_with(root)
            {
                return RecipeFile::Unjudged(format!("{name} is outside the working folder"));
            }
            if !written && full.as_ref().is_some_and(|f| !f.exists()) {
                continue;
            }
            match self.read_script(&path, Some(dir)) {
                Ok(text) => {
                    self.lanes.files += 1;
                    if self.lanes.files > crate::recipes::MAX_FILES {
                        return RecipeFile::Unjudged(format!(
                            "more than {} recipe files in one command",
                            crate::recipes::MAX_FILES
                        ));
                    }
                    return RecipeFile::Read(text, name.to_string());
                }
                Err(Unreadable::Missing(_)) => continue,
                Err(Unreadable::TooLarge(n)) => {
                    return RecipeFile::Absent(format!(
                        "{name} is {n} bytes, over the {} byte limit",
                        limits::MAX_SCRIPT_BYTES
                    ));
                }
                Err(Unreadable::Outside) => {
                    return RecipeFile::Unjudged(format!("{name} is outside the working folder"));
                }
                Err(Unreadable::Dynamic) => {
                    return RecipeFile::Unjudged(format!(
                        "{name} is only known when the command runs"
                    ));
                }
                Err(Unreadable::Replaced(_)) => {
                    return RecipeFile::Unjudged(format!(
                        "{name} is written earlier in this command with content portcullis cannot see"
                    ));
                }
            }
        }
        RecipeFile::Absent(format!("no {} here", names.join(" or ")))
    }

    /// SIGNED `rule`: the runner's recipes cannot be judged (`why`).
    fn recipe_finding(&mut self, rule: Rule, tool: &str, why: &str, part: &str, depth: usize) {
        self.note(depth, || format!("{tool}: {why}"));
        self.find(
            Verdict::Signed,
            rule,
            format!("{tool} runs recipes portcullis cannot judge: {why}"),
            RECIPE_REMEDIATION,
            part,
        );
    }

    /// Judges the lines a runner runs, in `dir`. Returns true when every
    /// line was judged and nothing was left unknown.
    fn judge_plan(
        &mut self,
        tool: &str,
        plan: &crate::recipes::Plan,
        part: &str,
        depth: usize,
        dir: &Path,
    ) -> bool {
        let mut whole = plan.unknown.is_empty();
        if let Some(why) = plan.unknown.first() {
            let why = why.clone();
            self.recipe_finding(Rule::RecipeUnresolved, tool, &why, part, depth);
        }
        for line in &plan.lines {
            self.lanes.bytes += line.text.len();
            if self.lanes.bytes > MAX_RECIPE_BYTES {
                let why = format!("more than {MAX_RECIPE_BYTES} bytes of recipes in one command");
                self.recipe_finding(Rule::RecipeTooMany, tool, &why, part, depth);
                return false;
            }
            self.note(depth, || {
                format!("{tool}: {}: {}", line.origin, limits::clip(&line.text, 120))
            });
            if line.dynamic {
                whole = false;
                self.find(
                    Verdict::Signed,
                    Rule::RecipeDynamic,
                    format!(
                        "{tool} runs `{}` ({}), part of which is only known when it runs",
                        limits::clip(&line.text, 80),
                        line.origin
                    ),
                    RECIPE_REMEDIATION,
                    part,
                );
            }
            self.script(&line.text, depth + 1, Some(dir.to_path_buf()));
        }
        whole
    }

    /// `make`: the Makefile it reads (after `-C`, or `-f`), the recipes of
    /// the goals and their prerequisites.
    fn make_recipes(&mut self, args: &[Word], site: &Site, depth: usize, cwd: Option<PathBuf>) {
        let part = site.command.text.as_str();
        if args
            .iter()
            .any(|a| a.dynamic && !(a.value.starts_with("-j") || a.value.starts_with("-l")))
        {
            let why = "its arguments are only known when it runs".to_string();
            self.recipe_finding(Rule::RecipeDynamic, "make", &why, part, depth);
            return;
        }
        let values: Vec<String> = args.iter().map(|a| a.value.clone()).collect();
        let parsed = crate::recipes::make_args(&values);
        let Some(mut dir) = cwd else {
            return;
        };
        for d in &parsed.dirs {
            match self.location.resolve_in(&Word::literal(d), Some(&dir)).path {
                Some(next) => dir = next,
                None => return,
            }
        }
        if parsed.include_dirs {
            let why = "-I adds folders its includes are looked for in".to_string();
            self.recipe_finding(Rule::RecipeSource, "make", &why, part, depth);
        }
        let mut text = String::new();
        let mut names: Vec<String> = Vec::new();
        if parsed.files.is_empty() {
            match self.recipe_file(&dir, &["GNUmakefile", "makefile", "Makefile"]) {
                RecipeFile::Read(t, name) => {
                    text = t;
                    names.push(name);
                }
                RecipeFile::Absent(why) => {
                    if parsed.evals.is_empty() {
                        self.note(depth, || format!("make: {why}; recipes not read"));
                        return;
                    }
                }
                RecipeFile::Unjudged(why) => {
                    return self.recipe_finding(Rule::RecipeSource, "make", &why, part, depth);
                }
            }
        }
        for file in &parsed.files {
            if file == "-" {
                let why = "it reads its makefile from stdin".to_string();
                self.recipe_finding(Rule::RecipeSource, "make", &why, part, depth);
                match feeds::stdin_producer(site.script, site.command) {
                    Producer::Literal(t) => text.push_str(&t),
                    Producer::Network(_) => {
                        return self.floor(FloorRule::PipeNetworkShell, part, depth);
                    }
                    Producer::Opaque(_) => {
                        return self.floor(FloorRule::PipeOpaqueShell, part, depth);
                    }
                    Producer::File | Producer::Dynamic => return,
                }
                text.push('\n');
                continue;
            }
            match self.recipe_file(&dir, &[file.as_str()]) {
                RecipeFile::Read(t, name) => {
                    text.push_str(&t);
                    text.push('\n');
                    names.push(name);
                }
                RecipeFile::Absent(why) => {
                    self.note(depth, || format!("make: {why}; recipes not read"));
                    return;
                }
                RecipeFile::Unjudged(why) => {
                    return self.recipe_finding(Rule::RecipeSource, "make", &why, part, depth);
                }
            }
        }
        let include_dir = dir.clone();
        let mut read = |name: &str| -> Result<Option<String>, String> {
            match self.recipe_file(&include_dir, &[name]) {
                RecipeFile::Read(t, _) => Ok(Some(t)),
                RecipeFile::Absent(why) if why.starts_with("no ") => Ok(None),
                RecipeFile::Absent(why) | RecipeFile::Unjudged(why) => Err(why),
            }
        };
        let makefile =
            crate::recipes::parse_makefile(&text, &parsed.evals, &parsed.overrides, &mut read);
        let plan = crate::recipes::make_plan(&makefile, &parsed.goals, &names);
        self.judge_plan("make", &plan, part, depth, &dir);
    }

    /// `just`: the justfile's recipes for the recipes named. Returns true
    /// when they were read whole (their verdict replaces the lexicon's).
    fn just_recipes(
        &mut self,
        args: &[Word],
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) -> bool {
        let part = site.command.text.as_str();
        if args.iter().any(|a| a.dynamic) {
            let why = "its arguments are only known when it runs".to_string();
            self.recipe_finding(Rule::RecipeDynamic, "just", &why, part, depth);
            return false;
        }
        let Some(dir) = cwd else {
            return false;
        };
        let mut rest: Vec<String> = Vec::new();
        let mut file: Option<String> = None;
        let mut i = 0;
        while i < args.len() {
            let a = args[i].value.as_str();
            i += 1;
            match a {
                "-f" | "--justfile" | "-d" | "--working-directory" => {
                    let value = args.get(i).map(|w| w.value.clone());
                    i += 1;
                    if matches!(a, "-f" | "--justfile") {
                        file = value;
                    } else {
                        let why = format!("{a} changes where its recipes run");
                        self.recipe_finding(Rule::RecipeSource, "just", &why, part, depth);
                        return false;
                    }
                }
                _ if a.starts_with("--justfile=") => {
                    file = a.split_once('=').map(|(_, v)| v.to_string())
                }
                _ => rest.push(a.to_string()),
            }
        }
        let names: Vec<&str> = match &file {
            Some(f) => {
                let why = format!("--justfile {f} names another recipe file");
                self.recipe_finding(Rule::RecipeSource, "just", &why, part, depth);
                vec![f.as_str()]
            }
            None => vec!["justfile", "Justfile", ".justfile", "JUSTFILE"],
        };
        let text = match self.recipe_file(&dir, &names) {
            RecipeFile::Read(t, _) => t,
            RecipeFile::Absent(why) => {
                self.note(depth, || format!("just: {why}; recipes not read"));
                return false;
            }
            RecipeFile::Unjudged(why) => {
                self.recipe_finding(Rule::RecipeSource, "just", &why, part, depth);
                return false;
            }
        };
        let justfile = crate::recipes::parse_justfile(&text);
        let plan = crate::recipes::just_plan(&justfile, &rest);
        let whole = self.judge_plan("just", &plan, part, depth, &dir);
        if whole && file.is_none() {
            self.find(
                Verdict::Free,
                Rule::RecipeRead,
                "just runs recipes read from the justfile, each judged".into(),
                "",
                part,
            );
        }
        whole && file.is_none()
    }

    /// `npm test`, `npm run X`, `yarn X`, `pnpm X`: the `package.json`
    /// scripts they run (with `pre`/`post` scripts).
    fn package_scripts(
        &mut self,
        tool: &str,
        args: &[Word],
        site: &Site,
        depth: usize,
        cwd: Option<PathBuf>,
    ) {
        let part = site.command.text.as_str();
        let values: Vec<String> = args.iter().map(|a| a.value.clone()).collect();
        let Some(call) = crate::recipes::script_call(tool, &values) else {
            return;
        };
        if args.iter().any(|a| a.dynamic) {
            let why = "its arguments are only known when it runs".to_string();
            self.recipe_finding(Rule::RecipeDynamic, tool, &why, part, depth);
            return;
        }
        if !call.source.is_empty() {
            let why = format!(
                "{} changes where its scripts come from or what runs them",
                call.source.join(" ")
            );
            self.recipe_finding(Rule::RecipeSource, tool, &why, part, depth);
        }
        let Some(mut dir) = cwd else {
            return;
        };
        if let Some(d) = &call.dir {
            match self.location.resolve_in(&Word::literal(d), Some(&dir)).path {
                Some(next) => dir = next,
                None => return,
            }
        }
        let text = match self.recipe_file(&dir, &["package.json"]) {
            RecipeFile::Read(t, _) => t,
            RecipeFile::Absent(why) => {
                self.note(depth, || format!("{tool}: {why}; scripts not read"));
                return;
            }
            RecipeFile::Unjudged(why) => {
                return self.recipe_finding(Rule::RecipeSource, tool, &why, part, depth);
            }
        };
        // The project's .npmrc can name the shell that runs scripts.
        if let RecipeFile::Read(npmrc, _) = self.recipe_file(&dir, &[".npmrc"])
            && npmrc.lines().any(|l| {
                let key = l.split('=').next().unwrap_or("").trim();
                matches!(
                    key,
                    "script-shell" | "node-options" | "shell" | "userconfig" | "globalconfig"
                )
            })
        {
            let why = ".npmrc sets the shell or options that run scripts".to_string();
            self.recipe_finding(Rule::RecipeUnresolved, tool, &why, part, depth);
        }
        match crate::recipes::package_plan(&text, &call, tool) {
            Ok(plan) => {
                self.judge_plan(tool, &plan, part, depth, &dir);
            }
            Err(why) => self.note(depth, || {
                format!("{tool}: package.json does not parse ({why}); scripts not read")
            }),
        }
    }

    /// Package runners (`npx -p PKG`, `uvx --from PKG`, `--with PKG`,
    /// `--registry URL`): fetching a package other than the known tool
    /// being run, or from another source, is an install (SIGNED).
    pub(super) fn fetched_packages(
        &mut self,
        runner: &str,
        own: &[Word],
        inner: &[Word],
        part: &str,
        depth: usize,
    ) {
        let Some(rules) = crate::rules::package_runner(runner) else {
            return;
        };
        let tool = inner.first().map(|w| w.value.as_str()).unwrap_or("");
        let known_tool = !tool.is_empty() && crate::lexicon::lookup(tool).is_some();
        let mut i = 0;
        while i < own.len() {
            let word = &own[i];
            i += 1;
            let (name, attached) = match word.value.split_once('=') {
                Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
                _ => (word.value.as_str(), None),
            };
            let short_attached = (name.starts_with('-')
                && !name.starts_with("--")
                && name.len() > 2
                && name.is_char_boundary(2))
            .then(|| (&name[..2], name[2..].to_string()));
            let (name, value) = match short_attached {
                Some((n, v))
                    if rules.package_opts.contains(&n) || rules.source_opts.contains(&n) =>
                {
                    (n, Some(v))
                }
                _ => (name, attached),
            };
            let is_package = rules.package_opts.contains(&name);
            let is_source = rules.source_opts.contains(&name);
            if !is_package && !is_source {
                continue;
            }
            let value = match value {
                Some(v) => Some(v),
                None => {
                    i += 1;
                    own.get(i - 1)
                        .filter(|w| !w.dynamic)
                        .map(|w| w.value.clone())
                }
            };
            let exact = is_package && known_tool && value.as_deref() == Some(tool) && !word.dynamic;
            if exact {
                continue;
            }
            let what = match (&value, is_package) {
                (Some(v), true) => format!("fetches the package `{}`", limits::clip(v, 80)),
                (None, true) => "fetches a package only known when it runs".to_string(),
                (Some(v), false) => format!("fetches from `{}` ({name})", limits::clip(v, 80)),
                (None, false) => format!("fetches from a source only known when it runs ({name})"),
            };
            self.note(depth, || format!("{runner} {what}"));
            self.find(
                Effect::Install.verdict(),
                Rule::RunnerPackage,
                format!("{runner} {what}, which installs and runs code portcullis has not read"),
                "Install the package as a project dependency first (so the person sees it), then run its tool by name.",
                part,
            );
        }
    }
}

/// Most recipe text (Makefile recipes, package.json scripts) judged in
/// one request, in bytes: as much as one command line may hold.
const MAX_RECIPE_BYTES: usize = limits::MAX_COMMAND_BYTES;

/// What to do about recipes portcullis cannot follow.
const RECIPE_REMEDIATION: &str = "Run the recipe's commands directly, or keep the recipe file plain (literal commands, no variables only known when it runs) so it can be checked.";

/// Where a runner reads a recipe file, and why not.
enum RecipeFile {
    /// Its text and name.
    Read(String, String),
    /// None of the names is there (or it cannot be read): the plain
    /// invocation keeps the lexicon's verdict, the stated boundary.
    Absent(String),
    /// It cannot be judged: SIGNED with this reason.
    Unjudged(String),
}
