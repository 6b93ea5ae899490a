/**
 * The one notification for a server that cannot start (messages.ts): the cause, the setting and its scope,
 * and only advice that would help in the situation (the strategy asked for, whether this build has a bundle,
 * why the probe failed).
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveLaunch } from '../launch';
import { explainLaunchFailure, launchSetting } from '../messages';
import { input } from './launchInputs';

const PREFIX = 'Albedo Skills: the language server cannot start: ';

describe('explaining a failed start', () => {
  it('fromEnvironment without the package: install it there, or use the bundled server this build has', () => {
    const cause = '`/usr/bin/python3` (Python 3.12.1) cannot import albedo_skills_ls: No module named x';
    const spec = resolveLaunch(input({ pythonPath: '/usr/bin/python3', importStrategy: 'fromEnvironment' }));
    assert.equal(launchSetting(spec), 'server.pythonPath');
    assert.equal(
      explainLaunchFailure(spec, cause, 'Remote [ssh-remote]', { importStrategy: 'fromEnvironment', bundleAvailable: true, kind: 'no-package' }),
      `${PREFIX}${cause}. The interpreter comes from albedoSkills.server.pythonPath (your Remote [ssh-remote] settings) with albedoSkills.server.importStrategy fromEnvironment (your Remote [ssh-remote] settings): install albedo-skills-ls in it (\`/usr/bin/python3 -m pip install albedo-skills-ls\`), or set albedoSkills.server.importStrategy to useBundled to run the server bundled with the extension, or clear it.`,
    );
  });

  it('never advises useBundled when it is already the strategy, or when this build has no bundle', () => {
    const cause = '`/usr/bin/python3` (Python 3.12.1) cannot import albedo_skills_ls: No module named albedo_skills_ls';
    // useBundled asked for, but this build has no bundle: the interpreter's own package runs.
    const noBundle = resolveLaunch(input({ pythonPath: '/usr/bin/python3', bundle: undefined }));
    assert.deepEqual(noBundle.args, ['-m', 'albedo_skills_ls']);
    for (const [spec, kind] of [
      [noBundle, 'no-package'],
      [noBundle, 'too-old'],
      [resolveLaunch(input({ interpreter: ['/venv/bin/python'], bundle: undefined })), 'no-package'],
      [resolveLaunch(input({ bundle: undefined })), undefined],
      [resolveLaunch(input({ pythonPath: '/usr/bin/python3' })), 'too-old'],
      [resolveLaunch(input({ interpreter: ['/venv/bin/python'] })), 'missing'],
      [resolveLaunch(input()), 'missing'],
    ] as const) {
      const text = explainLaunchFailure(spec, cause, 'User', { importStrategy: 'useBundled', bundleAvailable: spec.python?.libs !== undefined, kind });
      assert.doesNotMatch(text, /to useBundled/, text);
      assert.doesNotMatch(text, /fromEnvironment/, text);
    }
    const text = explainLaunchFailure(noBundle, cause, 'User', { importStrategy: 'useBundled', bundleAvailable: false, kind: 'no-package' });
    assert.equal(
      text,
      `${PREFIX}${cause}. The interpreter comes from albedoSkills.server.pythonPath (your User settings) (this build of the extension has no bundled server): install albedo-skills-ls in it (\`/usr/bin/python3 -m pip install albedo-skills-ls\`), or clear it.`,
    );
  });

  it('a Python too old or missing: another interpreter, not a package to install', () => {
    const spec = resolveLaunch(input({ pythonPath: '/usr/bin/python3' }));
    const text = explainLaunchFailure(spec, '`/usr/bin/python3` is Python 3.9.6; the server needs Python 3.11 or newer', 'User', { importStrategy: 'useBundled', bundleAvailable: true, kind: 'too-old' });
    assert.match(text, /from albedoSkills\.server\.pythonPath \(your User settings\): point it at Python 3\.11 or newer, or clear it\.$/);
    assert.doesNotMatch(text, /pip install/);
    const extension = resolveLaunch(input({ interpreter: ['/venv/bin/python'] }));
    assert.match(
      explainLaunchFailure(extension, '`/venv/bin/python` was not found', 'default', { importStrategy: 'useBundled', bundleAvailable: true, kind: 'missing' }),
      /selected in the Python extension: select Python 3\.11 or newer, or set albedoSkills\.server\.pythonPath\.$/,
    );
  });

  it('no interpreter configured: install one or set pythonPath; the cause lists what discovery tried', () => {
    const spec = resolveLaunch(input());
    assert.equal(launchSetting(spec), 'server.importStrategy');
    const cause = 'no Python 3.11 or newer was found: tried, in order: `python3` was not found (PATH)';
    assert.equal(
      explainLaunchFailure(spec, cause, 'default', { importStrategy: 'useBundled', bundleAvailable: true, kind: 'missing' }),
      `${PREFIX}${cause}. No interpreter is configured: install Python 3.11 or newer (python.org; on macOS also Homebrew), or set albedoSkills.server.pythonPath to one.`,
    );
  });

  it('server.path and PATH: what to correct, and the bundle only when it would be used', () => {
    const serverPath = resolveLaunch(input({ serverPath: ['/opt/ls'] }));
    assert.equal(launchSetting(serverPath), 'server.path');
    assert.match(
      explainLaunchFailure(serverPath, 'spawn ENOENT', 'User', { importStrategy: 'useBundled', bundleAvailable: true }),
      /from albedoSkills\.server\.path \(your User settings\): correct it, or clear it to use the server bundled with the extension\.$/,
    );
    assert.match(explainLaunchFailure(serverPath, 'spawn ENOENT', 'User', { importStrategy: 'useBundled', bundleAvailable: false }), /: correct it\.$/);
    const onPath = resolveLaunch(input({ importStrategy: 'fromEnvironment' }));
    assert.match(
      explainLaunchFailure(onPath, 'spawn albedo-skills-ls ENOENT', 'User', { importStrategy: 'fromEnvironment', bundleAvailable: true }),
      /ENOENT.*importStrategy fromEnvironment \(your User settings\).*pip install albedo-skills-ls\), or set albedoSkills\.server\.importStrategy to useBundled/,
    );
    const noBundle = resolveLaunch(input({ bundle: undefined }));
    const text = explainLaunchFailure(noBundle, 'spawn albedo-skills-ls ENOENT', 'default', { importStrategy: 'useBundled', bundleAvailable: false });
    assert.match(text, /No interpreter is configured \(this build of the extension has no bundled server\), so albedo-skills-ls was looked up on PATH: install it \(pip install albedo-skills-ls\), or set/);
  });
});
