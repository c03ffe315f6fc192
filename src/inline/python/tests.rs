//! Unit tests of the Python lane: snippets of code and the effects,
//! paths and finding kinds [`analyse`] reports for them.

use super::*;

fn effects(code: &str) -> Vec<(CodeEffect, Vec<String>)> {
    analyse(code, 0)
        .found
        .into_iter()
        .map(|f| (f.effect, f.paths.into_iter().map(|w| w.value).collect()))
        .collect()
}

#[test]
fn aliases_resolve_to_canonical_names() {
    for code in [
        "import shutil; shutil.rmtree('/x')",
        "import shutil as s; s.rmtree('/x')",
        "from shutil import rmtree; rmtree('/x')",
        "from shutil import rmtree as r; r('/x')",
        "from shutil import *; rmtree('/x')",
        "import shutil\nf = shutil.rmtree\nf('/x')",
        "getattr(__import__('shutil'), 'rmtree')('/x')",
        "import importlib; importlib.import_module('shutil').rmtree('/x')",
        "from pathlib import Path; Path('/x').rmdir()",
        "import os; os.rmdir(os.path.join('/', 'x'))",
    ] {
        assert_eq!(
            effects(code),
            vec![(CodeEffect::Delete, vec!["/x".to_string()])],
            "{code}"
        );
    }
}

#[test]
fn data_and_reads_have_no_effect() {
    for code in [
        "print('rm -rf /')",
        "import os; print(os.listdir('.'))",
        "s = 'a'.replace('a', 'b'); l = [1]; l.remove(1)",
        "import json; json.load(open('x.json'))",
        "import sys; sys.stdout.write('x')",
        "def f(exec=True): return exec",
    ] {
        assert!(effects(code).is_empty(), "{code}: {:?}", effects(code));
    }
}

#[test]
fn dynamic_lookups_are_dynamic() {
    for code in [
        "import os; getattr(os, name)('x')",
        "__import__(m)",
        "os.__dict__['system']",
        "exec(code)",
    ] {
        assert!(
            effects(code).iter().any(|(e, _)| *e == CodeEffect::Dynamic),
            "{code}: {:?}",
            effects(code)
        );
    }
}

/// The effect names found in `code`.
fn kinds(code: &str) -> Vec<&'static str> {
    analyse(code, 0)
        .found
        .into_iter()
        .map(|f| f.effect.as_str())
        .collect()
}

#[test]
fn every_call_must_resolve() {
    for code in [
        "import somepkg; somepkg.run()",
        "import os; os.chdir('/')",
        "f = g(); f()",
        "import os\nfor m in [os]: m.remove('x')",
        "import os\ndef f(): return os\nf().remove('x')",
        "import os\nclass A:\n    m = os\nA.m.remove('x')",
        "import json\njson.loads = print",
        "import math; math.os",
        "print(print.__self__)",
        "import sys; sys.path.insert(0, '/tmp/x')",
    ] {
        assert!(
            kinds(code).contains(&"unresolved"),
            "{code}: {:?}",
            kinds(code)
        );
    }
}

#[test]
fn known_pure_code_resolves() {
    for code in [
        "import json, sys; print(json.load(sys.stdin)['x'])",
        "import glob; print(glob.glob('*.py'))",
        "import math; print(math.sqrt(2), math.pi)",
        "x = [3, 1]; x.sort(); print(', '.join(map(str, x)))",
        "class A:\n    def f(self): return 1\nprint(A().f())",
        "import os; print(os)",
        "import sys; print(sys.platform.startswith('linux'))",
        "from math import *; print(sqrt(2))",
    ] {
        assert!(kinds(code).is_empty(), "{code}: {:?}", kinds(code));
    }
}

#[test]
fn modules_through_modules_and_nfkc_names_resolve() {
    for code in [
        "import glob; glob.os.remove('/x')",
        "import shutil; shutil.os.remove('/x')",
        "import os; os.path.os.remove('/x')",
        "from glob import os; os.remove('/x')",
        "import os; ｏｓ.remove('/x')",
        "import os; os.ｒｅｍｏｖｅ('/x')",
    ] {
        assert_eq!(
            effects(code),
            vec![(CodeEffect::Delete, vec!["/x".to_string()])],
            "{code}"
        );
    }
    // `glob.glob` is glob's own function, not the module.
    assert!(kinds("import glob; glob.glob('*')").is_empty());
}

