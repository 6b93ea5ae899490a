/**
 * The wiring in extension.ts, with `vscode` and `vscode-languageclient/node` replaced by small fakes (VS Code
 * itself cannot be downloaded here). The fakes record what the extension asks of them.
 */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Module = require('node:module');
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { type FakeTimers, fakeTimers } from './fakeTimers';

type Listener = (event: unknown) => unknown;

interface FakeClientRecord {
  id: string;
  name: string;
  serverOptions: { command: string; args: string[]; options: { env: Record<string, string>; shell?: boolean } };
  clientOptions: Record<string, any>;
  disposed: boolean;
  requests: { type: unknown; params: unknown }[];
  notificationHandlers: string[];
}

const state = {
  settings: {} as Record<string, unknown>,
  configurationListeners: [] as Listener[],
  trustListeners: [] as Listener[],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  messages: [] as { kind: string; text: string }[],
  logs: [] as { level: string; text: string }[],
  channels: [] as { name: string; options: unknown }[],
  watchers: [] as string[],
  clients: [] as FakeClientRecord[],
  python: undefined as undefined | { interpreter: string; listeners: Listener[] },
  startError: undefined as Error | undefined,
  reloadAnswer: undefined as unknown,
  /** What the interpreter probe answers, and the probes run. */
  probeAnswer: { stdout: '', stderr: '' } as { stdout: string; stderr: string; errorCode?: string },
  probes: [] as { command: string; args: string[] }[],
  views: [] as string[],
};

const PROBE_OK = { stdout: 'python 3.11.7 /usr/bin/python3\nmodule /site/albedo_skills_ls/__init__.py\n', stderr: '' };

function reset(): void {
  state.settings = {};
  state.configurationListeners = [];
  state.trustListeners = [];
  state.commands = new Map();
  state.messages = [];
  state.logs = [];
  state.channels = [];
  state.watchers = [];
  state.clients = [];
  state.python = undefined;
  state.startError = undefined;
  state.probeAnswer = PROBE_OK;
  state.probes = [];
  state.views = [];
  fakeVscode.env.remoteName = undefined;
  state.reloadAnswer = { skills: 2, diagnostics: 1, added: ['demo'], removed: [], changed: [] };
}

const disposable = { dispose() {} };

class FakeEventEmitter {
  private listeners: Listener[] = [];
  readonly event = (listener: Listener) => (this.listeners.push(listener), disposable);
  fire(value: unknown) {
    this.listeners.forEach((listener) => listener(value));
  }
  dispose() {}
}

