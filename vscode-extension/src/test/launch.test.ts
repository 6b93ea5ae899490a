import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  describeLaunch,
  type LaunchInput,
  needsInterpreter,
  quoteForCmd,
  resolveLaunch,
  SERVER_MODULE,
  SERVER_SCRIPT,
  substitute,
} from '../launch';
import { stderrClassifier } from '../messages';
import { debounce } from '../restarts';
import {
  configurationForServer,
  documentSelector,
  initializationOptions,
  readSettings,
  withoutLaunchSettings,
} from '../settings';
import { defaultSettings, SETTING_KEYS } from '../declared';
import { fakeTimers } from './fakeTimers';

const posix = (overrides: Partial<LaunchInput> = {}): LaunchInput => ({
  serverPath: [],
  pythonPath: '',
  platform: 'linux',
  env: { PATH: '/usr/bin:/bin', HOME: '/home/ada' },
  workspaceFolder: '/work/project',
  home: '/home/ada',
  ...overrides,
});

const windows = (overrides: Partial<LaunchInput> = {}): LaunchInput => ({
  serverPath: [],
  pythonPath: '',
  platform: 'win32',
  env: { Path: 'C:\\Windows\\system32', USERPROFILE: 'C:\\Users\\Ada' },
  workspaceFolder: 'C:\\work\\project',
  home: 'C:\\Users\\Ada',
  ...overrides,
});

describe('resolveLaunch: the launch order', () => {
  it('uses server.path first, verbatim, before everything else', () => {
    const spec = resolveLaunch(
      posix({
        serverPath: ['/opt/albedo/bin/albedo-skills-ls', '--log-file', '/tmp/ls.log', '-v'],
        pythonPath: '/usr/bin/python3',
        interpreter: ['/venv/bin/python'],
      }),
    );
    assert.equal(spec.source, 'server.path');
    assert.equal(spec.command, '/opt/albedo/bin/albedo-skills-ls');
    assert.deepEqual(spec.args, ['--log-file', '/tmp/ls.log', '-v']);
  });

  it('uses server.pythonPath -m albedo_skills_ls when server.path is empty', () => {
    const spec = resolveLaunch(posix({ pythonPath: '/usr/bin/python3', interpreter: ['/venv/bin/python'] }));
    assert.equal(spec.source, 'server.pythonPath');
    assert.equal(spec.command, '/usr/bin/python3');
    assert.deepEqual(spec.args, ['-m', SERVER_MODULE]);
  });

  it("uses the Python extension's interpreter when neither setting is set", () => {
    const spec = resolveLaunch(posix({ interpreter: ['/venv/bin/python'] }));
    assert.equal(spec.source, 'python-extension');
    assert.equal(spec.command, '/venv/bin/python');
    assert.deepEqual(spec.args, ['-m', 'albedo_skills_ls']);
  });

  it("keeps the arguments of a multi-part interpreter command (conda run) before -m", () => {
    const spec = resolveLaunch(posix({ interpreter: ['conda', 'run', '-n', 'skills', 'python'] }));
    assert.equal(spec.command, 'conda');
    assert.deepEqual(spec.args, ['run', '-n', 'skills', 'python', '-m', SERVER_MODULE]);
  });

  it('falls back to albedo-skills-ls on PATH, with no arguments (stdio is the default)', () => {
    for (const input of [posix(), posix({ interpreter: [] }), posix({ interpreter: [''] })]) {
      const spec = resolveLaunch(input);
      assert.equal(spec.source, 'path');
      assert.equal(spec.command, SERVER_SCRIPT);
      assert.deepEqual(spec.args, []);
    }
  });

  it('treats an empty or blank setting as unset', () => {
    assert.equal(resolveLaunch(posix({ serverPath: [''], pythonPath: '   ' })).source, 'path');
    assert.equal(resolveLaunch(posix({ serverPath: [], pythonPath: '' , interpreter: ['/p'] })).source, 'python-extension');
  });

  it('asks for the interpreter only when neither server setting is set', () => {
    assert.equal(needsInterpreter({ serverPath: [], pythonPath: '' }), true);
    assert.equal(needsInterpreter({ serverPath: [' '], pythonPath: '  ' }), true);
    assert.equal(needsInterpreter({ serverPath: ['ls'], pythonPath: '' }), false);
    assert.equal(needsInterpreter({ serverPath: [], pythonPath: 'python3' }), false);
  });

  it("passes the editor's environment through and forces UTF-8 for Python", () => {
    const spec = resolveLaunch(posix({ env: { PATH: '/bin', EMPTY: undefined, PYTHONUTF8: '0' } }));
    assert.deepEqual(spec.options.env, { PATH: '/bin', PYTHONUTF8: '1' });
    assert.equal(spec.options.shell, undefined);
  });

  it('describes the command for the log', () => {
    const spec = resolveLaunch(posix({ pythonPath: '/opt/my python/bin/python' }));
    assert.equal(describeLaunch(spec), '"/opt/my python/bin/python" -m albedo_skills_ls (from server.pythonPath)');
  });
});

