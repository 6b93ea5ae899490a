/**
 * Which Python runs the bundled server when no interpreter is configured (neither
 * `albedoSkills.server.pythonPath` nor the Python extension gives one): the places each platform's usual
 * installers put one, in order, each probed until one is Python 3.11 or newer. What was tried, and what was
 * skipped and why, goes into the failure message.
 *
 * - Linux: `python3` on PATH.
 * - Windows: the `py` launcher (`py -3`, what python.org installs; its installer does not put `python` on
 *   PATH by default), then `python.exe` and `python3.exe` on PATH, then python.org's default install folders
 *   (`%LOCALAPPDATA%\Programs\Python\Python3XX`, `%ProgramFiles%\Python3XX`), newest first. The
 *   `python.exe` in `…\Microsoft\WindowsApps` is the Microsoft Store's alias: without a Store Python it opens
 *   the Store instead of running, so it is skipped unless a Store Python is installed beside it.
 * - macOS: `python3` on PATH (a VS Code started from the Dock gets a short PATH, hence the rest), Homebrew
 *   (`/opt/homebrew/bin`, `/usr/local/bin`), python.org's framework, pyenv's shims, and Apple's
 *   `/usr/bin/python3` last (it runs the Command Line Tools' Python, 3.9, or offers to install them).
 *
 * This module must not import `vscode`: `node --test` runs it with an injected platform, environment and
 * file system.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { envLookup } from './launch';

/** What discovery reads of the file system; tests give a fake one for Windows and macOS layouts. */
export interface FileSystemView {
  isFile(file: string): boolean;
  /** The names in a folder, or [] when it cannot be read. */
  list(folder: string): string[];
}

