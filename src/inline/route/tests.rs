//! Unit tests of the route: command lines of each interpreter and
//! where their program comes from, what they preload, and the lane a
//! script picks by its `#!` line or its extension.

use super::*;

fn words(line: &str) -> Vec<Word> {
    line.split(' ').map(Word::literal).collect()
}

fn kind(interpreter: &str, line: &str) -> String {
    let w = words(line);
    match route(interpreter, &w) {
        Route::Inline { code, .. } => format!("inline {}", code.text()),
        Route::Stdin { .. } => "stdin".into(),
        Route::File { path, .. } => format!("file {}", path.value),
        Route::Module { name, .. } => format!("module {name}"),
        Route::Lexicon => "lexicon".into(),
    }
}

#[test]
fn python_command_lines() {
    assert_eq!(kind("python3", "-c X"), "inline X");
    assert_eq!(kind("python3", "-u -c X"), "inline X");
    assert_eq!(kind("python3", "-uc X"), "inline X");
    assert_eq!(kind("python3", "-cX"), "inline X");
    assert_eq!(kind("python3", "-ucX"), "inline X");
    assert_eq!(kind("python3", "-c=X"), "inline =X");
    // Code that starts with `-` is code, whole (`-1; exec(…)` is valid
    // Python).
    assert_eq!(kind("python3", "-c -1;exec(x)"), "inline -1;exec(x)");
    assert_eq!(kind("python3", "-c -import"), "inline -import");
    assert_eq!(kind("python3", "-"), "stdin");
    assert_eq!(kind("python3", "-u"), "stdin");
    assert_eq!(kind("python3", "-W ignore fix.py a"), "file fix.py");
    assert_eq!(kind("python3", "--no-such-option -c X"), "lexicon");
    assert_eq!(kind("python3", "-Z -c X"), "lexicon");
    assert_eq!(kind("python3", "-uZc X"), "lexicon");
    assert_eq!(kind("python3", "-W ignore::evil.Warn -c X"), "lexicon");
    assert_eq!(kind("python3", "-Wignore::evil.W -c X"), "lexicon");
    assert_eq!(kind("python3", "-X pycache_prefix=/tmp/x -c X"), "lexicon");
    assert_eq!(kind("python3", "--check-hash-based-pycs x -c X"), "lexicon");
    assert_eq!(
        kind("python3", "--check-hash-based-pycs never -c X"),
        "inline X"
    );
    assert_eq!(
        kind("python3", "-W ignore::DeprecationWarning -c X"),
        "inline X"
    );
    assert_eq!(kind("python3", "-X dev -X utf8=1 -IBc X"), "inline X");
    assert_eq!(kind("python3", "-c X --no-such-option"), "inline X");
    assert_eq!(kind("python3", "-m pytest"), "module pytest");
    assert_eq!(kind("python3", "-mpytest"), "module pytest");
    assert_eq!(kind("python3", "-um json.tool"), "module json.tool");
    assert_eq!(kind("python3", "-m"), "lexicon");
    // `-i` runs stdin after the program: alone, stdin is the program;
    // with another program, the lexicon judges the command.
    assert_eq!(kind("python3", "-i"), "stdin");
    assert_eq!(kind("python3", "-i -"), "stdin");
    assert_eq!(kind("python3", "-i -c X"), "lexicon");
    assert_eq!(kind("python3", "-ic X"), "lexicon");
    assert_eq!(kind("python3", "-ui x.py"), "lexicon");
    assert_eq!(kind("python3", "-i -m mod"), "lexicon");
    assert_eq!(kind("python3", "-c X -i"), "inline X");
    assert_eq!(kind("python3", "-W i -c X"), "inline X");
    assert_eq!(kind("python3", "-X dev -i -c X"), "lexicon");
    assert_eq!(kind("python3", "--version"), "lexicon");
}

