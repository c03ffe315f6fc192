//! Unit tests of the JavaScript lane: snippets of code and the effects
//! and unresolved calls [`analyse`] reports for them.

use super::*;

fn effects(code: &str) -> Vec<(CodeEffect, Vec<String>)> {
    analyse(code, 0)
        .found
        .into_iter()
        .filter(|f| f.effect != CodeEffect::Unresolved)
        .map(|f| (f.effect, f.paths.into_iter().map(|w| w.value).collect()))
        .collect()
}

/// Everything found, unresolved calls included, as `effect: call`.
fn found(code: &str) -> Vec<String> {
    let analysis = analyse(code, 0);
    let mut out: Vec<String> = analysis
        .found
        .into_iter()
        .map(|f| format!("{}: {}", f.effect.as_str(), f.call))
        .collect();
    if let Some(e) = analysis.unparsable {
        out.push(format!("unparsable: {e}"));
    }
    out
}

#[test]
fn pure_code_resolves_every_call() {
    for code in [
        "console.log(require('fs').readFileSync('package.json', 'utf8'))",
        "process.version",
        "console.log('rm -rf ~')",
        "const p = require('./package.json'); console.log(p.version, p.scripts)",
        "console.log(process.argv.slice(2).join(' '))",
        "const o = JSON.parse(require('fs').readFileSync('a.json', 'utf8')); for (const k in o) console.log(k, o[k])",
        "const o = {a: 1}; Object.keys(o).forEach(k => console.log(`${k}=${o[k]}`))",
        "const c = {}; for (const w of 'a b a'.split(' ')) c[w] = (c[w] || 0) + 1; console.log(c)",
        "const a = [3, 1]; for (let i = 0; i < a.length; i++) console.log(a[i], a[a.length - 1 - i])",
        "new Promise(r => setTimeout(r, 10)).then(() => console.log('done'))",
        "new Promise((resolve) => resolve(1)).then(console.log)",
        "const path = require('path'); console.log(path.resolve('.'), __dirname)",
        "require('fs').readdirSync('.').filter(f => f.endsWith('.js')).forEach(f => console.log(f))",
        "console.log(Object.entries(process.env).map(([k, v]) => k + '=' + v.length).join('\\n'))",
        "const m = new Map(); m.set('a', 1); console.log([...m.keys()], m.get('a'))",
        "console.log(require('os').cpus().length, Math.max(...[1, 2]))",
        "(async () => { const r = await Promise.resolve(1); console.log(r) })()",
        "function f(x) { return x * 2 } console.log(f(2))",
        "console.log(typeof require, typeof window)",
        "console.log(/a(b)/.exec('ab')[1], 'x'.padStart(3))",
        "const {readFileSync} = require('fs'); console.log(readFileSync('a').toString().trim())",
        "console.log(require('crypto').createHash('sha256').update('x').digest('hex'))",
        "process.stdin.on('data', d => process.stdout.write(d.toString().toUpperCase()))",
        "import('fs').then(fs => console.log(fs.readFileSync('a', 'utf8')))",
        "console.log(new Function('return 1')())",
        "eval('console.log(1 + 1)')",
        "process.exitCode = 1",
        "const KEY = 'version'; const p = require('./package.json'); console.log(p[KEY])",
    ] {
        assert!(found(code).is_empty(), "{code}: {:?}", found(code));
    }
}

