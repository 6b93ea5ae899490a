/**
 * How the server is started: the launch order (settings, the bundled server, the Python extension's
 * interpreter, PATH), variable substitution and the command as the log shows it. The interpreter probe is
 * probe.ts's, the failure message messages.ts's, the settings settings.ts's.
 *
 * This module must not import `vscode`: `node --test` runs it directly.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type ExtensionSettings } from './declared';

// `Timers` lives in restarts.ts; re-exported because code written before the split imports it from here.
export type { Timers } from './restarts';

/** The Python package that `python -m` runs. */
export const SERVER_MODULE = 'albedo_skills_ls';
/** The console script that `pip install albedo-skills-ls` puts on PATH. */
export const SERVER_SCRIPT = 'albedo-skills-ls';

// ---------------------------------------------------------------------------------------------------------
// How the server is started

/**
 * Which rule chose the command: a setting, the Python extension's interpreter, the platform's default
 * Python (for the bundled server), or `albedo-skills-ls` on PATH.
 */
export type LaunchSource = 'server.path' | 'server.pythonPath' | 'python-extension' | 'default-python' | 'path';

/** `albedoSkills.server.importStrategy`, as in Microsoft's Python-tool extensions (declared.ts has its choices). */
export type ImportStrategy = ExtensionSettings['server']['importStrategy'];

/** The server shipped inside the extension: `bundled/tool/launch.py` runs the package from `bundled/libs`. */
export interface Bundle {
  launcher: string;
  libs: string;
}

/** Where the bundle sits in an installed extension; present only when `scripts/bundle-server.py` built it. */
export function findBundle(extensionPath: string | undefined): Bundle | undefined {
  if (extensionPath === undefined) {
    return undefined;
  }
  const bundle = {
    launcher: path.join(extensionPath, 'bundled', 'tool', 'launch.py'),
    libs: path.join(extensionPath, 'bundled', 'libs'),
  };
  return fs.existsSync(bundle.launcher) && fs.existsSync(path.join(bundle.libs, SERVER_MODULE)) ? bundle : undefined;
}

/** The interpreter part of a Python launch, so it can be probed before the server starts. */
export interface PythonLaunch {
  /** The interpreter command and the arguments before the script (`conda run -n env python`). */
  command: string;
  prefix: string[];
  /** Set when the bundled server runs: the folder put first on `sys.path`. */
  libs?: string;
}

export interface LaunchSpec {
  command: string;
  args: string[];
  options: { env: Record<string, string>; shell?: boolean };
  /** Which rule chose the command; logged, and used to decide which changes need a restart. */
  source: LaunchSource;
  /** Present when a Python interpreter runs the server (everything but `server.path` and PATH). */
  python?: PythonLaunch;
}

export interface LaunchInput {
  /** `albedoSkills.server.path`: the command and its arguments. */
  serverPath: readonly string[];
  /** `albedoSkills.server.pythonPath`. */
  pythonPath: string;
  /** The Python extension's interpreter command for this workspace (`[python]` or `[conda, run, ...]`). */
  interpreter?: readonly string[];
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  /** The first workspace folder: `${workspaceFolder}` and relative interpreter paths resolve against it. */
  workspaceFolder?: string;
  /** The user's home: `~` and `${userHome}`. */
  home?: string;
  /** `albedoSkills.server.importStrategy`; absent: the environment's package (the order without a bundle). */
  importStrategy?: ImportStrategy;
  /** The server shipped in the extension, when it is there. */
  bundle?: Bundle;
  /**
   * The interpreter for the bundled server when none is configured: the one pythonDiscovery.ts found.
   * Absent: the platform's default name (`defaultPython`).
   */
  defaultPython?: readonly string[];
}

/** The interpreter named for the bundled server before discovery found one: what python.org installs. */
export function defaultPython(platform: NodeJS.Platform): string[] {
  return platform === 'win32' ? ['py', '-3'] : ['python3'];
}

/**
 * Choose the server command, first match wins:
 * 1. `albedoSkills.server.path`, verbatim (after variable substitution);
 * 2. with the bundled server (importStrategy `useBundled` and a bundle present): the bundled launcher, run
 *    by `server.pythonPath`, else the Python extension's interpreter, else the one discovery found
 *    (`input.defaultPython`; pythonDiscovery.ts), else `python3` (`py -3` on Windows);
 * 3. `albedoSkills.server.pythonPath -m albedo_skills_ls`;
 * 4. the Python extension's interpreter `-m albedo_skills_ls`;
 * 5. `albedo-skills-ls` from PATH.
 */
