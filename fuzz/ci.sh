#!/usr/bin/env bash
# Fuzzes every target for SECONDS each (default 30) and fails on any crash,
# hang (one input over 5 s) or memory blow-up (over 512 MB).
#
#   fuzz/ci.sh [SECONDS] [TARGET…]
#
# Works from a clean clone: installs cargo-fuzz (pinned) when missing, seeds
# fuzz/corpus/ (fuzz/seed.sh), builds every target once, then runs them one
# after another. Uses a nightly toolchain when rustup has one, else the
# stable one with RUSTC_BOOTSTRAP=1 (cargo-fuzz needs nightly flags).
# A crash is reported with its target and artifact; the run goes on with the
# other targets and the script exits 1 at the end. Reproduce one with
#   cargo +nightly fuzz run -s none TARGET fuzz/artifacts/TARGET/crash-…
# and add it to tests/data/fuzz/TARGET/ (tests/suite/fuzz_regressions.rs).
#
# Env: FUZZ_TOOLCHAIN  auto (default: nightly when rustup has it), nightly, or
#                      stable (RUSTC_BOOTSTRAP=1 on rustup's stable)
#      FUZZ_JOBS       parallel fuzzing processes per target (default 1)
#      FUZZ_ARGS       more libFuzzer flags
#      FUZZ_STACK_KB   stack limit for the fuzzers (`ulimit -s`): 2048 checks
#                      the 2 MiB of replay's worker threads (default: as set)
set -euo pipefail

CARGO_FUZZ_VERSION=0.13.2
ALL_TARGETS=(hook_stdin hook_json shell shell_amplified inline_python inline_javascript inline_scan history policy)

seconds=${1:-30}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")

cd "$(dirname "$0")/.."
start=$SECONDS

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== installing cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install --locked cargo-fuzz --version "$CARGO_FUZZ_VERSION"
fi

toolchain=${FUZZ_TOOLCHAIN:-auto}
if [ "$toolchain" = auto ] && cargo +nightly --version >/dev/null 2>&1; then
  toolchain=nightly
fi
if [ "$toolchain" = nightly ]; then
  fuzz=(cargo +nightly fuzz)
  echo "== $(cargo +nightly --version), $(cargo fuzz --version)"
else
  # The default toolchain (FUZZ_TOOLCHAIN=stable forces rustup's stable).
  export RUSTC_BOOTSTRAP=1
  if [ "$toolchain" = stable ]; then export RUSTUP_TOOLCHAIN=stable; fi
  fuzz=(cargo fuzz)
  echo "== $(cargo --version) with RUSTC_BOOTSTRAP=1, $(cargo fuzz --version)"
fi
# Release code without sanitizer: what runs as the hook, only faster.
build_flags=(--sanitizer none)

echo "== seeding fuzz/corpus"
bash fuzz/seed.sh "${targets[@]}"

echo "== building ${#targets[@]} targets"
"${fuzz[@]}" build "${build_flags[@]}"
built=$SECONDS

if [ -n "${FUZZ_STACK_KB:-}" ]; then
  ulimit -s "$FUZZ_STACK_KB"
fi

failed=()
for target in "${targets[@]}"; do
  echo "== fuzzing $target for ${seconds}s"
  mkdir -p "fuzz/artifacts/$target"
  log="fuzz/artifacts/$target/run.log"
  before=$(find "fuzz/artifacts/$target" -type f ! -name run.log | sort)
  jobs=()
  if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then
    # Each job logs to fuzz-<n>.log in the working folder: keep them here.
    jobs=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS")
  fi
  status=0
  # shellcheck disable=SC2086
  "${fuzz[@]}" run "${build_flags[@]}" "$target" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=512 -timeout=${FUZZ_TIMEOUT:-25} -max_len=8192 \
    -artifact_prefix="fuzz/artifacts/$target/" -print_final_stats=1 \
    "${jobs[@]}" ${FUZZ_ARGS:-} >"$log" 2>&1 || status=$?
  # libFuzzer's closing lines: runs, speed, corpus.
  grep -E '^(Done [0-9]+ runs|stat::number_of_executed_units|stat::average_exec_per_sec)' "$log" | tail -3 || true
  after=$(find "fuzz/artifacts/$target" -type f ! -name run.log | sort)
  new=$(comm -13 <(echo "$before") <(echo "$after") | grep -v '^$' || true)
  if [ "$status" -ne 0 ] || [ -n "$new" ]; then
    echo "!! $target FAILED (exit $status)"
    grep -E 'panicked at|^==[0-9]+== ERROR|ERROR: libFuzzer|Test unit written to|SUMMARY:|deadly signal|timeout after|out-of-memory' "$log" | head -20 || true
    for artifact in $new; do
      echo "!! $target artifact: $artifact"
    done
    tail -5 "$log"
    failed+=("$target")
  fi
done

echo "== fuzzing took $((SECONDS - start))s (build $((built - start))s)"
if [ ${#failed[@]} -gt 0 ]; then
  echo "!! crashes in: ${failed[*]} (artifacts under fuzz/artifacts/<target>/, logs in run.log)"
  exit 1
fi
echo "== no crash in ${#targets[@]} targets"
