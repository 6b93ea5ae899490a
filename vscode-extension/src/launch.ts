/**
 * Everything the extension decides without asking VS Code: how to launch the server, which settings it
 * gets, which documents it sees, and how restarts are debounced.
 *
 * This module must not import `vscode`: `node --test` runs it directly.
 */
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
      chat: { languageIds: [...serverSettings.chat.languageIds], filePatterns: [...serverSettings.chat.filePatterns] },
    },
  };
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

export type LaunchSource = 'server.path' | 'server.pythonPath' | 'python-extension' | 'path';

export interface LaunchSpec {
  command: string;
  args: string[];
  options: { env: Record<string, string>; shell?: boolean };
  /** Which rule chose the command; logged, and used to decide which changes need a restart. */
  source: LaunchSource;
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
}

/**
 * Choose the server command, first match wins:
 * 1. `albedoSkills.server.path`, verbatim (after variable substitution);
 * 2. `albedoSkills.server.pythonPath -m albedo_skills_ls`;
 * 3. the Python extension's interpreter `-m albedo_skills_ls`;
 * 4. `albedo-skills-ls` from PATH.
 */
export function resolveLaunch(input: LaunchInput): LaunchSpec {
  const env = serverEnv(input.env);
  const expand = (value: string) => substitute(value, input);

  if (hasServerPath(input)) {
    const [command, ...args] = input.serverPath.map(expand);
    return finish(commandPath(command, input), args, env, 'server.path', input.platform);
  }
  if (hasPythonPath(input)) {
    const pythonPath = expand(input.pythonPath.trim());
    return finish(commandPath(pythonPath, input), ['-m', SERVER_MODULE], env, 'server.pythonPath', input.platform);
  }
  const interpreter = (input.interpreter ?? []).filter((part) => part !== '');
  if (interpreter.length > 0) {
    return finish(interpreter[0], [...interpreter.slice(1), '-m', SERVER_MODULE], env, 'python-extension', input.platform);
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
  return `${[spec.command, ...spec.args].map(show).join(' ')} (from ${spec.source})`;
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
