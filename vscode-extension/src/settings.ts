/**
 * The extension's settings: reading and validating them, what the server is sent of them, and which
 * documents the client hands the server.
 *
 * This module must not import `vscode`: `node --test` runs it directly.
 */
import { COPILOT_LOCATIONS_SETTING } from './nativeSkillLocations';

/** Every setting lives under this section (docs/design.md#6-the-editor-faces). */
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
  security: { enable: boolean; disabledCodes: string[] };
  rename: boolean;
  references: boolean;
  workspaceSymbols: boolean;
  codeLens: boolean;
  inlayHints: boolean;
  folding: boolean;
  selectionRanges: boolean;
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
    security: { enable: true, disabledCodes: [] },
    rename: true,
    references: true,
    workspaceSymbols: true,
    codeLens: true,
    inlayHints: true,
    folding: true,
    selectionRanges: true,
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
  'security.enable',
  'security.disabledCodes',
  'rename',
  'references',
  'workspaceSymbols',
  'codeLens',
  'inlayHints',
  'folding',
  'selectionRanges',
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
  settings.security.enable = take('security.enable', isBoolean, 'true or false') ?? settings.security.enable;
  settings.security.disabledCodes =
    take('security.disabledCodes', isNames, 'a list of security codes') ?? settings.security.disabledCodes;
  settings.rename = take('rename', isBoolean, 'true or false') ?? settings.rename;
  settings.references = take('references', isBoolean, 'true or false') ?? settings.references;
  settings.workspaceSymbols = take('workspaceSymbols', isBoolean, 'true or false') ?? settings.workspaceSymbols;
  settings.codeLens = take('codeLens', isBoolean, 'true or false') ?? settings.codeLens;
  settings.inlayHints = take('inlayHints', isBoolean, 'true or false') ?? settings.inlayHints;
  settings.folding = take('folding', isBoolean, 'true or false') ?? settings.folding;
  settings.selectionRanges = take('selectionRanges', isBoolean, 'true or false') ?? settings.selectionRanges;
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
      security: { enable: serverSettings.security.enable, disabledCodes: [...serverSettings.security.disabledCodes] },
      chat: { languageIds: [...serverSettings.chat.languageIds], filePatterns: [...serverSettings.chat.filePatterns] },
    },
  };
}

/**
 * `initializationOptions` with the server's settings as the user wrote them: the server validates them and
 * reports a bad value itself (docs/design.md#12-settings-one-declaration: one validator), so a wrong value is passed through, not replaced. A
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
 * extension's own `server.*` settings and `copilotSkillLocations`, which the server does not know and
 * would report as unknown.
 */
export function withoutLaunchSettings(section: unknown): unknown {
  if (section === null || typeof section !== 'object' || Array.isArray(section)) {
    return section;
  }
  return Object.fromEntries(
    Object.entries(section).filter(([key]) => key !== 'server' && !key.startsWith('server.') && key !== COPILOT_LOCATIONS_SETTING),
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
 * The agents' instruction files, by name in any folder: the server checks the `/commands` they mention as
 * typed and offers the did-you-mean fix (the server's list: skills/language/mentions.py
 * AGENT_INSTRUCTION_FILES; tests/unit/test_agent_file_names.py holds the copies equal).
 */
export const AGENT_INSTRUCTION_FILES: readonly string[] = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'];

/**
 * `SKILL.md` files on disk (VS Code's own `skill` language, and any `SKILL.md` by name), plus chat buffers
 * by language id (saved or untitled) and by file-name pattern, plus the agents' instruction files on disk.
 * A pattern without a `/` matches the file's name in any folder, as the server matches it.
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
  for (const name of AGENT_INSTRUCTION_FILES) {
    filters.push({ scheme: 'file', pattern: `**/${name}` });
  }
  return filters;
}
