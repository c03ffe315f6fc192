#!/usr/bin/env bash
# Writes link/hot-symbols.txt: the functions a hook call runs, in the order
# the linker should lay them out (build.rs hands the file to lld as
# --symbol-ordering-file). A hook is a new process every time, and the
# kernel maps a binary's code in 64 KiB windows around each page it first
# touches: with the functions of an ordinary call next to each other, a
# call touches a few windows instead of a few hundred scattered over 10 MB
# of code, so it faults less and its peak RSS is smaller (issue 19).
#
#   bash benches/hot_symbols.sh
#
# Needs valgrind (callgrind) and python3. Builds the release binary as
# `cargo build --release` does (the symbol names carry a hash of the
# profile, so they must come from the very profile that ships), into
# target/hot-symbols unless CARGO_TARGET_DIR is set, with lld's link map
# (PORTCULLIS_LINK_MAP, read by build.rs) to name the stripped binary's
# functions by address. Runs the hook on each request of
# benches/hot_requests.jsonl (the shell-only calls first: they are most of
# what an agent sends) and lists every function each call ran: first the
# ones of the first request, then the new ones of the next, and so on.
# The file is a hint: a name that is no longer in the binary (code, the
# toolchain or a dependency changed since it was written) is skipped
# without a warning, so a stale file costs speed, never correctness. Run
# it again after such a change. Not part of CI.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || { echo "valgrind is needed (callgrind)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is needed" >&2; exit 2; }
target_dir=${CARGO_TARGET_DIR:-$root/target/hot-symbols}
work=$(mktemp -d "${TMPDIR:-/tmp}/portcullis-hot.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "== building into $target_dir, with the link map" >&2
map="$work/portcullis.map"
(cd "$root" && CARGO_TARGET_DIR=$target_dir PORTCULLIS_LINK_MAP=$map cargo build --release --quiet)
[ -s "$map" ] || { echo "the link wrote no map (is the linker lld? see build.rs)" >&2; exit 1; }
binary="$target_dir/$(rustc -vV | sed -n 's/^host: //p')/release/portcullis"
[ -x "$binary" ] || { echo "no binary at $binary" >&2; exit 1; }

mkdir -p "$work/home" "$work/proj/.git" "$work/calls"
n=0
while IFS= read -r request; do
  [ -n "$request" ] || continue
  n=$((n + 1))
  printf '%s' "${request//@CWD@/$work/proj}" >"$work/req.json"
  (cd "$work/proj" && HOME=$work/home valgrind --tool=callgrind --compress-strings=no \
    --dump-instr=no --callgrind-out-file="$work/calls/$n.out" \
    "$binary" hook --host claude <"$work/req.json" >/dev/null 2>"$work/vg.log") || true
  [ -s "$work/calls/$n.out" ] || { echo "callgrind wrote nothing for request $n" >&2; cat "$work/vg.log" >&2; exit 1; }
done <"$root/benches/hot_requests.jsonl"
mkdir -p "$root/link"
python3 "$root/benches/hot_symbols.py" "$map" "$work/calls" "$n" >"$work/list"
mv "$work/list" "$root/link/hot-symbols.txt"
echo "== wrote link/hot-symbols.txt ($(grep -vc '^#' "$root/link/hot-symbols.txt") functions from $n requests)" >&2
