/**
 * The Skills view's content, decided without VS Code (node --test runs this module directly): the catalog
 * (`commands.catalog`) and the diagnostics the server published, grouped by scope and root.
 *
 * The catalog holds only the skills that won; a skill with an error or hidden by a collision is not in it,
 * so those come from the diagnostics on their `SKILL.md`, which the server publishes for every skill file.
 */
import * as path from 'node:path';
import { MAX_NAME_CHARS, NAME_PATTERN, SKILL_FILE, USER_ROOTS, WORKSPACE_ROOTS } from './declared';

/** One entry of `commands.catalog` (docs/design.md#5-commands). */
export interface CatalogEntry {
  command: string;
  name: string;
  kind: 'builtin' | 'skill';
  description: string;
  arguments: { name: string; required?: boolean; description?: string; values?: string[] }[];
  path?: string;
  scope?: Scope;
}

export type Scope = 'workspace' | 'user';

/** A diagnostic on a `SKILL.md`, reduced to what the view shows. */
export interface SkillDiagnostic {
  path: string;
  severity: 'error' | 'warning' | 'information' | 'hint';
  code?: string;
  message: string;
  /** Paths of the related locations (for a collision: the winner's `SKILL.md`). */
  related: string[];
}

export interface SkillNode {
  name: string;
  /** The slash command; absent for a skill that is not in the catalog. */
  command?: string;
  description: string;
  path: string;
  errors: number;
  warnings: number;
  /** The winner's `SKILL.md`, for a skill hidden by a collision. */
  hiddenBy?: string;
  /** The first error's message, for the tooltip. */
  firstProblem?: string;
  /** What the agents chosen in `albedoSkills.hosts` say against it (the `host-*` diagnostics' messages). */
  otherAgents: string[];
}

/** The codes of other agents' refusals (skills/hosts/diagnostics.py): shown apart, never counted as Albedo's. */
const isOtherAgents = (code: string | undefined) => code !== undefined && code.startsWith('host-');

export interface RootNode {
  root: string;
  label: string;
  skills: SkillNode[];
}

export interface ScopeNode {
  scope: Scope;
  label: string;
  roots: RootNode[];
}

export interface TreeContext {
  workspaceFolders: readonly string[];
  home?: string;
  /** Whose paths these are (`win32`: drive letters, backslashes, any letter case); default: this process's. */
  platform?: NodeJS.Platform;
}

const flavour = (context: Pick<TreeContext, 'platform'>) => ((context.platform ?? process.platform) === 'win32' ? path.win32 : path.posix);

/**
 * One spelling per file. The catalog's paths come from the server (Python) and the diagnostics' from VS Code
 * (`Uri.fsPath`); on Windows these may differ in the drive letter's case (`C:\` against `c:\`) or the
 * separators, and the file system ignores letter case, so they are compared lowercased and normalised.
 */
export function pathKey(file: string, context: Pick<TreeContext, 'platform'> = {}): string {
  return (context.platform ?? process.platform) === 'win32' ? path.win32.normalize(file).toLowerCase() : file;
}

/** A description as one line of text (a folded or literal YAML block keeps line breaks, which a tree row shows as ⏎). */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const SCOPE_LABELS: Record<Scope, string> = { workspace: 'Workspace', user: 'User' };

function isInside(file: string, folder: string, context: TreeContext): boolean {
  const [inner, outer] = [pathKey(file, context), pathKey(folder, context)];
  const sep = flavour(context).sep;
  return inner === outer || inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
}

/** The root a skill's `SKILL.md` sits in: the folder above its skill folder. */
export const rootOf = (skillFile: string, context: Pick<TreeContext, 'platform'> = {}) => flavour(context).dirname(flavour(context).dirname(skillFile));