#[test]
fn javascript_command_lines() {
    assert_eq!(kind("node", "-e X"), "inline X");
    assert_eq!(kind("node", "--input-type=module -e X"), "inline X");
    assert_eq!(kind("node", "--eval=X"), "inline X");
    assert_eq!(kind("node", "--eval=-1;x"), "inline -1;x");
    assert_eq!(kind("node", "-e -1;exec(x)"), "inline -1;exec(x)");
    assert_eq!(kind("php", "-r -exec(x)"), "inline -exec(x)");
    // Code preloaded before the program is code nobody read.
    assert_eq!(kind("node", "-r dotenv/config build.js"), "file build.js");
    assert_eq!(kind("node", "-r ./evil.js -e X"), "inline X");
    assert_eq!(kind("node", "--import=./evil.mjs -e X"), "inline X");
    assert_eq!(kind("ts-node", "-r x"), "stdin");
    assert_eq!(kind("ruby", "-r./evil -e X"), "inline X");
    assert_eq!(kind("ruby", "-r ./evil -e X"), "inline X");
    assert_eq!(kind("lua", "-l evil -e X"), "inline X");
    assert_eq!(kind("lua", "-levil -e X"), "inline X");
    assert_eq!(kind("node", "--input-type module -e X"), "inline X");
    assert_eq!(kind("node", "--test"), "lexicon");
    // The last code wins; options end at the script or `--`.
    assert_eq!(kind("node", "-e A -e B"), "inline B");
    assert_eq!(kind("node", "-e A -p B"), "inline B");
    assert_eq!(kind("node", "--eval A --print=X"), "inline A");
    assert_eq!(kind("node", "-p -e A"), "inline A");
    assert_eq!(kind("node", "-e A -p"), "inline A");
    assert_eq!(kind("node", "-e A x.js -e B"), "inline A");
    assert_eq!(kind("node", "-e A -- -e B"), "inline A");
    assert_eq!(kind("node", "-pe A"), "inline A");
    // `--print=X` and a lone `-p` only print: the code is on stdin.
    assert_eq!(kind("node", "--print=X"), "stdin");
    assert_eq!(kind("node", "-p"), "stdin");
    assert_eq!(kind("node", "-p -"), "stdin");
    assert_eq!(kind("node", "-p x.js"), "inline x.js");
    assert_eq!(kind("node", "--no-warnings x.js"), "file x.js");
    // `_` is `-` in node's option names; unknown options and
    // preloads go to the lexicon.
    assert_eq!(
        kind("node", "--experimental_loader=./x.mjs -e X"),
        "inline X"
    );
    assert_eq!(kind("node", "--input_type=module -e X"), "inline X");
    assert_eq!(kind("node", "--env-file=.env -e X"), "lexicon");
    assert_eq!(kind("node", "--inspect -e X"), "lexicon");
    assert_eq!(kind("node", "--title t -e X"), "inline X");
    assert_eq!(kind("node", "--allow-natives-syntax -e X"), "lexicon");
    assert_eq!(kind("node", "-e=X"), "lexicon");
    assert_eq!(kind("deno", "eval X"), "inline X");
    assert_eq!(kind("deno", "run -A main.ts"), "file main.ts");
    assert_eq!(kind("bun", "-e X"), "inline X");
    assert_eq!(kind("bun", "run build"), "lexicon");
    assert_eq!(kind("bun", "x.ts"), "file x.ts");
    assert_eq!(kind("tsx", "-e X"), "inline X");
    assert_eq!(kind("perl", "-lne X f"), "inline X");
    assert_eq!(kind("perl", "-pi -e X f"), "inline X");
    assert_eq!(kind("perl", "-i.bak -pe X f"), "inline X");
    assert_eq!(kind("perl", "-Mstrict -e X"), "inline X");
    assert_eq!(kind("perl", "-c x.pl"), "lexicon");
}

fn loaded(interpreter: &str, line: &str) -> Vec<String> {
    let w = words(line);
    route_with_preloads(interpreter, &w)
        .1
        .iter()
        .map(|p| p.name.to_string())
        .collect()
}

#[test]
fn preloads_are_listed() {
    assert_eq!(loaded("node", "-r ./evil.js -e X"), ["./evil.js"]);
    assert_eq!(loaded("node", "--require=a --import b -e X"), ["a", "b"]);
    assert_eq!(loaded("ruby", "-rjson -r ./x -e X"), ["json", "./x"]);
    assert_eq!(loaded("ruby", "-wrjson -e X"), ["json"]);
    assert_eq!(
        loaded("perl", "-MFile::Path=rmtree -e X"),
        ["File::Path=rmtree"]
    );
    assert_eq!(loaded("perl", "-lMEvil -ne X"), ["Evil"]);
    assert_eq!(loaded("lua", "-l m -e X"), ["m"]);
    assert!(loaded("perl", "-ne X f").is_empty());
    let w = words("-MFile::Path=rmtree");
    let p = route_with_preloads("perl", &w).1;
    assert_eq!(p[0].module(), "File::Path");
    assert!(is_known_preload("perl", p[0].module()));
    assert!(!is_known_preload("perl", "Evil"));
}

#[test]
fn scripts_by_path_pick_their_lane() {
    assert_eq!(
        lane_of_script("x.py", ""),
        Some(Ok(Lane::Code(Language::Python)))
    );
    assert_eq!(
        lane_of_script("x", "#!/usr/bin/env node"),
        Some(Ok(Lane::Code(Language::JavaScript)))
    );
    assert_eq!(lane_of_script("x", "#!/bin/bash -e"), Some(Err(())));
    assert_eq!(lane_of_script("x.txt", ""), None);
}
