/**
 * Everything the extension decides without asking VS Code: how to launch the server, which settings it
 * gets, which documents it sees, and how restarts are debounced.
 *
 * This module must not import `vscode`: `node --test` runs it directly.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The Python package that `python -m` runs. */
export const SERVER_MODULE = 'albedo_skills_ls';
/** The console script that `pip install albedo-skills-ls` puts on PATH. */
export const SERVER_SCRIPT = 'albedo-skills-ls';
/** Every setting lives under this section (decisions.md, section 6). */
export const SECTION = 'albedoSkills';

// ---------------------------------------------------------------------------------------------------------
// Settings

export type LogLevelName = 'error' | 'warning' | 'info' | 'debug';
export const LOG_LEVELS: readonly LogLevelName[] = ['error', 'warning', 'info', 'debug'];

/** The settings the server reads, exactly as it receives them under `initializationOptions.albedoSkills`. */
export interface ServerSettings {
  enable: boolean;
  userRoots: boolean;
  home: string;
  autoReload: boolean;
  builtinCommands: string[];
  chat: { languageIds: string[]; filePatterns: string[] };
  logLevel: LogLevelName;
  hosts: string[];
}

/** The server's settings plus the ones only the extension reads (how to start the server). */
export interface ExtensionSettings extends ServerSettings {
  server: { path: string[]; pythonPath: string };
}

/** The defaults; package.json's configuration schema carries the same values. */
export function defaultSettings(): ExtensionSettings {
  return {
    enable: true,
    userRoots: true,
    home: '',
    autoReload: true,
    builtinCommands: ['help', 'model', 'reload'],
    chat: {
      languageIds: ['albedo-chat', 'markdown.chat', 'codecompanion', 'AvanteInput', 'copilot-chat', 'gp_chat'],
      filePatterns: ['*.chat.md'],
    },
    logLevel: 'info',
    hosts: [],
    server: { path: [], pythonPath: '' },
  };
}

/** Every key of the section, dotted, as `WorkspaceConfiguration.get` takes them. */
export const SETTING_KEYS = [
  'enable',
  'userRoots',
  'home',
  'autoReload',
  'builtinCommands',
  'chat.languageIds',
  'chat.filePatterns',
  'logLevel',
  'hosts',
  'server.path',
  'server.pythonPath',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

/** A setting whose value was refused; the default was used instead. */
export interface SettingProblem {
  key: SettingKey;
  message: string;
}

export interface ReadSettings {
  settings: ExtensionSettings;
  problems: SettingProblem[];
}

/**
 * Look a dotted key up in a settings object that is nested (`{chat: {languageIds}}`, the shape of
 * `getConfiguration().get('albedoSkills')`), flat (`{'chat.languageIds': ...}`), or a mix.
 */
function lookup(raw: Record<string, unknown>, key: string): unknown {
  if (Object.prototype.hasOwnProperty.call(raw, key)) {
    return raw[key];
  }
  let current: unknown = raw;
  for (const part of key.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, part)) {
      return undefined;
    }
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/**
 * Validate a settings object. A missing (`undefined` or `null`) value takes its default silently; a value of
 * the wrong type takes its default and is reported, so the user learns why their setting had no effect.
 */
export function readSettings(raw: unknown): ReadSettings {
  const settings = defaultSettings();
  const problems: SettingProblem[] = [];
  const source = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};

  function take<T>(key: SettingKey, valid: (value: unknown) => value is T, expected: string): T | undefined {
    const value = lookup(source, key);
    if (value === undefined || value === null) {
      return undefined;
    }
    if (valid(value)) {
      return value;
    }
    problems.push({ key, message: `${SECTION}.${key} must be ${expected}; got ${JSON.stringify(value)}. The default is used.` });
    return undefined;
  }
  const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
  const isString = (value: unknown): value is string => typeof value === 'string';
  const isLogLevel = (value: unknown): value is LogLevelName => LOG_LEVELS.includes(value as LogLevelName);
  // Empty names and patterns are refused, as the server refuses them.
  const isNames = (value: unknown): value is string[] => isStringArray(value) && value.every((item) => item.trim() !== '');

  settings.enable = take('enable', isBoolean, 'true or false') ?? settings.enable;
  settings.userRoots = take('userRoots', isBoolean, 'true or false') ?? settings.userRoots;
  settings.home = take('home', isString, 'a path (string)') ?? settings.home;
  settings.autoReload = take('autoReload', isBoolean, 'true or false') ?? settings.autoReload;
  settings.builtinCommands = take('builtinCommands', isNames, 'a list of non-empty strings') ?? settings.builtinCommands;
  settings.chat.languageIds =
    take('chat.languageIds', isNames, 'a list of non-empty strings') ?? settings.chat.languageIds;
  settings.chat.filePatterns =
    take('chat.filePatterns', isNames, 'a list of non-empty strings') ?? settings.chat.filePatterns;
  settings.logLevel = take('logLevel', isLogLevel, `one of ${LOG_LEVELS.join(', ')}`) ?? settings.logLevel;
  settings.hosts = take('hosts', isNames, 'a list of agent ids') ?? settings.hosts;
  settings.server.path =
    take('server.path', isNames, 'a list of non-empty strings (the command and its arguments)') ??
    settings.server.path;
  settings.server.pythonPath = take('server.pythonPath', isString, 'a path (string)') ?? settings.server.pythonPath;
  return { settings, problems };
}

