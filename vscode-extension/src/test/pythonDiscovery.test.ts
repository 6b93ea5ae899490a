/**
 * Finding a Python for the bundled server when none is configured (pythonDiscovery.ts, probe.ts
 * `probeLaunch`), on Windows and macOS layouts given as a fake file system: the order of the candidates, the
 * Microsoft Store stub skipped, the first working one used, and a failure that says what was tried.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Bundle, type LaunchInput } from '../launch';
import { type ProbeRun, probeLaunch, type ProbeRunner } from '../probe';
import { describeDiscovery, type Discovery, discoverPython, type FileSystemView, STORE_STUB_REASON } from '../pythonDiscovery';

/** A file system holding exactly `files`; folders are listed from them. `insensitive`: Windows' letter case. */
function fakeFs(files: readonly string[], insensitive = false): FileSystemView {
  const norm = (file: string) => (insensitive ? file.toLowerCase().replace(/\//g, '\\') : file);
  const set = new Set(files.map(norm));
  return {
    isFile: (file) => set.has(norm(file)),
    list: (folder) => {
      const prefix = norm(folder) + (insensitive ? '\\' : '/');
      const names = files.filter((file) => norm(file).startsWith(prefix)).map((file) => file.slice(prefix.length).split(/[\\/]/)[0]);
      return [...new Set(names)];
    },
  };
}

const WINDOWS_ENV = {
  Path: 'C:\\Program Files\\Git\\cmd;C:\\Users\\Ada Lovelace\\AppData\\Local\\Microsoft\\WindowsApps',
  LOCALAPPDATA: 'C:\\Users\\Ada Lovelace\\AppData\\Local',
  ProgramFiles: 'C:\\Program Files',
  SystemRoot: 'C:\\WINDOWS',
};
const STUB = 'C:\\Users\\Ada Lovelace\\AppData\\Local\\Microsoft\\WindowsApps\\python.exe';
const parts = (discovery: Discovery) => discovery.candidates.map((candidate) => candidate.parts);

describe('discoverPython on Windows', () => {
  it('tries py -3 first, skips the Store stub, then python.org installs newest first', () => {
    const discovery = discoverPython({
      platform: 'win32',
      env: WINDOWS_ENV,
      fs: fakeFs(
        [
          'C:\\WINDOWS\\py.exe',
          STUB,
          'C:\\Users\\Ada Lovelace\\AppData\\Local\\Microsoft\\WindowsApps\\python3.exe',
          'C:\\Users\\Ada Lovelace\\AppData\\Local\\Programs\\Python\\Python39\\python.exe',
          'C:\\Users\\Ada Lovelace\\AppData\\Local\\Programs\\Python\\Python312\\python.exe',
          'C:\\Program Files\\Python311\\python.exe',
        ],
        true,
      ),
    });
    assert.deepEqual(parts(discovery), [
      ['C:\\WINDOWS\\py.exe', '-3'],
      ['C:\\Users\\Ada Lovelace\\AppData\\Local\\Programs\\Python\\Python312\\python.exe'],
      ['C:\\Users\\Ada Lovelace\\AppData\\Local\\Programs\\Python\\Python39\\python.exe'],
      ['C:\\Program Files\\Python311\\python.exe'],
    ]);
    assert.deepEqual(discovery.skipped, [
      { path: STUB, reason: STORE_STUB_REASON },
      { path: STUB.replace('python.exe', 'python3.exe'), reason: STORE_STUB_REASON },
    ]);
  });

  it('keeps the WindowsApps alias when a Store Python is installed, and finds python.exe on PATH (any letter case of Path)', () => {
    const discovery = discoverPython({
      platform: 'win32',
      env: { PATH: 'D:\\tools\\Python 3.13;C:\\Users\\Ada Lovelace\\AppData\\Local\\Microsoft\\WindowsApps', LOCALAPPDATA: WINDOWS_ENV.LOCALAPPDATA },
      fs: fakeFs(['D:\\tools\\Python 3.13\\python.exe', STUB, 'C:\\Users\\Ada Lovelace\\AppData\\Local\\Microsoft\\WindowsApps\\PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0\\python.exe'], true),
    });
    assert.deepEqual(parts(discovery), [['D:\\tools\\Python 3.13\\python.exe'], [STUB]]);
    assert.equal(discovery.candidates[1].where, 'the Microsoft Store');
    assert.deepEqual(discovery.skipped, []);
    assert.deepEqual(discovery.missing, ['py -3 (the Python launcher)', 'python3.exe on PATH']);
  });

  it('finds the per-user launcher and a UNC folder on PATH', () => {
    const discovery = discoverPython({
      platform: 'win32',
      env: { Path: '\\\\fileserver\\tools\\python', LOCALAPPDATA: 'C:\\Users\\Ada\\AppData\\Local' },
      fs: fakeFs(['C:\\Users\\Ada\\AppData\\Local\\Programs\\Python\\Launcher\\py.exe', '\\\\fileserver\\tools\\python\\python.exe'], true),
    });
    assert.deepEqual(parts(discovery), [['C:\\Users\\Ada\\AppData\\Local\\Programs\\Python\\Launcher\\py.exe', '-3'], ['\\\\fileserver\\tools\\python\\python.exe']]);
  });
});

describe('discoverPython on macOS', () => {
  it('PATH, Homebrew, python.org, pyenv, then Apple’s /usr/bin/python3 last', () => {
    const discovery = discoverPython({
      platform: 'darwin',
      env: { PATH: '/usr/bin:/bin:/usr/sbin:/sbin' },
      home: '/Users/ada',
      fs: fakeFs([
        '/usr/bin/python3',
        '/opt/homebrew/bin/python3',
        '/Library/Frameworks/Python.framework/Versions/3.12/bin/python3',
        '/Library/Frameworks/Python.framework/Versions/3.9/bin/python3',
        '/Users/ada/.pyenv/shims/python3',
      ]),
    });
    assert.deepEqual(parts(discovery), [
      ['/opt/homebrew/bin/python3'],
      ['/Library/Frameworks/Python.framework/Versions/3.12/bin/python3'],
      ['/Users/ada/.pyenv/shims/python3'],
      ['/usr/bin/python3'],
    ]);
    assert.deepEqual(discovery.missing, ['python3 on PATH', '/usr/local/bin/python3']);
  });

  it('a python3 on PATH comes first; PYENV_ROOT is honoured; nothing is listed twice', () => {
    const discovery = discoverPython({
      platform: 'darwin',
      env: { PATH: '/Users/ada/my tools/bin:/usr/local/bin:/usr/bin', PYENV_ROOT: '/opt/pyenv' },
      home: '/Users/ada',
      fs: fakeFs(['/Users/ada/my tools/bin/python3', '/usr/local/bin/python3', '/opt/pyenv/shims/python3', '/usr/bin/python3']),
    });
    assert.deepEqual(parts(discovery), [['/Users/ada/my tools/bin/python3'], ['/usr/local/bin/python3'], ['/opt/pyenv/shims/python3'], ['/usr/bin/python3']]);
  });
});

describe('discoverPython on Linux', () => {
  it('is python3 from PATH, as before', () => {
    assert.deepEqual(parts(discoverPython({ platform: 'linux', env: { PATH: '/usr/bin' }, fs: fakeFs([]) })), [['python3']]);
  });
});

describe('probeLaunch with discovery', () => {
  const bundle: Bundle = { launcher: '/ext/bundled/tool/launch.py', libs: '/ext/bundled/libs' };
  const input: LaunchInput = { serverPath: [], pythonPath: '', platform: 'darwin', env: { PATH: '/usr/bin' }, home: '/Users/ada', importStrategy: 'useBundled', bundle };
  const discovery: Discovery = {
    candidates: [
      { parts: ['/opt/homebrew/bin/python3'], where: 'Homebrew' },
      { parts: ['/Users/ada/.pyenv/shims/python3'], where: 'pyenv' },
      { parts: ['/usr/bin/python3'], where: "Apple's Command Line Tools" },
    ],
    skipped: [],
    missing: ['python3 on PATH'],
  };
  /** Answers as each interpreter would: missing, too old, or working. */
  const runner = (answers: Record<string, ProbeRun>): { run: ProbeRunner; asked: string[] } => {
    const asked: string[] = [];
    return {
      asked,
      run: async (command) => {
        asked.push(command);
        return answers[command] ?? { stdout: '', stderr: '', errorCode: 'ENOENT' };
      },
    };
  };
  const works = (file: string): ProbeRun => ({ stdout: `python 3.12.4 ${file}\nmodule /ext/bundled/libs/albedo_skills_ls/__init__.py\n`, stderr: '' });
  const old = (file: string): ProbeRun => ({ stdout: `python 3.9.6 ${file}\nmodule /x\n`, stderr: '' });

  it('uses the first candidate that works, and stops there', async () => {
    const { run, asked } = runner({ '/Users/ada/.pyenv/shims/python3': works('/Users/ada/.pyenv/versions/3.12.4/bin/python3'), '/usr/bin/python3': old('/usr/bin/python3') });
    const { spec, outcome } = await probeLaunch(input, run, undefined, () => discovery);
    assert.deepEqual(asked, ['/opt/homebrew/bin/python3', '/Users/ada/.pyenv/shims/python3']);
    assert.equal(spec.command, '/Users/ada/.pyenv/shims/python3');
    assert.deepEqual(spec.args, ['-I', '-X', 'utf8', bundle.launcher]);
    assert.equal(spec.source, 'default-python');
    assert.deepEqual(outcome, { ok: true, version: '3.12.4', executable: '/Users/ada/.pyenv/versions/3.12.4/bin/python3' });
  });

  it('says every candidate it tried, and why each failed, when none works', async () => {
    const { run } = runner({ '/usr/bin/python3': old('/usr/bin/python3') });
    const { outcome } = await probeLaunch(input, run, undefined, () => discovery);
    assert.deepEqual(outcome, {
      ok: false,
      kind: 'too-old',
      cause:
        'no Python 3.11 or newer was found: tried, in order: `/opt/homebrew/bin/python3` was not found (Homebrew); `/Users/ada/.pyenv/shims/python3` was not found (pyenv); `/usr/bin/python3` is Python 3.9.6; the server needs Python 3.11 or newer (Apple\'s Command Line Tools); not found: python3 on PATH',
    });
  });

  it('names the Store stub it skipped on Windows', () => {
    const text = describeDiscovery({ candidates: [], skipped: [{ path: STUB, reason: STORE_STUB_REASON }], missing: ['py -3 (the Python launcher)'] }, []);
    assert.equal(text, `skipped ${STUB} (${STORE_STUB_REASON}); not found: py -3 (the Python launcher)`);
  });

  it('probes a configured interpreter alone, without discovery', async () => {
    const { run, asked } = runner({ '/opt/py/bin/python3': works('/opt/py/bin/python3') });
    const { spec, outcome } = await probeLaunch({ ...input, pythonPath: '/opt/py/bin/python3' }, run, undefined, () => assert.fail('no discovery when an interpreter is set'));
    assert.deepEqual(asked, ['/opt/py/bin/python3']);
    assert.equal(spec.source, 'server.pythonPath');
    assert.equal(outcome?.ok, true);
  });
});
