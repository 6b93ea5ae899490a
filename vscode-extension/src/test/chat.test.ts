/**
 * The chat participant's decisions without VS Code: which turn names a command, the history rebuilt for the
 * model, the server calls' timeouts and outcomes, the `/` menu of the chat input, and the answers' text.
 * The chat itself, by keystrokes with a fake model, is e2e/chat.test.mjs.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CatalogEntry } from '../catalogTree';
import { code, helpAnswer, plain, unknownAnswer, UNKNOWN_ANSWER_SKILLS_SHOWN } from '../chat/answers';
import {
  CATALOG_TIMEOUT_MS,
  catalogOf,
  classifyInvokeError,
  executeCommand,
  inCatalog,
  INVOKE_TIMEOUT_MS,
  invokeForUser,
  refusedOf,
  type RequestSender,
  TimedOut,
} from '../chat/serverCalls';
import { MENU_DETAIL, menuItems, menuPlace, REFUSED_PREFIX } from '../chat/slashMenu';
import { listedByVsCode } from '../nativeSkillLocations';
import { type HistoryTurn, historyMessages, slashTurn, typedText } from '../chat/turns';
import { fakeTimers } from './fakeTimers';

const PARTICIPANT = 'albedoSkills.albedo';
const skill = (name: string, description = `The ${name} skill.`): CatalogEntry => ({
  command: `/${name}`,
  name,
  kind: 'skill',
  description,
  arguments: [],
  path: `/ws/.agents/skills/${name}/SKILL.md`,
  scope: 'workspace',
});
const builtin = (name: string): CatalogEntry => ({ command: `/${name}`, name, kind: 'builtin', description: `Built-in ${name}.`, arguments: [] });

describe('slashTurn', () => {
  it('splits a skill command from its arguments, exactly as typed after the separating white space', () => {
    assert.deepEqual(slashTurn('/demo merge these files', undefined), { command: '/demo', arguments: 'merge these files' });
    assert.deepEqual(slashTurn('  /demo   two  spaces kept  ', undefined), { command: '/demo', arguments: 'two  spaces kept  ' });
    assert.deepEqual(slashTurn('/demo\nnext line\n', undefined), { command: '/demo', arguments: 'next line\n' });
    assert.deepEqual(slashTurn('/skill:demo x', undefined), { command: '/skill:demo', arguments: 'x' });
    assert.deepEqual(slashTurn('/demo', undefined), { command: '/demo', arguments: '' });
  });

  it('takes a declared command from request.command, and leaves text without a leading command alone', () => {
    assert.deepEqual(slashTurn('session', 'reload'), { command: '/reload', arguments: 'session' });
    assert.equal(slashTurn('merge /demo these', undefined), undefined);
    assert.equal(slashTurn('/', undefined), undefined);
    assert.equal(slashTurn('/a/b c', undefined), undefined, 'a path is not a command');
  });

  it('gives back the text as typed', () => {
    assert.equal(typedText('/demo x', undefined), '/demo x');
    assert.equal(typedText('session', 'reload'), '/reload session');
    assert.equal(typedText('', 'help'), '/help');
  });
});

describe('historyMessages', () => {
  const request = (prompt: string, participant = PARTICIPANT, command?: string): HistoryTurn => ({ kind: 'request', participant, prompt, command });
  const response = (text: string, record?: unknown, participant = PARTICIPANT): HistoryTurn => ({ kind: 'response', participant, text, metadata: record === undefined ? undefined : { albedo: record } });

  it('re-sends what each earlier turn sent, with its answer, and leaves out the turns the participant answered', async () => {
    const asked: string[] = [];
    const messages = await historyMessages(
      [
        request('/demo merge these files'),
        response('Done.', { sent: 'ACTIVATION demo' }),
        request('', PARTICIPANT, 'help'),
        response('Skills: ...', { answered: 'help' }),
        request('/nosuch x'),
        response('not a skill', { answered: 'refused' }),
        request('thanks'),
        response('You are welcome.', { sent: 'thanks' }),
      ],
      PARTICIPANT,
      async (turn) => (asked.push(turn.command), 'never'),
    );
    assert.deepEqual(messages, [
      { role: 'user', text: 'ACTIVATION demo' },
      { role: 'assistant', text: 'Done.' },
      { role: 'user', text: 'thanks' },
      { role: 'assistant', text: 'You are welcome.' },
    ]);
    assert.deepEqual(asked, [], 'recorded turns are not asked again');
  });

  it('asks the server again for a turn without a record, and sends it as typed when the server gives nothing', async () => {
    const messages = await historyMessages(
      [request('/demo a'), response('', undefined), request('/gone b'), response('B', {}), request('plain')],
      PARTICIPANT,
      async (turn) => (turn.command === '/demo' ? `ACTIVATION ${turn.arguments}` : undefined),
    );
    assert.deepEqual(messages, [
      { role: 'user', text: 'ACTIVATION a' },
      { role: 'user', text: '/gone b' },
      { role: 'assistant', text: 'B' },
      { role: 'user', text: 'plain' },
    ]);
  });

  it("skips other participants' turns", async () => {
    const messages = await historyMessages([request('hi', 'other'), response('hello', { sent: 'hi' }, 'other')], PARTICIPANT, async () => undefined);
    assert.deepEqual(messages, []);
  });
});

/** A client whose answers the test settles by hand, recording the requests and their cancellation. */
function manualClient() {
  const calls: { method: string; params: any; cancelled: boolean; resolve(value: unknown): void; reject(error: unknown): void }[] = [];
  const client: RequestSender = {
    sendRequest(method, params, token) {
      return new Promise((resolve, reject) => {
        const call = { method, params, cancelled: false, resolve, reject };
        token?.onCancellationRequested(() => (call.cancelled = true));
        calls.push(call);
      });
    },
  };
  return { client, calls };
}

