/**
 * What the user reads: the one notification for a server that cannot start (cause, setting, scope,
 * advice), and the level of each line the server writes on stderr.
 *
 * This module must not import `vscode`: `node --test` runs it directly.
 */
import { type ImportStrategy, type LaunchSpec } from './launch';
import { MINIMUM_PYTHON, type ProbeFailure } from './probe';
import { SECTION } from './declared';

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

/** What the advice depends on beside the command: the strategy asked for, and whether this build has a bundle. */
export interface LaunchSituation {
  importStrategy: ImportStrategy;
  bundleAvailable: boolean;
  /** Why the probe failed; absent when the server itself failed to start after a good probe. */
  kind?: ProbeFailure;
}

/**
 * The one notification for a server that cannot start: the cause, the setting that chose the command and
 * the scope its value came from, and only the advice that would help in that situation (no "set
 * importStrategy to useBundled" when it is already, or when this build has no bundled server).
 */
export function explainLaunchFailure(spec: LaunchSpec, cause: string, scope: string, situation: LaunchSituation): string {
  const where = scope === 'default' ? 'its default value' : `your ${scope} settings`;
  const newer = `Python ${MINIMUM_PYTHON.join('.')} or newer`;
  const bundled = spec.python?.libs !== undefined;
  const bundleOffer = situation.bundleAvailable && situation.importStrategy === 'fromEnvironment';
  const useBundled = bundleOffer ? `, or set ${SECTION}.server.importStrategy to useBundled to run the server bundled with the extension` : '';
  const noBundle = situation.importStrategy === 'useBundled' && !situation.bundleAvailable ? ' (this build of the extension has no bundled server)' : '';
  const strategy = situation.importStrategy === 'fromEnvironment' ? ` with ${SECTION}.server.importStrategy fromEnvironment (${where})` : noBundle;
  /** What to do about the interpreter `chosen` ("point it at", "select") names. */
  const fixInterpreter = (chosen: string, otherwise: string) => {
    if (!bundled && situation.kind === 'no-package') {
      return `install albedo-skills-ls in it (\`${[spec.python?.command ?? 'python', ...(spec.python?.prefix ?? [])].join(' ')} -m pip install albedo-skills-ls\`)${useBundled}, or ${otherwise}.`;
    }
    if (bundled && situation.kind === 'no-package') {
      return `the server bundled with the extension did not import: reinstall the extension, or ${otherwise}.`;
    }
    const package_ = bundled ? '' : ' with albedo-skills-ls installed';
    return `${chosen} ${newer}${package_}${!bundled ? useBundled : ''}, or ${otherwise}.`;
  };
  let advice: string;
  switch (spec.source) {
    case 'server.path':
      advice = `The command comes from ${SECTION}.server.path (${where}): correct it${situation.bundleAvailable && situation.importStrategy === 'useBundled' ? ', or clear it to use the server bundled with the extension' : ''}.`;
      break;
    case 'server.pythonPath':
      advice = `The interpreter comes from ${SECTION}.server.pythonPath (${where})${bundled ? '' : strategy}: ${fixInterpreter('point it at', 'clear it')}`;
      break;
    case 'python-extension':
      advice = `The interpreter is the one selected in the Python extension${bundled ? '' : strategy}: ${fixInterpreter('select', `set ${SECTION}.server.pythonPath`)}`;
      break;
    case 'default-python':
      advice = `No interpreter is configured: install ${newer} (python.org; on macOS also Homebrew), or set ${SECTION}.server.pythonPath to one.`;
      break;
    case 'path':
      advice = `No interpreter is configured${strategy}, so albedo-skills-ls was looked up on PATH: install it (pip install albedo-skills-ls)${useBundled}, or set ${SECTION}.server.pythonPath or ${SECTION}.server.path.`;
      break;
  }
  return `Albedo Skills: the language server cannot start: ${cause}. ${advice}`;
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
