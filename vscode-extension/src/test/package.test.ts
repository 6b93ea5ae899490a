/**
 * The .vsix that `npm run package` built (npm test builds it first): what it holds, and that the server
 * bundled in it starts with a plain Python, from a copy unpacked outside the repository.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findBundle, resolveLaunch } from '../launch';
import { parseProbe, probeCommand } from '../probe';

const EXTENSION = path.join(__dirname, '..', '..');
const VSIX = path.join(EXTENSION, 'albedo-skills.vsix');
const PYTHON = process.env.ALBEDO_PYTHON ?? 'python3';
/** A .vsix is a zip; Python's zipfile reads it without another npm dependency. */
const ZIP = 'import json, sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nif len(sys.argv) > 2: z.extractall(sys.argv[2])\nprint(json.dumps(z.namelist()))';

describe('the packaged .vsix', () => {
  let entries: string[];
  let files: string[];
  let unpacked: string;

  before(() => {
    unpacked = mkdtempSync(path.join(os.tmpdir(), 'albedo-vsix-'));
    entries = JSON.parse(execFileSync(PYTHON, ['-c', ZIP, VSIX, unpacked], { encoding: 'utf8' }));
    files = entries.filter((name) => name.startsWith('extension/')).map((name) => name.slice('extension/'.length));
    const { size } = statSync(VSIX);
    console.log(`# ${VSIX}: ${entries.length} entries, ${(size / 1024).toFixed(0)} KiB`);
  });
  after(() => rmSync(unpacked, { recursive: true, force: true }));

  it('holds the bundled extension and no node_modules tree, sources or tests', () => {
    const manifest = JSON.parse(readFileSync(path.join(EXTENSION, 'package.json'), 'utf8'));
    assert.equal(manifest.main, './dist/extension.js');
    assert.ok(files.includes('dist/extension.js'));
    for (const name of files) {
      assert.doesNotMatch(name, /(^|\/)node_modules\//, name);
      assert.doesNotMatch(name, /^(src|out|e2e|scripts)\//, name);
      assert.doesNotMatch(name, /\.(ts|map|vsix)$/, name);
    }
    assert.deepEqual(
      files.filter((name) => !name.startsWith('bundled/')).sort(),
      ['LICENSE.txt', 'dist/extension.js', 'media/skills.svg', 'package.json', 'readme.md', 'syntaxes/albedo-chat.tmLanguage.json'].sort(),
    );
  });

  it('holds the bundled server: the launcher, our package and every pinned dependency, all pure Python', () => {
    for (const name of [
      'bundled/tool/launch.py',
      'bundled/libs/albedo_skills_ls/__init__.py',
      'bundled/libs/albedo_skills_ls/lsp/main.py',
      'bundled/libs/albedo_skills_ls/skills/document/frontmatter.py',
    ]) {
      assert.ok(files.includes(name), `${name} is missing`);
    }
    const pinned = [...readFileSync(path.join(EXTENSION, 'bundled', 'requirements.txt'), 'utf8').matchAll(/^([\w.-]+)==([\w.]+)/gm)];
    assert.equal(pinned.length, 6);
    for (const [, name, version] of pinned) {
      const distInfo = `bundled/libs/${name.replace(/[.-]/g, '_')}-${version}.dist-info/METADATA`;
      assert.ok(files.includes(distInfo), `${distInfo} is missing`);
    }
    const compiled = files.filter((name) => /\.(so|pyd|dylib|dll)$|__pycache__/.test(name));
    assert.deepEqual(compiled, []);
  });

  it("shows the @albedo participant in its README: what to type, each of its commands and Albedo's built-ins", () => {
    // What the extension's page in VS Code shows: the readme.md inside the package.
    const readme = readFileSync(path.join(unpacked, 'extension', 'readme.md'), 'utf8');
    const manifest = JSON.parse(readFileSync(path.join(EXTENSION, 'package.json'), 'utf8'));
    const participant = manifest.contributes.chatParticipants[0];
    const section = readme.slice(readme.indexOf(`## Chat: \`@${participant.name}\``));
    assert.ok(section.length < readme.length, 'no chat section');
    assert.match(section, new RegExp(`@${participant.name} /\\S+ \\S`), 'an example of what to type');
    const builtins = manifest.contributes.configuration.properties['albedoSkills.builtinCommands'].default as string[];
    for (const command of [...participant.commands.map((entry: { name: string }) => entry.name), ...builtins, 'nosuch']) {
      assert.match(section, new RegExp(`\\*\\*\`/${command}\`\\*\\*|\`@${participant.name} /${command}\``), `/${command} is not described`);
    }
  });

  it('lists in `vsce ls` the files it holds, and never the bytecode Python writes beside the bundled sources', () => {
    // What importing the bundled server writes wherever PYTHONDONTWRITEBYTECODE is not set.
    const compile = 'import py_compile, sys; py_compile.compile(sys.argv[1], doraise=True)';
    execFileSync(PYTHON, ['-c', compile, path.join(EXTENSION, 'bundled', 'libs', 'albedo_skills_ls', '__init__.py')]);
    const listed = execFileSync(path.join(EXTENSION, 'node_modules', '.bin', 'vsce'), ['ls', '--no-dependencies'], {
      cwd: EXTENSION,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((line) => line.trim() !== '');
    const normalise = (name: string) => name.toLowerCase().replace(/^license\.txt$/, 'license').replace(/^readme\.md$/, 'readme.md');
    assert.deepEqual(listed.map(normalise).sort(), files.map(normalise).sort());
  });

  it('starts its bundled server with a plain Python, unpacked outside the repository', () => {
    const bundle = findBundle(path.join(unpacked, 'extension'));
    assert.ok(bundle, 'the unpacked extension has a bundle');
    const spec = resolveLaunch({
      serverPath: [],
      pythonPath: PYTHON,
      platform: process.platform,
      env: process.env,
      importStrategy: 'useBundled',
      bundle,
    });
    assert.ok(spec.python);
    const probe = probeCommand(spec.python);
    const outcome = parseProbe({ stdout: execFileSync(probe.command, probe.args, { encoding: 'utf8', cwd: os.tmpdir() }), stderr: '' }, spec.python);
    assert.equal(outcome.ok, true, JSON.stringify(outcome));
    const version = execFileSync(spec.command, [...spec.args, '--version'], { encoding: 'utf8', cwd: os.tmpdir() });
    assert.match(version, /^albedo-skills-ls \d+\.\d+\.\d+/);
  });
});
