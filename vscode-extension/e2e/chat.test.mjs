/**
 * `@albedo` in VS Code's own chat (VS Code 1.104+, where an extension can provide a language model: run on
 * code-server 4.139.1), by keystrokes, with a fake model that records what it receives (fakeModel.mjs).
 * Each check reads what the chat shows and what the model received; the activation is parsed back as
 * albedo_skills_ls/skills/activation/commands.py writes it (one JSON line between delimiter lines).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildFakeModel, recordedRequests } from './fakeModel.mjs';
import { HANG_GUARD_MS, launchChromium, MOD, openWorkbench, runCommand, showing, startWorkbench, VSCODE, waitFor, writeWorkspace } from './harness.mjs';

const DEMO_BODY = 'Greet the user by name, warmly.\n';
const SKILLS = {
  '.agents/skills/demo/SKILL.md': `---\nname: demo\ndescription: Says hello to the user by name.\n---\n${DEMO_BODY}`,
  '.agents/skills/review/SKILL.md': '---\nname: review\ndescription: Reviews a pull request.\n---\nRead the diff.\n',
  // Only Albedo reads .albedo/skills; VS Code's own menu lists .agents/skills. A folded description.
  '.albedo/skills/notes/SKILL.md': '---\nname: notes\ndescription: >\n  Keeps notes\n  over two lines.\n---\nWrite them down.\n',
  // Albedo refuses it (the name differs from the folder); VS Code lists it as /both.
  '.agents/skills/both/SKILL.md': '---\nname: bar\ndescription: Its name is not its folder.\n---\nX\n',
};
const OPEN = '<albedo-skill-activation>';
const CLOSE = '</albedo-skill-activation>';
const INPUT = '.interactive-input-part .monaco-editor';

/** The activation in a model input: exactly one block, its JSON parsed (activation.parse_activation_input). */
function activationIn(text) {
  assert.equal(text.split(`\n${OPEN}\n`).length, 2, `one opening delimiter line in:\n${text}`);
  assert.equal(text.split(`\n${CLOSE}`).length, 2, `one closing delimiter line in:\n${text}`);
  const start = text.indexOf(`\n${OPEN}\n`) + OPEN.length + 2;
  const end = text.indexOf(`\n${CLOSE}`, start);
  assert.equal(text.slice(end + CLOSE.length + 1), '', 'nothing after the block');
  return JSON.parse(text.slice(start, end));
}

/** The language server of this workbench: the bundled launch.py started from its own extensions folder. */
function serverPid(extensions) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) {
      continue;
    }
    let command = '';
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    if (command.includes(`${extensions}/`) && command.includes('launch.py')) {
      return Number(entry);
    }
  }
  return assert.fail(`no language server started from ${extensions}`);
}

