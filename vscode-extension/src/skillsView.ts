/**
 * The Skills view, the status-bar item and the skill actions (Run Skill…, Show What the Model Sees, New
 * Skill…). What to show is decided in catalogTree.ts; this file asks the server and talks to VS Code.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ExecuteCommandRequest, type LanguageClient } from 'vscode-languageclient/node';
import {
  buildTree,
  type CatalogEntry,
  countsByFolder,
  mergeCatalogs,
  nameProblem,
  oneLine,
  type RootNode,
  type ScopeNode,
  skillBadge,
  type SkillDiagnostic,
  type SkillNode,
  skillRoots,
  skillSkeleton,
  statusText,
  summarize,
  type TreeContext,
} from './catalogTree';
import type { ClientSource } from './clientSource';
import { CATALOG_CHANGED, SKILL_FILE } from './declared';
import { nativeSkillSupport } from './nativeSkillSupport';

export const VIEW_ID = 'albedoSkills.skills';
const PROMPT_SCHEME = 'albedo-skills';
/** Diagnostics arrive in bursts (one notification per file): the view refreshes once the burst settles. */
const REFRESH_DELAY_MS = 150;


type Item = ScopeNode | RootNode | SkillNode;

/** The workspace folder of the active editor, else the first: the folder the routes are asked about. */
export function activeFolder(): vscode.WorkspaceFolder | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return (uri && vscode.workspace.getWorkspaceFolder(uri)) ?? vscode.workspace.workspaceFolders?.[0];
}

/** ` (in alpha)`: which folder an action works in, said only when the workspace has several. */
function inFolder(folder: vscode.WorkspaceFolder | undefined): string {
  return folder !== undefined && (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? ` (in ${folder.name})` : '';
}

async function execute<T>(client: LanguageClient, command: string, args: unknown[]): Promise<T> {
  return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args })) as T;
}

function severityName(severity: vscode.DiagnosticSeverity): SkillDiagnostic['severity'] {
  return (['error', 'warning', 'information', 'hint'] as const)[severity];
}

/** Albedo's own findings on every SKILL.md, including those left out of display beside VS Code's twin. */
function skillDiagnostics(): SkillDiagnostic[] {
  return nativeSkillSupport
    .albedoDiagnostics()
    .filter(([uri]) => uri.scheme === 'file' && path.basename(uri.fsPath) === SKILL_FILE)
    .flatMap(([uri, diagnostics]) =>
      diagnostics.map((diagnostic) => ({
        path: uri.fsPath,
        severity: severityName(diagnostic.severity),
        code: typeof diagnostic.code === 'object' ? String(diagnostic.code.value) : diagnostic.code?.toString(),
        message: diagnostic.message,
        related: (diagnostic.relatedInformation ?? []).map((info) => info.location.uri.fsPath),
      })),
    );
}

/** The workspace folders and home the tree's paths are read against, on this platform. */
export function treeContext(): TreeContext {
  return { workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath), home: os.homedir(), platform: process.platform };
}

class SkillsTree implements vscode.TreeDataProvider<Item> {
  private tree: ScopeNode[] = [];
  private readonly changed = new vscode.EventEmitter<Item | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly status = vscode.window.createStatusBarItem('albedoSkills.status', vscode.StatusBarAlignment.Left, 0);
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;

  constructor(private readonly server: ClientSource, private readonly channel: vscode.LogOutputChannel) {
    this.status.name = 'Albedo Skills';
    this.status.command = `${VIEW_ID}.focus`;
  }

  context(): TreeContext {
    return treeContext();
  }

  schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), REFRESH_DELAY_MS);
  }

  async refresh(): Promise<void> {
    const generation = ++this.generation;
    const client = this.server.running();
    let entries: CatalogEntry[] = [];
    if (client !== undefined) {
      // every folder's catalog (a monorepo's folders each have theirs), not the active editor's alone
      const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString());
      try {
        const catalogs = await Promise.all((folders.length > 0 ? folders : [null]).map((folder) => execute<CatalogEntry[]>(client, 'commands.catalog', [folder])));
        entries = mergeCatalogs(catalogs);
      } catch (error) {
        this.channel.debug(`commands.catalog for the Skills view: ${String(error)}`);
      }
    }
    if (generation !== this.generation) {
      return; // a newer refresh is under way
    }
    const context = this.context();
    this.tree = buildTree(entries, skillDiagnostics(), context);
    const { skills, withErrors, hidden } = summarize(this.tree);
    this.status.text = statusText(this.tree);
    const perFolder = context.workspaceFolders.length > 1 ? ` (${countsByFolder(this.tree, context).map(({ label, skills: n }) => `${label} ${n}`).join(', ')})` : '';
    this.status.tooltip = `Albedo Skills: ${skills} in the catalog${perFolder}, ${withErrors} with errors, ${hidden} hidden by a collision. Click to open the Skills view.`;
    this.status.backgroundColor = withErrors > 0 ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
    if (client !== undefined) {
      this.status.show();
    } else {
      this.status.hide();
    }
    this.changed.fire(undefined);
  }

  getChildren(item?: Item): Item[] {
    if (item === undefined) {
      return this.tree;
    }
    if ('roots' in item) {
      return item.roots;
    }
    if ('skills' in item) {
      return item.skills;
    }
    return [];
  }

  getTreeItem(item: Item): vscode.TreeItem {
    if ('roots' in item) {
      const tree = new vscode.TreeItem(item.label, vscode.TreeItemCollapsibleState.Expanded);
      tree.iconPath = new vscode.ThemeIcon(item.scope === 'workspace' ? 'root-folder' : 'account');
      tree.contextValue = 'scope';
      return tree;
    }
    if ('skills' in item) {
      const tree = new vscode.TreeItem(item.label, vscode.TreeItemCollapsibleState.Expanded);
      tree.iconPath = vscode.ThemeIcon.Folder;
      tree.tooltip = item.root;
      tree.contextValue = 'root';
      return tree;
    }
    const tree = new vscode.TreeItem(item.name, vscode.TreeItemCollapsibleState.None);
    tree.description = [skillBadge(item, this.context()), oneLine(item.description)].filter(Boolean).join(' — ');
    const markdown = new vscode.MarkdownString();
    markdown.appendMarkdown(`**${item.command ?? item.name}**\n\n`);
    if (item.description) {
      markdown.appendText(item.description + '\n\n');
    }
    if (item.firstProblem) {
      markdown.appendMarkdown('$(error) ').appendText(item.firstProblem + '\n\n');
    }
    if (item.hiddenBy) {
      markdown.appendMarkdown('$(warning) ').appendText(`Hidden by ${item.hiddenBy}\n\n`);
    }
    for (const refusal of item.otherAgents) {
      markdown.appendMarkdown('$(info) ').appendText(refusal + '\n\n');  // albedoSkills.hosts
    }
    markdown.appendText(item.path);
    markdown.supportThemeIcons = true;
    tree.tooltip = markdown;
    tree.iconPath =
      item.errors > 0
        ? new vscode.ThemeIcon('error', new vscode.ThemeColor('list.errorForeground'))
        : item.hiddenBy !== undefined
          ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
          : new vscode.ThemeIcon('symbol-event');
    tree.resourceUri = vscode.Uri.file(item.path);
    tree.contextValue = item.command !== undefined ? 'skill' : 'skill.unlisted';
    tree.command = { command: 'vscode.open', title: 'Open SKILL.md', arguments: [vscode.Uri.file(item.path)] };
    return tree;
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.changed.dispose();
    this.status.dispose();
  }
}

/** Whether a document is a chat buffer, by the same settings the server uses. */
function isChatBuffer(document: vscode.TextDocument): boolean {
  const config = vscode.workspace.getConfiguration('albedoSkills', document.uri);
  const languages = config.get<string[]>('chat.languageIds') ?? [];
  const patterns = config.get<string[]>('chat.filePatterns') ?? [];
  return (
    languages.includes(document.languageId) ||
    patterns.some((pattern) => vscode.languages.match({ pattern: pattern.includes('/') ? pattern : `**/${pattern}` }, document) > 0)
  );
}

function requireClient(server: ClientSource, channel: vscode.LogOutputChannel): LanguageClient | undefined {
  const client = server.running();
  if (client === undefined) {
    void vscode.window.showWarningMessage('Albedo Skills: the language server is not running.', 'Show Output').then((choice) => choice && channel.show());
  }
  return client;
}

function reportFailure(channel: vscode.LogOutputChannel, what: string, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  channel.error(`${what} failed: ${message}`);
  void vscode.window.showErrorMessage(`Albedo Skills: ${what} failed: ${message}`);
}

/** Run Skill…: pick a command, give its arguments, and insert the activation into the chat buffer (or copy it). */
async function runSkill(server: ClientSource, channel: vscode.LogOutputChannel): Promise<string | undefined> {
  const client = requireClient(server, channel);
  if (client === undefined) {
    return undefined;
  }
  const active = activeFolder();
  const folder = active?.uri.toString() ?? null;
  try {
    const entries = await execute<CatalogEntry[]>(client, 'commands.catalog', [folder]);
    const picked = await vscode.window.showQuickPick(
      entries.map((entry) => ({ label: entry.command, description: entry.kind === 'builtin' ? 'built-in' : entry.scope, detail: entry.description, entry })),
      { title: `Albedo Skills: Run Skill${inFolder(active)}`, placeHolder: 'The skill or command to run', matchOnDetail: true },
    );
    if (picked === undefined) {
      return undefined;
    }
    let args = '';
    if (picked.entry.arguments.length > 0) {
      const argument = picked.entry.arguments[0];
      const typed = await vscode.window.showInputBox({
        title: `Albedo Skills: ${picked.entry.command}`,
        prompt: argument.description ?? 'Arguments (optional)',
        placeHolder: argument.values?.join(' | ') ?? 'arguments, or nothing',
      });
      if (typed === undefined) {
        return undefined;
      }
      args = typed;
    }
    const result = await execute<{ input?: string; intent?: string; result?: unknown }>(client, 'commands.invoke', [picked.entry.command, args, 'user', folder]);
    const text = typeof result.input === 'string' ? result.input : JSON.stringify(result, null, 2);
    const editor = vscode.window.activeTextEditor;
    if (editor !== undefined && isChatBuffer(editor.document)) {
      await editor.edit((edit) => edit.replace(editor.selection, text));
      return text;
    }
    await vscode.env.clipboard.writeText(text);
    void vscode.window.showInformationMessage(`Albedo Skills: the activation of ${picked.entry.command} is on the clipboard (no chat buffer is active).`);
    return text;
  } catch (error) {
    reportFailure(channel, 'Run Skill', error);
    return undefined;
  }
}