export function resolveLaunch(input: LaunchInput): LaunchSpec {
  const env = serverEnv(input.env);
  const expand = (value: string) => substitute(value, input);

  if (hasServerPath(input)) {
    const [command, ...args] = input.serverPath.map(expand);
    return finish(commandPath(command, input), args, env, 'server.path', input.platform);
  }
  const interpreter = (input.interpreter ?? []).filter((part) => part !== '');
  let python: { parts: string[]; source: LaunchSource } | undefined;
  if (hasPythonPath(input)) {
    python = { parts: [commandPath(expand(input.pythonPath.trim()), input)], source: 'server.pythonPath' };
  } else if (interpreter.length > 0) {
    python = { parts: interpreter, source: 'python-extension' };
  }
  if (input.importStrategy === 'useBundled' && input.bundle !== undefined) {
    const { parts, source } = python ?? { parts: [...(input.defaultPython ?? defaultPython(input.platform))], source: 'default-python' as const };
    // -I: neither PYTHONPATH, the user's site-packages nor the working folder can shadow the bundled
    // packages; it also ignores PYTHONUTF8, hence -X utf8.
    const spec = finish(parts[0], [...parts.slice(1), '-I', '-X', 'utf8', input.bundle.launcher], env, source, input.platform);
    return { ...spec, python: { command: parts[0], prefix: parts.slice(1), libs: input.bundle.libs } };
  }
  if (python !== undefined) {
    const { parts, source } = python;
    const spec = finish(parts[0], [...parts.slice(1), '-m', SERVER_MODULE], env, source, input.platform);
    return { ...spec, python: { command: parts[0], prefix: parts.slice(1) } };
  }
  // Bare on purpose: spawn searches PATH, and on Windows libuv also tries `.exe`, the shape of a pip script.
  return finish(SERVER_SCRIPT, [], env, 'path', input.platform);
}

const hasServerPath = (input: Pick<LaunchInput, 'serverPath'>) => (input.serverPath[0] ?? '').trim() !== '';
const hasPythonPath = (input: Pick<LaunchInput, 'pythonPath'>) => input.pythonPath.trim() !== '';

/**
 * Whether the launch order reaches the Python extension's interpreter (neither server setting is set), so
 * the extension asks that extension only when its answer is used.
 */
export function needsInterpreter(input: Pick<LaunchInput, 'serverPath' | 'pythonPath'>): boolean {
  return !hasServerPath(input) && !hasPythonPath(input);
}

function finish(
  command: string,
  args: string[],
  env: Record<string, string>,
  source: LaunchSource,
  platform: NodeJS.Platform,
): LaunchSpec {
  // Node refuses to spawn a .cmd or .bat without a shell on Windows (CVE-2024-27980); run those through
  // cmd.exe, quoting each part that needs it, so a path with spaces stays one argument.
  if (platform === 'win32' && /\.(cmd|bat)$/i.test(command)) {
    return { command: quoteForCmd(command), args: args.map(quoteForCmd), options: { env, shell: true }, source };
  }
  return { command, args, options: { env }, source };
}

/** Double-quote a cmd.exe argument that needs it; inside quotes `&|<>^` and spaces are literal. */
export function quoteForCmd(value: string): string {
  if (value !== '' && !/[\s"&|<>^()%!,;=]/.test(value)) {
    return value;
  }
  return `"${value.replace(/"/g, '""')}"`;
}

/** The server's environment: the editor's, with UTF-8 forced for Python's stdio and file names. */
export function serverEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined) {
      result[key] = value;
    }
  }
  result.PYTHONUTF8 = '1';
  return result;
}

/**
 * Replace `${workspaceFolder}`, `${userHome}` and `${env:NAME}`, and a leading `~`, which VS Code does not
 * do for an extension's settings. An unknown variable, or one with no value here, is left as written.
 */
export function substitute(
  value: string,
  context: Pick<LaunchInput, 'env' | 'workspaceFolder' | 'home' | 'platform'>,
): string {
  let result = value.replace(/\$\{(workspaceFolder|userHome|env:([^}]+))\}/g, (whole, name: string, envName?: string) => {
    if (name === 'workspaceFolder') {
      return context.workspaceFolder ?? whole;
    }
    if (name === 'userHome') {
      return context.home ?? whole;
    }
    return envLookup(context.env, envName ?? '', context.platform) ?? whole;
  });
  const sep = context.platform === 'win32' ? /^~(?=$|[\\/])/ : /^~(?=$|\/)/;
  if (context.home !== undefined && sep.test(result)) {
    result = context.home + result.slice(1);
  }
  return result;
}

/** Environment lookup; Windows names are case-insensitive (`Path` and `PATH` are one variable). */
export function envLookup(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  platform: NodeJS.Platform,
): string | undefined {
  if (platform !== 'win32') {
    return env[name];
  }
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

/**
 * A relative path with a folder in it (`.venv/bin/python`, `.venv\Scripts\python.exe`) is taken from the
 * workspace folder, as the Python extension does; a bare name (`python3`) is left for PATH.
 */
function commandPath(command: string, input: Pick<LaunchInput, 'platform' | 'workspaceFolder'>): string {
  const flavour = input.platform === 'win32' ? path.win32 : path.posix;
  const hasFolder = input.platform === 'win32' ? /[\\/]/.test(command) : command.includes('/');
  if (!hasFolder || flavour.isAbsolute(command) || input.workspaceFolder === undefined) {
    return command;
  }
  return flavour.resolve(input.workspaceFolder, command);
}

/** One line for the log: the command as a shell would show it. */
export function describeLaunch(spec: LaunchSpec): string {
  const show = (part: string) => (/^[\w@%+=:,./\\-]+$/.test(part) ? part : JSON.stringify(part));
  const bundled = spec.python?.libs !== undefined ? ', bundled server' : '';
  return `${[spec.command, ...spec.args].map(show).join(' ')} (from ${spec.source}${bundled})`;
}
