/**
 * albedoSkills.copilotSkillLocations on VS Code 1.139.1 (code-server 4.139.1): on, Albedo's roots are in
 * VS Code's own chat.agentSkillsLocations (the user settings file), and VS Code's own `/` menu in the chat
 * input lists a skill only `.albedo/skills` holds, once: Albedo adds no row of its own for a skill VS Code
 * lists (src/chat/slashMenu.ts). (Turning it off is checked by the unit tests.) The fake model
 * (fakeModel.mjs) is there only so the chat input has a model, as with Copilot.
 */
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { buildFakeModel } from './fakeModel.mjs';
import { HANG_GUARD_MS, launchChromium, NATIVE_SKILL_LANGUAGE, openWorkbench, runCommand, showing, startWorkbench, VSCODE, waitFor, writeWorkspace } from './harness.mjs';

const SKILLS = { '.albedo/skills/tidy-notes/SKILL.md': '---\nname: tidy-notes\ndescription: Tidies the notes of the session.\n---\nSort the notes.\n' };
const INPUT = '.interactive-input-part .monaco-editor';
const ADDED = ['.albedo/skills', '~/.albedo/skills', '~/.prime/agent/skills'];

describe(`albedoSkills.copilotSkillLocations in VS Code ${VSCODE.text} (code-server)`, { timeout: 6 * HANG_GUARD_MS }, () => {
  let browser;
  let workbench;
  let page;
  let folder;

  /** The user settings file, parsed ({} while VS Code is half-way through writing it). */
  const settings = () => {
    try {
      return JSON.parse(readFileSync(workbench.userSettings, 'utf8'));
    } catch {
      return {};
    }
  };
  /** The `/ti` menu of the chat input, as rows of text (it is closed again after reading). */
  async function slashMenu(predicate, what) {
    return waitFor(
      page,
      async () => {
        await page.locator(`${INPUT} .view-lines`).click();
        await page.keyboard.press('Control+A');
        await page.keyboard.press('Backspace');
        await page.keyboard.type('/ti');
        await page.locator('.suggest-widget.visible .monaco-list-row').first().waitFor();
        const rows = (await page.locator('.suggest-widget.visible .monaco-list-row').allTextContents()).map((row) => row.replace(/\u00a0/g, ' '));
        await page.keyboard.press('Escape');
        return rows;
      },
      predicate,
      what,
    );
  }
  const tidyNotes = (rows) => rows.filter((row) => row.startsWith('/tidy-notes'));

  before(async () => {
    assert.ok(NATIVE_SKILL_LANGUAGE, `VS Code ${VSCODE.text} has no agent skills of its own: run.sh runs this file on 4.139.1`);
    browser = await launchChromium();
    folder = writeWorkspace(SKILLS);
    workbench = await startWorkbench({ folder, userSettings: { 'albedoSkills.copilotSkillLocations': true }, extraVsix: [await buildFakeModel()] });
    page = await openWorkbench(browser, workbench.url);
    await page.locator('.statusbar-item', { hasText: /\d+ skills?/ }).first().waitFor();
    await runCommand(page, 'Albedo e2e: Use the Fake Model');
    await page.locator(INPUT).waitFor();
  });

  after(async () => {
    await browser?.close();
    workbench?.stop();
    if (folder) {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("writes Albedo's roots into chat.agentSkillsLocations, and VS Code's own `/` menu lists the skill", () => showing(page, 'copilot-on', async () => {
    const written = await waitFor(page, async () => settings()['chat.agentSkillsLocations'], (value) => value !== undefined, 'chat.agentSkillsLocations was not written');
    assert.deepEqual(written, Object.fromEntries(ADDED.map((location) => [location, true])));
    const rows = await slashMenu((shown) => tidyNotes(shown).length > 0, "VS Code's own `/` menu did not list tidy-notes");
    // VS Code's own row, with its description; Albedo adds none beside it (without the setting, Albedo's row is
    // the only one: e2e/chat.test.mjs).
    assert.deepEqual(tidyNotes(rows), ['/tidy-notesTidies the notes of the session.'], rows.join('\n'));
  }));
});