/** `initializationOptions` for the server: its own settings under `albedoSkills`, without `server.*`. */
export function initializationOptions(settings: ExtensionSettings): { albedoSkills: ServerSettings } {
  const { server: _launchOnly, ...serverSettings } = settings;
  return {
    albedoSkills: {
      ...serverSettings,
      builtinCommands: [...serverSettings.builtinCommands],
      hosts: [...serverSettings.hosts],
      chat: { languageIds: [...serverSettings.chat.languageIds], filePatterns: [...serverSettings.chat.filePatterns] },
    },
  };
}

/**
 * `initializationOptions` with the server's settings as the user wrote them: the server validates them and
 * reports a bad value itself (issue 9: one validator), so a wrong value is passed through, not replaced. A
 * setting with no value at all (never the case inside VS Code, which fills in package.json's defaults)
 * takes the default.
 */
export function initializationOptionsAsWritten(raw: unknown): { albedoSkills: Record<string, unknown> } {
  const source = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const defaults = defaultSettings() as unknown as Record<string, unknown>;
  const section: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    if (key.startsWith('server.')) {
      continue;
    }
    const value = lookup(source, key) ?? lookup(defaults, key);
    const parts = key.split('.');
    let node = section;
    for (const part of parts.slice(0, -1)) {
      node = (node[part] ??= {}) as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = value;
  }
  return { albedoSkills: section };
}

/**
 * The `albedoSkills` section as the server sees it through `workspace/configuration`: without the
 * extension's own `server.*` settings, which the server does not know and would report as unknown.
 */
export function withoutLaunchSettings(section: unknown): unknown {
  if (section === null || typeof section !== 'object' || Array.isArray(section)) {
    return section;
  }
  return Object.fromEntries(
    Object.entries(section).filter(([key]) => key !== 'server' && !key.startsWith('server.')),
  );
}

/** A `workspace/configuration` answer with every `albedoSkills` value (or whole-configuration value) filtered. */
export function configurationForServer(items: readonly { section?: string }[], values: readonly unknown[]): unknown[] {
  return values.map((value, index) => {
    const section = items[index]?.section;
    if (section === SECTION) {
      return withoutLaunchSettings(value);
    }
    if ((section === undefined || section === '') && value !== null && typeof value === 'object' && SECTION in value) {
      return { ...value, [SECTION]: withoutLaunchSettings((value as Record<string, unknown>)[SECTION]) };
    }
    return value;
  });
}