#[test]
fn a_foreign_source_encoding_is_unparsable() {
    let hidden = "# -*- coding: utf-7 -*-\nprint(1) #+AAo-import os+ADs-os.system(+ACI-ls+ACI-)\n";
    assert!(analyse(hidden, 0).unparsable.is_some());
    assert!(
        analyse("#!/usr/bin/env python3\n#coding=UTF_7\n", 0)
            .unparsable
            .is_some()
    );
    assert!(
        analyse("# codings, coding: utf-7\n", 0)
            .unparsable
            .is_some()
    );
    for code in [
        "# -*- coding: utf-8 -*-\nprint(1)\n",
        "#!/usr/bin/env python\n# coding: latin-1\nprint(1)\n",
        "print(1)\n# coding: utf-7\n",
        "x = 1\n# coding: utf-7\n",
    ] {
        assert!(analyse(code, 0).unparsable.is_none(), "{code}");
    }
}

#[test]
fn literal_exec_is_read_in_turn() {
    assert_eq!(
        effects("exec(\"import os; os.remove('a')\")"),
        vec![(CodeEffect::Delete, vec!["a".to_string()])]
    );
}

/// The definitions the lane collects entering only [`HOLDS_STATEMENTS`]
/// are those of a walk through every node, wherever a definition stands
/// (in branches, handlers, loops, `with`, `match`, classes, decorators).
#[test]
fn definitions_are_found_at_every_depth() {
    let code = "\
def top(): pass
class C:
    def m(self):
        def inner(): pass
    class D: pass
@dec(lambda: 1)
def decorated(): pass
if x:
    def in_if(): pass
elif y:
    def in_elif(): pass
else:
    def in_else(): pass
for i in r:
    def in_for(): pass
else:
    def in_for_else(): pass
while w:
    def in_while(): pass
try:
    def in_try(): pass
except E:
    def in_except(): pass
except* F:
    def in_except_group(): pass
finally:
    def in_finally(): pass
with open(p) as f:
    def in_with(): pass
match v:
    case 1:
        def in_case(): pass
async def coroutine(): pass
";
    let tree = crate::grammar::Grammar::Python
        .with_parser(|p| p.parse(code, None))
        .flatten()
        .expect("a tree");
    let root = tree.root_node();
    assert!(!root.has_error(), "the sample parses");
    // Every definition, by a walk through every node.
    let mut everywhere = HashSet::new();
    let mut cursor = root.walk();
    'walk: loop {
        let node = cursor.node();
        if matches!(kind(node), "function_definition" | "class_definition")
            && let Some(name) = LANE_FIELDS.child(node, "name")
        {
            everywhere.insert(text(name, code).to_string());
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    let mut lane = Lane::new(code, 0);
    lane.collect_definitions(root);
    assert_eq!(everywhere.len(), 19, "{everywhere:?}");
    assert_eq!(lane.defined, everywhere);
}

/// An assignment of a module directly in a class body makes a class
/// attribute the lane does not follow; in a method, a plain local name.
#[test]
fn class_body_assignments_are_told_from_method_ones() {
    let kinds_of = |code: &str| -> Vec<CodeEffect> {
        analyse(code, 0)
            .found
            .into_iter()
            .map(|f| f.effect)
            .collect()
    };
    assert!(
        kinds_of("class C:\n    m = __import__('os')\n").contains(&CodeEffect::Unresolved),
        "kept as a class attribute"
    );
    assert!(
        kinds_of("class C:\n    def f(self):\n        m = __import__('json')\n").is_empty(),
        "a local name in a method"
    );
    assert!(
        kinds_of("class C:\n    f = lambda: print(1)\n    def g(self):\n        pass\n    m = __import__('os')\n")
            .contains(&CodeEffect::Unresolved),
        "the class body again after a method"
    );
}
