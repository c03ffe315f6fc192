#!/usr/bin/env bash
# End-to-end runs inside the real agent clients, each against a mock model
# server of ours on 127.0.0.1, with portcullis as its hook.
#
#   tests/e2e/run.sh PORTCULLIS_BIN
#
# Clients: Claude Code (tests/e2e/claude-code.mjs) and OpenCode
# (tests/e2e/opencode.mjs). Installs each from npm (pinned) into a cache folder kept between
# runs ($PORTCULLIS_E2E_CACHE, default ~/.cache/portcullis-e2e); the only
# network is that install and loopback. Needs node and npm: without them it
# says so and skips. A client that cannot be installed is reported as
# skipped; a case that fails once the client runs fails the script.
set -euo pipefail

bin=${1:?usage: tests/e2e/run.sh PORTCULLIS_BIN}
here="$(cd "$(dirname "$0")" && pwd)"
cache=${PORTCULLIS_E2E_CACHE:-${HOME:-/tmp}/.cache/portcullis-e2e}
CLAUDE_CODE_VERSION=2.1.197
OPENCODE_VERSION=1.18.33

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "== end to end: node and npm are not installed, skipped"
  exit 0
fi

claude="$cache/claude-code-$CLAUDE_CODE_VERSION/node_modules/.bin/claude"
if [ ! -x "$claude" ]; then
  echo "== end to end: installing @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION into $cache"
  mkdir -p "$cache/claude-code-$CLAUDE_CODE_VERSION"
  if ! timeout 300 npm install --no-audit --no-fund --silent \
      --prefix "$cache/claude-code-$CLAUDE_CODE_VERSION" \
      "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION"; then
    echo "!! end to end: Claude Code could not be installed from npm, skipped"
    claude=""
  fi
fi
if [ -n "$claude" ]; then
  echo "== end to end: Claude Code $CLAUDE_CODE_VERSION"
  CLAUDE_BIN="$claude" PORTCULLIS_BIN="$bin" timeout 600 node "$here/claude-code.mjs"
fi

opencode="$cache/opencode-$OPENCODE_VERSION/node_modules/.bin/opencode"
if [ ! -x "$opencode" ]; then
  echo "== end to end: installing opencode-ai@$OPENCODE_VERSION into $cache"
  mkdir -p "$cache/opencode-$OPENCODE_VERSION"
  if ! timeout 300 npm install --no-audit --no-fund --silent \
      --prefix "$cache/opencode-$OPENCODE_VERSION" "opencode-ai@$OPENCODE_VERSION"; then
    echo "!! end to end: OpenCode could not be installed from npm, skipped"
    opencode=""
  fi
fi
if [ -n "$opencode" ]; then
  echo "== end to end: OpenCode $OPENCODE_VERSION"
  OPENCODE_BIN="$opencode" PORTCULLIS_BIN="$bin" \
    PORTCULLIS_E2E_OPENCODE_CACHE="$cache/opencode-xdg" \
    timeout 600 node "$here/opencode.mjs"
fi