describe('resolveLaunch: paths on POSIX and Windows', () => {
  it('expands ~, ${userHome}, ${workspaceFolder} and ${env:NAME} in server.path', () => {
    const spec = resolveLaunch(
      posix({
        serverPath: ['~/bin/albedo-skills-ls', '--log-file', '${workspaceFolder}/ls.log', '${env:HOME}/x', '${userHome}'],
      }),
    );
    assert.equal(spec.command, '/home/ada/bin/albedo-skills-ls');
    assert.deepEqual(spec.args, ['--log-file', '/work/project/ls.log', '/home/ada/x', '/home/ada']);
  });

  it('leaves unknown or unavailable variables as written', () => {
    const context = { platform: 'linux' as const, env: {} };
    assert.equal(substitute('${workspaceFolder}/x', context), '${workspaceFolder}/x');
    assert.equal(substitute('${env:NOPE}', context), '${env:NOPE}');
    assert.equal(substitute('${config:python.path}', context), '${config:python.path}');
    assert.equal(substitute('~user/x', { ...context, home: '/home/ada' }), '~user/x');
  });

  it('takes a relative interpreter path from the workspace folder, and leaves bare names for PATH', () => {
    assert.equal(resolveLaunch(posix({ pythonPath: '.venv/bin/python' })).command, '/work/project/.venv/bin/python');
    assert.equal(resolveLaunch(posix({ pythonPath: 'python3' })).command, 'python3');
    assert.equal(resolveLaunch(posix({ pythonPath: '/usr/bin/python3' })).command, '/usr/bin/python3');
    assert.equal(resolveLaunch(posix({ pythonPath: '.venv/bin/python', workspaceFolder: undefined })).command, '.venv/bin/python');
    assert.equal(resolveLaunch(posix({ serverPath: ['./tools/ls'] })).command, '/work/project/tools/ls');
  });

  it('handles Windows paths: backslashes, drive letters, ~\\ and case-insensitive ${env:...}', () => {
    assert.equal(
      resolveLaunch(windows({ pythonPath: '.venv\\Scripts\\python.exe' })).command,
      'C:\\work\\project\\.venv\\Scripts\\python.exe',
    );
    assert.equal(resolveLaunch(windows({ pythonPath: 'D:\\py\\python.exe' })).command, 'D:\\py\\python.exe');
    assert.equal(resolveLaunch(windows({ pythonPath: 'py' })).command, 'py');
    assert.equal(resolveLaunch(windows({ pythonPath: '~\\py\\python.exe' })).command, 'C:\\Users\\Ada\\py\\python.exe');
    assert.equal(resolveLaunch(windows({ pythonPath: '${env:userprofile}\\py.exe' })).command, 'C:\\Users\\Ada\\py.exe');
    // On POSIX a backslash is an ordinary character, and env names are case-sensitive.
    assert.equal(resolveLaunch(posix({ pythonPath: '.venv\\python' })).command, '.venv\\python');
    assert.equal(resolveLaunch(posix({ pythonPath: '~\\x' })).command, '~\\x');
    assert.equal(substitute('${env:path}', { platform: 'linux', env: { PATH: '/bin' } }), '${env:path}');
  });

  it('runs a Windows .cmd or .bat through the shell with quoted parts, and nothing else', () => {
    const spec = resolveLaunch(windows({ serverPath: ['C:\\Program Files\\albedo\\ls.CMD', '--log-file', 'C:\\a b\\l.log', '-v'] }));
    assert.equal(spec.options.shell, true);
    assert.equal(spec.command, '"C:\\Program Files\\albedo\\ls.CMD"');
    assert.deepEqual(spec.args, ['--log-file', '"C:\\a b\\l.log"', '-v']);
    assert.equal(resolveLaunch(windows({ serverPath: ['C:\\tools\\ls.exe'] })).options.shell, undefined);
    assert.equal(resolveLaunch(posix({ serverPath: ['/opt/ls.cmd'] })).options.shell, undefined);
    assert.equal(resolveLaunch(windows()).options.shell, undefined);
  });

  it('quotes cmd.exe arguments only when needed', () => {
    assert.equal(quoteForCmd('-v'), '-v');
    assert.equal(quoteForCmd(''), '""');
    assert.equal(quoteForCmd('a&b'), '"a&b"');
    assert.equal(quoteForCmd('say "hi"'), '"say ""hi"""');
  });
});

