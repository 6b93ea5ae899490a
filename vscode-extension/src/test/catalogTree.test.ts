/** The Skills view's content (catalogTree.ts): grouping, badges, the status text, and New Skill's checks. */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  buildTree,
  type CatalogEntry,
  countsByFolder,
  mergeCatalogs,
  nameProblem,
  oneLine,
  pathKey,
  type SkillDiagnostic,
  skillBadge,
  skillRoots,
  skillSkeleton,
  statusText,
  summarize,
} from '../catalogTree';
import { MAX_NAME_CHARS } from '../declared';
import { findBundle } from '../launch';

const WS = '/work/project';
const HOME = '/home/ada';
const context = { workspaceFolders: [WS], home: HOME };
const skill = (name: string, root: string, scope: 'workspace' | 'user'): CatalogEntry => ({
  command: `/${name}`,
  name,
  kind: 'skill',
  description: `${name} does things`,
  arguments: [{ name: 'arguments' }],
  path: `${root}/${name}/SKILL.md`,
  scope,
});

describe('buildTree', () => {
  const entries: CatalogEntry[] = [
    { command: '/help', name: 'help', kind: 'builtin', description: 'List', arguments: [] },
    skill('review', `${WS}/.agents/skills`, 'workspace'),
    skill('deploy', `${WS}/.albedo/skills`, 'workspace'),
    skill('notes', `${HOME}/.albedo/skills`, 'user'),
  ];
  const diagnostics = [
    { path: `${WS}/.agents/skills/broken/SKILL.md`, severity: 'error' as const, code: 'description-missing', message: 'add a `description`', related: [] },
    { path: `${WS}/.agents/skills/broken/SKILL.md`, severity: 'error' as const, code: 'name-mismatch', message: 'name differs', related: [] },
    { path: `${HOME}/.agents/skills/review/SKILL.md`, severity: 'warning' as const, code: 'collision', message: 'hidden', related: [`${WS}/.agents/skills/review/SKILL.md`] },
    { path: `${WS}/.agents/skills/review/SKILL.md`, severity: 'warning' as const, code: 'body-empty', message: 'w', related: [] },
    { path: `${WS}/notes.chat.md`, severity: 'error' as const, code: 'x', message: 'not a skill file', related: [] },
  ];
  const tree = buildTree(entries, diagnostics, context);

  it('groups skills by scope (workspace first) and root, in catalog order, and leaves out built-ins', () => {
    assert.deepEqual(
      tree.map((scope) => [scope.label, scope.roots.map((root) => [root.label, root.skills.map((node) => node.name)])]),
      [
        ['Workspace', [['.agents/skills', ['broken', 'review']], ['.albedo/skills', ['deploy']]]],
        ['User', [['~/.albedo/skills', ['notes']], ['~/.agents/skills', ['review']]]],
      ],
    );
  });

  it('lists a skill with errors and a hidden skill from their diagnostics, with badges', () => {
    const nodes = tree.flatMap((scope) => scope.roots.flatMap((root) => root.skills));
    const broken = nodes.find((node) => node.name === 'broken')!;
    assert.equal(broken.command, undefined);
    assert.equal(broken.errors, 2);
    assert.equal(broken.firstProblem, 'add a `description`');
    assert.equal(skillBadge(broken, context), '2 errors');
    const hidden = nodes.find((node) => node.path === `${HOME}/.agents/skills/review/SKILL.md`)!;
    assert.equal(hidden.hiddenBy, `${WS}/.agents/skills/review/SKILL.md`);
    assert.equal(skillBadge(hidden, context), 'hidden by .agents/skills/review');
    const winner = nodes.find((node) => node.path === `${WS}/.agents/skills/review/SKILL.md`)!;
    assert.deepEqual([winner.errors, winner.warnings, skillBadge(winner, context)], [0, 1, '/review']);
  });

  it("shows the chosen agents' refusals apart from Albedo's own findings (albedoSkills.hosts)", () => {
    const refused = [
      { path: `${WS}/.agents/skills/review/SKILL.md`, severity: 'warning' as const, code: 'host-skipped', message: 'Zed at 1597378f skips this skill: …', related: [] },
      { path: `${WS}/.agents/skills/review/SKILL.md`, severity: 'information' as const, code: 'host-not-seen', message: 'Claude Code 2.1.197: …', related: [] },
    ];
    const node = buildTree([entries[1]], refused, context)[0].roots[0].skills[0];
    assert.deepEqual([node.warnings, node.otherAgents.length], [0, 2]);
    assert.equal(skillBadge(node, context), '/review · 2 other agents refuse');
  });

  it('counts for the status bar: catalog skills, skills with errors', () => {
    assert.deepEqual(summarize(tree), { skills: 3, withErrors: 1, hidden: 1 });
    assert.equal(statusText(tree), '$(book) 3 skills $(error) 1');
    assert.equal(statusText(buildTree([entries[3]], [], context)), '$(book) 1 skill');
    assert.deepEqual(buildTree([], [], context), []);
  });

  it('names roots by folder when the workspace has several folders', () => {
    const several = buildTree([skill('a', '/w/two/.agents/skills', 'workspace')], [], { workspaceFolders: ['/w/one', '/w/two'], home: HOME });
    assert.equal(several[0].roots[0].label, 'two/.agents/skills');
  });
});