/** A root's label: relative to its workspace folder, or `~/…`, with `/` between the parts on every platform. */
function rootLabel(root: string, context: TreeContext): string {
  const paths = flavour(context);
  const slashed = (relative: string) => relative.split(paths.sep).join('/');
  const folder = context.workspaceFolders.find((candidate) => isInside(root, candidate, context));
  if (folder !== undefined) {
    const relative = slashed(paths.relative(folder, root));
    return context.workspaceFolders.length > 1 ? `${paths.basename(folder)}/${relative}` : relative;
  }
  if (context.home !== undefined && isInside(root, context.home, context)) {
    return `~/${slashed(paths.relative(context.home, root))}`;
  }
  return root;
}

/** Scopes (workspace first), their roots in catalog order, and each root's skills, with their badges. */
export function buildTree(entries: readonly CatalogEntry[], diagnostics: readonly SkillDiagnostic[], context: TreeContext): ScopeNode[] {
  const paths = flavour(context);
  const byPath = new Map<string, SkillNode>();
  const scopes = new Map<string, Scope>();
  for (const entry of entries) {
    if (entry.kind !== 'skill' || entry.path === undefined) {
      continue;
    }
    const key = pathKey(entry.path, context);
    byPath.set(key, { name: entry.name, command: entry.command, description: entry.description, path: entry.path, errors: 0, warnings: 0, otherAgents: [] });
    scopes.set(key, entry.scope ?? 'workspace');
  }
  for (const diagnostic of diagnostics) {
    if (paths.basename(diagnostic.path) !== SKILL_FILE) {
      continue;
    }
    const key = pathKey(diagnostic.path, context);
    let node = byPath.get(key);
    if (node === undefined) {
      node = { name: paths.basename(paths.dirname(diagnostic.path)), description: '', path: diagnostic.path, errors: 0, warnings: 0, otherAgents: [] };
      byPath.set(key, node);
      scopes.set(key, context.workspaceFolders.some((folder) => isInside(diagnostic.path, folder, context)) ? 'workspace' : 'user');
    }
    if (isOtherAgents(diagnostic.code)) {
      node.otherAgents.push(diagnostic.message);
    } else if (diagnostic.severity === 'error') {
      node.errors++;
      node.firstProblem ??= diagnostic.message;
    } else if (diagnostic.severity === 'warning') {
      node.warnings++;
    }
    if (diagnostic.code === 'collision' && diagnostic.related.length > 0) {
      node.hiddenBy = diagnostic.related[0];
    }
  }

  const tree: ScopeNode[] = [];
  for (const scope of ['workspace', 'user'] as const) {
    const roots = new Map<string, RootNode>();
    for (const [key, node] of byPath) {
      if (scopes.get(key) !== scope) {
        continue;
      }
      const root = rootOf(node.path, context);
      const rootKey = pathKey(root, context);
      if (!roots.has(rootKey)) {
        roots.set(rootKey, { root, label: rootLabel(root, context), skills: [] });
      }
      roots.get(rootKey)!.skills.push(node);
    }
    if (roots.size > 0) {
      for (const root of roots.values()) {
        root.skills.sort((a, b) => a.name.localeCompare(b.name));
      }
      tree.push({ scope, label: SCOPE_LABELS[scope], roots: [...roots.values()] });
    }
  }
  return tree;
}

/**
 * The catalogs of every workspace folder as one list for the view (`commands.catalog` answers for one folder):
 * each skill once, by its `SKILL.md` (a user root's skill is in every folder's catalog), each built-in once.
 * Two folders' skills of the same name are two skills, as they are two catalogs' (no collision between them).
 */
export function mergeCatalogs(catalogs: readonly (readonly CatalogEntry[])[], context: Pick<TreeContext, 'platform'> = {}): CatalogEntry[] {
  const seen = new Set<string>();
  const merged: CatalogEntry[] = [];
  for (const entries of catalogs) {
    for (const entry of entries) {
      const key = entry.kind === 'skill' && entry.path !== undefined ? `skill ${pathKey(entry.path, context)}` : `${entry.kind} ${entry.command}`;
      if (!seen.has(key)) {
        seen.add(key);
        merged.push(entry);
      }
    }
  }
  return merged;
}