const fakeVscode = {
  env: { remoteName: undefined as string | undefined, clipboard: { writeText: async () => undefined } },
  EventEmitter: FakeEventEmitter,
  StatusBarAlignment: { Left: 1, Right: 2 },
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  ThemeIcon: class { constructor(readonly id: string) {} },
  ThemeColor: class { constructor(readonly id: string) {} },
  languages: {
    getDiagnostics: () => [],
    onDidChangeDiagnostics: () => disposable,
    match: () => 0,
  },
  window: {
    activeTextEditor: undefined,
    createTreeView: (id: string) => (state.views.push(id), { badge: undefined, dispose() {} }),
    createStatusBarItem: () => ({ text: '', show() {}, hide() {}, dispose() {} }),
    onDidChangeActiveTextEditor: () => disposable,
    createOutputChannel(name: string, options: unknown) {
      state.channels.push({ name, options });
      const log = (level: string) => (text: string) => state.logs.push({ level, text });
      return { name, error: log('error'), warn: log('warn'), info: log('info'), debug: log('debug'), trace: log('trace'), show() {}, dispose() {} };
    },
    showInformationMessage: (text: string) => (state.messages.push({ kind: 'info', text }), Promise.resolve(undefined)),
    showWarningMessage: (text: string) => (state.messages.push({ kind: 'warning', text }), Promise.resolve(undefined)),
    showErrorMessage: (text: string) => (state.messages.push({ kind: 'error', text }), Promise.resolve(undefined)),
  },
  workspace: {
    get workspaceFolders() {
      return [{ uri: { fsPath: '/work/project' }, name: 'project', index: 0 }];
    },
    getConfiguration(section: string) {
      if (section === 'chat') {
        return { get: () => undefined, inspect: () => undefined }; // VS Code 1.96: no chat.agentSkillsLocations
      }
      assert.equal(section, 'albedoSkills');
      return { get: (key: string) => state.settings[key], inspect: (key: string) => ({ key, globalValue: state.settings[key] }) };
    },
    createFileSystemWatcher(glob: string) {
      state.watchers.push(glob);
      return { glob, dispose() {} };
    },
    onDidChangeConfiguration(listener: Listener) {
      state.configurationListeners.push(listener);
      return disposable;
    },
    registerTextDocumentContentProvider: () => disposable,
    onDidCloseTextDocument: () => disposable,
    getWorkspaceFolder: () => undefined,
    onDidGrantWorkspaceTrust(listener: Listener) {
      state.trustListeners.push(listener);
      return disposable;
    },
  },
  commands: {
    registerCommand(id: string, handler: (...args: unknown[]) => unknown) {
      state.commands.set(id, handler);
      return disposable;
    },
    executeCommand: () => Promise.resolve(undefined),
  },
  extensions: {
    getExtension(id: string) {
      if (id !== 'ms-python.python' || state.python === undefined) {
        return undefined;
      }
      const python = state.python;
      const api = {
        environments: {
          getActiveEnvironmentPath: () => ({ id: 'active', path: python.interpreter }),
          resolveEnvironment: async (environment: { path: string }) => ({ executable: { uri: { fsPath: environment.path } } }),
          onDidChangeActiveEnvironmentPath: (listener: Listener) => (python.listeners.push(listener), disposable),
        },
      };
      return { isActive: false, exports: undefined, activate: async () => api };
    },
  },
};

class FakeLanguageClient {
  private running = false;
  readonly record: FakeClientRecord;
  constructor(id: string, name: string, serverOptions: FakeClientRecord['serverOptions'], clientOptions: Record<string, any>) {
    this.record = { id, name, serverOptions, clientOptions, disposed: false, requests: [], notificationHandlers: [] };
    state.clients.push(this.record);
  }
  async start() {
    if (state.startError !== undefined) {
      throw state.startError;
    }
    this.running = true;
  }
  isRunning() {
    return this.running;
  }
  async dispose() {
    this.running = false;
    this.record.disposed = true;
  }
  onNotification(method: string) {
    this.record.notificationHandlers.push(method);
    return disposable;
  }
  async sendRequest(type: unknown, params: unknown) {
    this.record.requests.push({ type, params });
    return state.reloadAnswer;
  }
}

const fakeClientModule = {
  LanguageClient: FakeLanguageClient,
  CloseAction: { DoNotRestart: 1, Restart: 2 },
  ErrorAction: { Continue: 1, Shutdown: 2 },
  ExecuteCommandRequest: { type: { method: 'workspace/executeCommand' } },
  RevealOutputChannelOn: { Debug: 0, Info: 1, Warn: 2, Error: 3, Never: 4 },
};

const moduleInternals = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
const originalLoad = moduleInternals._load;
moduleInternals._load = function (request: string, parent: unknown, isMain: boolean) {
  if (request === 'vscode') {
    return fakeVscode;
  }
  if (request === 'vscode-languageclient/node') {
    return fakeClientModule;
  }
  return originalLoad.call(this, request, parent, isMain);
};
const extension = require('../extension') as typeof import('../extension');

const subscriptions: { dispose(): unknown }[] = [];
const context = { subscriptions } as unknown as import('vscode').ExtensionContext;