describe('executeCommand', () => {
  it('waits up to the bound: still waiting 1 ms before, timed out (and the request cancelled) at it', async () => {
    const timers = fakeTimers();
    const { client, calls } = manualClient();
    const outcome: { settled: boolean; error?: unknown } = { settled: false };
    const pending = executeCommand(client, 'commands.invoke', ['/demo'], INVOKE_TIMEOUT_MS, timers).then(
      () => (outcome.settled = true),
      (error) => Object.assign(outcome, { settled: true, error }),
    );
    assert.deepEqual(calls[0].params, { command: 'commands.invoke', arguments: ['/demo'] });
    timers.advance(INVOKE_TIMEOUT_MS - 1);
    await Promise.resolve();
    assert.equal(outcome.settled, false);
    assert.equal(calls[0].cancelled, false);
    timers.advance(1);
    await pending;
    assert.ok(outcome.error instanceof TimedOut);
    assert.equal(calls[0].cancelled, true);
  });

  it("answers with the server's value and clears its timer", async () => {
    const timers = fakeTimers();
    const { client, calls } = manualClient();
    const pending = executeCommand(client, 'commands.catalog', [], CATALOG_TIMEOUT_MS, timers);
    calls[0].resolve(['x']);
    assert.deepEqual(await pending, ['x']);
    assert.equal(timers.scheduled, 0);
  });

  it('cancels the server request when the chat request is cancelled', async () => {
    const timers = fakeTimers();
    const { client, calls } = manualClient();
    const listeners: (() => void)[] = [];
    const outer = { isCancellationRequested: false, onCancellationRequested: (listener: () => void) => (listeners.push(listener), { dispose() {} }) };
    void executeCommand(client, 'commands.invoke', [], INVOKE_TIMEOUT_MS, timers, outer).catch(() => undefined);
    listeners.forEach((listener) => listener());
    assert.equal(calls[0].cancelled, true);
  });
});