describe('readSettings and initializationOptions', () => {
  it('gives the documented defaults for an empty or missing settings object', () => {
    for (const raw of [undefined, null, {}, 'nonsense']) {
      const { settings, problems } = readSettings(raw);
      assert.deepEqual(settings, defaultSettings());
      assert.deepEqual(problems, []);
    }
    const defaults = defaultSettings();
    assert.deepEqual(defaults.builtinCommands, ['help', 'model', 'reload']);
    assert.deepEqual(defaults.chat.languageIds, [
      'albedo-chat',
      'markdown.chat',
      'codecompanion',
      'AvanteInput',
      'copilot-chat',
      'gp_chat',
    ]);
    assert.deepEqual(defaults.chat.filePatterns, ['*.chat.md']);
    assert.equal(defaults.logLevel, 'info');
  });

  it('reads nested settings (the shape of getConfiguration().get("albedoSkills"))', () => {
    const { settings, problems } = readSettings({
      enable: false,
      userRoots: false,
      home: '/tmp/home',
      autoReload: false,
      builtinCommands: ['help'],
      chat: { languageIds: ['my-chat'], filePatterns: ['*.talk'] },
      logLevel: 'debug',
      hosts: ['codex', 'zed'],
      security: { enable: false, disabledCodes: ['security-broad-tools'], inlineIgnores: false },
      rename: false,
      references: false,
      workspaceSymbols: false,
      codeLens: false,
      inlayHints: false,
      folding: false,
      selectionRanges: false,
      copilotSkillLocations: true,
      server: { path: ['ls', '-v'], pythonPath: '/py', importStrategy: 'fromEnvironment' },
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings, {
      enable: false,
      userRoots: false,
      home: '/tmp/home',
      autoReload: false,
      builtinCommands: ['help'],
      chat: { languageIds: ['my-chat'], filePatterns: ['*.talk'] },
      logLevel: 'debug',
      hosts: ['codex', 'zed'],
      security: { enable: false, disabledCodes: ['security-broad-tools'], inlineIgnores: false },
      rename: false,
      references: false,
      workspaceSymbols: false,
      codeLens: false,
      inlayHints: false,
      folding: false,
      selectionRanges: false,
      copilotSkillLocations: true,
      server: { path: ['ls', '-v'], pythonPath: '/py', importStrategy: 'fromEnvironment' },
    });
  });

  it('reads flat dotted keys (WorkspaceConfiguration.get per key)', () => {
    const { settings } = readSettings({ 'chat.languageIds': ['x'], 'server.pythonPath': '/py', logLevel: 'error' });
    assert.deepEqual(settings.chat.languageIds, ['x']);
    assert.deepEqual(settings.chat.filePatterns, ['*.chat.md']);
    assert.equal(settings.server.pythonPath, '/py');
    assert.equal(settings.logLevel, 'error');
  });

  it('takes the default for each value of the wrong type, and says which and why', () => {
    const { settings, problems } = readSettings({
      enable: 'yes',
      userRoots: 1,
      home: ['/h'],
      autoReload: 'false',
      builtinCommands: ['help', 3],
      chat: { languageIds: 'albedo-chat', filePatterns: [null] },
      logLevel: 'verbose',
      hosts: 'codex',
      security: { enable: 'no', disabledCodes: 'security-broad-tools', inlineIgnores: 'no' },
      rename: 'off',
      references: 'off',
      workspaceSymbols: 'off',
      codeLens: 'off',
      inlayHints: 'off',
      folding: 'off',
      selectionRanges: 'off',
      copilotSkillLocations: 'on',
      server: { path: '/usr/bin/albedo-skills-ls', pythonPath: false, importStrategy: 'bundled' },
    });
    assert.deepEqual(settings, defaultSettings());
    assert.deepEqual(
      problems.map((problem) => problem.key),
      [...SETTING_KEYS],
    );
    const logLevel = problems.find((problem) => problem.key === 'logLevel');
    assert.match(logLevel?.message ?? '', /albedoSkills\.logLevel must be one of error, warning, info, debug; got "verbose"/);
  });

  it('refuses lists with an empty entry, as the server does', () => {
    const { settings, problems } = readSettings({
      server: { path: ['albedo-skills-ls', ''] },
      builtinCommands: ['help', ' '],
      chat: { languageIds: [''], filePatterns: ['*.chat.md', ''] },
    });
    assert.deepEqual(settings, defaultSettings());
    assert.deepEqual(
      problems.map((problem) => problem.key),
      ['builtinCommands', 'chat.languageIds', 'chat.filePatterns', 'server.path'],
    );
  });

  it('treats null as unset', () => {
    const { settings, problems } = readSettings({ enable: null, chat: null });
    assert.deepEqual(settings, defaultSettings());
    assert.deepEqual(problems, []);
  });

  it('keeps valid values beside invalid ones', () => {
    const { settings, problems } = readSettings({ enable: false, logLevel: 7 });
    assert.equal(settings.enable, false);
    assert.equal(settings.logLevel, 'info');
    assert.deepEqual(problems.map((problem) => problem.key), ['logLevel']);
  });

  it('builds initializationOptions under albedoSkills, without the launch-only server.* settings', () => {
    const { settings } = readSettings({ enable: false, server: { path: ['x'], pythonPath: '/py' } });
    const options = initializationOptions(settings);
    assert.deepEqual(Object.keys(options), ['albedoSkills']);
    assert.deepEqual(options.albedoSkills, {
      enable: false,
      userRoots: true,
      home: '',
      autoReload: true,
      builtinCommands: ['help', 'model', 'reload'],
      chat: {
        languageIds: ['albedo-chat', 'markdown.chat', 'codecompanion', 'AvanteInput', 'copilot-chat', 'gp_chat'],
        filePatterns: ['*.chat.md'],
      },
      logLevel: 'info',
      hosts: [],
      security: { enable: true, disabledCodes: [], inlineIgnores: true },
      rename: true,
      references: true,
      workspaceSymbols: true,
      codeLens: true,
      inlayHints: true,
      folding: true,
      selectionRanges: true,
    });
    // A copy: the options sent to the server do not share arrays with the settings.
    options.albedoSkills.builtinCommands.push('mutated');
    assert.deepEqual(settings.builtinCommands, ['help', 'model', 'reload']);
  });

  it('hands out fresh defaults each time', () => {
    const first = defaultSettings();
    first.chat.languageIds.push('mutated');
    assert.equal(defaultSettings().chat.languageIds.includes('mutated'), false);
  });
});

describe('what the server sees through workspace/configuration', () => {
  it("drops the extension's server.* settings, nested or flat, and keeps the rest", () => {
    assert.deepEqual(
      withoutLaunchSettings({ enable: false, chat: { languageIds: ['x'] }, server: { path: ['ls'] }, 'server.pythonPath': '/py' }),
      { enable: false, chat: { languageIds: ['x'] } },
    );
    assert.equal(withoutLaunchSettings(null), null);
    assert.deepEqual(withoutLaunchSettings(['server']), ['server']);
  });

  it('filters the albedoSkills item of an answer, and the albedoSkills key of a whole-configuration item', () => {
    const section = { enable: true, server: { path: [] } };
    assert.deepEqual(
      configurationForServer(
        [{ section: 'albedoSkills' }, { section: 'editor' }, {}, { section: 'albedoSkills.server' }],
        [section, { server: 1 }, { albedoSkills: section, editor: { tabSize: 2 } }, { path: [] }],
      ),
      [{ enable: true }, { server: 1 }, { albedoSkills: { enable: true }, editor: { tabSize: 2 } }, { path: [] }],
    );
    assert.deepEqual(section, { enable: true, server: { path: [] } }, 'the input is not modified');
  });
});

describe('documentSelector', () => {
  it("selects SKILL.md on disk, chat language ids (saved or untitled), chat file patterns and agent files", () => {
    const selector = documentSelector(defaultSettings());
    assert.deepEqual(selector.slice(0, 4), [
      { scheme: 'file', language: 'skill' },
      { scheme: 'file', pattern: '**/SKILL.md' },
      { scheme: 'file', language: 'albedo-chat' },
      { scheme: 'untitled', language: 'albedo-chat' },
    ]);
    assert.deepEqual(selector.slice(-4), [
      { scheme: 'file', pattern: '**/*.chat.md' },
      { scheme: 'file', pattern: '**/AGENTS.md' },
      { scheme: 'file', pattern: '**/CLAUDE.md' },
      { scheme: 'file', pattern: '**/GEMINI.md' },
    ]);
    assert.equal(selector.length, 2 + 6 * 2 + 1 + 3);
  });

  it('anchors a bare file-name pattern in any folder, and keeps a pattern with a folder as written', () => {
    const selector = documentSelector({ chat: { languageIds: [], filePatterns: ['*.talk', 'notes/**/*.md'] } });
    assert.deepEqual(selector.slice(2, -3), [
      { scheme: 'file', pattern: '**/*.talk' },
      { scheme: 'file', pattern: 'notes/**/*.md' },
    ]);
  });
});

describe('stderrClassifier', () => {
  it('maps Python logging levels, and keeps a traceback together as errors', () => {
    const classify = stderrClassifier();
    const lines = [
      '2025-01-01 10:00:00 INFO albedo_skills_ls: started',
      'DEBUG:pygls.protocol:sending',
      'WARNING:albedo_skills_ls:bad setting',
      'ERROR:albedo_skills_ls:handler failed',
      'Traceback (most recent call last):',
      '  File "x.py", line 1, in <module>',
      '    DEBUG = 1',
      '',
      'ValueError: boom',
      'plain text',
      '  indented after plain text',
    ];
    assert.deepEqual(lines.map(classify), [
      'info',
      'debug',
      'warn',
      'error',
      'error',
      'error',
      'error',
      'error',
      'error',
      'info',
      'info',
    ]);
  });
});

describe('debounce', () => {
  it('collapses a burst of calls into one, after the last, with the last arguments', () => {
    const timers = fakeTimers();
    const calls: string[] = [];
    const restart = debounce((reason: string) => calls.push(reason), 500, timers);
    restart('a');
    timers.advance(300);
    restart('b');
    timers.advance(300);
    restart('c');
    assert.equal(timers.scheduled, 1);
    assert.equal(restart.pending, true);
    timers.advance(499);
    assert.deepEqual(calls, []);
    timers.advance(1);
    assert.deepEqual(calls, ['c']);
    assert.equal(restart.pending, false);
  });

  it('calls again for calls after the delay has passed', () => {
    const timers = fakeTimers();
    let count = 0;
    const restart = debounce(() => count++, 500, timers);
    restart();
    timers.advance(500);
    restart();
    timers.advance(500);
    assert.equal(count, 2);
  });

  it('cancel drops the pending call, and is harmless when nothing waits', () => {
    const timers = fakeTimers();
    let count = 0;
    const restart = debounce(() => count++, 500, timers);
    restart.cancel();
    restart();
    restart.cancel();
    assert.equal(restart.pending, false);
    assert.equal(timers.scheduled, 0);
    timers.advance(1000);
    assert.equal(count, 0);
  });

  it('uses the real timers by default', async () => {
    const calls: number[] = [];
    const restart = debounce((n: number) => calls.push(n), 20);
    restart(1);
    restart(2);
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.deepEqual(calls, [2]);
  });
});
