#!/usr/bin/env bash
# End-to-end runs inside the real agent clients, each against a mock model
# server of ours on 127.0.0.1, with portcullis as its hook.
#
#   tests/e2e/run.sh PORTCULLIS_BIN
#
# Clients (one driver each in this folder): Claude Code, OpenCode, Codex,
# Gemini CLI, Copilot CLI and Qwen Code; Cursor is not on npm. Installs
# each from npm (pinned) into a cache folder kept between runs
# ($PORTCULLIS_E2E_CACHE, default ~/.cache/portcullis-e2e); the only
# network is that install and loopback. Needs node and npm: without them it
# says so and skips. A client that cannot be installed is reported as
# skipped; a case that fails once the client runs fails the script. Every
# client run inside a driver has its own time bound, and every driver one
# too.
set -euo pipefail

bin=${1:?usage: tests/e2e/run.sh PORTCULLIS_BIN}
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
here="$(cd "$(dirname "$0")" && pwd)"
cache=${PORTCULLIS_E2E_CACHE:-${HOME:-/tmp}/.cache/portcullis-e2e}

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "== end to end: node and npm are not installed, skipped"
  exit 0
fi

# client TITLE PACKAGE VERSION BINARY VARIABLE DRIVER [NAME=VALUE…]:
# installs PACKAGE@VERSION into the cache unless it is there, then runs
# DRIVER with VARIABLE naming the client's binary.
client() {
  local title=$1 package=$2 version=$3 binary=$4 variable=$5 driver=$6
  shift 6
  local prefix="$cache/${package//[@\/]/_}-$version"
  local path="$prefix/node_modules/.bin/$binary"
  if [ ! -x "$path" ]; then
    echo "== end to end: installing $package@$version into $cache"
    mkdir -p "$prefix"
    if ! timeout 300 npm install --no-audit --no-fund --silent --prefix "$prefix" "$package@$version"; then
      echo "!! end to end: $title could not be installed from npm, skipped"
      return 0
    fi
  fi
  echo "== end to end: $title $version"
  local started=$SECONDS
  env "$variable=$path" PORTCULLIS_BIN="$bin" "$@" timeout 600 node "$here/$driver"
  echo "== end to end: $title took $((SECONDS - started)) s"
}

client "Claude Code" @anthropic-ai/claude-code 2.1.197 claude CLAUDE_BIN claude-code.mjs
client Codex @openai/codex 0.171.0 codex CODEX_BIN codex.mjs
# OpenCode's grep tool needs ripgrep on PATH; the Codex package ships one.
client OpenCode opencode-ai 1.18.33 opencode OPENCODE_BIN opencode.mjs \
  PORTCULLIS_E2E_OPENCODE_CACHE="$cache/opencode-xdg" PORTCULLIS_E2E_OPENCODE_DEPS="$cache/opencode-deps" \
  PORTCULLIS_E2E_RG_DIR="$cache/_openai_codex-0.171.0/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/codex-path"
client "Gemini CLI" @google/gemini-cli 0.61.0 gemini GEMINI_BIN gemini.mjs
client "Copilot CLI" @github/copilot 1.0.102 copilot COPILOT_BIN copilot.mjs \
  PORTCULLIS_E2E_COPILOT_CACHE="$cache/copilot-pkg"
client "Qwen Code" @qwen-code/qwen-code 0.24.4 qwen QWEN_BIN qwen.mjs