export const realFileSystem: FileSystemView = {
  isFile(file) {
    try {
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  },
  list(folder) {
    try {
      return fs.readdirSync(folder);
    } catch {
      return [];
    }
  },
};

/** A candidate command (the interpreter and the arguments before the script) and where it was found. */
export interface PythonCandidate {
  parts: string[];
  where: string;
}

export interface Discovery {
  candidates: PythonCandidate[];
  /** Found but not tried, with why: the Store stub. */
  skipped: { path: string; reason: string }[];
  /** Looked for and not found, as the message lists them (`py` on PATH, `/opt/homebrew/bin/python3`). */
  missing: string[];
}

export interface DiscoveryInput {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  home?: string;
  fs?: FileSystemView;
}

export const STORE_STUB_REASON = "the Microsoft Store's alias, which opens the Store when no Store Python is installed";

/** Python 3 folders (`Python312`, `3.12`) of an install location, newest first. */
function versionFolders(names: string[], pattern: RegExp): string[] {
  const versions = names
    .map((name) => ({ name, match: pattern.exec(name) }))
    .filter((entry): entry is { name: string; match: RegExpExecArray } => entry.match !== null)
    .map(({ name, match }) => ({ name, minor: Number(match[1]) }));
  return versions.sort((a, b) => b.minor - a.minor).map((entry) => entry.name);
}

export function discoverPython(input: DiscoveryInput): Discovery {
  const files = input.fs ?? realFileSystem;
  const flavour = input.platform === 'win32' ? path.win32 : path.posix;
  const pathFolders = (envLookup(input.env, 'PATH', input.platform) ?? '').split(flavour.delimiter).filter(Boolean);
  const discovery: Discovery = { candidates: [], skipped: [], missing: [] };
  const seen = new Set<string>();
  const key = (file: string) => (input.platform === 'win32' || input.platform === 'darwin' ? file.toLowerCase() : file);
  const add = (parts: string[], where: string) => {
    if (!seen.has(key(parts[0]))) {
      seen.add(key(parts[0]));
      discovery.candidates.push({ parts, where });
    }
  };
  /** Every `name` on PATH (Windows: with `.exe`), in PATH's order. */
  const onPath = (name: string) => pathFolders.map((folder) => flavour.join(folder, name)).filter((file) => files.isFile(file));
  /** Add the first existing file of `files`, or note the first as missing. */
  const addFixed = (paths: string[], where: string, prefix: string[] = []) => {
    const found = paths.find((file) => files.isFile(file));
    if (found !== undefined) {
      add([found, ...prefix], where);
    } else {
      discovery.missing.push(paths[0]);
    }
  };

  if (input.platform === 'win32') {
    const local = envLookup(input.env, 'LOCALAPPDATA', input.platform);
    const programFiles = envLookup(input.env, 'ProgramFiles', input.platform);
    const systemRoot = envLookup(input.env, 'SystemRoot', input.platform) ?? 'C:\\Windows';
    const launchers = [
      ...onPath('py.exe'),
      flavour.join(systemRoot, 'py.exe'),
      ...(local ? [flavour.join(local, 'Programs', 'Python', 'Launcher', 'py.exe')] : []),
    ];
    const launcher = launchers.find((file) => files.isFile(file));
    if (launcher !== undefined) {
      add([launcher, '-3'], 'the Python launcher');
    } else {
      discovery.missing.push('py -3 (the Python launcher)');
    }
    for (const name of ['python.exe', 'python3.exe']) {
      const found = onPath(name);
      if (found.length === 0) {
        discovery.missing.push(`${name} on PATH`);
      }
      for (const file of found) {
        const folder = flavour.dirname(file);
        if (/[\\/]Microsoft[\\/]WindowsApps$/i.test(folder)) {
          const storePython = files.list(folder).some((entry) => /^PythonSoftwareFoundation\.Python\.3\./i.test(entry));
          if (storePython) {
            add([file], 'the Microsoft Store');
          } else if (!discovery.skipped.some((entry) => key(entry.path) === key(file))) {
            discovery.skipped.push({ path: file, reason: STORE_STUB_REASON });
          }
        } else {
          add([file], 'PATH');
        }
      }
    }
    const installs = [
      ...(local ? [flavour.join(local, 'Programs', 'Python')] : []),
      ...(programFiles ? [programFiles] : []),
    ];
    for (const base of installs) {
      for (const folder of versionFolders(files.list(base), /^Python3(\d+)(-32|-arm64)?$/i)) {
        const file = flavour.join(base, folder, 'python.exe');
        if (files.isFile(file)) {
          add([file], "python.org's installer");
        }
      }
    }
    return discovery;
  }

  if (input.platform === 'darwin') {
    const apple = '/usr/bin/python3';
    const found = onPath('python3').filter((file) => file !== apple);
    if (found.length === 0) {
      discovery.missing.push('python3 on PATH');
    }
    for (const file of found) {
      add([file], 'PATH');
    }
    addFixed(['/opt/homebrew/bin/python3'], 'Homebrew');
    addFixed(['/usr/local/bin/python3'], 'Homebrew or python.org');
    const framework = '/Library/Frameworks/Python.framework/Versions';
    const frameworkVersions = versionFolders(files.list(framework), /^3\.(\d+)$/);
    addFixed([`${framework}/Current/bin/python3`, ...frameworkVersions.map((version) => `${framework}/${version}/bin/python3`)], "python.org's installer");
    const pyenvRoot = envLookup(input.env, 'PYENV_ROOT', input.platform) ?? (input.home ? `${input.home}/.pyenv` : undefined);
    if (pyenvRoot !== undefined) {
      addFixed([`${pyenvRoot}/shims/python3`], 'pyenv');
    }
    addFixed([apple], "Apple's Command Line Tools");
    return discovery;
  }

  // Linux and the rest: the distribution's python3, found on PATH by spawn.
  discovery.candidates.push({ parts: ['python3'], where: 'PATH' });
  return discovery;
}

/** One candidate's probe result, as the failure message lists it. */
export interface Tried {
  candidate: PythonCandidate;
  cause?: string;
}

/**
 * Probe the candidates in order and return the first that can run the bundled server, or undefined, with
 * every attempt. `probe` answers for one candidate (a cause when it cannot run the server).
 */
export async function firstWorking(
  candidates: readonly PythonCandidate[],
  probe: (candidate: PythonCandidate) => Promise<{ ok: true } | { ok: false; cause: string }>,
): Promise<{ found?: PythonCandidate; tried: Tried[] }> {
  const tried: Tried[] = [];
  for (const candidate of candidates) {
    const outcome = await probe(candidate);
    if (outcome.ok) {
      tried.push({ candidate });
      return { found: candidate, tried };
    }
    tried.push({ candidate, cause: outcome.cause });
  }
  return { tried };
}

/** What the failure message says was tried, skipped and not found. */
export function describeDiscovery(discovery: Discovery, tried: readonly Tried[]): string {
  const parts: string[] = [];
  if (tried.length > 0) {
    parts.push(`tried, in order: ${tried.map((attempt) => `${attempt.cause ?? `\`${attempt.candidate.parts.join(' ')}\``} (${attempt.candidate.where})`).join('; ')}`);
  }
  if (discovery.skipped.length > 0) {
    parts.push(`skipped ${discovery.skipped.map((entry) => `${entry.path} (${entry.reason})`).join('; ')}`);
  }
  if (discovery.missing.length > 0) {
    parts.push(`not found: ${discovery.missing.join(', ')}`);
  }
  return parts.join('; ');
}