describe('invokeForUser', () => {
  it('sends [command, arguments, "user", folder] and sorts the answers', async () => {
    const timers = fakeTimers();
    const { client, calls } = manualClient();
    const activation = invokeForUser(client, { command: '/demo', arguments: 'x' }, 'file:///ws', timers);
    assert.deepEqual(calls[0].params.arguments, ['/demo', 'x', 'user', 'file:///ws']);
    calls[0].resolve({ intent: '/demo x', input: 'ACTIVATION' });
    assert.deepEqual(await activation, { kind: 'activation', intent: '/demo x', input: 'ACTIVATION' });

    const model = invokeForUser(client, { command: '/model', arguments: '' }, undefined, timers);
    assert.deepEqual(calls[1].params.arguments, ['/model', '', 'user']);
    calls[1].resolve({ command: '/model', kind: 'builtin', result: null, message: 'client only' });
    assert.deepEqual(await model, { kind: 'builtin', command: '/model', result: null, message: 'client only' });
  });

  it('is unavailable with no server, on a timeout, and on a failed connection; refused or invalid on the server\'s errors', async () => {
    const timers = fakeTimers();
    assert.deepEqual(await invokeForUser(undefined, { command: '/demo', arguments: '' }, undefined, timers), { kind: 'unavailable', reason: 'the language server is not running' });
    const { client, calls } = manualClient();
    const slow = invokeForUser(client, { command: '/demo', arguments: '' }, undefined, timers);
    timers.advance(INVOKE_TIMEOUT_MS);
    assert.deepEqual(await slow, { kind: 'unavailable', reason: 'commands.invoke did not answer within 5 s' });
    const refused = invokeForUser(client, { command: '/demo', arguments: '' }, undefined, timers);
    calls[1].reject(Object.assign(new Error('skill `demo` changed on disk'), { code: -32803 }));
    assert.deepEqual(await refused, { kind: 'refused', message: 'skill `demo` changed on disk' });
    assert.deepEqual(classifyInvokeError(Object.assign(new Error('bad text'), { code: -32602 })), { kind: 'invalid', message: 'bad text' });
    assert.deepEqual(classifyInvokeError(new Error('Connection got disposed.')), { kind: 'unavailable', reason: 'Connection got disposed.' });
  });

  it('catalogOf gives undefined when the server does not answer within its bound', async () => {
    const timers = fakeTimers();
    const { client } = manualClient();
    const pending = catalogOf(client, undefined, timers);
    timers.advance(CATALOG_TIMEOUT_MS);
    assert.equal(await pending, undefined);
  });

  it("refusedOf sends skills.refused [folder] and keeps the server's {name, path, reason} entries, dropping malformed ones", async () => {
    const timers = fakeTimers();
    const { client, calls } = manualClient();
    const pending = refusedOf(client, 'file:///ws', timers);
    assert.deepEqual(calls[0].params, { command: 'skills.refused', arguments: ['file:///ws'] });
    calls[0].resolve([
      { name: 'both', path: '/ws/.agents/skills/both/SKILL.md', scope: 'workspace', code: 'name-mismatch', reason: 'name `bar` differs' },
      { name: 'x', path: 7, reason: 'r' },
      null,
      'both',
    ]);
    assert.deepEqual(await pending, [{ name: 'both', path: '/ws/.agents/skills/both/SKILL.md', reason: 'name `bar` differs' }]);
    const noFolder = refusedOf(client, undefined, timers);
    assert.deepEqual(calls[1].params.arguments, []);
    calls[1].resolve({ not: 'a list' });
    assert.deepEqual(await noFolder, []);
  });

  it('refusedOf gives none with no server, on a server without the command, and at its bound (not 1 ms before)', async () => {
    const timers = fakeTimers();
    assert.deepEqual(await refusedOf(undefined, undefined, timers), []);
    const { client, calls } = manualClient();
    const old = refusedOf(client, undefined, timers);
    calls[0].reject(Object.assign(new Error('Unhandled method workspace/executeCommand: skills.refused'), { code: -32601 }));
    assert.deepEqual(await old, []);
    let settled = false;
    const slow = refusedOf(client, undefined, timers).then((value) => ((settled = true), value));
    timers.advance(CATALOG_TIMEOUT_MS - 1);
    await Promise.resolve();
    assert.equal(settled, false);
    timers.advance(1);
    assert.deepEqual(await slow, []);
    assert.equal(calls[1].cancelled, true);
  });

  it('inCatalog resolves /name and /skill:name as the server does', () => {
    const entries = [builtin('help'), skill('demo')];
    assert.ok(inCatalog(entries, '/demo'));
    assert.ok(inCatalog(entries, '/skill:demo'));
    assert.ok(inCatalog(entries, '/help'));
    assert.ok(!inCatalog(entries, '/skill:help'));
    assert.ok(!inCatalog(entries, '/nosuch'));
  });
});