describe('a multi-root workspace: every folder in the view', () => {
  const ALPHA = '/repo/alpha';
  const BETA = '/repo/beta';
  const both = { workspaceFolders: [ALPHA, BETA], home: HOME };
  const help = { command: '/help', name: 'help', kind: 'builtin' as const, description: 'List', arguments: [] };
  const shared = skill('notes', `${HOME}/.agents/skills`, 'user');
  // what commands.catalog answers for each folder: its own skills, then the user roots' (in both)
  const alpha = [help, skill('deploy', `${ALPHA}/.agents/skills`, 'workspace'), skill('lint', `${ALPHA}/.agents/skills`, 'workspace'), shared];
  const beta = [help, skill('deploy', `${BETA}/.agents/skills`, 'workspace'), skill('review', `${BETA}/.agents/skills`, 'workspace'), shared];
  const broken = [{ path: `${ALPHA}/.agents/skills/broken/SKILL.md`, severity: 'error' as const, code: 'name-mismatch', message: 'm', related: [] }];

  it('merges the folders\' catalogs: each skill once by its SKILL.md (the user roots\' too), both deploy skills, one /help', () => {
    const merged = mergeCatalogs([alpha, beta]);
    assert.deepEqual(merged.map((entry) => entry.path ?? entry.command), [
      '/help', `${ALPHA}/.agents/skills/deploy/SKILL.md`, `${ALPHA}/.agents/skills/lint/SKILL.md`, `${HOME}/.agents/skills/notes/SKILL.md`,
      `${BETA}/.agents/skills/deploy/SKILL.md`, `${BETA}/.agents/skills/review/SKILL.md`,
    ]);
  });

  it('shows each folder\'s roots under its name, with its valid and broken skills, and the user roots once', () => {
    const tree = buildTree(mergeCatalogs([alpha, beta]), broken, both);
    assert.deepEqual(
      tree.map((scope) => [scope.label, scope.roots.map((root) => [root.label, root.skills.map((node) => node.name)])]),
      [
        ['Workspace', [['alpha/.agents/skills', ['broken', 'deploy', 'lint']], ['beta/.agents/skills', ['deploy', 'review']]]],
        ['User', [['~/.agents/skills', ['notes']]]],
      ],
    );
    assert.equal(tree.flatMap((scope) => scope.roots).flatMap((root) => root.skills).filter((node) => node.hiddenBy).length, 0); // no collision across folders
    assert.equal(statusText(tree), '$(book) 5 skills $(error) 1');
  });

  it('counts the skills per folder for the status bar tooltip, whichever folder is active', () => {
    const tree = buildTree(mergeCatalogs([beta, alpha]), broken, both);
    assert.deepEqual(countsByFolder(tree, both), [
      { label: 'alpha', skills: 2 }, { label: 'beta', skills: 2 }, { label: 'user roots', skills: 1 },
    ]);
  });
});

