/**
 * Before starting: is the command there, and can this Python run the server? The probe's command line and
 * the reading of its answer into a version or a cause a user can act on.
 *
 * This module must not import `vscode`: `node --test` runs it directly.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { envLookup, type LaunchInput, type LaunchSpec, type PythonLaunch, resolveLaunch, SERVER_MODULE } from './launch';
import { type Discovery, describeDiscovery, firstWorking } from './pythonDiscovery';

/** The oldest Python the server runs on (pyproject.toml's requires-python). */
export const MINIMUM_PYTHON: readonly [number, number] = [3, 11];
/** How long the interpreter probe may take: a cold conda or pyenv shim can take a few seconds. */
export const PROBE_TIMEOUT_MS = 20_000;

/**
 * Run with `python -c`; prints the version, then whether the package imports (from the folder in argv[1]
 * when given, the bundled libs). Written so that any Python, even 2.7, can run it and say what it is.
 */
export const PROBE_SCRIPT = [
  'import sys',
  "sys.stdout.write('python %d.%d.%d %s\\n' % (sys.version_info[0], sys.version_info[1], sys.version_info[2], sys.executable))",
  'if len(sys.argv) > 1: sys.path.insert(0, sys.argv[1])',
  'try:',
  `    import ${SERVER_MODULE}`,
  `    sys.stdout.write('module %s\\n' % ${SERVER_MODULE}.__file__)`,
  'except Exception as error:',
  "    sys.stdout.write('import-error %s: %s\\n' % (type(error).__name__, error))",
].join('\n');

/** The probe's command line for a Python launch: the same interpreter, flags and package folder. */
export function probeCommand(python: PythonLaunch): { command: string; args: string[] } {
  const isolated = python.libs !== undefined ? ['-I'] : [];
  return {
    command: python.command,
    args: [...python.prefix, ...isolated, '-c', PROBE_SCRIPT, ...(python.libs !== undefined ? [python.libs] : [])],
  };
}

/** What running the probe gave: its output, or how it failed to run. */
export interface ProbeRun {
  stdout: string;
  stderr: string;
  /** Node's error code when the process did not run or was killed: `ENOENT`, `EACCES`, `ETIMEDOUT`. */
  errorCode?: string;
}

/**
 * Why a probe failed, so the message advises what would help: another interpreter (`missing`, `not-python`,
 * `too-old`), or the package installed in it (`no-package`).
 */
export type ProbeFailure = 'missing' | 'not-python' | 'too-old' | 'no-package';

export type ProbeOutcome = { ok: true; version: string; executable: string } | { ok: false; cause: string; kind: ProbeFailure };

/** Read the probe's answer into a version, or the cause of the failure in words a user can act on. */
export function parseProbe(run: ProbeRun, python: PythonLaunch): ProbeOutcome {
  const name = `\`${[python.command, ...python.prefix].join(' ')}\``;
  if (run.errorCode === 'ENOENT') {
    return { ok: false, cause: `${name} was not found`, kind: 'missing' };
  }
  if (run.errorCode === 'EACCES') {
    return { ok: false, cause: `${name} cannot be run (permission denied)`, kind: 'not-python' };
  }
  if (run.errorCode === 'ETIMEDOUT') {
    return { ok: false, cause: `${name} did not answer within ${PROBE_TIMEOUT_MS / 1000} seconds`, kind: 'not-python' };
  }
  const version = /^python (\d+)\.(\d+)\.(\d+) (.*)$/m.exec(run.stdout);
  if (version === null) {
    const said = firstLine(run.stderr) ?? firstLine(run.stdout);
    return { ok: false, cause: `${name} is not a working Python interpreter${said ? ` (it said: ${said})` : ''}`, kind: 'not-python' };
  }
  const [major, minor] = [Number(version[1]), Number(version[2])];
  const text = `${version[1]}.${version[2]}.${version[3]}`;
  if (major < MINIMUM_PYTHON[0] || (major === MINIMUM_PYTHON[0] && minor < MINIMUM_PYTHON[1])) {
    return { ok: false, cause: `${name} is Python ${text}; the server needs Python ${MINIMUM_PYTHON.join('.')} or newer`, kind: 'too-old' };
  }
  const importError = /^import-error (.*)$/m.exec(run.stdout);
  if (importError !== null) {
    const where = python.libs !== undefined ? `the server bundled with the extension (${python.libs})` : SERVER_MODULE;
    return { ok: false, cause: `${name} (Python ${text}) cannot import ${where}: ${importError[1]}`, kind: 'no-package' };
  }
  if (!/^module /m.test(run.stdout)) {
    return { ok: false, cause: `${name} stopped before importing ${SERVER_MODULE}${firstLine(run.stderr) ? `: ${firstLine(run.stderr)}` : ''}`, kind: 'not-python' };
  }
  return { ok: true, version: text, executable: version[4] };
}

