/**
 * Activation and wiring. Every decision that does not need VS Code lives in a module that does not import
 * it (`settings.ts`, `launch.ts`, `probe.ts`, `messages.ts`, `restarts.ts`, `catalogTree.ts`), where `node --test`
 * can reach it; this file only connects those decisions to the editor.
 */
import { execFile } from 'node:child_process';
import * as os from 'node:os';
import * as readline from 'node:readline';
import type { Readable } from 'node:stream';
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  RevealOutputChannelOn,
} from 'vscode-languageclient/node';
import { SECTION, SETTING_KEYS } from './declared';
import { type Bundle, describeLaunch, findBundle, type LaunchSource, type LaunchSpec, needsInterpreter } from './launch';
import { explainLaunchFailure, launchSetting, type LaunchSituation, settingScope, stderrClassifier } from './messages';
import { commandExists, PROBE_TIMEOUT_MS, probeLaunch, type ProbeRunner } from './probe';
import { discoverPython } from './pythonDiscovery';
import { CRASH_STABLE_RUN_MS, crashRestartDelay, debounce, type Debounced, type Timers } from './restarts';
import {
  configurationForServer,
  documentSelector,
  initializationOptionsAsWritten,
  readSettings,
} from './settings';
import { registerChat } from './chat';
import { nativeSkillSupport, syncCopilotSkillLocations } from './nativeSkillSupport';
import { registerSkillsView } from './skillsView';

const CLIENT_ID = 'albedoSkills';
const CLIENT_NAME = 'Albedo Skills';
const PYTHON_EXTENSION_ID = 'ms-python.python';
/** How long a burst of restart triggers (settings, interpreter, trust) must settle before the restart. */
export const RESTART_DELAY_MS = 500;
const STOP_TIMEOUT_MS = 2000;
/** Error lines of the server's stderr kept to explain a failed start (the cause is usually the last one). */
const STDERR_LINES_KEPT = 20;

export type { ProbeRunner } from './probe';

const runProbe: ProbeRunner = (command, args, options) =>
  new Promise((resolve) => {
    execFile(command, args, { ...options, timeout: PROBE_TIMEOUT_MS, windowsHide: true }, (error, stdout, stderr) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      const killed = (error as { killed?: boolean } | null)?.killed === true;
      resolve({ stdout: String(stdout), stderr: String(stderr), errorCode: killed ? 'ETIMEDOUT' : typeof code === 'string' ? code : undefined });
    });
  });

/**
 * The language client, with every error it would announce kept to the output channel: the extension
 * explains a failed start or a crash itself, once, instead of the client's own notifications (one per retry).
 */
class QuietLanguageClient extends LanguageClient {
  override error(message: string, data?: unknown, _showNotification?: boolean | 'force'): void {
    super.error(message, data, false);
  }
}

/** The part of the Python extension's API used here (`@vscode/python-extension` describes all of it). */
interface PythonExtensionApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): { id: string; path: string };
    resolveEnvironment(
      environment: { id: string; path: string } | string,
    ): Promise<{ executable: { uri: vscode.Uri | undefined } } | undefined>;
    readonly onDidChangeActiveEnvironmentPath: vscode.Event<unknown>;
  };
  /** The older API, still exported. */
  settings?: {
    getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined };
    readonly onDidChangeExecutionDetails: vscode.Event<unknown>;
  };
}