describe('the chat input `/` menu', () => {
  it('offers skills for a first `/word`, naming @albedo when no participant is named yet', () => {
    assert.deepEqual(menuPlace('/de'), { start: 0, prefix: '@albedo ' });
    assert.deepEqual(menuPlace('  /'), { start: 2, prefix: '@albedo ' });
    assert.deepEqual(menuPlace('@albedo /de'), { start: 8, prefix: '' });
    assert.deepEqual(menuPlace('@albedo\n/de'), { start: 8, prefix: '' });
  });

  it('offers nothing after another participant, mid-text, or past the command', () => {
    assert.equal(menuPlace('@workspace /de'), undefined);
    assert.equal(menuPlace('fix /de'), undefined);
    assert.equal(menuPlace('/demo x'), undefined);
    assert.equal(menuPlace('/a/b'), undefined);
  });

  const nothingListed = { listedByVsCode: () => false, refused: [] };

  it('lists the skills only, with their descriptions on one line, each inserting text that reaches @albedo', () => {
    const items = menuItems([builtin('help'), skill('demo', 'Says hello\nover two lines.')], { start: 0, prefix: '@albedo ' }, nothingListed);
    assert.deepEqual(items, [{ command: '/demo', description: 'Says hello over two lines.', detail: MENU_DETAIL, insertText: '@albedo /demo ', path: '/ws/.agents/skills/demo/SKILL.md', refused: false }]);
    assert.equal(menuItems([skill('demo')], { start: 8, prefix: '' }, nothingListed)[0].insertText, '/demo ');
  });

  // What VS Code 1.139.1 listed in the e2e run: its own rows for `.agents/skills` (with descriptions), none
  // after `@albedo`, nothing of `.albedo/skills`.
  const vscodeLists = { listedByVsCode: (file: string) => file.includes('/.agents/skills/'), refused: [{ name: 'both', reason: 'name `bar` differs from its folder `both`', path: '/ws/.agents/skills/both/SKILL.md' }] };
  const albedoOnly: CatalogEntry = { ...skill('notes'), path: '/ws/.albedo/skills/notes/SKILL.md' };

  it("adds before a participant only the skills VS Code's own menu does not list, so each shows once", () => {
    const items = menuItems([skill('demo'), albedoOnly], { start: 0, prefix: '@albedo ' }, vscodeLists);
    assert.deepEqual(items.map((item) => [item.command, item.refused]), [['/notes', false], ['/both', true]]);
  });

  it('says why Albedo refuses a skill VS Code offers, instead of offering it', () => {
    const [warning] = menuItems([], { start: 0, prefix: '@albedo ' }, vscodeLists);
    assert.equal(warning.description, `${REFUSED_PREFIX}name \`bar\` differs from its folder \`both\``);
    assert.equal(warning.insertText, '@albedo /both ');
    assert.match(warning.detail, /nothing is sent to the model/);
  });

  it("builds the refused rows from the server's answer alone: no diagnostic has to have reached VS Code", async () => {
    const timers = fakeTimers();
    const { client, calls } = manualClient();
    const refused = refusedOf(client, undefined, timers);
    calls[0].resolve([{ name: 'both', path: '/ws/.agents/skills/both/SKILL.md', reason: 'name `bar` differs from its folder `both`' }]);
    const items = menuItems([skill('demo')], { start: 0, prefix: '@albedo ' }, { listedByVsCode: vscodeLists.listedByVsCode, refused: await refused });
    assert.deepEqual(items.map((item) => [item.command, item.refused, item.description]), [['/both', true, `${REFUSED_PREFIX}name \`bar\` differs from its folder \`both\``]]);
  });

  it('after @albedo offers every skill of the catalog (VS Code lists none of its own there), and the refused ones as such', () => {
    const items = menuItems([skill('demo'), albedoOnly], { start: 8, prefix: '' }, vscodeLists);
    assert.deepEqual(items.map((item) => [item.command, item.refused]), [['/demo', false], ['/notes', false], ['/both', true]]);
  });

  it("reads VS Code's skill locations: relative to each workspace folder or under ~/, enabled, skills on", () => {
    const place = { workspaceFolders: ['/ws'], home: '/home/ada', platform: 'linux' as const };
    const locations = { '.agents/skills': true, '.claude/skills': false, '~/.agents/skills': true, '/abs/skills': true };
    assert.ok(listedByVsCode('/ws/.agents/skills/demo/SKILL.md', locations, true, place));
    assert.ok(listedByVsCode('/home/ada/.agents/skills/x/SKILL.md', locations, true, place));
    assert.ok(!listedByVsCode('/ws/.albedo/skills/demo/SKILL.md', locations, true, place));
    assert.ok(!listedByVsCode('/ws/.claude/skills/demo/SKILL.md', locations, true, place));
    assert.ok(!listedByVsCode('/abs/skills/demo/SKILL.md', locations, true, place), 'VS Code refuses absolute paths');
    assert.ok(!listedByVsCode('/ws/.agents/skills/demo/SKILL.md', locations, false, place), 'chat.useAgentSkills off');
    assert.ok(!listedByVsCode('/ws/.agents/skills/demo/SKILL.md', undefined, true, place), 'VS Code 1.96: no such setting');
    const windows = { workspaceFolders: ['c:\\Users\\Ada\\proj'], home: 'C:\\Users\\Ada', platform: 'win32' as const };
    assert.ok(listedByVsCode('C:\\Users\\Ada\\proj\\.agents\\skills\\demo\\SKILL.md', locations, true, windows));
    assert.ok(listedByVsCode('c:\\users\\ada\\.agents\\skills\\x\\SKILL.md', locations, true, windows));
  });
});

