/**
 * The extension's settings: reading and validating them, what the server is sent of them, and which
 * documents the client hands the server.
 *
 * This module must not import `vscode`: `node --test` runs it directly.
 */
import {
  AGENT_INSTRUCTION_FILES,
  type DeclaredSetting,
  defaultSettings,
  type ExtensionSettings,
  SECTION,
  type ServerSettings,
  type SettingKey,
  SETTINGS,
  SKILL_FILE,
} from './declared';

// The settings' names, types, defaults and shapes are declared once, in the server's Python
// (albedo_skills_ls/lsp/settings.py), and written into ./declared.ts by `python -m albedo_skills_ls.generate`.

// ---------------------------------------------------------------------------------------------------------
// Settings

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

/** Set a dotted key in a nested settings object (`chat.languageIds` under `chat`). */
function assign(target: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]] = value;
}

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
  // Empty names and patterns are refused, as the server refuses them.
  const isNames = (value: unknown): value is string[] => isStringArray(value) && value.every((item) => item.trim() !== '');
  const isChoice = (choices: readonly string[]) => (value: unknown): value is string => choices.includes(value as string);
  const valid = (setting: DeclaredSetting): ((value: unknown) => value is unknown) => {
    switch (setting.kind) {
      case 'boolean':
        return isBoolean;
      case 'string':
        return isString;
      case 'names':
        return isNames;
      case 'choice':
        return isChoice(setting.choices ?? []);
    }
  };
  for (const setting of SETTINGS) {
    const value = take(setting.key, valid(setting), setting.expected);
    if (value !== undefined) {
      assign(settings as unknown as Record<string, unknown>, setting.key, value);
    }
  }
  return { settings, problems };
}

/** `initializationOptions` for the server: its own settings under `albedoSkills`, without the extension's. */
export function initializationOptions(settings: ExtensionSettings): { albedoSkills: ServerSettings } {
  const { server: _launchOnly, copilotSkillLocations: _extensionOnly, ...serverSettings } = settings;
  return { albedoSkills: structuredClone(serverSettings) };
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
  for (const { key } of SETTINGS.filter((setting) => setting.server)) {
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

/** The top-level keys of the section that only the extension reads (`server`, `copilotSkillLocations`). */
const EXTENSION_ONLY = new Set(SETTINGS.filter((setting) => !setting.server).map((setting) => setting.key.split('.')[0]));

/**
 * The `albedoSkills` section as the server sees it through `workspace/configuration`: without the
 * extension's own settings (`server.*`, `copilotSkillLocations`), which the server does not know and would
 * report as unknown.
 */
export function withoutLaunchSettings(section: unknown): unknown {
  if (section === null || typeof section !== 'object' || Array.isArray(section)) {
    return section;
  }
  return Object.fromEntries(Object.entries(section).filter(([key]) => !EXTENSION_ONLY.has(key.split('.')[0])));
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
 * by language id (saved or untitled) and by file-name pattern, plus the agents' instruction files on disk.
 * A pattern without a `/` matches the file's name in any folder, as the server matches it.
 */
export function documentSelector(settings: Pick<ServerSettings, 'chat'>): DocumentFilter[] {
  const filters: DocumentFilter[] = [
    { scheme: 'file', language: 'skill' },
    { scheme: 'file', pattern: `**/${SKILL_FILE}` },
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