// ---------------------------------------------------------------------------------------------------------
// Which documents the client sends to the server

export interface DocumentFilter {
  scheme: string;
  language?: string;
  pattern?: string;
}

/**
 * `SKILL.md` files on disk (VS Code's own `skill` language, and any `SKILL.md` by name), plus chat buffers
 * by language id (saved or untitled) and by file-name pattern. A pattern without a `/` matches the file's
 * name in any folder, as the server matches it.
 */
export function documentSelector(settings: Pick<ServerSettings, 'chat'>): DocumentFilter[] {
  const filters: DocumentFilter[] = [
    { scheme: 'file', language: 'skill' },
    { scheme: 'file', pattern: '**/SKILL.md' },
  ];
  for (const language of settings.chat.languageIds) {
    filters.push({ scheme: 'file', language }, { scheme: 'untitled', language });
  }
  for (const pattern of settings.chat.filePatterns) {
    filters.push({ scheme: 'file', pattern: pattern.includes('/') ? pattern : `**/${pattern}` });
  }
  return filters;
}

// ---------------------------------------------------------------------------------------------------------
// How the server is started

/**
 * Which rule chose the command: a setting, the Python extension's interpreter, the platform's default
 * Python (for the bundled server), or `albedo-skills-ls` on PATH.
 */
export type LaunchSource = 'server.path' | 'server.pythonPath' | 'python-extension' | 'default-python' | 'path';

/** `albedoSkills.server.importStrategy`, as in Microsoft's Python-tool extensions. */
export type ImportStrategy = 'useBundled' | 'fromEnvironment';
export const IMPORT_STRATEGIES: readonly ImportStrategy[] = ['useBundled', 'fromEnvironment'];
/** The schema's default (package.json); launch.test.ts checks they agree. */
export const DEFAULT_IMPORT_STRATEGY: ImportStrategy = 'useBundled';

/** The setting's value, or the default with a problem for anything else. */
export function readImportStrategy(value: unknown): { strategy: ImportStrategy; problem?: string } {
  if (value === undefined || value === null) {
    return { strategy: DEFAULT_IMPORT_STRATEGY };
  }
  if (IMPORT_STRATEGIES.includes(value as ImportStrategy)) {
    return { strategy: value as ImportStrategy };
  }
  return {
    strategy: DEFAULT_IMPORT_STRATEGY,
    problem: `${SECTION}.server.importStrategy must be one of ${IMPORT_STRATEGIES.join(', ')}; got ${JSON.stringify(value)}. The default is used.`,
  };
}

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
}

/** The interpreter tried for the bundled server when no other is known: what python.org installs. */
export function defaultPython(platform: NodeJS.Platform): string[] {
  return platform === 'win32' ? ['py', '-3'] : ['python3'];
}

