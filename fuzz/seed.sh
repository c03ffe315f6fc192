#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seed inputs for every fuzz target:
#
#   - the committed seeds and reproducers of tests/data/fuzz/<target>/;
#   - every command of corpus/*.tsv (one file each, unescaped), as a command
#     line (shell), a hook request (hook_stdin, hook_json), and, where it
#     hands code to python/node/perl/ruby/php/lua, that code (inline_*);
#   - the policy files of corpus/fixtures/repos.txt (policy);
#   - the history files of tests/data/history/ (history);
#   - when ../shared/corpora/ exists (not on every clean clone), a sample of
#     its command sets and every history fixture.
#
# The working corpora are not committed (fuzz/.gitignore). Seeds are cut at
# 4 KiB (history and policy files at 16 KiB) and named by their SHA-1, as
# libFuzzer names what it adds, so re-running is idempotent.
#
# Usage: fuzz/seed.sh [TARGET…]   (default: every target)
# Env:   PORTCULLIS_SHARED  the shared folder (default: ../shared beside the
#                           repository); SEED_SAMPLE: lines taken from each
#                           shared command set (default 400).
set -euo pipefail
cd "$(dirname "$0")"
fuzz=$PWD
root=$(cd .. && pwd)
shared=${PORTCULLIS_SHARED:-$root/../shared}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(hook_stdin hook_json shell shell_amplified inline_python inline_javascript inline_scan history policy)
fi

for t in "${targets[@]}"; do
  mkdir -p "$fuzz/corpus/$t"
  if [ -d "$root/tests/data/fuzz/$t" ]; then
    find "$root/tests/data/fuzz/$t" -type f -exec cp -f {} "$fuzz/corpus/$t/" \;
  fi
done

if ! command -v python3 >/dev/null 2>&1; then
  echo "seed.sh: python3 not found; only the committed seeds of tests/data/fuzz/ were copied" >&2
  exit 0
fi

python3 - "$root" "$shared" "${SEED_SAMPLE:-400}" "${targets[@]}" <<'PY'
import hashlib, json, os, re, shlex, sys

root, shared, sample = sys.argv[1], sys.argv[2], int(sys.argv[3])
wanted = set(sys.argv[4:])
corpus = os.path.join(root, "fuzz", "corpus")
counts = {t: 0 for t in wanted}


def put(target, data, limit=4096):
    if target not in wanted:
        return
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    data = data[:limit]
    if not data:
        return
    path = os.path.join(corpus, target, hashlib.sha1(data).hexdigest())
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(data)
        counts[target] += 1


def unescape(raw):
    """`\\n` newline, `\\t` tab, `\\\\` backslash; other backslashes stay."""
    out, i = [], 0
    while i < len(raw):
        c = raw[i]
        if c == "\\" and i + 1 < len(raw) and raw[i + 1] in "nt\\":
            out.append({"n": "\n", "t": "\t", "\\": "\\"}[raw[i + 1]])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def every(lines, n):
    """At most n lines, spread over the whole list."""
    if len(lines) <= n:
        return lines
    step = len(lines) / n
    return [lines[int(i * step)] for i in range(n)]


