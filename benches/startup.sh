#!/usr/bin/env bash
# Whole-process start-up of `portcullis hook --host claude`, as ratios to an
# empty Rust program that reads stdin, measured interleaved in one run; the
# peak RSS of one `ls -la` call; and replay's throughput as a whole process.
# Prints a Markdown table and the command that produced it.
#
#   bash benches/startup.sh
#
# Needs cargo, rustc and a C compiler (`$CC`, else `cc`). Environment:
#
# - PORTCULLIS_BENCH_CALLS: calls per case (default 300), after 10 warm-up
#   rounds that are not counted;
# - PORTCULLIS_BENCH_PEERS=1: also cc-toolgate 0.6.3, installed with
#   `cargo install` into PORTCULLIS_BENCH_CACHE (default
#   ~/.cache/portcullis-bench) unless it is there, run on the same requests
#   in the same rounds;
# - PORTCULLIS_BENCH_SESSIONS: the agent sessions file for the replay line
#   (default: agent-mini-swe-agent-gemini3-swebv.sessions.jsonl in
#   shared/corpora/ beside the checkout or beside a folder above it); the
#   line is skipped when it is absent;
# - CARGO_TARGET_DIR is honoured; CARGO_PROFILE_RELEASE_* and RUSTFLAGS
#   change the binary measured, and the caption says so.
#
# Each round runs, in this order: the empty program, portcullis (and
# cc-toolgate) on case 1, the empty program, portcullis (and cc-toolgate) on
# case 2, and so on (every other round in reverse order), every process with the case's request on stdin and its
# stdout and stderr on /dev/null. benches/startup_driver.c, compiled in the
# run, starts each process with posix_spawn and times it to wait4 with
# CLOCK_MONOTONIC, so no shell runs between calls. The ratio is a case's
# median over the empty program's median in the same run. Every process
# runs with a scratch HOME and in a scratch folder, which is also the
# request's `cwd`. Not part of CI (.ci/run does not call it).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
calls=${PORTCULLIS_BENCH_CALLS:-300}
peers=${PORTCULLIS_BENCH_PEERS:-0}
cache=${PORTCULLIS_BENCH_CACHE:-${HOME:-/tmp}/.cache/portcullis-bench}
warmup=10
toolgate_version=0.6.3
case $calls in '' | *[!0-9]* | 0)
  echo "PORTCULLIS_BENCH_CALLS must be a positive number, not '$calls'" >&2
  exit 2
  ;;
esac

say() { printf '== %s\n' "$*" >&2; }

# The command that reproduces this run: the settings that change it.
command_line=
for var in PORTCULLIS_BENCH_CALLS PORTCULLIS_BENCH_PEERS PORTCULLIS_BENCH_SESSIONS \
  RUSTFLAGS $(compgen -e | grep -E '^CARGO_(PROFILE|BUILD)_' | sort || true); do
  if [ -n "${!var+set}" ]; then
    command_line+="$var=${!var} "
  fi
done
command_line+="bash benches/startup.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/portcullis-startup.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/home" "$work/cwd" "$work/req"

# 1. The binary, the empty program and the driver.
say "cargo build --release"
# The binary's path from cargo itself, wherever the target folder, a
# build.target or a config puts it.
(cd "$root" && cargo build --release --message-format=json-render-diagnostics) >"$work/build.json"
portcullis=$(grep '"reason":"compiler-artifact"' "$work/build.json" |
  grep '"target":{[^}]*"name":"portcullis"' |
  grep -o '"executable":"[^"]*"' | tail -1 | cut -d'"' -f4 || true)
