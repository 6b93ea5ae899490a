/** launch.ts for the bundled server: the launch order with importStrategy, the probe, and the failure message. */
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import {
  describeLaunch,
  findBundle,
  type PythonLaunch,
  resolveLaunch,
  SERVER_MODULE,
  SERVER_SCRIPT,
} from '../launch';
import { settingScope } from '../messages';
import {
  commandExists,
  MINIMUM_PYTHON,
  parseProbe,
  PROBE_SCRIPT,
  PROBE_TIMEOUT_MS,
  probeCommand,
} from '../probe';
import { CRASH_RESTART_FIRST_MS, CRASH_RESTART_MAX_MS, crashRestartDelay } from '../restarts';
import { initializationOptionsAsWritten, readSettings } from '../settings';
import { bundle, input } from './launchInputs';

const BUNDLED_ARGS = ['-I', '-X', 'utf8', bundle.launcher];

describe('resolveLaunch with the bundled server', () => {
  it('runs the bundle with python3 when nothing else is configured (py -3 on Windows)', () => {
    const spec = resolveLaunch(input());
    assert.equal(spec.source, 'default-python');
    assert.equal(spec.command, 'python3');
    assert.deepEqual(spec.args, BUNDLED_ARGS);
    assert.deepEqual(spec.python, { command: 'python3', prefix: [], libs: bundle.libs });
    assert.equal(describeLaunch(spec), `python3 -I -X utf8 ${bundle.launcher} (from default-python, bundled server)`);

    const windows = resolveLaunch(input({ platform: 'win32', workspaceFolder: 'C:\\p' }));
    assert.equal(windows.command, 'py');
    assert.deepEqual(windows.args, ['-3', ...BUNDLED_ARGS]);
  });

  it("runs the bundle with the Python extension's interpreter, keeping a conda prefix", () => {
    const spec = resolveLaunch(input({ interpreter: ['conda', 'run', '-n', 'x', 'python'] }));
    assert.equal(spec.source, 'python-extension');
    assert.equal(spec.command, 'conda');
    assert.deepEqual(spec.args, ['run', '-n', 'x', 'python', ...BUNDLED_ARGS]);
  });

  it('runs the bundle with server.pythonPath, which wins over the Python extension', () => {
    const spec = resolveLaunch(input({ pythonPath: '.venv/bin/python', interpreter: ['/other/python'] }));
    assert.equal(spec.source, 'server.pythonPath');
    assert.equal(spec.command, '/work/project/.venv/bin/python');
    assert.deepEqual(spec.args, BUNDLED_ARGS);
  });

  it('lets server.path win over the bundle', () => {
    const spec = resolveLaunch(input({ serverPath: ['/opt/ls', '-v'] }));
    assert.equal(spec.source, 'server.path');
    assert.equal(spec.python, undefined);
  });

  it("uses the environment's package with fromEnvironment, or when the extension has no bundle", () => {
    for (const overrides of [{ importStrategy: 'fromEnvironment' as const }, { bundle: undefined }]) {
      const python = resolveLaunch(input({ ...overrides, interpreter: ['/venv/bin/python'] }));
      assert.deepEqual([python.source, python.command, python.args], ['python-extension', '/venv/bin/python', ['-m', SERVER_MODULE]]);
      assert.deepEqual(python.python, { command: '/venv/bin/python', prefix: [] });
      const onPath = resolveLaunch(input(overrides));
      assert.deepEqual([onPath.source, onPath.command, onPath.python], ['path', SERVER_SCRIPT, undefined]);
    }
  });
});

describe('server.importStrategy, as readSettings reads it', () => {
  it('takes either strategy, defaults to useBundled, and refuses anything else with a message', () => {
    const strategy = (value: unknown) => readSettings({ server: { importStrategy: value } });
    assert.equal(strategy('fromEnvironment').settings.server.importStrategy, 'fromEnvironment');
    for (const unset of [undefined, null]) {
      assert.deepEqual(strategy(unset).problems, []);
      assert.equal(strategy(unset).settings.server.importStrategy, 'useBundled');
    }
    const refused = strategy('bundled');
    assert.equal(refused.settings.server.importStrategy, 'useBundled');
    assert.deepEqual(refused.problems.map((problem) => problem.key), ['server.importStrategy']);
    assert.match(refused.problems[0].message, /albedoSkills\.server\.importStrategy must be one of useBundled, fromEnvironment; got "bundled"/);
  });
});

