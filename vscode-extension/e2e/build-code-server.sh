#!/usr/bin/env bash
# Build code-server (VS Code in a browser) from the npm registry, once per version, into a cache outside the
# clone. The recipe and why each step exists: ../shared/guide/vscode-in-ci.md (the official test runners
# download VS Code from hosts CI cannot reach). Prints the path of the code-server launcher.
set -euo pipefail

version=${CODE_SERVER_VERSION:-4.96.4}
proxy_agent_version=0.27.0 # the registry copy of the git dependency pinned in the shrinkwrap
cache=${ALBEDO_E2E_CACHE:-$HOME/.cache/albedo-skills-ls}
target="$cache/code-server-$version"
launcher="$target/node_modules/.bin/code-server"

if [ -x "$launcher" ] && [ -f "$target/.complete" ]; then
  echo "$launcher"
  exit 0
fi

need_apt=()
for pkg in libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep chromium; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ ${#need_apt[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >&2
fi

mkdir -p "$cache"
# Build beside the target and rename at the end, so an interrupted build is never mistaken for a cached one.
work=$(mktemp -d "$cache/.code-server-$version.XXXXXX")
trap 'rm -rf "$work"' EXIT
export npm_config_nodedir=/usr npm_config_audit=false npm_config_fund=false npm_config_loglevel=error

cd "$work"
echo '{"private": true}' > package.json
npm install --ignore-scripts "code-server@$version" >&2

vscode="$work/node_modules/code-server/lib/vscode"
node - "$vscode/npm-shrinkwrap.json" "$proxy_agent_version" <<'JS'
const fs = require('fs');
const [file, version] = process.argv.slice(2);
const shrinkwrap = JSON.parse(fs.readFileSync(file, 'utf8'));
const entry = shrinkwrap.packages['node_modules/@vscode/proxy-agent'];
entry.resolved = `https://registry.npmjs.org/@vscode/proxy-agent/-/proxy-agent-${version}.tgz`;
delete entry.integrity;
fs.writeFileSync(file, JSON.stringify(shrinkwrap, null, 2));
JS

cd "$vscode"
npm install --omit=dev --ignore-scripts >&2
npm rebuild kerberos node-pty @vscode/spdlog native-watchdog @parcel/watcher @vscode/deviceid >&2
mkdir -p node_modules/@vscode/ripgrep/bin
cp /usr/bin/rg node_modules/@vscode/ripgrep/bin/rg
ln -sfn node_modules node_modules.asar
ln -sfn code-linux.sh bin/remote-cli/code-server
ln -sfn browser-linux.sh bin/helpers/browser.sh
(cd extensions && npm install --omit=dev --ignore-scripts >&2)

cd "$work"
npm rebuild argon2 >&2
# Its own HOME: every call without --config writes ~/.config/code-server/config.yaml.
HOME="$work" "$work/node_modules/.bin/code-server" --version >&2
touch "$work/.complete"

rm -rf "$target"
mv "$work" "$target"
trap - EXIT
echo "$launcher"
