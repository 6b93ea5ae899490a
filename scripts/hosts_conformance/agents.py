"""The runnable agents at pinned versions, and their install into a cache outside the clone.

The package and version of each agent are the ones its model names (`evidence=run_here(...)` in
`albedo_skills_ls/skills/hosts/<agent>.py`): pinning a new release is that one line. Each lives
in `~/.cache/albedo-skills-ls/agents-<id>-<version>` (or under `$ALBEDO_AGENTS_CACHE`), installed once by
npm into a `.part` folder that is renamed only when the agent answers `--version` with the pinned version,
so a half-finished install is never taken for a cached one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from typing import NamedTuple

INSTALL_TIMEOUT_SECONDS = 600


class Agent(NamedTuple):
    id: str  # the host id of `albedo-skills hosts`
    package: str  # npm package
    version: str  # pinned
    bin: str  # the command npm links into node_modules/.bin

    @property
    def cache_dir(self) -> str:
        base = os.environ.get("ALBEDO_AGENTS_CACHE") or os.path.join(
            os.path.expanduser("~"), ".cache", "albedo-skills-ls")
        return os.path.join(base, f"agents-{self.id}-{self.version}")

    @property
    def stamp(self) -> str:
        """Written once the installed agent has answered `--version` with the pinned version: asking each
        agent again on every run cost 12 s (Gemini CLI alone 7 s)."""
        return os.path.join(self.cache_dir, ".albedo-verified-version")

    @property
    def executable(self) -> str:
        return os.path.join(self.cache_dir, "node_modules", ".bin", self.bin)


def _pinned(host_id: str, command: str) -> Agent:
    from albedo_skills_ls.skills.hosts import model

    evidence = model(host_id).evidence
    return Agent(host_id, evidence.package, evidence.version, command)


AGENTS: tuple[Agent, ...] = (
    _pinned("codex", "codex"),
    _pinned("claude-code", "claude"),
    _pinned("gemini-cli", "gemini"),
    _pinned("opencode", "opencode"),
    _pinned("copilot-cli", "copilot"),
)
BY_ID = {agent.id: agent for agent in AGENTS}


def answers_version(agent: Agent, root: str | None = None) -> bool:
    """True when the installed command runs and names the pinned version."""
    executable = agent.executable if root is None else os.path.join(root, "node_modules", ".bin", agent.bin)
    if not os.access(executable, os.X_OK):
        return False
    try:
        done = subprocess.run([executable, "--version"], capture_output=True, text=True, timeout=60,
                              env=dict(os.environ, DO_NOT_TRACK="1", CI="true"), stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return agent.version in done.stdout


REGISTRY_PING_SECONDS = 30


def registry_reachable() -> str | None:
    """None when npm can reach its registry, else why not (asked once, before any install: offline, npm
    would retry each package for a long while)."""
    npm = shutil.which("npm")
    if npm is None:
        return "npm is not on PATH"
    try:
        done = subprocess.run([npm, "ping", "--fetch-retries=0"], capture_output=True, text=True,
                              timeout=REGISTRY_PING_SECONDS, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"npm ping gave no answer in {REGISTRY_PING_SECONDS} s"
    if done.returncode != 0:
        said = npm_reason(done)
        return "the npm registry cannot be reached" + (f" ({said})" if said else "")
    return None


def npm_reason(done: subprocess.CompletedProcess) -> str | None:
    """The line of a failed npm command that says why a request failed, without npm's prefix."""
    said = [line.strip() for line in (done.stderr or done.stdout).splitlines()
            if "request to" in line or "reason:" in line]
    return said[-1].removeprefix("npm error ") if said else None


def machine_npmrc(npm: str) -> str | None:
    """The global npmrc npm reads when no --prefix is given: the machine's registry, proxy and cafile."""
    done = subprocess.run([npm, "config", "get", "globalconfig"], capture_output=True, text=True,
                          timeout=REGISTRY_PING_SECONDS, stdin=subprocess.DEVNULL)
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else None


def newest_release(agent: Agent) -> str | None:
    """The version npm serves as the package's latest, or None when npm cannot say (offline, no npm)."""
    npm = shutil.which("npm")
    if npm is None:
        return None
    try:
        done = subprocess.run([npm, "view", agent.package, "version", "--fetch-retries=0"], capture_output=True,
                              text=True, timeout=REGISTRY_PING_SECONDS, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None
    version = done.stdout.strip()
    return version if done.returncode == 0 and version else None


def is_cached(agent: Agent) -> bool:
    try:
        with open(agent.stamp, encoding="utf-8") as stamp:
            if stamp.read().strip() == agent.version and os.access(agent.executable, os.X_OK):
                return True
    except OSError:
        pass
    if not answers_version(agent):
        return False
    with open(agent.stamp, "w", encoding="utf-8") as stamp:
        stamp.write(agent.version + "\n")
    return True


class Installed(NamedTuple):
    agent: Agent
    ok: bool
    seconds: float  # 0 when it was already cached
    note: str  # why not, when not ok; "cached" or "installed" otherwise


def ensure(agent: Agent, install: bool = True, offline: str | None = None) -> Installed:
    """The cached agent, installing it from npm first when it is missing and `install` is set (`offline`:
    why the registry cannot be reached, when it cannot)."""
    if is_cached(agent):
        return Installed(agent, True, 0.0, "cached")
    if not install:
        return Installed(agent, False, 0.0, f"not cached in {agent.cache_dir}")
    if offline is not None:
        return Installed(agent, False, 0.0, "not cached; offline, npm cannot install it")
    npm = shutil.which("npm")
    if npm is None:
        return Installed(agent, False, 0.0, "npm is not on PATH")
    part = agent.cache_dir + ".part"
    shutil.rmtree(part, ignore_errors=True)
    started = time.monotonic()
    # --prefix also moves npm's global npmrc into the prefix; name the machine's, or behind a TLS-inspecting
    # proxy whose CA only that file names every install fails (as for an ordinary user without a ~/.npmrc).
    globalconfig = machine_npmrc(npm)
    try:
        done = subprocess.run(
            [npm, "install", "--prefix", part, *([f"--globalconfig={globalconfig}"] if globalconfig else []),
             "--no-audit", "--no-fund", "--loglevel=error", f"{agent.package}@{agent.version}"],
            capture_output=True, text=True, timeout=INSTALL_TIMEOUT_SECONDS, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        shutil.rmtree(part, ignore_errors=True)
        return Installed(agent, False, time.monotonic() - started, "npm install timed out")
    seconds = time.monotonic() - started
    if done.returncode != 0 or not answers_version(agent, part):
        shutil.rmtree(part, ignore_errors=True)
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["the agent did not answer --version"]
        why = npm_reason(done) or tail[0]
        return Installed(agent, False, seconds, f"npm install {agent.package}@{agent.version} failed: {why}")
    shutil.rmtree(agent.cache_dir, ignore_errors=True)
    os.rename(part, agent.cache_dir)
    with open(agent.stamp, "w", encoding="utf-8") as stamp:
        stamp.write(agent.version + "\n")
    return Installed(agent, True, seconds, "installed")
