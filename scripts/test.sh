#!/usr/bin/env bash
# Set up everything the tests need on a fresh machine (Python 3.11 + Node 20), then run every test:
# the engine, the server over stdio (pytest-lsp), a real headless Neovim, and the VS Code extension.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}

# Debian's Neovim drives the server as a real editor in tests/clients.
if ! command -v nvim >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends neovim >/dev/null
fi

[ -x .venv/bin/python ] || "$python" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'

(
  cd vscode-extension
  npm ci --no-audit --no-fund --loglevel=error
  ALBEDO_PYTHON="$PWD/../.venv/bin/python" npm test
)

.venv/bin/python -m pytest -p no:cacheprovider "$@"
