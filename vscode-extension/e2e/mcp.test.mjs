/**
 * `albedo-skills mcp` in VS Code's own chat (1.139: MCP servers and their prompts are in the core; run on
 * code-server 4.139.1), added by `.vscode/mcp.json` as docs/mcp.md says and started as a person starts it
 * (MCP: List Servers, the server, Start Server), signed out of Copilot and offline. Typing `/` lists the
 * skill's prompt as `/mcp.albedo.demo`; choosing it asks for its one argument in one step, and the chat input
 * then holds the turn `albedo-skills invoke /demo ARGUMENTS --user` gives. Sending it needs a chat agent that
 * answers, which signed out VS Code has not (tried with the fake model chosen in Agent mode: Copilot's sign-in
 * dialog opened and the model received nothing), so what a model would receive is read from the input.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { focusEditor, HANG_GUARD_MS, launchChromium, MOD, openWorkbench, runCommand, showing, startWorkbench, triggerSuggest, VSCODE, waitFor, writeWorkspace } from './harness.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The checkout's own install (scripts/test.sh makes it, with the `mcp` extra the suite needs). */
const ALBEDO_SKILLS = path.join(REPO, '.venv', 'bin', 'albedo-skills');
const INPUT = '.interactive-input-part .monaco-editor';
const PROMPT = '/mcp.albedo.demo';
const DESCRIPTION = 'Merges files the way this project likes.';
const TYPED = 'merge a.txt b.txt';

describe(`albedo-skills mcp in the chat of VS Code ${VSCODE.text} (code-server), from .vscode/mcp.json`, { timeout: 10 * HANG_GUARD_MS }, () => {
  let browser;
  let workbench;
  let page;
  let folder;

  const menuRows = async () => (await page.locator('.suggest-widget.visible .monaco-list-row').allTextContents()).map((row) => row.replace(/\u00a0/g, ' '));
  const inputText = async () => (await page.locator(`${INPUT} .view-lines`).textContent()).replace(/\u00a0/g, ' ');

  before(async () => {
    assert.ok(existsSync(ALBEDO_SKILLS), `${ALBEDO_SKILLS} is missing: scripts/test.sh installs the checkout with its extras`);
    browser = await launchChromium();
    folder = writeWorkspace({
      '.agents/skills/demo/SKILL.md': `---\nname: demo\ndescription: ${DESCRIPTION}\n---\n\n# Merge\n\nMerge the files named.\n`,
      // docs/mcp.md's line, with the full path it advises for a host that may not see the shell's PATH
      '.vscode/mcp.json': JSON.stringify({ servers: { albedo: { type: 'stdio', command: ALBEDO_SKILLS, args: ['mcp'] } } }),
    });
    workbench = await startWorkbench({ folder });
    page = await openWorkbench(browser, workbench.url);
    await page.locator(INPUT).waitFor();
  });

  after(async () => {
    await browser?.close();
    workbench?.stop();
    if (folder) {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('lists the server from .vscode/mcp.json, and once started the `/` menu offers the skill as an MCP prompt', () => showing(page, 'mcp-menu', async () => {
    await runCommand(page, 'MCP: List Servers');
    const server = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'albedo' });
    await server.waitFor();
    assert.match((await server.textContent()).replace(/\u00a0/g, ' '), /\.vscode\/mcp\.json/);
    await server.click();
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'Start Server' }).click();
    await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
    // Starting it shows the server's output, which takes the keyboard when it opens: once the server has
    // answered (its two tools are listed there), the chat input is given the keyboard back.
    await page.locator('.part.panel', { hasText: 'Discovered 2 tools' }).waitFor();
    // The menu asks the servers when it opens: open it until the started server's prompt is in it.
    const rows = await waitFor(page, async () => {
      await page.locator(`${INPUT} .view-lines`).click();
      await focusEditor(page, INPUT);
      await page.keyboard.press(`${MOD}+A`);
      await page.keyboard.press('Backspace');
      await page.keyboard.type('/');
      await triggerSuggest(page); // typing `/` opens it, but not always right after the server started: Ctrl+Space
      return menuRows();
    }, (shown) => shown.some((row) => row.startsWith(PROMPT)), `no ${PROMPT} in the / menu`);
    assert.deepEqual(rows.filter((row) => row.startsWith(PROMPT)), [`${PROMPT}${DESCRIPTION}`], rows.join('\n'));
  }));

  it('choosing the prompt asks for its one argument, then the input holds the activation `invoke --user` gives', () => showing(page, 'mcp-prompt', async () => {
    await page.keyboard.type(PROMPT.slice(1));
    await page.locator('.suggest-widget.visible .monaco-list-row.focused', { hasText: PROMPT }).waitFor();
    await page.keyboard.press('Enter');
    // VS Code asks for each declared argument in a step of its own: this server declares one to it
    const title = page.locator('.quick-input-widget .quick-input-title');
    await title.filter({ hasText: 'arguments' }).waitFor();
    assert.match(await title.textContent(), /arguments \(1\/1\)/);
    await page.keyboard.type(TYPED);
    await page.keyboard.press('Enter');
    const expected = JSON.parse(execFileSync(ALBEDO_SKILLS, ['invoke', '/demo', TYPED, '--user', '-w', folder, '--no-user-roots'], { encoding: 'utf8' })).input;
    // The input shows each line as a row of its own; its text, rows joined, is the turn without its line breaks.
    const shown = await waitFor(page, inputText, (text) => text.includes('</albedo-skill-activation>'), 'the prompt did not fill the input');
    assert.equal(shown, expected.replace(/\n/g, ''));
  }));
});
