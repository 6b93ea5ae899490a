#!/usr/bin/env bash
# End-to-end tests in a real VS Code: code-server (VS Code 1.96.4 in a browser), built once from the npm
# registry and cached outside the clone, driven by playwright-core and Debian's Chromium. Installs the .vsix
# that `npm run package` built into fresh profiles and checks the rendered workbench (workbench.test.mjs).
# The screenshots go to a fresh folder under $TMPDIR (named at the end of the run); ALBEDO_UPDATE_SCREENSHOTS=1
# writes them over README.md's tracked ones in media/ instead.
set -euo pipefail
cd "$(dirname "$0")/.."

CODE_SERVER=$(e2e/build-code-server.sh | tail -n 1)
export CODE_SERVER
[ -f albedo-skills.vsix ] || npm run package --silent
export ALBEDO_VSIX="$PWD/albedo-skills.vsix"
# Chromium comes from Debian (build-code-server.sh installs it with the build packages when missing).
export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

node --test --test-concurrency=1 e2e/workbench.test.mjs
