/**
 * Albedo beside VS Code's own skill support (VS Code 1.139: the `skill` language with its validator, hover
 * and key completion; run on code-server 4.139.1): each problem of a SKILL.md listed once, one `license`
 * item, and one description of a key in the hover. src/nativeSkillSupport.ts decides what Albedo leaves out.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { goTo, HANG_GUARD_MS, launchChromium, MOD, NATIVE_SKILL_LANGUAGE, openFile, openWorkbench, problemsOf, runCommand, showing, startWorkbench, triggerSuggest, VSCODE, waitFor, waitForText, writeWorkspace } from './harness.mjs';

const SKILLS = {
  '.agents/skills/demo/SKILL.md': '---\nname: demo\ndescription: Says hello to the user by name.\n---\nGreet the user by name, warmly.\n',
  '.agents/skills/both/SKILL.md': '---\nname: bar\n---\nBoth the name and the description are wrong.\n',
  '.agents/skills/fill-in/SKILL.md': '---\nname: fill-in\ndescription: A skill to complete.\n\n---\nSteps.\n',
};

describe(`beside VS Code ${VSCODE.text}'s own skill support (code-server)`, { timeout: 10 * HANG_GUARD_MS }, () => {
  let browser;
  let workbench;
  let page;
  let folder;

  before(async () => {
    assert.ok(NATIVE_SKILL_LANGUAGE, `VS Code ${VSCODE.text} has no skill language of its own: run.sh runs this file on 4.139.1`);
    browser = await launchChromium();
    folder = writeWorkspace(SKILLS);
    workbench = await startWorkbench({ folder });
    page = await openWorkbench(browser, workbench.url);
    await page.locator('.statusbar-item', { hasText: /\d+ skills?/ }).first().waitFor();
  });

  after(async () => {
    await browser?.close();
    workbench?.stop();
    if (folder) {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("lists each problem once while VS Code's validator shows the file, and Albedo's come back when it closes", () => showing(page, 'problems-once', async () => {
    await runCommand(page, 'Focus on Problems View');
    const albedoName = /name `bar` differs from its folder `both`/;
    const vscodeName = /The skill name 'bar' should match the folder name 'both'\./;
    const nameRows = (rows) => rows.filter((row) => albedoName.test(row) || vscodeName.test(row));
    const descriptionRows = (rows) => rows.filter((row) => /add a `description`|Skill should provide a description\./.test(row));
    const once = (rows) => rows.length === 2 && nameRows(rows).length === 1 && descriptionRows(rows).length === 1;
    const rowsOfBoth = () => problemsOf(page, '.agents/skills/both');
    // Closed: Albedo's own (VS Code validates only a skill an editor shows).
    await waitFor(page, rowsOfBoth, (rows) => once(rows) && albedoName.test(nameRows(rows)[0]), 'Albedo did not report the skill');

    await openFile(page, '.agents/skills/both/SKILL.md');
    const shown = await waitFor(page, rowsOfBoth, (rows) => once(rows) && vscodeName.test(nameRows(rows)[0]), 'each problem was not listed once with the editor open');
    assert.match(descriptionRows(shown)[0], /^Skill should provide a description\./);

    await page.keyboard.press(`${MOD}+W`);
    await waitFor(page, rowsOfBoth, (rows) => once(rows) && albedoName.test(nameRows(rows)[0]), "Albedo's were not back after closing");
  }));

  it("offers one `license` (VS Code's) and keeps Albedo's `allowed-tools`", () => showing(page, 'one-license', async () => {
    await openFile(page, '.agents/skills/fill-in/SKILL.md');
    await goTo(page, 4, 1);
    const rows = await triggerSuggest(page);
    const labels = await rows.locator('.label-name').allTextContents();
    for (const key of ['license', 'compatibility', 'metadata', 'allowed-tools']) {
      assert.equal(labels.filter((label) => label === key).length, 1, `${key} in: ${labels.join(', ')}`);
    }
    await page.keyboard.type('lice');
    await page.locator('.suggest-widget.visible .monaco-list-row.focused', { hasText: 'license' }).waitFor();
    assert.deepEqual(await rows.locator('.label-name').allTextContents(), ['license']);
    await page.keyboard.press('Enter');
    const text = await waitForText(page, (current) => /^license:/m.test(current), 'license: was not inserted');
    assert.deepEqual(text.split('\n').slice(3, 5), ['license: ', '---']);
    await page.keyboard.press(`${MOD}+Z`);
  }));

  it("shows one description of a key on hover: VS Code's, then only Albedo's rules", () => showing(page, 'one-hover', async () => {
    await openFile(page, '.agents/skills/demo/SKILL.md');
    await goTo(page, 3, 3);
    await page.keyboard.press(`${MOD}+K`);
    await page.keyboard.press(`${MOD}+I`);
    const hover = page.locator('.monaco-hover', { hasText: 'Required by Albedo' }).filter({ hasText: 'The description of the skill.' });
    await hover.waitFor();
    const text = (await hover.textContent()).replace(/\u00a0/g, ' ');
    assert.match(text, /Albedo \(description\): Required by Albedo\./);
    assert.equal(text.split('Required by Albedo').length, 2, text);
    assert.doesNotMatch(text, /What the skill does and when to use it/);
    await page.keyboard.press('Escape');
  }));
});