/** The skills in the catalog per workspace folder (named by its folder's name) and in the user roots, for the status bar's tooltip. */
export function countsByFolder(tree: readonly ScopeNode[], context: TreeContext): { label: string; skills: number }[] {
  const paths = flavour(context);
  const counts = context.workspaceFolders.map((folder) => ({ folder, label: paths.basename(folder), skills: 0 }));
  let user = 0;
  for (const scope of tree) {
    for (const root of scope.roots) {
      const listed = root.skills.filter((node) => node.command !== undefined).length;
      const folder = scope.scope === 'workspace' ? counts.find((count) => isInside(root.root, count.folder, context)) : undefined;
      if (folder !== undefined) {
        folder.skills += listed;
      } else {
        user += listed;
      }
    }
  }
  return [...counts.map(({ label, skills }) => ({ label, skills })), { label: 'user roots', skills: user }];
}

/** What the tree counts: skills in the catalog, skills with errors, hidden skills. */
export function summarize(tree: readonly ScopeNode[]): { skills: number; withErrors: number; hidden: number } {
  const nodes = tree.flatMap((scope) => scope.roots.flatMap((root) => root.skills));
  return {
    skills: nodes.filter((node) => node.command !== undefined).length,
    withErrors: nodes.filter((node) => node.errors > 0).length,
    hidden: nodes.filter((node) => node.hiddenBy !== undefined).length,
  };
}

/** The status-bar text: the skill count, and the skills with errors when there are any. */
export function statusText(tree: readonly ScopeNode[]): string {
  const { skills, withErrors } = summarize(tree);
  const count = `$(book) ${skills} skill${skills === 1 ? '' : 's'}`;
  return withErrors > 0 ? `${count} $(error) ${withErrors}` : count;
}

/** The badge text beside a skill in the tree. */
export function skillBadge(node: SkillNode, context: TreeContext): string {
  const parts: string[] = [];
  if (node.command !== undefined) {
    parts.push(node.command);
  }
  if (node.errors > 0) {
    parts.push(`${node.errors} error${node.errors === 1 ? '' : 's'}`);
  }
  if (node.otherAgents.length > 0) {
    parts.push(`${node.otherAgents.length} other agent${node.otherAgents.length === 1 ? '' : 's'} refuse`);
  }
  if (node.hiddenBy !== undefined) {
    const paths = flavour(context);
    parts.push(`hidden by ${rootLabel(rootOf(node.hiddenBy, context), context)}/${paths.basename(paths.dirname(node.hiddenBy))}`);
  }
  return parts.join(' · ');
}

/**
 * A skill name as the spec requires, checked before New Skill… creates a folder (a bad name would make a
 * folder to rename); the server then checks the file like any other.
 */
export function nameProblem(name: string): string | undefined {
  if (name.length === 0) {
    return 'Type a name, for example `review-pr`.';
  }
  if (name.length > MAX_NAME_CHARS) {
    return `At most ${MAX_NAME_CHARS} characters (this one has ${name.length}).`;
  }
  if (!NAME_PATTERN.test(name)) {
    return 'Use lowercase letters, digits and single hyphens, not at the start or the end.';
  }
  return undefined;
}

/** The skeleton New Skill… writes: valid frontmatter (the name matches the folder) and a body to fill in. */
export function skillSkeleton(name: string): string {
  return [
    '---',
    `name: ${name}`,
    'description: Say what this skill does and when to use it.',
    '---',
    '',
    `# ${name}`,
    '',
    'Steps the model follows when this skill is activated.',
    '',
  ].join('\n');
}

/** The roots New Skill… offers: the workspace's two, then the user's (docs/design.md#3-discovery: the five roots). */
export function skillRoots(workspaceFolder: string | undefined, home: string | undefined): { scope: Scope; root: string }[] {
  const roots: { scope: Scope; root: string }[] = [];
  if (workspaceFolder !== undefined) {
    for (const relative of WORKSPACE_ROOTS) {
      roots.push({ scope: 'workspace', root: path.join(workspaceFolder, ...relative.split('/')) });
    }
  }
  if (home !== undefined) {
    for (const relative of USER_ROOTS) {
      roots.push({ scope: 'user', root: path.join(home, ...relative.split('/')) });
    }
  }
  return roots;
}