if [ -z "$portcullis" ]; then
  target=${CARGO_TARGET_DIR:-target}
  case $target in /*) ;; *) target=$root/$target ;; esac
  portcullis=$target/release/portcullis
fi
[ -x "$portcullis" ] || { echo "no binary at $portcullis" >&2; exit 1; }
revision=$(git -C "$root" describe --always --dirty 2>/dev/null || echo 'no git')

say "rustc -O: the empty program"
printf '%s\n' 'use std::io::Read;' \
  'fn main() {' \
  '    let mut input = Vec::new();' \
  '    let _ = std::io::stdin().read_to_end(&mut input);' \
  '}' >"$work/empty.rs"
rustc -O -o "$work/empty" "$work/empty.rs"
say "${CC:-cc}: the timing driver"
"${CC:-cc}" -O2 -o "$work/driver" "$root/benches/startup_driver.c"

toolgate=
if [ "$peers" = 1 ]; then
  toolgate=$cache/cc-toolgate/bin/cc-toolgate
  if ! grep -qs "^\"cc-toolgate $toolgate_version " "$cache/cc-toolgate/.crates.toml" ||
    [ ! -x "$toolgate" ]; then
    say "cargo install cc-toolgate --version $toolgate_version --root $cache/cc-toolgate"
    # Its own temporary target folder, not ours.
    env -u CARGO_TARGET_DIR cargo install --quiet cc-toolgate --version "$toolgate_version" \
      --root "$cache/cc-toolgate"
  fi
fi

# 2. The requests: Claude Code's PreToolUse for the Bash tool.
json_string() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  s=${s//$'\n'/\\n}
  s=${s//$'\t'/\\t}
  s=${s//$'\r'/\\r}
  printf '"%s"' "$s"
}
printf 'x one\nx two\nx one\n' >"$work/cwd/a.txt"
names=()
commands=()
add_case() {
  names+=("$1")
  commands+=("$2")
}
add_case '`ls -la`' 'ls -la'
add_case '6-stage pipeline' 'cat a.txt | grep x | sort | uniq -c | sort -rn | head -5'
add_case "floor hit through wrappers (\`sudo env FOO=1 bash -c 'rm -rf ~'\`)" \
  "sudo env FOO=1 bash -c 'rm -rf ~'"
add_case "\`python3 -c 'print(1)'\`" "python3 -c 'print(1)'"
add_case "50-line Python heredoc (\`python3 - <<'EOF'\`)" \
  "python3 - <<'EOF'"$'\n'"$(cat "$root/benches/startup_heredoc.py")"$'\n'"EOF"
cwd_json=$(json_string "$work/cwd")
for i in "${!commands[@]}"; do
  printf '{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%s},"cwd":%s}\n' \
    "$(json_string "${commands[$i]}")" "$cwd_json" >"$work/req/$i.json"
done

# What each tool answers (once, outside the timed rounds).
decision() {
  local out
  out=$(cd "$work/cwd" && HOME=$work/home "$@" 2>/dev/null) || true
  out=$(printf '%s' "$out" | grep -o '"permissionDecision" *: *"[a-z]*"' |
    head -1 | sed 's/.*"\([a-z]*\)"$/\1/' || true)
  printf '%s' "${out:-no output}"
}
declare -A answer
for i in "${!commands[@]}"; do
  answer[p$i]=$(decision "$portcullis" hook --host claude <"$work/req/$i.json")
  if [ -n "$toolgate" ]; then
    answer[t$i]=$(decision "$toolgate" <"$work/req/$i.json")
  fi
done

# The rounds.
tab=$'\t'
: >"$work/spec"
for i in "${!commands[@]}"; do
  req=$work/req/$i.json
  printf '%s\n' "empty$tab$req$tab$work/empty" >>"$work/spec"
  printf '%s\n' "p$i$tab$req$tab$portcullis${tab}hook$tab--host${tab}claude" >>"$work/spec"
  if [ -n "$toolgate" ]; then
    printf '%s\n' "t$i$tab$req$tab$toolgate" >>"$work/spec"
  fi
done
say "$calls rounds (after $warmup warm-up rounds) of $(wc -l <"$work/spec") processes"
load_before=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')
(cd "$work/cwd" && HOME=$work/home "$work/driver" "$work/spec" "$calls" "$warmup") >"$work/results"
load_after=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')

declare -A median p90 rss rss_max failed
while IFS=$'\t' read -r label n med p min rmed rmax bad; do
  median[$label]=$med
  p90[$label]=$p
  rss[$label]=$rmed
  rss_max[$label]=$rmax
  failed[$label]=$bad
done <"$work/results"

ms() { awk -v ns="$1" 'BEGIN { printf "%.3f ms", ns / 1e6 }'; }
ratio() { awk -v a="$1" -v b="${median[empty]}" 'BEGIN { printf "%.2fx", a / b }'; }
thousands() { printf '%s' "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }
cell() {
  local l=$1 c
  c="$(ms "${median[$l]}") (**$(ratio "${median[$l]}")**) · p90 $(ms "${p90[$l]}") · ${answer[$l]}"
  if [ "${failed[$l]}" != 0 ]; then c+=" · exit ≠ 0 in ${failed[$l]} calls"; fi
  printf '%s' "$c"
}

# 3. Peak RSS of the `ls -la` call.
rss_line="peak RSS of the \`ls -la\` call:"
if [ -x /usr/bin/time ]; then
  samples=()
  for _ in 1 2 3 4 5; do
    samples+=("$(cd "$work/cwd" && HOME=$work/home /usr/bin/time -f %M -o "$work/time" \
      "$portcullis" hook --host claude <"$work/req/0.json" >/dev/null 2>&1; cat "$work/time")")
  done
  rss_time=$(printf '%s\n' "${samples[@]}" | sort -n | sed -n 3p)
  rss_line+=" $(mib "$rss_time") (\`/usr/bin/time -f %M\`, median of 5);"
fi
rss_line+=" $(mib "${rss[p0]}") median, $(mib "${rss_max[p0]}") max over the $calls timed calls (wait4's ru_maxrss); the empty program $(mib "${rss[empty]}")"
if [ -n "$toolgate" ]; then
  rss_line+="; cc-toolgate $(mib "${rss[t0]}")"
fi

# 4. Replay as a whole process.
sessions_name=agent-mini-swe-agent-gemini3-swebv.sessions.jsonl
sessions=${PORTCULLIS_BENCH_SESSIONS:-}
if [ -z "$sessions" ]; then
  dir=$root
  while [ "$dir" != / ]; do
    dir=$(dirname "$dir")
    if [ -f "$dir/shared/corpora/$sessions_name" ]; then
      sessions=$dir/shared/corpora/$sessions_name
      break
    fi
  done
fi
if [ -n "$sessions" ] && [ -f "$sessions" ]; then
  say "replay --threads 1 --json $sessions, best of 5"
  summary=$("$portcullis" replay --threads 1 --summary-json "$sessions")
  # The commands judged, as replay's own summary counts them (the same as
  # the rows `--json` prints).
  judged=$(printf '%s' "$summary" | grep -o '"commands" *: *[0-9]*' | head -1 |
    grep -o '[0-9]*$' || true)
  if [ -z "$judged" ]; then
    echo "replay --summary-json gave no count of commands" >&2
    exit 1
  fi
  printf '%s\n' "replay$tab/dev/null$tab$portcullis${tab}replay$tab--threads${tab}1$tab--json$tab$sessions" >"$work/spec-replay"
  (cd "$work/cwd" && HOME=$work/home "$work/driver" "$work/spec-replay" 5 1) >"$work/results-replay"
  IFS=$'\t' read -r _ _ _ _ best _ replay_rss replay_failed <"$work/results-replay"
  rate=$(awk -v n="$judged" -v ns="$best" 'BEGIN { printf "%d", n / (ns / 1e9) }')
  replay_line="replay, whole process (\`portcullis replay --threads 1 --json $(basename "$sessions") > /dev/null\`, best of 5): $(thousands "$judged") commands in $(awk -v ns="$best" 'BEGIN { printf "%.3f", ns / 1e9 }') s, **$(thousands "$rate") commands a second**, peak RSS $(mib "$replay_rss")"
  if [ "$replay_failed" != 0 ]; then replay_line+=" (exit ≠ 0 in $replay_failed runs)"; fi
else
  replay_line="replay: skipped, ${sessions:-no $sessions_name} not found (set PORTCULLIS_BENCH_SESSIONS, or put shared/corpora/ beside the checkout)"
fi

# 5. The table.
profile="the default release profile (fat LTO, one codegen unit)"
overrides=$(compgen -e | grep -E '^CARGO_PROFILE_RELEASE_|^RUSTFLAGS$|^CARGO_BUILD_' | sort | tr '\n' ' ' || true)
if [ -n "$overrides" ]; then
  profile="the release profile with $(for v in $overrides; do printf '%s=%s ' "$v" "${!v}"; done)"
  profile=${profile% }
fi
echo
echo "Hook calls as whole processes, $calls calls per case interleaved with an empty Rust program that reads stdin ($(ms "${median[empty]}") median, p90 $(ms "${p90[empty]}")); median (**ratio of medians to the empty program**) · p90 · decision. $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc 2>/dev/null || echo '?') cores, load average $load_before before and $load_after after; portcullis $("$portcullis" --version 2>/dev/null | awk '{print $NF}') ($revision) built with $profile, $(rustc --version | cut -d' ' -f1-2)."
echo
if [ -n "$toolgate" ]; then
  echo "| case | portcullis median (ratio) | cc-toolgate $toolgate_version median (ratio) |"
  echo "|---|---|---|"
else
  echo "| case | portcullis median (ratio) |"
  echo "|---|---|"
fi
for i in "${!commands[@]}"; do
  if [ -n "$toolgate" ]; then
    echo "| ${names[$i]} | $(cell "p$i") | $(cell "t$i") |"
  else
    echo "| ${names[$i]} | $(cell "p$i") |"
  fi
done
echo
echo "- $rss_line"
echo "- $replay_line"
echo "- command: \`$command_line\`"