/** Wait until `condition` holds (the extension starts clients asynchronously); fail after `ms`. */
async function until(condition: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) {
      assert.fail('timed out waiting for the extension');
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Let every restart the extension has begun run to its end. The fakes answer with promises only, so a
 * restart is a chain of microtasks, and they have all run when the event loop reaches `setImmediate`.
 */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The interpreter probe, answered from `state` (no Python runs in these tests). */
const fakeProbe = async (command: string, args: string[]) => {
  state.probes.push({ command, args });
  return state.probeAnswer;
};

/** Activate with hand-driven timers: no restart debounce fires until the test advances them. */
function activate(): FakeTimers {
  const timers = fakeTimers();
  extension.activate(context, timers, fakeProbe);
  return timers;
}

/** The reasons the extension (re)started the server for, in order. */
const starts = () =>
  state.logs.flatMap((entry) => /^Starting the server \((.*)\)\.$/.exec(entry.text)?.[1] ?? []);

function changeConfiguration(...changed: string[]): void {
  const event = { affectsConfiguration: (section: string) => changed.some((key) => key === section || key.startsWith(`${section}.`)) };
  for (const listener of state.configurationListeners) {
    listener(event);
  }
}

describe('extension wiring (fake vscode)', () => {
  beforeEach(() => reset());
  afterEach(async () => {
    await extension.deactivate();
    for (const item of subscriptions.splice(0)) {
      item.dispose();
    }
  });

  it('creates the "Albedo Skills" log channel, registers the commands and starts one client', async () => {
    activate();
    await until(() => state.clients.length === 1);
    assert.deepEqual(state.channels, [{ name: 'Albedo Skills', options: { log: true } }]);
    assert.deepEqual([...state.commands.keys()].sort(), [
      'albedoSkills.newSkill',
      'albedoSkills.refreshView',
      'albedoSkills.reload',
      'albedoSkills.restart',
      'albedoSkills.runSkill',
      'albedoSkills.showOutput',
      'albedoSkills.showPrompt',
      'albedoSkills.showReferences',
    ]);
    assert.deepEqual(state.views, ['albedoSkills.skills']);
    // The Skills view follows the server's catalog announcements.
    await until(() => state.clients[0].notificationHandlers.length === 1);
    assert.deepEqual(state.clients[0].notificationHandlers, ['albedoSkills/catalogChanged']);
    assert.deepEqual(state.watchers, ['**/SKILL.md']);

    const [client] = state.clients;
    assert.equal(client.id, 'albedoSkills');
    assert.equal(client.name, 'Albedo Skills');
    assert.equal(client.serverOptions.command, 'albedo-skills-ls');
    assert.deepEqual(client.serverOptions.args, []);
    assert.equal(client.serverOptions.options.env.PYTHONUTF8, '1');
    const options = client.clientOptions;
    assert.deepEqual(options.documentSelector.slice(0, 3), [
      { scheme: 'file', language: 'skill' },
      { scheme: 'file', pattern: '**/SKILL.md' },
      { scheme: 'file', language: 'albedo-chat' },
    ]);
    assert.ok(options.documentSelector.some((filter: { pattern?: string }) => filter.pattern === '**/*.chat.md'));
    assert.equal(options.synchronize.configurationSection, 'albedoSkills');
    assert.equal(options.synchronize.fileEvents.glob, '**/SKILL.md');
    assert.equal(options.initializationOptions.albedoSkills.enable, true);
    assert.deepEqual(options.initializationOptions.albedoSkills.builtinCommands, ['help', 'model', 'reload']);
    assert.equal(options.outputChannel.name, 'Albedo Skills');
    assert.equal(options.traceOutputChannel, options.outputChannel);
    assert.ok(state.logs.some((entry) => entry.text === 'Server command: albedo-skills-ls (from path)'));
  });

  it("filters the extension's server.* settings out of what the server pulls, and tells it to pull on change", async () => {
    activate();
    await until(() => state.clients.length === 1);
    const workspace = state.clients[0].clientOptions.middleware.workspace;
    const params = { items: [{ section: 'albedoSkills' }] };
    const pulled = await workspace.configuration(params, undefined, async () => [
      { enable: true, server: { path: ['x'], pythonPath: '' } },
    ]);
    assert.deepEqual(pulled, [{ enable: true }]);
    const sent: unknown[] = [];
    await workspace.didChangeConfiguration(['albedoSkills'], async (sections: unknown) => void sent.push(sections));
    assert.deepEqual(sent, [undefined]);
  });

  it('routes server stderr lines to the channel at their logging level', async () => {
    activate();
    await until(() => state.clients.length === 1);
    const { Readable } = await import('node:stream');
    const channel = state.clients[0].clientOptions.outputChannel;
    state.clients[0].clientOptions.stdioOptions.stderr(Readable.from(['WARNING:x:careful\nINFO:x:fine\n']), channel);
    await until(() => state.logs.some((entry) => entry.text === 'INFO:x:fine'));
    assert.ok(state.logs.some((entry) => entry.level === 'warn' && entry.text === 'WARNING:x:careful'));
    assert.ok(state.logs.some((entry) => entry.level === 'info' && entry.text === 'INFO:x:fine'));
  });

  it('uses the settings: server.pythonPath, and initializationOptions from the albedoSkills values', async () => {
    state.settings = { 'server.pythonPath': '.venv/bin/python', enable: false, 'chat.languageIds': ['my-chat'] };
    state.python = { interpreter: '/never/used/python', listeners: [] };
    activate();
    await until(() => state.clients.length === 1);
    const [client] = state.clients;
    assert.equal(client.serverOptions.command, path.resolve('/work/project', '.venv/bin/python'));
    assert.deepEqual(client.serverOptions.args, ['-m', 'albedo_skills_ls']);
    assert.equal(client.clientOptions.initializationOptions.albedoSkills.enable, false);
    assert.deepEqual(client.clientOptions.initializationOptions.albedoSkills.chat.languageIds, ['my-chat']);
    assert.equal('server' in client.clientOptions.initializationOptions.albedoSkills, false);
    // The Python extension was not needed, so it was not activated or listened to.
    assert.deepEqual(state.python.listeners, []);
  });

  it("uses the Python extension's interpreter, and restarts once, debounced, when it changes", async () => {
    state.python = { interpreter: '/venv/bin/python', listeners: [] };
    const timers = activate();
    await until(() => state.clients.length === 1);
    assert.equal(state.clients[0].serverOptions.command, '/venv/bin/python');
    assert.deepEqual(state.clients[0].serverOptions.args, ['-m', 'albedo_skills_ls']);
    assert.equal(state.python.listeners.length, 1);

    state.python.interpreter = '/other/bin/python';
    state.python.listeners[0]({});
    timers.advance(extension.RESTART_DELAY_MS - 100);
    state.python.listeners[0]({});
    assert.equal(timers.scheduled, 1, 'two interpreter events in a burst wait for one restart');
    timers.advance(extension.RESTART_DELAY_MS - 1);
    await settle();
    assert.equal(state.clients.length, 1, 'no restart before the delay has passed since the last event');

    timers.advance(1);
    await until(() => state.clients.length === 2);
    assert.equal(state.clients[0].disposed, true);
    assert.equal(state.clients[1].serverOptions.command, '/other/bin/python');
    timers.advance(10 * extension.RESTART_DELAY_MS);
    await settle();
    assert.equal(timers.scheduled, 0);
    assert.equal(state.clients.length, 2, 'two interpreter events in a burst restart once');
    assert.deepEqual(starts(), ['activation', 'the Python interpreter changed']);
  });

  it('restarts once, debounced, for a burst of server.* or chat.* changes, and not for other settings', async () => {
    const timers = activate();
    await until(() => state.clients.length === 1);

    changeConfiguration('albedoSkills.enable', 'albedoSkills.logLevel');
    assert.equal(timers.scheduled, 0, 'the server applies these itself');
    timers.advance(10 * extension.RESTART_DELAY_MS);
    await settle();
    assert.equal(state.clients.length, 1, 'the server applies these itself');

    state.settings = { 'server.path': ['/opt/ls', '-v'] };
    changeConfiguration('albedoSkills.server.path');
    timers.advance(200);
    changeConfiguration('albedoSkills.server.pythonPath');
    timers.advance(200);
    changeConfiguration('albedoSkills.chat.filePatterns');
    assert.equal(timers.scheduled, 1);
    timers.advance(extension.RESTART_DELAY_MS - 1);
    await settle();
    assert.equal(state.clients.length, 1, 'the restart waits for the burst to settle');

    timers.advance(1);
    await until(() => state.clients.length === 2);
    assert.equal(state.clients[0].disposed, true);
    assert.equal(state.clients[1].serverOptions.command, '/opt/ls');
    assert.deepEqual(state.clients[1].serverOptions.args, ['-v']);
    timers.advance(10 * extension.RESTART_DELAY_MS);
    await settle();
    assert.equal(timers.scheduled, 0);
    assert.equal(state.clients.length, 2, 'a burst of changes restarts once');
    assert.deepEqual(starts(), ['activation', 'settings changed']);
  });

  it('restarts when the workspace becomes trusted', async () => {
    const timers = activate();
    await until(() => state.clients.length === 1);
    for (const listener of state.trustListeners) {
      listener(undefined);
    }
    await settle();
    assert.equal(state.clients.length, 1, 'the restart is debounced');
    timers.advance(extension.RESTART_DELAY_MS);
    await until(() => state.clients.length === 2);
    assert.deepEqual(starts(), ['activation', 'workspace trusted']);
  });

  it('the restart command restarts at once', async () => {
    activate();
    await until(() => state.clients.length === 1);
    await state.commands.get('albedoSkills.restart')!();
    assert.equal(state.clients.length, 2);
    assert.equal(state.clients[0].disposed, true);
    assert.equal(state.clients[1].disposed, false);
  });

  it("the reload command runs the server's skills.reload and reports the counts", async () => {
    activate();
    await until(() => state.clients.length === 1);
    const result = await state.commands.get('albedoSkills.reload')!();
    assert.deepEqual(state.clients[0].requests, [
      { type: { method: 'workspace/executeCommand' }, params: { command: 'skills.reload', arguments: [] } },
    ]);
    assert.deepEqual(result, state.reloadAnswer);
    assert.deepEqual(state.messages, [{ kind: 'info', text: 'Albedo Skills: reloaded (2 skills; 1 diagnostics; added: demo).' }]);
  });

  it('explains a server that does not start, and the reload command then says it is not running', async () => {
    state.startError = new Error('spawn albedo-skills-ls ENOENT');
    activate();
    await until(() => state.messages.length > 0);
    assert.equal(state.messages[0].kind, 'error');
    assert.match(state.messages[0].text, /ENOENT.*pip install albedo-skills-ls/);
    await state.commands.get('albedoSkills.reload')!();
    assert.deepEqual(state.clients[0].requests, []);
    assert.match(state.messages.at(-1)!.text, /not running/);
  });

  it('shows a refused server.* setting once, starts with the fallback, and leaves server settings to the server', async () => {
    state.settings = { 'server.path': '/usr/bin/albedo-skills-ls', logLevel: 'loud' };
    activate();
    await until(() => state.clients.length === 1);
    assert.equal(state.clients[0].serverOptions.command, 'albedo-skills-ls');
    const warnings = state.messages.filter((message) => message.kind === 'warning');
    assert.equal(warnings.length, 1, JSON.stringify(state.messages));
    assert.match(warnings[0].text, /albedoSkills\.server\.path must be a list/);
    // The invalid logLevel is the server's to report (its one validator; e2e/workbench.test.mjs checks the
    // notification is shown exactly once): the extension passes it through as written, with no copy of its own.
    assert.equal(state.clients[0].clientOptions.initializationOptions.albedoSkills.logLevel, 'loud');
    assert.deepEqual(
      [...state.logs, ...state.messages].filter((entry) => /albedoSkills\.logLevel/.test(entry.text)),
      [],
    );
    assert.ok(state.logs.some((entry) => entry.level === 'warn' && /albedoSkills\.server\.path must be a list/.test(entry.text)));
    await state.commands.get('albedoSkills.restart')!();
    assert.equal(state.messages.filter((message) => message.kind === 'warning').length, 1);
  });

  it('deactivate stops the client', async () => {
    activate();
    await until(() => state.clients.length === 1);
    await extension.deactivate();
    assert.equal(state.clients[0].disposed, true);
  });
});

describe('starting the server: bundle, probe, failures and crashes (fake vscode)', () => {
  beforeEach(() => reset());
  afterEach(async () => {
    await extension.deactivate();
    for (const item of subscriptions.splice(0)) {
      item.dispose();
    }
  });

  const errors = () => state.messages.filter((message) => message.kind === 'error');

  it('explains an interpreter without the package in one notification, with the setting and its scope, and starts nothing', async () => {
    state.settings = { 'server.pythonPath': '/usr/bin/python3', 'server.importStrategy': 'fromEnvironment' };
    state.probeAnswer = { stdout: "python 3.12.1 /usr/bin/python3\nimport-error ModuleNotFoundError: No module named 'albedo_skills_ls'\n", stderr: '' };
    fakeVscode.env.remoteName = 'ssh-remote';
    const timers = activate();
    await until(() => state.messages.length > 0);
    timers.advance(10 * extension.RESTART_DELAY_MS);
    await settle();
    assert.deepEqual(state.probes.map((probe) => probe.command), ['/usr/bin/python3']);
    assert.equal(state.clients.length, 0, 'no client, so no client retries');
    assert.equal(state.messages.length, 1, JSON.stringify(state.messages));
    const [message] = errors();
    assert.match(message.text, /No module named 'albedo_skills_ls'/);
    assert.match(message.text, /albedoSkills\.server\.pythonPath \(your Remote \[ssh-remote\] settings\)/);
    assert.equal(timers.scheduled, 0);
  });

  it('runs the bundled server with python3 when the extension carries one, probing it isolated', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'albedo-ext-'));
    mkdirSync(path.join(root, 'bundled', 'tool'), { recursive: true });
    writeFileSync(path.join(root, 'bundled', 'tool', 'launch.py'), '');
    mkdirSync(path.join(root, 'bundled', 'libs', 'albedo_skills_ls'), { recursive: true });
    try {
      extension.activate({ subscriptions, extensionPath: root } as unknown as import('vscode').ExtensionContext, fakeTimers(), fakeProbe);
      await until(() => state.clients.length === 1);
      const launcher = path.join(root, 'bundled', 'tool', 'launch.py');
      assert.equal(state.clients[0].serverOptions.command, 'python3');
      assert.deepEqual(state.clients[0].serverOptions.args, ['-I', '-X', 'utf8', launcher]);
      assert.deepEqual(state.probes[0].args.at(0), '-I');
      assert.equal(state.probes[0].args.at(-1), path.join(root, 'bundled', 'libs'));
      assert.ok(state.logs.some((entry) => entry.text === `Server command: python3 -I -X utf8 ${launcher} (from default-python, bundled server)`));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('does not restart a server that failed to start', async () => {
    state.startError = new Error('Pending response rejected since connection got disposed');
    const timers = activate();
    await until(() => state.messages.length > 0);
    const closed = await state.clients[0].clientOptions.errorHandler.closed();
    assert.deepEqual(closed, { action: 1, handled: true });
    timers.advance(10 * extension.RESTART_DELAY_MS);
    await settle();
    assert.equal(state.clients.length, 1);
    assert.equal(state.messages.length, 1);
  });

  it('restarts after a crash with a growing wait, and says so once', async () => {
    const timers = activate();
    await until(() => state.clients.length === 1);
    const crash = async (index: number) => state.clients[index].clientOptions.errorHandler.closed();

    assert.deepEqual(await crash(0), { action: 1, handled: true }, 'never the client’s own restart');
    timers.advance(999);
    await settle();
    assert.equal(state.clients.length, 1);
    timers.advance(1);
    await until(() => state.clients.length === 2);

    await crash(1);
    timers.advance(1999);
    await settle();
    assert.equal(state.clients.length, 2, 'the second crash in a row waits twice as long');
    timers.advance(1);
    await until(() => state.clients.length === 3);

    const warnings = state.messages.filter((message) => message.kind === 'warning');
    assert.equal(warnings.length, 1, JSON.stringify(state.messages));
    assert.match(warnings[0].text, /stopped unexpectedly.*restarted after 1 s/);
    assert.deepEqual(starts(), ['activation', 'after a crash', 'after a crash']);
  });
});