/** Owns the one language client, and starts, restarts and stops it one operation at a time. */
class Server implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private source: LaunchSource | undefined;
  private queue: Promise<void> = Promise.resolve();
  private python: PythonExtensionApi | undefined;
  private readonly shownProblems = new Set<string>();
  private readonly watcher = vscode.workspace.createFileSystemWatcher('**/SKILL.md');
  private readonly disposables: vscode.Disposable[] = [this.watcher];
  private readonly timers: Timers;
  /** Crashes in a row after good starts, for the back-off; reset by a run longer than CRASH_STABLE_RUN_MS. */
  private crashes = 0;
  private crashNoticeShown = false;
  private crashRestart: unknown;
  private readonly changeListeners = new Set<(client: LanguageClient | undefined) => void>();
  readonly scheduleRestart: Debounced<[reason: string]>;

  constructor(
    private readonly channel: vscode.LogOutputChannel,
    private readonly bundle: Bundle | undefined,
    timers: Timers | undefined,
    private readonly probe: ProbeRunner,
  ) {
    this.timers = timers ?? { setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) };
    this.scheduleRestart = debounce((reason: string) => void this.restart(reason), RESTART_DELAY_MS, timers);
  }

  /** Stop the running client (if any) and start a new one with the current settings and interpreter. */
  restart(reason: string): Promise<void> {
    this.scheduleRestart.cancel();
    this.cancelCrashRestart();
    return this.enqueue(async () => {
      this.channel.info(`Starting the server (${reason}).`);
      await this.stopClient();
      await this.startClient();
    });
  }

  /** The running client, for requests; undefined while stopped or starting. */
  running(): LanguageClient | undefined {
    return this.client?.isRunning() ? this.client : undefined;
  }

  /** Called with the client after each start that reached the running state, and with undefined on stop. */
  onDidChange(listener: (client: LanguageClient | undefined) => void): vscode.Disposable {
    this.changeListeners.add(listener);
    return { dispose: () => this.changeListeners.delete(listener) };
  }

  async dispose(): Promise<void> {
    this.scheduleRestart.cancel();
    this.cancelCrashRestart();
    await this.enqueue(() => this.stopClient());
    for (const disposable of this.disposables.splice(0)) {
      disposable.dispose();
    }
  }

  private enqueue(operation: () => Promise<void>): Promise<void> {
    const next = this.queue.then(operation).catch((error: unknown) => {
      this.channel.error(`Albedo Skills: ${String(error)}`);
    });
    this.queue = next;
    return next;
  }

  private notify(client: LanguageClient | undefined): void {
    for (const listener of this.changeListeners) {
      listener(client);
    }
  }

  private async startClient(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const config = vscode.workspace.getConfiguration(SECTION, folder?.uri);
    const raw = Object.fromEntries(SETTING_KEYS.map((key) => [key, config.get(key)]));
    const { settings, problems } = readSettings(raw);
    // Only the launch settings (server.*) are the extension's to report. The server's own settings are passed
    // through as written (initializationOptionsAsWritten) and the server, their one validator, reports a bad
    // value itself: a copy here would say it twice.
    const launchProblems = problems.filter((problem) => problem.key.startsWith('server.')).map((problem) => problem.message);
    for (const message of launchProblems) {
      this.channel.warn(message);
      if (!this.shownProblems.has(message)) {
        this.shownProblems.add(message);
        void vscode.window.showWarningMessage(`Albedo Skills: ${message}`);
      }
    }

    const launch = { serverPath: settings.server.path, pythonPath: settings.server.pythonPath };
    const input = {
      ...launch,
      interpreter: needsInterpreter(launch) ? await this.interpreter(folder?.uri) : undefined,
      platform: process.platform,
      env: process.env,
      workspaceFolder: folder?.uri.fsPath,
      home: os.homedir(),
      importStrategy: settings.server.importStrategy,
      bundle: this.bundle,
    };
    // A Python that is missing, too old or without the package is found before the client starts, so the
    // user gets the cause, not the client's retries. With no interpreter configured, each place the
    // platform's installers use is tried in turn (pythonDiscovery.ts).
    const situation = { importStrategy: settings.server.importStrategy, bundleAvailable: this.bundle !== undefined };
    const { spec, outcome } = await probeLaunch(input, this.probe, folder?.uri.fsPath, () =>
      discoverPython({ platform: process.platform, env: process.env, home: os.homedir() }),
    );
    this.source = spec.source;
    this.channel.info(`Server command: ${describeLaunch(spec)}`);
    if (outcome !== undefined && !outcome.ok) {
      this.channel.error(`The server cannot start: ${outcome.cause}.`);
      void this.explainStartFailure(spec, outcome.cause, { ...situation, kind: outcome.kind });
      return;
    }
    if (outcome !== undefined) {
      this.channel.info(`Python ${outcome.version} (${outcome.executable}).`);
    }

    const classify = stderrClassifier();
    const stderrErrors: string[] = [];
    let startedAt: number | undefined;
    const clientOptions: LanguageClientOptions = {
      documentSelector: documentSelector(settings),
      outputChannel: this.channel,
      traceOutputChannel: this.channel,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: initializationOptionsAsWritten(raw),
      synchronize: { configurationSection: SECTION, fileEvents: this.watcher },
      // A failed initialize is explained below, once; the client would show the raw message.
      initializationFailedHandler: () => false,
      errorHandler: {
        error: (_error, _message, count) => ({
          action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
          handled: true,
        }),
        // Never the client's own restart loop: a server that did not start stays stopped (explained once),
        // and one that crashed after a good start is restarted here, with back-off.
        closed: () => {
          if (startedAt !== undefined && this.client === client) {
            this.crashed(Date.now() - startedAt, stderrErrors.at(-1));
          }
          return { action: CloseAction.DoNotRestart, handled: true };
        },
      },
      middleware: {
        // In VS Code's own `skill` documents (1.139+), leave out what VS Code already shows.
        ...nativeSkillSupport.middleware,
        workspace: {
          // The server asks for `albedoSkills`; it gets it without the extension's `server.*` settings.
          configuration: async (params, token, next) => {
            const values = await next(params, token);
            return Array.isArray(values) ? configurationForServer(params.items, values) : values;
          },
          // Say only that settings changed: the server then pulls them through the filter above.
          didChangeConfiguration: (_sections, next) => next(undefined),
        },
      },
      stdioOptions: {
        // stdout carries the protocol over stdio; this is only used by socket and pipe transports.
        stdout: (input, channel) => forEachLine(input, (line) => channel.info(line)),
        stderr: (input, channel) =>
          forEachLine(input, (line) => {
            const level = classify(line);
            channel[level](line);
            if (level === 'error' && line.trim() !== '') {
              stderrErrors.push(line.trim());
              stderrErrors.splice(0, stderrErrors.length - STDERR_LINES_KEPT);
            }
          }),
      },
    };
    const client = new QuietLanguageClient(
      CLIENT_ID,
      CLIENT_NAME,
      { command: spec.command, args: spec.args, options: spec.options },
      clientOptions,
    );
    this.client = client;
    try {
      await client.start();
      startedAt = Date.now();
      this.notify(client);
    } catch (error) {
      this.channel.error(`The server did not start: ${String(error)}`);
      const missing = spec.python === undefined && !commandExists(spec.command, spec.options.env, process.platform);
      const cause = missing ? `\`${spec.command}\` was not found` : stderrErrors.at(-1);
      void this.explainStartFailure(spec, cause !== undefined ? `${cause} (${errorText(error)})` : errorText(error), situation);
    }
  }

  /** A crash after a good start: restart after a growing wait, and say so the first time only. */
  private crashed(ranMs: number, lastError: string | undefined): void {
    if (ranMs >= CRASH_STABLE_RUN_MS) {
      this.crashes = 0;
    }
    const delay = crashRestartDelay(this.crashes++);
    this.channel.error(`The server stopped unexpectedly${lastError ? ` (${lastError})` : ''}; restarting in ${delay / 1000} s.`);
    this.notify(undefined);
    if (!this.crashNoticeShown) {
      this.crashNoticeShown = true;
      void vscode.window
        .showWarningMessage(
          `Albedo Skills: the language server stopped unexpectedly${lastError ? ` (${lastError})` : ''}. It is restarted after ${delay / 1000} s, and after each further crash with a longer wait.`,
          'Show Output',
        )
        .then((choice) => choice === 'Show Output' && this.channel.show());
    }
    this.cancelCrashRestart();
    this.crashRestart = this.timers.setTimeout(() => {
      this.crashRestart = undefined;
      void this.restart('after a crash');
    }, delay);
  }

  private cancelCrashRestart(): void {
    if (this.crashRestart !== undefined) {
      this.timers.clearTimeout(this.crashRestart);
      this.crashRestart = undefined;
    }
  }

  private async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) {
      return;
    }
    this.notify(undefined);
    try {
      await client.dispose(STOP_TIMEOUT_MS);
    } catch (error) {
      this.channel.warn(`Stopping the server: ${String(error)}`);
    }
  }

  /** One notification: the cause, the setting that chose the command and where its value came from. */
  private async explainStartFailure(spec: LaunchSpec, cause: string, situation: LaunchSituation): Promise<void> {
    const setting = launchSetting(spec);
    const folder = vscode.workspace.workspaceFolders?.[0];
    const inspection = vscode.workspace.getConfiguration(SECTION, folder?.uri).inspect?.(setting);
    const scope = settingScope(inspection, vscode.env?.remoteName);
    const choice = await vscode.window.showErrorMessage(explainLaunchFailure(spec, cause, scope, situation), 'Open Settings', 'Show Output');
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.${setting}`);
    } else if (choice === 'Show Output') {
      this.channel.show();
    }
  }

  /** The Python extension's interpreter for `resource`, when that extension is installed and has one. */
  private async interpreter(resource: vscode.Uri | undefined): Promise<string[] | undefined> {
    try {
      const api = await this.pythonApi();
      const environments = api?.environments;
      if (environments !== undefined) {
        const resolved = await environments.resolveEnvironment(environments.getActiveEnvironmentPath(resource));
        const executable = resolved?.executable.uri?.fsPath;
        if (executable) {
          return [executable];
        }
      }
      return api?.settings?.getExecutionDetails(resource).execCommand;
    } catch (error) {
      this.channel.warn(`Asking the Python extension for an interpreter failed: ${String(error)}`);
      return undefined;
    }
  }

  private async pythonApi(): Promise<PythonExtensionApi | undefined> {
    if (this.python !== undefined) {
      return this.python;
    }
    const extension = vscode.extensions.getExtension<PythonExtensionApi>(PYTHON_EXTENSION_ID);
    if (extension === undefined) {
      return undefined;
    }
    const api = extension.isActive ? extension.exports : await extension.activate();
    this.python = api;
    // A new interpreter matters when it chose the command, or when there was none and PATH was used.
    const onChange = () => {
      if (this.source === 'python-extension' || this.source === 'default-python' || this.source === 'path') {
        this.scheduleRestart('the Python interpreter changed');
      }
    };
    const event = api.environments?.onDidChangeActiveEnvironmentPath ?? api.settings?.onDidChangeExecutionDetails;
    if (event !== undefined) {
      this.disposables.push(event(onChange));
    }
    return api;
  }
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function forEachLine(input: Readable, onLine: (line: string) => void): void {
  readline.createInterface({ input, crlfDelay: Infinity, terminal: false }).on('line', onLine);
}

interface ReloadResult {
  skills?: number;
  diagnostics?: number;
  added?: string[];
  removed?: string[];
  changed?: string[];
}

function describeReload(result: ReloadResult | null): string {
  if (result === null || typeof result !== 'object') {
    return 'Albedo Skills: skills reloaded.';
  }
  const parts = [`${result.skills ?? 0} skills`, `${result.diagnostics ?? 0} diagnostics`];
  for (const [label, names] of [
    ['added', result.added],
    ['removed', result.removed],
    ['changed', result.changed],
  ] as const) {
    if (Array.isArray(names) && names.length > 0) {
      parts.push(`${label}: ${names.join(', ')}`);
    }
  }
  return `Albedo Skills: reloaded (${parts.join('; ')}).`;
}

let server: Server | undefined;

/**
 * VS Code calls this with the context only. `timers` and `probe` are test seams: the timers drive the restart
 * debounce and the crash back-off, so tests can let time pass by hand, and the probe answers for Python.
 */
export function activate(context: vscode.ExtensionContext, timers?: Timers, probe: ProbeRunner = runProbe): void {
  const channel = vscode.window.createOutputChannel(CLIENT_NAME, { log: true });
  const current = new Server(channel, findBundle(context.extensionPath), timers, probe);
  server = current;
  context.subscriptions.push(
    channel,
    vscode.commands.registerCommand('albedoSkills.restart', () => current.restart('restart command')),
    vscode.commands.registerCommand('albedoSkills.reload', async () => {
      const client = current.running();
      if (client === undefined) {
        void vscode.window.showWarningMessage('Albedo Skills: the language server is not running.', 'Show Output').then(
          (choice) => choice && channel.show(),
        );
        return undefined;
      }
      try {
        const result = await client.sendRequest(ExecuteCommandRequest.type, { command: 'skills.reload', arguments: [] });
        void vscode.window.showInformationMessage(describeReload(result as ReloadResult | null));
        return result;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        channel.error(`skills.reload failed: ${message}`);
        void vscode.window.showErrorMessage(`Albedo Skills: reload failed: ${message}`);
        return undefined;
      }
    }),
    vscode.commands.registerCommand('albedoSkills.showOutput', () => channel.show()),
    // The server's code lens "used in N places" runs this with (uri, position of the skill's name): the
    // references, found by the server, shown in VS Code's peek view (what Find All References shows).
    vscode.commands.registerCommand('albedoSkills.showReferences', async (uri: string, at: { line: number; character: number }) => {
      const target = vscode.Uri.parse(uri);
      const position = new vscode.Position(at.line, at.character);
      const found = await vscode.commands.executeCommand<vscode.Location[]>('vscode.executeReferenceProvider', target, position);
      await vscode.commands.executeCommand('editor.action.showReferences', target, position, found ?? []);
    }),
    ...registerSkillsView(current, channel),
    ...registerChat(current, channel, timers),
    nativeSkillSupport.listen(current),
    syncCopilotSkillLocations(channel),
    vscode.workspace.onDidChangeConfiguration((event) => {
      // Other albedoSkills settings reach the running server through workspace/didChangeConfiguration;
      // the command and the document selector are fixed when a client starts.
      if (event.affectsConfiguration(`${SECTION}.server`) || event.affectsConfiguration(`${SECTION}.chat`)) {
        current.scheduleRestart('settings changed');
      }
    }),
    // In a restricted workspace VS Code ignores the workspace's albedoSkills.server.* values; trust brings them in.
    vscode.workspace.onDidGrantWorkspaceTrust(() => current.scheduleRestart('workspace trusted')),
    { dispose: () => void current.dispose() },
  );
  void current.restart('activation');
}

export async function deactivate(): Promise<void> {
  const current = server;
  server = undefined;
  await current?.dispose();
}