describe('answers', () => {
  it('quotes any text as inline code and shows descriptions as plain text', () => {
    assert.equal(code('/demo'), '`/demo`');
    assert.equal(code('a`b'), '``a`b``');
    assert.equal(code('`x'), '`` `x ``');
    assert.equal(plain('*bold* [link](x) <b>'), '\\*bold\\* \\[link\\]\\(x\\) \\<b\\>');
  });

  it('/help lists every skill and no built-in as a skill', () => {
    const text = helpAnswer([builtin('help'), skill('demo', 'Says *hi*.')]);
    assert.match(text, /- `\/demo`: Says \\\*hi\\\*\\\./);
    assert.doesNotMatch(text, /- `\/help`/);
  });

  it('an unknown command names the skills up to the bound, then how many more', () => {
    const names = Array.from({ length: UNKNOWN_ANSWER_SKILLS_SHOWN + 1 }, (_, index) => skill(`s${index}`));
    const atBound = unknownAnswer('/x', names.slice(0, UNKNOWN_ANSWER_SKILLS_SHOWN));
    assert.match(atBound, new RegExp(`\`/s${UNKNOWN_ANSWER_SKILLS_SHOWN - 1}\`\\.`));
    assert.doesNotMatch(atBound, /more/);
    const pastBound = unknownAnswer('/x', names);
    assert.match(pastBound, /, and 1 more\./);
    assert.doesNotMatch(pastBound, new RegExp(`/s${UNKNOWN_ANSWER_SKILLS_SHOWN}\``));
    assert.doesNotMatch(unknownAnswer('/x', undefined), /The skills are/);
  });
});