describe('buildTree with Windows paths', () => {
  // The server writes the drive letter as Python does; VS Code's Uri.fsPath writes it lowercase.
  const windows = { workspaceFolders: ['c:\\Users\\Ada Lovelace\\my project'], home: '\\\\fileserver\\homes\\ada', platform: 'win32' as const };
  const server = 'C:\\Users\\Ada Lovelace\\my project\\.agents\\skills';

  it('counts a diagnostic on the skill the catalog lists, whatever the drive letter case, and labels roots with /', () => {
    const entries: CatalogEntry[] = [
      { ...skill('demo', server, 'workspace'), path: `${server}\\demo\\SKILL.md` },
      { ...skill('notes', '', 'user'), path: '\\\\fileserver\\homes\\ada\\.albedo\\skills\\notes\\SKILL.md' },
    ];
    const diagnostics: SkillDiagnostic[] = [
      { path: 'c:\\Users\\Ada Lovelace\\my project\\.agents\\skills\\demo\\SKILL.md', severity: 'error', code: 'x', message: 'broken', related: [] },
      { path: 'c:\\Users\\Ada Lovelace\\my project\\.agents\\skills\\other\\SKILL.md', severity: 'error', code: 'name-mismatch', message: 'bad', related: [] },
    ];
    const tree = buildTree(entries, diagnostics, windows);
    assert.deepEqual(
      tree.map((scope) => [scope.label, scope.roots.map((root) => [root.label, root.skills.map((node) => [node.name, node.errors])])]),
      [
        ['Workspace', [['.agents/skills', [['demo', 1], ['other', 1]]]]],
        ['User', [['~/.albedo/skills', [['notes', 0]]]]],
      ],
    );
    assert.equal(summarize(tree).skills, 2);
    assert.equal(pathKey('C:/Users/Ada/x/SKILL.md', windows), pathKey('c:\\users\\ada\\x\\SKILL.md', windows));
    assert.notEqual(pathKey('/home/Ada/x', { platform: 'linux' }), pathKey('/home/ada/x', { platform: 'linux' }));
  });
});

describe('descriptions in the tree', () => {
  it('are one line: a folded or literal block keeps no line break (a tree row would show ⏎)', () => {
    assert.equal(oneLine('Merges files\nthe way this project likes.\n'), 'Merges files the way this project likes.');
    assert.equal(oneLine('  Line one\r\n\n  line two\t end  '), 'Line one line two end');
  });
});

describe('New Skill: the name check and the skeleton', () => {
  it('accepts a name at the bound and refuses one past it, and bad shapes', () => {
    assert.equal(nameProblem('a'.repeat(MAX_NAME_CHARS)), undefined);
    assert.match(nameProblem('a'.repeat(MAX_NAME_CHARS + 1)) ?? '', /At most 64 characters \(this one has 65\)/);
    for (const bad of ['', 'Review', 'a--b', '-a', 'a-', 'a b', 'a_b', 'ünï']) {
      assert.notEqual(nameProblem(bad), undefined, bad);
    }
    assert.equal(nameProblem('review-pr-2'), undefined);
  });

  it('offers the workspace roots, then the user roots', () => {
    assert.deepEqual(
      skillRoots(WS, HOME).map((root) => [root.scope, root.root]),
      [
        ['workspace', `${WS}/.albedo/skills`],
        ['workspace', `${WS}/.agents/skills`],
        ['user', `${HOME}/.albedo/skills`],
        ['user', `${HOME}/.agents/skills`],
        ['user', `${HOME}/.prime/agent/skills`],
      ],
    );
    assert.deepEqual(skillRoots(undefined, HOME).length, 3);
  });

  it('writes a skeleton the engine finds valid', () => {
    const workspace = mkdtempSync(path.join(os.tmpdir(), 'albedo-new-skill-'));
    try {
      const folder = path.join(workspace, '.agents', 'skills', 'review-pr');
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'SKILL.md'), skillSkeleton('review-pr'));
      // The engine bundled by `npm run package`, so any Python 3.11 or newer runs it (nothing installed).
      const bundle = findBundle(path.join(__dirname, '..', '..')) ?? assert.fail('no bundled server: npm test runs `npm run package` first');
      const cli = (...args: string[]) =>
        execFileSync(process.env.ALBEDO_PYTHON || 'python3', ['-m', 'albedo_skills_ls.cli', ...args, '--no-user-roots', workspace], {
          encoding: 'utf8',
          cwd: workspace,
          env: { ...process.env, PYTHONPATH: bundle.libs },
        });
      const output = cli('check', '--format', 'json');
      assert.deepEqual(JSON.parse(output).diagnostics, []);
      const catalog = JSON.parse(cli('commands'));
      assert.ok(JSON.stringify(catalog).includes('/review-pr'));
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
