#!/usr/bin/env bash
# End-to-end tests in a real VS Code: code-server (VS Code in a browser), built once per version from the npm
# registry and cached outside the clone, driven by playwright-core and Debian's Chromium. Installs the .vsix
# that `npm run package` built into fresh profiles and checks the rendered workbench.
#
# Both versions run the workbench suite and rename/references (rename.test.mjs): 4.96.4 (VS Code 1.96.4, the
# oldest `engines` keeps) and 4.139.1 (VS Code 1.139.1, what people run today). 4.139.1 also runs the chat
# tests, which need an extension-provided language model (1.104+), the tests beside VS Code's own skill
# support (1.139's `skill` language), albedoSkills.copilotSkillLocations (1.139's chat.agentSkillsLocations),
# Expand Selection (selectionRanges.test.mjs, run on 1.139.1 only), and `albedo-skills mcp` from .vscode/mcp.json
# in VS Code's chat (mcp.test.mjs: 1.139's MCP prompts).
# ALBEDO_E2E_VERSIONS="4.139.1" runs one version; ALBEDO_E2E_FILES="e2e/x.test.mjs" runs only those files
# (on each version).
# The screenshots go to a fresh folder under $TMPDIR (named at the end of the run); ALBEDO_UPDATE_SCREENSHOTS=1
# writes them over README.md's tracked ones in media/ instead.
set -euo pipefail
cd "$(dirname "$0")/.."

versions=(${ALBEDO_E2E_VERSIONS:-4.96.4 4.139.1})
[ -f albedo-skills.vsix ] || npm run package --silent
export ALBEDO_VSIX="$PWD/albedo-skills.vsix"
# Chromium comes from Debian (build-code-server.sh installs it with the build packages when missing).
export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

for version in "${versions[@]}"; do
  CODE_SERVER=$(CODE_SERVER_VERSION="$version" e2e/build-code-server.sh | tail -n 1)
  export CODE_SERVER
  case "$version" in
    4.96.*) tests=(e2e/workbench.test.mjs e2e/rename.test.mjs e2e/multiRoot.test.mjs) ;;
    *) tests=(e2e/workbench.test.mjs e2e/chat.test.mjs e2e/nativeSkills.test.mjs e2e/copilotLocations.test.mjs e2e/rename.test.mjs e2e/selectionRanges.test.mjs e2e/multiRoot.test.mjs e2e/mcp.test.mjs) ;;
  esac
  [ -z "${ALBEDO_E2E_FILES:-}" ] || tests=($ALBEDO_E2E_FILES)
  echo "# code-server $version: ${tests[*]}"
  node --test --test-concurrency=1 "${tests[@]}"
done