# -- commands ---------------------------------------------------------------
commands = []
tsv_dir = os.path.join(root, "corpus")
for name in sorted(os.listdir(tsv_dir)):
    if not name.endswith(".tsv"):
        continue
    for line in open(os.path.join(tsv_dir, name), encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t", 2)
        if len(parts) == 3:
            commands.append(unescape(parts[2]))

tsv_count = len(commands)
corpora = os.path.join(shared, "corpora")
if os.path.isdir(corpora):
    tricky = os.path.join(corpora, "tricky-lines.txt")
    if os.path.exists(tricky):
        for line in open(tricky, encoding="utf-8", errors="replace"):
            if line.strip() and not line.startswith("##"):
                commands.append(unescape(line.rstrip("\n")))
    for name in ["agent-mini-swe-agent-gemini3-swebv.txt", "agent-swe-agent-demos.txt",
                 "nl2bash.txt", "tldr.txt"]:
        path = os.path.join(corpora, name)
        if os.path.exists(path):
            lines = [l.rstrip("\n") for l in open(path, encoding="utf-8", errors="replace")]
            commands += every([l for l in lines if l.strip()], sample)
    path = os.path.join(corpora, "agent-mini-swe-agent-gemini3-swebv.jsonl")
    if os.path.exists(path):
        multi = []
        for line in open(path, encoding="utf-8", errors="replace"):
            try:
                value = json.loads(line)
            except ValueError:
                continue
            if isinstance(value, str):
                multi.append(value)
        commands += every(multi, sample)
else:
    print(f"seed.sh: {corpora} not found; seeding from the repository only", file=sys.stderr)

CWD = "/home/u/proj"
for i, command in enumerate(commands):
    put("shell", command)
    # Each amplified seed runs a 64 KiB command: a few dozen of them.
    if i < tsv_count and i % 25 == 0:
        # mode, then four cut points in 256ths: lines; the middle
        # character; nesting of the first and last fifths; the middle third.
        header = [b"\x00\x00\x00\x00\x00", b"\x01\x7f\x80\xff\xff",
                  b"\x02\x00\x33\xcc\xff", b"\x03\x55\x80\x80\xaa"][(i // 25) % 4]
        put("shell_amplified", header + command.encode())
    put("hook_json", b"\x40" + command.encode())
    if i % 3 == 0:
        request = {"session_id": "seed", "hook_event_name": "PreToolUse",
                   "tool_name": "Bash", "tool_input": {"command": command}}
        if i % 2 == 0:
            request["cwd"] = CWD
        put("hook_stdin", json.dumps(request))
    if i % 40 == 0:
        put("hook_stdin", json.dumps({"tool": "bash", "args": {"command": command}}))

# Edit-tool requests: the paths of the fixtures' law cases.
law = os.path.join(root, "corpus", "fixtures", "law.tsv")
if os.path.exists(law):
    for line in open(law, encoding="utf-8"):
        parts = line.rstrip("\n").split("\t")
        if len(parts) == 4 and parts[3].startswith("@"):
            tool, _, path = parts[3][1:].partition(" ")
            put("hook_stdin", json.dumps({"tool_name": tool, "cwd": CWD,
                                          "tool_input": {"file_path": path}}))
            pick = {"Write": 1, "Edit": 2, "MultiEdit": 3, "NotebookEdit": 4, "Read": 5}.get(tool, 1)
            put("hook_json", bytes([0x40 | pick]) + path.encode())
            put("policy", b"\x04" + b"\xff" * 8 + path.encode())

# Inline code handed to an interpreter: `-c CODE`, `-e CODE`, heredocs.
LANES = {"python": ("inline_python", None), "node": ("inline_javascript", None),
         "perl": ("inline_scan", 0), "ruby": ("inline_scan", 1),
         "php": ("inline_scan", 2), "lua": ("inline_scan", 3)}


def lane(word):
    word = os.path.basename(word)
    for name, target in LANES.items():
        if word.startswith(name) or (name == "node" and word in ("deno", "bun", "tsx", "ts-node")):
            return target
    return None


def code_seed(target, code):
    target, pick = target
    put(target, code if pick is None else bytes([pick]) + code.encode())


HEREDOC = re.compile(r"<<-?\s*(['\"]?)(\w+)\1[^\n]*\n(.*?)\n\2(?:\n|$)", re.S)
for command in commands:
    try:
        words = shlex.split(command, posix=True)
    except ValueError:
        words = []
    for i, word in enumerate(words[:-1]):
        target = lane(word)
        if target is None:
            continue
        for j in range(i + 1, min(i + 4, len(words) - 1)):
            if words[j] in ("-c", "-e", "-r", "-p", "--eval", "--print", "eval", "-uc", "-ne", "-pe"):
                code_seed(target, words[j + 1])
                break
    for m in HEREDOC.finditer(command):
        head = command[:m.start()].split("\n")[-1].split()
        target = next((lane(w) for w in head if lane(w)), None)
        if target is not None:
            code_seed(target, m.group(3))

# -- history ------------------------------------------------------------------
FORMAT = {"lines": 0, "jsonl": 1, "bash": 2, "zsh": 3, "fish": 4, "claude": 5}


def history_format(name):
    if "zsh" in name:
        return FORMAT["zsh"]
    if "fish" in name:
        return FORMAT["fish"]
    if "claude" in name:
        return FORMAT["claude"]
    if "bash" in name:
        return FORMAT["bash"]
    if name.endswith(".json") or name.endswith(".jsonl"):
        return FORMAT["jsonl"]
    return FORMAT["lines"]


history_dirs = [os.path.join(root, "tests", "data", "history"), os.path.join(corpora, "history")]
for top in history_dirs:
    if not os.path.isdir(top):
        continue
    for base, _, files in os.walk(top):
        for name in sorted(files):
            if name.endswith(".md"):
                continue
            data = open(os.path.join(base, name), "rb").read()
            put("history", bytes([history_format(name)]) + data, 16384)
            put("history", bytes([FORMAT["lines"]]) + data[:2048], 16384)
if os.path.isdir(corpora):
    for name, fmt in [("agent-mini-swe-agent-gemini3-swebv.sessions.jsonl", "jsonl"),
                      ("agent-swe-agent-demos.sessions.jsonl", "jsonl"),
                      ("agent-mini-swe-agent-gemini3-swebv.jsonl", "jsonl"),
                      ("agent-swe-agent-demos.txt", "bash")]:
        path = os.path.join(corpora, name)
        if os.path.exists(path):
            with open(path, "rb") as f:
                put("history", bytes([FORMAT[fmt]]) + f.read(8192), 16384)

# -- policy -------------------------------------------------------------------
FILES = [".cage.yaml", ".gitagent/foreman/MANIFEST.yaml", ".gitagent/foreman/MANIFEST.json",
         ".gitagent/missions/.active-mission", ".gitagent/missions/MSN-0001.billing.yaml",
         ".gitagent/foreman/POLICY.pointer.json",
         ".gitagent/history/policy/0123456789abcdef0123456789abcdef01234567/ORG-POLICY.yaml",
         ".veritas-kanban/workspace-trust.json"]
fixtures, current, pending = {}, None, None
repos = os.path.join(root, "corpus", "fixtures", "repos.txt")
if os.path.exists(repos):
    for line in open(repos, encoding="utf-8"):
        line = line.rstrip("\n")
        if pending is not None:
            name, body = pending
            if line == "EOF":
                fixtures[current][name] = "".join(body)
                pending = None
            else:
                body.append(line + "\n")
            continue
        if line.startswith("=== "):
            current = line[4:].strip()
            fixtures[current] = {}
        elif line.startswith("file ") and current:
            pending = (line[5:].strip(), [])
for name, files in fixtures.items():
    slots = [None] * len(FILES)
    for path, body in files.items():
        data = body.encode()
        if path.endswith(".cage.yaml"):
            put("policy", b"\x00" + data, 16384)
        if path.endswith("workspace-trust.json"):
            put("policy", b"\x01" + data, 16384)
        if path.endswith((".yaml", ".yml")):
            put("policy", b"\x02" + data, 16384)
        if path.endswith(".json"):
            put("policy", b"\x03" + data, 16384)
        if path in FILES:
            slots[FILES.index(path)] = data
        elif path.startswith(".gitagent/missions/") and not path.endswith(".active-mission"):
            slots[4] = data
            slots[3] = b"MSN-0001.billing.yaml\n"
    if any(s is not None for s in slots):
        fields = [b"\xfe" if s is None else s for s in slots] + [b"src/billing/x.py"]
        put("policy", b"\x04" + b"\xff".join(fields), 16384)

print("seed.sh: added " + ", ".join(f"{t} {n}" for t, n in sorted(counts.items())))
PY
