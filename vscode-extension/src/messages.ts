/**
 * What the user reads: the one notification for a server that cannot start (cause, setting, scope,
 * advice), and the level of each line the server writes on stderr.
 *
 * This module must not import `vscode`: `node --test` runs it directly.
 */
import { type LaunchSpec } from './launch';
import { MINIMUM_PYTHON } from './probe';
import { SECTION } from './settings';

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
