/**
 * Activation and wiring. Every decision that does not need VS Code lives in `launch.ts`, where `node --test`
 * can reach it; this file only connects those decisions to the editor.
 */
import * as os from 'node:os';
import * as readline from 'node:readline';
import type { Readable } from 'node:stream';
import * as vscode from 'vscode';
import {
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  RevealOutputChannelOn,
} from 'vscode-languageclient/node';
import {
  configurationForServer,
  debounce,
  type Debounced,
  describeLaunch,
  documentSelector,
  initializationOptions,
  type LaunchSource,
  needsInterpreter,
  readSettings,
  resolveLaunch,
  SECTION,
  SETTING_KEYS,
  stderrClassifier,
  type Timers,
} from './launch';

const CLIENT_ID = 'albedoSkills';
const CLIENT_NAME = 'Albedo Skills';
const PYTHON_EXTENSION_ID = 'ms-python.python';
/** How long a burst of restart triggers (settings, interpreter, trust) must settle before the restart. */
export const RESTART_DELAY_MS = 500;
const STOP_TIMEOUT_MS = 2000;

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
  readonly scheduleRestart: Debounced<[reason: string]>;

  constructor(
    private readonly channel: vscode.LogOutputChannel,
    timers?: Timers,
  ) {
    this.scheduleRestart = debounce((reason: string) => void this.restart(reason), RESTART_DELAY_MS, timers);
  }

  /** Stop the running client (if any) and start a new one with the current settings and interpreter. */
  restart(reason: string): Promise<void> {
    this.scheduleRestart.cancel();
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

  async dispose(): Promise<void> {
    this.scheduleRestart.cancel();
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

  private async startClient(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const config = vscode.workspace.getConfiguration(SECTION, folder?.uri);
    const { settings, problems } = readSettings(Object.fromEntries(SETTING_KEYS.map((key) => [key, config.get(key)])));
    for (const problem of problems) {
      this.channel.warn(problem.message);
      // The server reports its own settings; the launch settings are the extension's to report.
      if (problem.key.startsWith('server.') && !this.shownProblems.has(problem.message)) {
        this.shownProblems.add(problem.message);
        void vscode.window.showWarningMessage(`Albedo Skills: ${problem.message}`);
      }
    }

    const launch = { serverPath: settings.server.path, pythonPath: settings.server.pythonPath };
    const spec = resolveLaunch({
      ...launch,
      interpreter: needsInterpreter(launch) ? await this.interpreter(folder?.uri) : undefined,
      platform: process.platform,
      env: process.env,
      workspaceFolder: folder?.uri.fsPath,
      home: os.homedir(),
    });
    this.source = spec.source;
    this.channel.info(`Server command: ${describeLaunch(spec)}`);

    const classify = stderrClassifier();
    const clientOptions: LanguageClientOptions = {
      documentSelector: documentSelector(settings),
      outputChannel: this.channel,
      traceOutputChannel: this.channel,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      initializationOptions: initializationOptions(settings),
      synchronize: { configurationSection: SECTION, fileEvents: this.watcher },
      middleware: {
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
        stderr: (input, channel) => forEachLine(input, (line) => channel[classify(line)](line)),
      },
    };
    const client = new LanguageClient(
      CLIENT_ID,
      CLIENT_NAME,
      { command: spec.command, args: spec.args, options: spec.options },
      clientOptions,
    );
    this.client = client;
    try {
      await client.start();
    } catch (error) {
      this.channel.error(`The server did not start: ${String(error)}`);
      void this.explainStartFailure(spec.source, String(error));
    }
  }

  private async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client === undefined) {
      return;
    }
    try {
      await client.dispose(STOP_TIMEOUT_MS);
    } catch (error) {
      this.channel.warn(`Stopping the server: ${String(error)}`);
    }
  }

  private async explainStartFailure(source: LaunchSource, error: string): Promise<void> {
    const hint =
      source === 'path'
        ? 'Install it (`pip install albedo-skills-ls`, or `pipx install albedo-skills-ls`) so `albedo-skills-ls` is on PATH, or set albedoSkills.server.path or albedoSkills.server.pythonPath.'
        : source === 'python-extension'
          ? 'The selected Python interpreter may not have albedo-skills-ls installed: install it there, or set albedoSkills.server.pythonPath or albedoSkills.server.path.'
          : `Check albedoSkills.${source === 'server.path' ? 'server.path' : 'server.pythonPath'}.`;
    const choice = await vscode.window.showErrorMessage(
      `Albedo Skills: the language server did not start (${error}). ${hint}`,
      'Open Settings',
      'Show Output',
    );
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', `${SECTION}.server`);
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
      if (this.source === 'python-extension' || this.source === 'path') {
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
 * VS Code calls this with the context only. `timers` is a test seam: it drives the restart debounce, so tests
 * can let time pass by hand; without it the real timers are used.
 */
export function activate(context: vscode.ExtensionContext, timers?: Timers): void {
  const channel = vscode.window.createOutputChannel(CLIENT_NAME, { log: true });
  const current = new Server(channel, timers);
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