describe(`@albedo in the chat of VS Code ${VSCODE.text} (code-server), with a fake model`, { timeout: 10 * HANG_GUARD_MS }, () => {
  let browser;
  let workbench;
  let page;
  let folder;
  let log;

  const requests = () => recordedRequests(log);
  /** The model's requests, once it has received `count` of them. */
  const requestsWhen = (count) => waitFor(page, async () => requests(), (all) => all.length >= count, `the model received fewer than ${count} requests`);
  const requestTexts = async () => (await page.locator('.interactive-request .value .rendered-markdown').allTextContents()).map((text) => text.replace(/\u00a0/g, ' ').trim());
  const responses = () => page.locator('.interactive-response .value');
  const inputText = async () => (await page.locator(`${INPUT} .view-lines`).textContent()).replace(/\u00a0/g, ' ');

  /**
   * Type into the chat input (it keeps `@albedo ` between turns: the participant is sticky) and send. A `/`
   * menu still open would take the Enter: it is closed first, as a person would.
   */
  async function send(text) {
    await page.locator(`${INPUT} .view-lines`).click();
    await page.keyboard.type(text);
    await closeSuggestions(/^\/\S*$/.test(text));
    await page.keyboard.press('Enter');
  }

  /** `opens`: the text is a lone `/word`, for which the menu surely shows (VS Code lists its own commands). */
  async function closeSuggestions(opens = false) {
    if (opens) {
      await page.locator('.suggest-widget.visible').waitFor();
    }
    if ((await page.locator('.suggest-widget.visible').count()) > 0) {
      await page.keyboard.press('Escape');
      await page.locator('.suggest-widget.visible').waitFor({ state: 'detached' });
    }
  }

  /** The latest response (the chat list renders only the turns in sight), once it shows `expected`. */
  async function answer(expected) {
    const item = responses().last().filter({ hasText: expected });
    await item.waitFor();
    return (await item.textContent()).replace(/\u00a0/g, ' ');
  }

  before(async () => {
    browser = await launchChromium();
    folder = writeWorkspace(SKILLS);
    log = path.join(folder, '..', `${path.basename(folder)}-model.jsonl`);
    writeFileSync(log, '');
    workbench = await startWorkbench({ folder, extraVsix: [await buildFakeModel()], env: { ALBEDO_FAKE_MODEL_LOG: log } });
    page = await openWorkbench(browser, workbench.url);
    // The server answered (the menu asks the running server for its catalog and the skills it refuses, so
    // the refused skill's row does not wait for its diagnostics to reach VS Code).
    await page.locator('.statusbar-item', { hasText: /\d+ skills?/ }).first().waitFor();
    // The model picker has only the fake model (no Copilot sign-in here): pick it.
    await runCommand(page, 'Albedo e2e: Use the Fake Model');
    await page.locator(INPUT).waitFor();
  });

  after(async () => {
    await browser?.close();
    workbench?.stop();
    for (const file of [folder, log]) {
      if (file) {
        rmSync(file, { recursive: true, force: true });
      }
    }
  });

  /** The rows of the open suggest menu, as shown (label, then what is beside it). */
  const menuRows = async () => (await page.locator('.suggest-widget.visible .monaco-list-row').allTextContents()).map((row) => row.replace(/\u00a0/g, ' '));

  it('lists each skill once in the `/` menu with its description, and says why Albedo refuses one', () => showing(page, 'chat-menu', async () => {
    await page.locator(`${INPUT} .view-lines`).click();
    await page.keyboard.type('/');
    await page.locator('.suggest-widget.visible .monaco-list-row', { hasText: 'Keeps notes over two lines.' }).waitFor();
    const rows = await menuRows();
    const of = (command) => rows.filter((row) => row.startsWith(command));
    // VS Code's own row for the skills of its locations, Albedo's for the one only Albedo reads.
    assert.deepEqual(of('/demo'), ['/demoSays hello to the user by name.'], rows.join('\n'));
    assert.deepEqual(of('/review'), ['/reviewReviews a pull request.'], rows.join('\n'));
    assert.deepEqual(of('/notes'), ['/notesKeeps notes over two lines.'], rows.join('\n'));
    // VS Code offers /both; Albedo's row beside it says it is not loaded, and why.
    assert.equal(of('/both').length, 2, rows.join('\n'));
    assert.match(of('/both').join('\n'), /Albedo does not load this skill: name `bar` differs from its folder `both`/);
    assert.doesNotMatch(rows.join('\n'), /⏎/);

    // Accepting Albedo's entry names the participant.
    await page.keyboard.type('no');
    await page.locator('.suggest-widget.visible .monaco-list-row.focused', { hasText: 'Keeps notes' }).waitFor();
    await page.keyboard.press('Enter');
    await waitFor(page, inputText, (text) => text === '@albedo /notes ', 'accepting did not leave `@albedo /notes `');
    await page.keyboard.press(`${MOD}+A`);
    await page.keyboard.press('Backspace');
    await waitFor(page, inputText, (text) => text.trim() === '', 'the input was not cleared');
  }));

  it('offers the skill after `@albedo`; accepting, typing and Enter send the activation, and the chat shows what was typed', () => showing(page, 'chat-demo', async () => {
    await page.locator(`${INPUT} .view-lines`).click();
    await page.keyboard.type('@albedo /de');
    const ours = page.locator('.suggest-widget.visible .monaco-list-row', { hasText: 'Says hello to the user by name.' });
    await ours.waitFor();
    const rows = await menuRows();
    assert.equal(rows.filter((row) => row.startsWith('/demo')).length, 1, rows.join('\n'));
    while (!(await page.locator('.suggest-widget.visible .monaco-list-row.focused').textContent()).includes('Says hello to the user by name.')) {
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    await waitFor(page, inputText, (text) => text === '@albedo /demo ', 'accepting did not leave `@albedo /demo `');
    await page.keyboard.type('merge these files');
    await page.keyboard.press('Enter');

    const [request] = await requestsWhen(1);
    assert.equal(request.messages.length, 1, JSON.stringify(request, null, 2));
    assert.equal(request.messages[0].role, 'user');
    const activation = activationIn(request.messages[0].text);
    assert.deepEqual(Object.keys(activation), ['name', 'source', 'arguments', 'instructions']);
    assert.equal(activation.name, 'demo');
    assert.equal(activation.arguments, 'merge these files');
    assert.equal(activation.source, path.join(folder, '.agents/skills/demo/SKILL.md'));
    assert.equal(activation.instructions, DEMO_BODY);
    assert.match(request.messages[0].text, /^The user activated the skill `demo` with \/demo\./);

    assert.match(await answer('Fake answer 1.'), /Fake answer 1\./);
    assert.deepEqual(await requestTexts(), ['@albedo /demo merge these files']);
  }));

  it('a second turn still carries the activation of the first, then the answer, then the new text', () => showing(page, 'chat-second', async () => {
    await waitFor(page, inputText, (text) => text === '@albedo ', 'the participant did not stay in the input');
    await send('and thank them too');
    const all = await requestsWhen(2);
    const [first, second] = all;
    assert.deepEqual(
      second.messages.map((message) => message.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(second.messages[0].text, first.messages[0].text, 'the first turn is re-sent as its activation');
    assert.equal(activationIn(second.messages[0].text).arguments, 'merge these files');
    assert.equal(second.messages[1].text, 'Fake answer 1.');
    assert.equal(second.messages[2].text, 'and thank them too');
    await answer('Fake answer 2.');
    assert.deepEqual((await requestTexts()).slice(-1), ['@albedo and thank them too']);
  }));

  it('/help lists the skills in the chat, and the model is not asked', () => showing(page, 'chat-help', async () => {
    const before = requests().length;
    await send('/help');
    const text = await answer('reads them again from disk.'); // its last words: the answer renders progressively
    assert.match(text, /\/demo: Says hello to the user by name\./);
    assert.match(text, /\/review: Reviews a pull request\./);
    assert.equal(requests().length, before);
  }));

  it('an unknown /nosuch gets an answer saying what to do, with a Reload button, and nothing reaches the model', () => showing(page, 'chat-unknown', async () => {
    const before = requests().length;
    await send('/nosuch these files');
    const text = await answer('then send the turn again.');
    assert.match(text, /\/nosuch is not a skill here, so nothing was sent to the model\. The skills are \/demo, \/notes, \/review\./);
    assert.match(text, /If you added the skill just now, reload the skills, then send the turn again\./);
    await responses().last().locator('.monaco-button', { hasText: 'Reload Skills' }).waitFor();
    assert.equal(requests().length, before);

    // The output channel: one information line for the refusal, no traceback, nothing at error level.
    await runCommand(page, 'Albedo Skills: Show Output');
    const output = page.locator('.part.panel .monaco-editor .view-lines');
    await output.filter({ hasText: 'refused: unknown command' }).waitFor();
    const lines = (await output.locator('.view-line').allTextContents()).map((line) => line.replace(/\u00a0/g, ' '));
    const about = lines.filter((line) => line.includes('/nosuch'));
    assert.equal(about.length, 1, lines.join('\n'));
    assert.match(about[0], /\[info\] commands\.invoke refused: unknown command `\/nosuch`/);
    assert.doesNotMatch(lines.join('\n'), /Traceback|\[error\]/);
    await runCommand(page, 'View: Hide Panel');
  }));

  it('arguments holding the closing delimiter, on several lines, stay inside the one block, exactly', () => showing(page, 'chat-delimiter', async () => {
    const before = requests().length;
    await page.locator(`${INPUT} .view-lines`).click();
    await page.keyboard.type(`/demo first ${CLOSE}`);
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type(`${CLOSE} & "quoted" <b>`);
    await closeSuggestions();
    await page.keyboard.press('Enter');
    const all = await requestsWhen(before + 1);
    const last = all.at(-1).messages.at(-1);
    assert.equal(activationIn(last.text).arguments, `first ${CLOSE}\n${CLOSE} & "quoted" <b>`);
    // The earlier activation is still in the history, whole.
    assert.equal(activationIn(all.at(-1).messages[0].text).arguments, 'merge these files');
  }));

  it('with the server stopped, the text goes to the model as typed, and one notice says so', () => showing(page, 'chat-stopped', async () => {
    const pid = serverPid(workbench.extensions);
    process.kill(pid, 'SIGSTOP'); // frozen: every request waits out the participant's timeout
    try {
      const before = requests().length;
      await send('/demo while it sleeps');
      await send('/review still asleep');
      const all = await requestsWhen(before + 2);
      assert.equal(all[before].messages.at(-1).text, '/demo while it sleeps');
      assert.equal(all[before + 1].messages.at(-1).text, '/review still asleep');
      await page.locator('.notification-toast', { hasText: 'went to the model as typed' }).first().waitFor();
      await runCommand(page, 'Notifications: Show Notifications');
      const items = page.locator('.notifications-center .notification-list-item');
      await items.first().waitFor();
      const texts = (await items.allTextContents()).filter((text) => text.includes('went to the model as typed'));
      assert.equal(texts.length, 1, texts.join('\n---\n'));
      assert.match(texts[0], /without its activation \(commands\.invoke did not answer within 5 s\)/);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
  }));
});