/** Show What the Model Sees: the catalog's prompt block, in a read-only document. */
class PromptDocuments implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  constructor(private readonly server: ClientSource) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const client = this.server.running();
    if (client === undefined) {
      return 'The Albedo Skills language server is not running: see the output channel.';
    }
    const folder = new URLSearchParams(uri.query).get('folder');
    const answer = await execute<{ text: string }>(client, 'skills.prompt', [folder]);
    return answer.text;
  }

  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }
}

async function showPrompt(documents: PromptDocuments): Promise<vscode.TextEditor> {
  const folder = activeFolder();
  const uri = vscode.Uri.from({
    scheme: PROMPT_SCHEME,
    path: `/${folder?.name ?? 'catalog'}/available_skills.xml`,
    query: new URLSearchParams(folder ? { folder: folder.uri.toString() } : {}).toString(),
  });
  documents.refresh(uri);
  const document = await vscode.workspace.openTextDocument(uri);
  return vscode.window.showTextDocument(document, { preview: false });
}

/** New Skill…: a checked name and a root, then a valid skeleton through a workspace edit. */
async function newSkill(): Promise<vscode.Uri | undefined> {
  const name = await vscode.window.showInputBox({
    title: 'Albedo Skills: New Skill',
    prompt: 'The skill name: also its folder name and its slash command',
    placeHolder: 'review-pr',
    validateInput: (value) => nameProblem(value),
  });
  if (name === undefined || nameProblem(name) !== undefined) {
    return undefined;
  }
  const active = activeFolder();
  const roots = skillRoots(active?.uri.fsPath, os.homedir());
  const root = await vscode.window.showQuickPick(
    roots.map((candidate) => ({ label: candidate.root, description: candidate.scope, root: candidate.root })),
    { title: `Albedo Skills: where to create ${name}${inFolder(active)}`, placeHolder: 'The skills root' },
  );
  if (root === undefined) {
    return undefined;
  }
  const uri = vscode.Uri.file(path.join(root.root, name, SKILL_FILE));
  const edit = new vscode.WorkspaceEdit();
  edit.createFile(uri, { ignoreIfExists: false, contents: new TextEncoder().encode(skillSkeleton(name)) });
  if (!(await vscode.workspace.applyEdit(edit))) {
    void vscode.window.showErrorMessage(`Albedo Skills: ${uri.fsPath} could not be created (does it exist already?).`);
    return undefined;
  }
  const document = await vscode.workspace.openTextDocument(uri);
  await document.save();
  await vscode.window.showTextDocument(document);
  return uri;
}

/** Register the view, the status-bar item and the actions; the view follows the server and the diagnostics. */
export function registerSkillsView(server: ClientSource, channel: vscode.LogOutputChannel): vscode.Disposable[] {
  const tree = new SkillsTree(server, channel);
  const prompts = new PromptDocuments(server);
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: tree, showCollapseAll: true });
  let catalogListener: vscode.Disposable | undefined;
  const updateBadge = () => {
    const { withErrors } = summarize(tree.getChildren() as ScopeNode[]);
    view.badge = withErrors > 0 ? { value: withErrors, tooltip: `${withErrors} skill${withErrors === 1 ? '' : 's'} with errors` } : undefined;
  };
  return [
    tree,
    view,
    tree.onDidChangeTreeData(updateBadge),
    server.onDidChange((client) => {
      catalogListener?.dispose();
      // A new valid skill changes the catalog without changing any diagnostic: the server says so.
      catalogListener = client?.onNotification(CATALOG_CHANGED, () => tree.schedule());
      tree.schedule();
    }),
    { dispose: () => catalogListener?.dispose() },
    vscode.languages.onDidChangeDiagnostics(() => tree.schedule()),
    vscode.window.onDidChangeActiveTextEditor(() => tree.schedule()),
    vscode.workspace.registerTextDocumentContentProvider(PROMPT_SCHEME, prompts),
    vscode.commands.registerCommand('albedoSkills.runSkill', () => runSkill(server, channel)),
    vscode.commands.registerCommand('albedoSkills.showPrompt', async () => {
      if (requireClient(server, channel) !== undefined) {
        try {
          return await showPrompt(prompts);
        } catch (error) {
          reportFailure(channel, 'Show What the Model Sees', error);
        }
      }
      return undefined;
    }),
    vscode.commands.registerCommand('albedoSkills.newSkill', () => newSkill()),
    vscode.commands.registerCommand('albedoSkills.refreshView', () => tree.refresh()),
  ];
}
