import json
import os
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(".")
PATTERN = re.compile(r"^\s*def (test_\w+)\(")


def find_tests(root):
    """Map each test file to the test functions it defines."""
    found = defaultdict(list)
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if not (name.startswith("test_") and name.endswith(".py")):
                continue
            path = Path(dirpath) / name
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as err:
                print(f"skip {path}: {err}", file=sys.stderr)
                continue
            for line in text.splitlines():
                match = PATTERN.match(line)
                if match:
                    found[str(path)].append(match.group(1))
    return found


def summarize(found):
    per_dir = Counter()
    for path, tests in found.items():
        per_dir[os.path.dirname(path)] += len(tests)
    return per_dir


tests = find_tests(ROOT)
counts = summarize(tests)
total = sum(counts.values())
print(f"{len(tests)} test files, {total} tests")
for folder, n in counts.most_common(10):
    print(f"{n:5d}  {folder}")
names = Counter(t for found in tests.values() for t in found)
duplicates = sorted(name for name, n in names.items() if n > 1)
if duplicates:
    print("duplicate test names:", ", ".join(duplicates[:20]))
print(json.dumps({"files": len(tests), "tests": total}, indent=2))