#[test]
fn ways_around_the_lane_are_unresolved() {
    for code in [
        "import('child_process').then(c => c.execSync('rm -rf ~'))",
        "import(x)",
        "module.constructor._load('child_process').execSync('id')",
        "require.main.require('child_process').execSync('id')",
        "process.mainModule.require('child_process').execSync('id')",
        "Function('return process')().exit()",
        "(() => {}).constructor('return 1')()",
        "new Function(process.argv[1])",
        "process.getBuiltinModule('child_process').execSync('id')",
        "[require][0]('child_process').execSync('id')",
        "const r = require; r('child_process').execSync('id')",
        "const e = eval; e('1')",
        "globalThis['ev' + 'al'](x)",
        "const cp = require('child_process'); cp['exec' + 'Sync']('id')",
        "const k = 'execSync'; require('child_process')[k]('id')",
        "require('repl').start()",
        "require('vm').runInNewContext(code)",
        "process.binding('spawn_sync')",
        "process.dlopen(module, 'x.node')",
        "new (require('worker_threads').Worker)('x', { eval: true })",
        "Reflect.apply(eval, null, ['1'])",
        "Object.values(require('fs')).forEach(f => ['x'].forEach(f))",
        "const o = {}; ['x'].map(o[k])",
        "const f = ''[a][b]; f('code')()",
        "const v = x[k]; [v].forEach(g => g())",
        "with (require('fs')) { rmSync('x') }",
        "Object.values(this).forEach(f => f())",
        "(function () { return this })().require('child_process')",
        "Object.values(globalThis).forEach(f => f())",
        "console.log(require('lodash').sum([1]))",
        "require('./build.js')",
        "arguments.callee.caller('x')",
        "setTimeout(String.fromCharCode(49))",
        "function f(a = require('child_process').execSync('id')) {} f()",
        "({ [require('child_process').execSync('id')]: 1 })",
        "const {constructor: F} = () => 0; F('x')()",
        "module.exports = 1",
        "require.extensions['.txt'] = () => 0",
        "Error.prepareStackTrace = (e, s) => s",
        "(0, eval)('1')",
        "[1].map(eval)",
        "const s = {require}; s.require('child_process')",
        "process.stdout._handle.x()",
        "require('fs').mkdtempSync('x')",
        "x()",
        "$('a')",
        "v8.setFlagsFromString('--allow-natives-syntax')",
        "inspector.open()",
    ] {
        assert!(!found(code).is_empty(), "{code}: nothing found");
    }
}

#[test]
fn aliases_resolve_to_canonical_names() {
    for code in [
        "require('fs').rmSync('/x')",
        "const fs = require('fs'); fs.rmSync('/x')",
        "const fs = require('node:fs'); fs.unlinkSync('/x')",
        "const {rmSync: r} = require('fs'); r('/x')",
        "const {rmSync} = require('fs'); rmSync('/x')",
        "import {rmSync as r} from 'fs'; r('/x')",
        "import * as fs from 'fs'; fs.rmSync('/x')",
        "import fs from 'fs/promises'; await fs.rm('/x')",
        "const fs = require('fs'); fs.promises.unlink('/x')",
        "const {promises: p} = require('fs'); p.rm('/x')",
        "const fs = await import('fs'); fs.rmSync('/x')",
        "const fs = require('fs'); const f = fs.rmSync; f('/x')",
        "const fs = require('fs'); fs['rmSync']('/x')",
        "const fs = require('fs'); fs.rmSync.call(null, '/x')",
    ] {
        let found = effects(code);
        assert_eq!(found.len(), 1, "{code}: {found:?}");
        assert_eq!(found[0].0, CodeEffect::Delete, "{code}");
    }
}

#[test]
fn data_and_reads_have_no_effect() {
    for code in [
        "console.log('git push --force')",
        "const fs = require('fs'); console.log(fs.readFileSync('a', 'utf8'))",
        "[1,2].map(x => x * 2).filter(Boolean)",
        "setTimeout(() => console.log(1), 10)",
        "const s = 'a b'.split(' ').join('-')",
    ] {
        assert!(effects(code).is_empty(), "{code}: {:?}", effects(code));
    }
}

#[test]
fn computed_members_and_requires_are_dynamic() {
    for code in [
        "const fs = require('fs'); fs[name]('/x')",
        "require(m)",
        "eval(code)",
        "new Function(body)()",
    ] {
        assert!(
            effects(code).iter().any(|(e, _)| *e == CodeEffect::Dynamic),
            "{code}: {:?}",
            effects(code)
        );
    }
}
