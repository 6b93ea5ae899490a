# Sourced by scripts/test.sh and vscode-extension/e2e/build-code-server.sh: installs the Debian packages a
# step needs, when any is missing. Root runs apt-get itself; an ordinary user runs it through sudo. When that
# cannot happen (no sudo, or sudo refuses this user), the run stops with the missing packages and the command
# an administrator runs: those steps need the real programs (Neovim 0.7, Emacs, tmux, Chromium...), which no
# user-level installer provides, and a suite that skipped them would report a pass it never earned.

# install_debian_packages WHAT PACKAGE...   (WHAT says in a few words what the packages are for)
install_debian_packages() {
  local what=$1
  shift
  dpkg -s "$@" >/dev/null 2>&1 && return 0
  local missing=() pkg
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  local as_root=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || debian_packages_not_installed "$what" "sudo is not installed" "${missing[@]}"
    as_root=(sudo)
  fi
  # Another installer may hold the package lock for a while on a shared machine: wait for it.
  local apt=(apt-get -o DPkg::Lock::Timeout=600)
  # `env` carries DEBIAN_FRONTEND through sudo, which drops the caller's environment.
  "${as_root[@]}" "${apt[@]}" update -qq &&
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq --no-install-recommends \
      "${missing[@]}" >&2 ||
    debian_packages_not_installed "$what" "${as_root[*]:+sudo or }apt-get failed (see above)" "${missing[@]}"
}

# debian_packages_not_installed WHAT WHY PACKAGE...: says what to install and how, then stops the run.
debian_packages_not_installed() {
  local what=$1 why=$2
  shift 2
  {
    echo "$(basename "$0"): missing Debian packages for $what: $*"
    echo "They could not be installed: $why. As root (or with sudo), run"
    echo "    apt-get install --no-install-recommends $*"
    echo "then run this again. (bash scripts/test.sh --light needs none of them.)"
  } >&2
  exit 1
}