/**
 * Choose the server command, first match wins:
 * 1. `albedoSkills.server.path`, verbatim (after variable substitution);
 * 2. with the bundled server (importStrategy `useBundled` and a bundle present): the bundled launcher, run
 *    by `server.pythonPath`, else the Python extension's interpreter, else `python3` (`py -3` on Windows);
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
    const { parts, source } = python ?? { parts: defaultPython(input.platform), source: 'default-python' as const };
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
function envLookup(
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

// ---------------------------------------------------------------------------------------------------------
// Before starting: is the command there, and can this Python run the server?

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

export type ProbeOutcome = { ok: true; version: string; executable: string } | { ok: false; cause: string };

/** Read the probe's answer into a version, or the cause of the failure in words a user can act on. */
export function parseProbe(run: ProbeRun, python: PythonLaunch): ProbeOutcome {
  const name = `\`${[python.command, ...python.prefix].join(' ')}\``;
  if (run.errorCode === 'ENOENT') {
    return { ok: false, cause: `${name} was not found` };
  }
  if (run.errorCode === 'EACCES') {
    return { ok: false, cause: `${name} cannot be run (permission denied)` };
  }
  if (run.errorCode === 'ETIMEDOUT') {
    return { ok: false, cause: `${name} did not answer within ${PROBE_TIMEOUT_MS / 1000} seconds` };
  }
  const version = /^python (\d+)\.(\d+)\.(\d+) (.*)$/m.exec(run.stdout);
  if (version === null) {
    const said = firstLine(run.stderr) ?? firstLine(run.stdout);
    return { ok: false, cause: `${name} is not a working Python interpreter${said ? ` (it said: ${said})` : ''}` };
  }
  const [major, minor] = [Number(version[1]), Number(version[2])];
  const text = `${version[1]}.${version[2]}.${version[3]}`;
  if (major < MINIMUM_PYTHON[0] || (major === MINIMUM_PYTHON[0] && minor < MINIMUM_PYTHON[1])) {
    return { ok: false, cause: `${name} is Python ${text}; the server needs Python ${MINIMUM_PYTHON.join('.')} or newer` };
  }
  const importError = /^import-error (.*)$/m.exec(run.stdout);
  if (importError !== null) {
    const where = python.libs !== undefined ? `the server bundled with the extension (${python.libs})` : SERVER_MODULE;
    return { ok: false, cause: `${name} (Python ${text}) cannot import ${where}: ${importError[1]}` };
  }
  if (!/^module /m.test(run.stdout)) {
    return { ok: false, cause: `${name} stopped before importing ${SERVER_MODULE}${firstLine(run.stderr) ? `: ${firstLine(run.stderr)}` : ''}` };
  }
  return { ok: true, version: text, executable: version[4] };
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

/** Where a setting's value came from, in the words of the Settings editor's tabs. */
export interface SettingInspection {
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * The scope the effective value was read from. In a remote window (SSH, WSL, a container, a browser VS Code)
 * the machine settings that reach the extension are the Remote ones, so a global value is called Remote.
 */
export function settingScope(inspection: SettingInspection | undefined, remoteName: string | undefined): string {
  const isSet = (value: unknown) => value !== undefined && !(Array.isArray(value) && value.length === 0) && value !== '';
  if (isSet(inspection?.workspaceFolderValue)) {
    return 'Workspace Folder';
  }
  if (isSet(inspection?.workspaceValue)) {
    return 'Workspace';
  }
  if (isSet(inspection?.globalValue)) {
    return remoteName ? `Remote [${remoteName}]` : 'User';
  }
  return 'default';
}

/** The setting (under `albedoSkills`) that decided the failing command, for the message and Open Settings. */
export function launchSetting(spec: LaunchSpec): 'server.path' | 'server.pythonPath' | 'server.importStrategy' {
  return spec.source === 'server.path' || spec.source === 'server.pythonPath' ? spec.source : 'server.importStrategy';
}

/**
 * The one notification for a server that cannot start: the cause, the setting that chose the command and
 * the scope its value came from, and what to do.
 */
export function explainLaunchFailure(spec: LaunchSpec, cause: string, scope: string): string {
  const where = scope === 'default' ? 'its default value' : `your ${scope} settings`;
  const bundled = spec.python?.libs !== undefined;
  let advice: string;
  switch (spec.source) {
    case 'server.path':
      advice = `The command comes from ${SECTION}.server.path (${where}): correct it, or clear it to use the server bundled with the extension.`;
      break;
    case 'server.pythonPath':
      advice = bundled
        ? `The interpreter comes from ${SECTION}.server.pythonPath (${where}): point it at Python ${MINIMUM_PYTHON.join('.')} or newer, or clear it.`
        : `The interpreter comes from ${SECTION}.server.pythonPath (${where}) with importStrategy fromEnvironment: install albedo-skills-ls there, or set ${SECTION}.server.importStrategy to useBundled.`;
      break;
    case 'python-extension':
      advice = bundled
        ? `The interpreter is the one selected in the Python extension: select Python ${MINIMUM_PYTHON.join('.')} or newer, or set ${SECTION}.server.pythonPath.`
        : `The interpreter is the one selected in the Python extension, and ${SECTION}.server.importStrategy is fromEnvironment (${where}): install albedo-skills-ls there, or set it to useBundled.`;
      break;
    case 'default-python':
      advice = `No interpreter is configured, so the bundled server tried ${spec.command}: install Python ${MINIMUM_PYTHON.join('.')} or newer, or set ${SECTION}.server.pythonPath.`;
      break;
    case 'path':
      advice = `No interpreter is configured and the bundled server is not used (${SECTION}.server.importStrategy: ${where}; or this build of the extension has none), so albedo-skills-ls was looked up on PATH: install it (pip install albedo-skills-ls), or set ${SECTION}.server.pythonPath or ${SECTION}.server.path.`;
      break;
  }
  return `Albedo Skills: the language server cannot start: ${cause}. ${advice}`;
}

// ---------------------------------------------------------------------------------------------------------
// Restarting after a crash

/** The first restart after a crash waits this long; each further crash in a row doubles it… */
export const CRASH_RESTART_FIRST_MS = 1_000;
/** …up to this. */
export const CRASH_RESTART_MAX_MS = 60_000;
/** A server that ran this long before crashing starts the back-off over. */
export const CRASH_STABLE_RUN_MS = 180_000;

/** The wait before restart number `attempt` (0 for the first crash in a row). */
export function crashRestartDelay(attempt: number): number {
  return Math.min(CRASH_RESTART_FIRST_MS * 2 ** Math.max(0, attempt), CRASH_RESTART_MAX_MS);
}

// ---------------------------------------------------------------------------------------------------------
// The server's stderr

export type StderrLevel = 'error' | 'warn' | 'info' | 'debug';

/**
 * A classifier for the server's stderr lines, which the client would otherwise log all as errors. A line
 * takes the Python logging level named in it; an indented or empty line (a traceback frame, the rest of a
 * multi-line record) takes the level of the line before it; anything else is information.
 */
export function stderrClassifier(): (line: string) => StderrLevel {
  let previous: StderrLevel = 'info';
  return (line) => {
    let level: StderrLevel;
    if (/^(\s|$)/.test(line)) {
      level = previous;
    } else if (/\b(CRITICAL|ERROR|FATAL)\b|^Traceback \(most recent call last\)|^During handling of|^[\w.]+(Error|Exception):/.test(line)) {
      level = 'error';
    } else if (/\bWARN(ING)?\b/.test(line)) {
      level = 'warn';
    } else if (/\bDEBUG\b/.test(line)) {
      level = 'debug';
    } else {
      level = 'info';
    }
    previous = level;
    return level;
  };
}

// ---------------------------------------------------------------------------------------------------------
// Debounce

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Drop a pending call. */
  cancel(): void;
  /** Whether a call is waiting. */
  readonly pending: boolean;
}

/**
 * Calls within `ms` of each other collapse into one call, `ms` after the last, with the last arguments.
 * `timers` is injectable so tests can drive time by hand.
 */
export function debounce<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number,
  timers: Timers = realTimers,
): Debounced<A> {
  let handle: unknown;
  let waiting = false;
  const debounced = (...args: A) => {
    if (waiting) {
      timers.clearTimeout(handle);
    }
    waiting = true;
    handle = timers.setTimeout(() => {
      waiting = false;
      handle = undefined;
      fn(...args);
    }, ms);
  };
  return Object.defineProperties(debounced, {
    cancel: {
      value: () => {
        if (waiting) {
          timers.clearTimeout(handle);
          waiting = false;
          handle = undefined;
        }
      },
    },
    pending: { get: () => waiting },
  }) as Debounced<A>;
}