describe('findBundle', () => {
  it('finds the launcher and the libs with our package, and nothing when either is missing', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'albedo-bundle-'));
    try {
      assert.equal(findBundle(root), undefined);
      assert.equal(findBundle(undefined), undefined);
      mkdirSync(path.join(root, 'bundled', 'tool'), { recursive: true });
      writeFileSync(path.join(root, 'bundled', 'tool', 'launch.py'), '');
      assert.equal(findBundle(root), undefined, 'no libs yet');
      mkdirSync(path.join(root, 'bundled', 'libs', SERVER_MODULE), { recursive: true });
      assert.deepEqual(findBundle(root), {
        launcher: path.join(root, 'bundled', 'tool', 'launch.py'),
        libs: path.join(root, 'bundled', 'libs'),
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the interpreter probe', () => {
  const bundled: PythonLaunch = { command: 'python3', prefix: [], libs: '/ext/bundled/libs' };
  const environment: PythonLaunch = { command: 'conda', prefix: ['run', '-n', 'x', 'python'] };
  const good = 'python 3.11.7 /usr/bin/python3\nmodule /ext/bundled/libs/albedo_skills_ls/__init__.py\n';

  it('runs the same interpreter, isolated with the bundled libs, or as is for the environment', () => {
    assert.deepEqual(probeCommand(bundled), { command: 'python3', args: ['-I', '-c', PROBE_SCRIPT, '/ext/bundled/libs'] });
    assert.deepEqual(probeCommand(environment), { command: 'conda', args: ['run', '-n', 'x', 'python', '-c', PROBE_SCRIPT] });
  });

  it('accepts Python 3.11 that imports the package', () => {
    assert.deepEqual(parseProbe({ stdout: good, stderr: '' }, bundled), { ok: true, version: '3.11.7', executable: '/usr/bin/python3' });
    const newer = parseProbe({ stdout: good.replace('3.11.7', '3.14.0'), stderr: '' }, bundled);
    assert.equal(newer.ok, true);
  });

  it('refuses Python 3.10 (one minor version below the minimum) and Python 2, naming the interpreter', () => {
    assert.deepEqual(MINIMUM_PYTHON, [3, 11]);
    for (const version of ['3.10.12', '2.7.18']) {
      const outcome = parseProbe({ stdout: `python ${version} /usr/bin/python3\n`, stderr: '' }, bundled);
      assert.deepEqual(outcome, { ok: false, cause: `\`python3\` is Python ${version}; the server needs Python 3.11 or newer`, kind: 'too-old' });
    }
  });

  it('names the missing module, for the environment and for the bundle', () => {
    const missing = "python 3.12.1 /usr/bin/python3\nimport-error ModuleNotFoundError: No module named 'albedo_skills_ls'\n";
    assert.deepEqual(parseProbe({ stdout: missing, stderr: '' }, environment), {
      ok: false,
      cause: "`conda run -n x python` (Python 3.12.1) cannot import albedo_skills_ls: ModuleNotFoundError: No module named 'albedo_skills_ls'",
      kind: 'no-package',
    });
    const broken = parseProbe({ stdout: missing, stderr: '' }, bundled);
    assert.match(broken.ok ? '' : broken.cause, /cannot import the server bundled with the extension \(\/ext\/bundled\/libs\)/);
  });

  it('explains a missing, unrunnable, slow or foreign program', () => {
    const cause = (run: Parameters<typeof parseProbe>[0]) => {
      const outcome = parseProbe(run, bundled);
      return outcome.ok ? '' : outcome.cause;
    };
    assert.equal(cause({ stdout: '', stderr: '', errorCode: 'ENOENT' }), '`python3` was not found');
    assert.equal(cause({ stdout: '', stderr: '', errorCode: 'EACCES' }), '`python3` cannot be run (permission denied)');
    assert.equal(cause({ stdout: '', stderr: '', errorCode: 'ETIMEDOUT' }), `\`python3\` did not answer within ${PROBE_TIMEOUT_MS / 1000} seconds`);
    assert.equal(cause({ stdout: '', stderr: '\nbash: -c: unknown option\n' }), '`python3` is not a working Python interpreter (it said: bash: -c: unknown option)');
    assert.equal(
      cause({ stdout: 'python 3.11.7 /p\n', stderr: 'Segmentation fault\n' }),
      '`python3` stopped before importing albedo_skills_ls: Segmentation fault',
    );
  });
});

describe('commandExists', () => {
  it('finds a file by path or on PATH, and not a folder or a missing name', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'albedo-path-'));
    try {
      writeFileSync(path.join(root, 'albedo-skills-ls'), '');
      mkdirSync(path.join(root, 'folder'));
      const env = { PATH: ['/nonexistent', root].join(path.delimiter) };
      assert.equal(commandExists('albedo-skills-ls', env, 'linux'), true);
      assert.equal(commandExists(path.join(root, 'albedo-skills-ls'), {}, 'linux'), true);
      assert.equal(commandExists('folder', env, 'linux'), false);
      assert.equal(commandExists('missing', env, 'linux'), false);
      assert.equal(commandExists('albedo-skills-ls', {}, 'linux'), false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('explaining a failed start', () => {
  it('names the scope a value came from; a global value is Remote in a remote window', () => {
    assert.equal(settingScope({ globalValue: '/py' }, undefined), 'User');
    assert.equal(settingScope({ globalValue: '/py' }, 'ssh-remote'), 'Remote [ssh-remote]');
    assert.equal(settingScope({ globalValue: '/py', workspaceValue: '/w' }, 'wsl'), 'Workspace');
    assert.equal(settingScope({ workspaceValue: '/w', workspaceFolderValue: '/f' }, undefined), 'Workspace Folder');
    assert.equal(settingScope({ globalValue: '' }, undefined), 'default');
    assert.equal(settingScope({ globalValue: [] }, undefined), 'default');
    assert.equal(settingScope(undefined, undefined), 'default');
  });

});

describe('crash restarts', () => {
  it('wait twice as long after each crash in a row, up to the maximum', () => {
    assert.equal(crashRestartDelay(0), CRASH_RESTART_FIRST_MS);
    assert.equal(crashRestartDelay(1), 2 * CRASH_RESTART_FIRST_MS);
    let attempt = 0;
    while (crashRestartDelay(attempt + 1) < CRASH_RESTART_MAX_MS) {
      attempt++;
    }
    assert.ok(crashRestartDelay(attempt) < CRASH_RESTART_MAX_MS, 'below the bound');
    assert.equal(crashRestartDelay(attempt + 1), CRASH_RESTART_MAX_MS, 'at the bound');
    assert.equal(crashRestartDelay(attempt + 2), CRASH_RESTART_MAX_MS, 'one past stays at the bound');
  });
});

describe('initializationOptionsAsWritten', () => {
  it("passes the server's settings through as written, for the server to validate, without server.*", () => {
    const { albedoSkills } = initializationOptionsAsWritten({
      enable: 'yes',
      logLevel: 'loud',
      'chat.languageIds': ['my-chat'],
      'server.path': ['/opt/ls'],
      'server.pythonPath': '/py',
    });
    assert.equal(albedoSkills.enable, 'yes');
    assert.equal(albedoSkills.logLevel, 'loud');
    assert.deepEqual(albedoSkills.chat, { languageIds: ['my-chat'], filePatterns: ['*.chat.md'] });
    assert.equal('server' in albedoSkills, false);
    assert.deepEqual(Object.keys(albedoSkills).sort(), ['autoReload', 'builtinCommands', 'chat', 'codeLens', 'enable', 'folding', 'home', 'hosts', 'inlayHints', 'logLevel', 'references', 'rename', 'security', 'selectionRanges', 'userRoots', 'workspaceSymbols']);
  });
});