/** Runs a probe command; the extension's runs the process, tests answer for Python. */
export type ProbeRunner = (command: string, args: string[], options: { cwd?: string; env: Record<string, string> }) => Promise<ProbeRun>;

/** The command the server starts with, and the probe's verdict on its Python (none for a non-Python command). */
export interface ProbedLaunch {
  spec: LaunchSpec;
  outcome?: ProbeOutcome;
}

/**
 * Resolve the launch and probe its Python. When no interpreter is configured (the bundled server with the
 * platform's default), each candidate `discover` returns is probed in order and the first that works is
 * used; when none does, the cause lists what was tried.
 */
export async function probeLaunch(input: LaunchInput, run: ProbeRunner, cwd: string | undefined, discover: () => Discovery): Promise<ProbedLaunch> {
  const spec = resolveLaunch(input);
  const probe = async (candidate: LaunchSpec): Promise<ProbeOutcome> => {
    const python = candidate.python as PythonLaunch;
    const { command, args } = probeCommand(python);
    return parseProbe(await run(command, args, { cwd, env: candidate.options.env }), python);
  };
  if (spec.python === undefined) {
    return { spec };
  }
  if (spec.source !== 'default-python') {
    return { spec, outcome: await probe(spec) };
  }
  const discovery = discover();
  const outcomes = new Map<string, ProbeOutcome>();
  const { found, tried } = await firstWorking(discovery.candidates, async (candidate) => {
    const outcome = await probe(resolveLaunch({ ...input, defaultPython: candidate.parts }));
    outcomes.set(candidate.parts.join('\0'), outcome);
    return outcome;
  });
  if (found !== undefined) {
    return { spec: resolveLaunch({ ...input, defaultPython: found.parts }), outcome: outcomes.get(found.parts.join('\0')) };
  }
  const cause = `no Python ${MINIMUM_PYTHON.join('.')} or newer was found: ${describeDiscovery(discovery, tried)}`;
  const kinds = [...outcomes.values()].flatMap((outcome) => (outcome.ok ? [] : [outcome.kind]));
  return { spec, outcome: { ok: false, cause, kind: kinds.includes('too-old') ? 'too-old' : 'missing' } };
}

const firstLine = (text: string) => text.split(/\r?\n/).find((line) => line.trim() !== '')?.trim();

/**
 * Whether a command that is not a Python launch exists: a path is checked as written, a bare name is
 * looked up on PATH (with PATHEXT on Windows), as spawn would.
 */
export function commandExists(
  command: string,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
): boolean {
  const flavour = platform === 'win32' ? path.win32 : path.posix;
  const isFile = (candidate: string) => {
    try {
      return fs.statSync(candidate).isFile();
    } catch {
      return false;
    }
  };
  const extensions =
    platform === 'win32' ? ['', ...(envLookup(env, 'PATHEXT', platform) ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
  const hasFolder = platform === 'win32' ? /[\\/]/.test(command) : command.includes('/');
  const folders = hasFolder ? [''] : (envLookup(env, 'PATH', platform) ?? '').split(flavour.delimiter).filter(Boolean);
  return folders.some((folder) => extensions.some((extension) => isFile(flavour.join(folder, command + extension))));
}
