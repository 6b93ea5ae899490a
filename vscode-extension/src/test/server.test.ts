/**
 * Starts the real language server with the command the extension would use (the server bundled by
 * `npm run package`, run by `server.pythonPath` set to $ALBEDO_PYTHON, else `python3`: any Python 3.11 or newer,
 * the package need not be installed there) and speaks JSON-RPC to it over stdio, framed by hand: no VS Code
 * involved.
 */
import * as assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { findBundle, resolveLaunch } from '../launch';
import { SECTION } from '../declared';
import { configurationForServer, initializationOptions, readSettings } from '../settings';

const EXTENSION = path.join(__dirname, '..', '..');
const REQUEST_TIMEOUT_MS = 30_000;
const EXIT_TIMEOUT_MS = 10_000;

interface Message {
  jsonrpc: '2.0';
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** A JSON-RPC 2.0 connection with LSP's `Content-Length` framing over a child's stdin and stdout. */
class Connection {
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(message: Message): void; reject(error: Error): void }>();
  private gone: string | undefined;
  readonly notifications: Message[] = [];

  constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly answer: (method: string, params: unknown) => unknown,
  ) {
    child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
    // Writing to a server that has gone away fails the request below, not the whole run.
    child.stdin.on('error', () => undefined);
    child.on('exit', (code, signal) => {
      this.gone = `the server exited (code ${code}, signal ${signal}) before answering`;
      for (const { reject } of this.pending.values()) {
        reject(new Error(this.gone));
      }
      this.pending.clear();
    });
  }

  request(method: string, params?: unknown): Promise<Message> {
    const id = this.nextId++;
    if (this.gone !== undefined) {
      return Promise.reject(new Error(this.gone));
    }
    return new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`no answer to ${method} within ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, {
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    });
  }

  notify(method: string, params?: unknown): void {
    this.send({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
  }

  private send(message: Message): void {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.child.stdin.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]));
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd < 0) {
        return;
      }
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const length = /^Content-Length: *(\d+)$/im.exec(header);
      assert.ok(length, `a message header without Content-Length: ${JSON.stringify(header)}`);
      const start = headerEnd + 4;
      const end = start + Number(length[1]);
      if (this.buffer.length < end) {
        return;
      }
      const message = JSON.parse(this.buffer.subarray(start, end).toString('utf8')) as Message;
      this.buffer = this.buffer.subarray(end);
      this.dispatch(message);
    }
  }

  private dispatch(message: Message): void {
    if (message.method === undefined) {
      const waiter = this.pending.get(message.id as number);
      this.pending.delete(message.id as number);
      waiter?.resolve(message);
    } else if (message.id !== undefined) {
      // A request from the server (workspace/configuration, client/registerCapability, ...): answer it.
      this.send({ jsonrpc: '2.0', id: message.id, result: this.answer(message.method, message.params) ?? null });
    } else {
      this.notifications.push(message);
    }
  }
}

describe('the server, started from the launch spec, over stdio', () => {
  const python = process.env.ALBEDO_PYTHON || 'python3';
  let temp: string;
  let child: ChildProcessWithoutNullStreams;
  let connection: Connection;
  let stderr = '';
  let rootUri: string;
  let workspaceName: string;
  let options: ReturnType<typeof initializationOptions>;
  let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  const context = () => `\n--- server stderr ---\n${stderr.slice(-4000)}`;

  before(() => {
    // A workspace with one skill and an empty home, so nothing on this machine leaks into the results.
    temp = mkdtempSync(path.join(os.tmpdir(), 'albedo-skills-ext-'));
    const workspace = path.join(temp, 'workspace');
    const home = path.join(temp, 'home');
    mkdirSync(path.join(workspace, '.agents', 'skills', 'demo'), { recursive: true });
    mkdirSync(home);
    writeFileSync(
      path.join(workspace, '.agents', 'skills', 'demo', 'SKILL.md'),
      '---\nname: demo\ndescription: Merge files the way this project likes.\n---\n# Demo\n\nMerge them.\n',
    );

    const bundle = findBundle(EXTENSION) ?? assert.fail('no bundled server: npm test runs `npm run package` first');
    const { settings, problems } = readSettings({ home, server: { pythonPath: python } });
    assert.deepEqual(problems, []);
    const spec = resolveLaunch({
      serverPath: settings.server.path,
      pythonPath: settings.server.pythonPath,
      platform: process.platform,
      env: { ...process.env, HOME: home, USERPROFILE: home },
      workspaceFolder: workspace,
      home,
      importStrategy: 'useBundled',
      bundle,
    });
    assert.equal(spec.source, 'server.pythonPath');
    assert.deepEqual(spec.args, ['-I', '-X', 'utf8', bundle.launcher]);

    child = spawn(spec.command, spec.args, { cwd: workspace, env: spec.options.env, shell: spec.options.shell });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => (stderr += text));
    exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    child.on('error', (error) => (stderr += `\n[spawn error] ${String(error)}`));

    // What VS Code holds under albedoSkills, the extension's own server.* settings included; the extension's
    // middleware filters the answer exactly as here.
    const vscodeSection = { ...initializationOptions(settings).albedoSkills, server: settings.server };
    connection = new Connection(child, (method, params) => {
      if (method === 'workspace/configuration') {
        const items = (params as { items?: { section?: string }[] } | undefined)?.items ?? [];
        return configurationForServer(items, items.map((item) => (item.section === SECTION ? vscodeSection : null)));
      }
      return null;
    });
    rootUri = pathToFileURL(workspace).href;
    workspaceName = path.basename(workspace);
    options = initializationOptions(settings);
  });

  after(async () => {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      child.kill();
      await exited;
    }
    if (temp !== undefined) {
      rmSync(temp, { recursive: true, force: true });
    }
  });

  it('answers initialize with serverInfo and capabilities', async () => {
    const response = await connection.request('initialize', {
      processId: process.pid,
      clientInfo: { name: 'albedo-skills vscode-extension test' },
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: workspaceName }],
      initializationOptions: options,
      capabilities: {
        workspace: {
          configuration: true,
          workspaceFolders: true,
          didChangeConfiguration: { dynamicRegistration: true },
          didChangeWatchedFiles: { dynamicRegistration: true },
          executeCommand: { dynamicRegistration: false },
        },
        textDocument: {
          synchronization: { dynamicRegistration: false, didSave: true },
          publishDiagnostics: { relatedInformation: true },
          completion: { completionItem: { snippetSupport: false } },
          hover: { contentFormat: ['markdown', 'plaintext'] },
        },
        window: { workDoneProgress: false },
        general: { positionEncodings: ['utf-16'] },
      },
    }).catch((error: Error) => assert.fail(`${error.message}${context()}`));
    assert.equal(response.error, undefined, `initialize failed: ${JSON.stringify(response.error)}${context()}`);
    const result = response.result as { serverInfo?: { name?: unknown }; capabilities?: unknown };
    assert.equal(result.serverInfo?.name, 'albedo-skills-ls', context());
    assert.equal(typeof result.capabilities, 'object');
    assert.notEqual(result.capabilities, null);
    // The extension's "Reload Skills" command runs this one.
    const commands = (result.capabilities as { executeCommandProvider?: { commands?: string[] } }).executeCommandProvider
      ?.commands;
    assert.ok(commands?.includes('skills.reload'), `executeCommandProvider.commands: ${JSON.stringify(commands)}`);
    connection.notify('initialized', {});
  });

  it('runs skills.reload, as the Reload Skills command does', async () => {
    const response = await connection
      .request('workspace/executeCommand', { command: 'skills.reload', arguments: [] })
      .catch((error: Error) => assert.fail(`${error.message}${context()}`));
    assert.equal(response.error, undefined, `skills.reload failed: ${JSON.stringify(response.error)}${context()}`);
    const result = response.result as { skills?: unknown; diagnostics?: unknown };
    assert.equal(result.skills, 1, `${JSON.stringify(result)}${context()}`);
    assert.equal(typeof result.diagnostics, 'number');
  });

  it('answers an unknown `/nosuch` with RequestFailed and logs one information line, no traceback', async () => {
    const logged = () => connection.notifications.filter((message) => message.method === 'window/logMessage' && JSON.stringify(message.params).includes('/nosuch'));
    const response = await connection.request('workspace/executeCommand', { command: 'commands.invoke', arguments: ['/nosuch', 'these files', 'user'] });
    assert.equal(response.error?.code, -32803, JSON.stringify(response));
    // The log line is written before the answer, so it has arrived: VS Code's client shows it in the channel
    // at the level its type says (3, information).
    assert.deepEqual(
      logged().map((message) => message.params),
      [{ type: 3, message: 'commands.invoke refused: unknown command `/nosuch`: call commands.catalog for the available commands, or skills.reload if the skill was added since' }],
    );
    assert.doesNotMatch(stderr, /Traceback|ERROR/, context());
  });

  it("takes the extension's settings without a complaint", () => {
    const complaints = connection.notifications.filter(
      (message) => message.method === 'window/showMessage' && (message.params as { type: number }).type <= 2,
    );
    assert.deepEqual(complaints, []);
  });

  it('answers shutdown, then exits with code 0 on exit', async () => {
    const response = await connection
      .request('shutdown')
      .catch((error: Error) => assert.fail(`${error.message}${context()}`));
    assert.equal(response.error, undefined, `shutdown failed: ${JSON.stringify(response.error)}${context()}`);
    assert.equal(response.result, null);
    connection.notify('exit');
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      exited,
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), EXIT_TIMEOUT_MS))),
    ]);
    clearTimeout(timer);
    assert.notEqual(outcome, 'timeout', `the server did not exit within ${EXIT_TIMEOUT_MS} ms of exit${context()}`);
    assert.deepEqual(outcome, { code: 0, signal: null }, context());
  });
});
