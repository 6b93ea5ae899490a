/**
 * Albedo beside VS Code's own skill support (VS Code 1.139: the `skill` language with its validator, hover
 * and key completion; run on code-server 4.139.1): never a milder severity than Albedo's verdict in the
 * Problems panel and the status bar, a problem both say as gravely listed once, one `license` item, and one
 * description of a key in the hover. src/nativeSkillSupport.ts decides what Albedo leaves out.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { goTo, HANG_GUARD_MS, launchChromium, MOD, NATIVE_SKILL_LANGUAGE, openFile, openWorkbench, runCommand, showing, startWorkbench, triggerSuggest, VSCODE, waitFor, waitForText, writeWorkspace } from './harness.mjs';

const SKILLS = {
  '.agents/skills/demo/SKILL.md': '---\nname: demo\ndescription: Says hello to the user by name.\n---\nGreet the user by name, warmly.\n',
  '.agents/skills/both/SKILL.md': '---\nname: bar\n---\nBoth the name and the description are wrong.\n',
  '.agents/skills/fill-in/SKILL.md': '---\nname: fill-in\ndescription: A skill to complete.\n\n---\nSteps.\n',
  '.agents/skills/Bad_Name/SKILL.md': '---\nname: Bad_Name\ndescription: A name with capitals and an underscore.\n---\nSteps.\n',
};

/** The Problems panel's rows of one file with each row's severity, as its icon shows it. */
async function problemsWithSeverity(page, label) {
  const rows = await page.locator('.markers-panel .monaco-list-row').evaluateAll((elements) =>
    elements.map((row) => ({
      level: row.getAttribute('aria-level'),
      text: row.textContent.replace(/\u00a0/g, ' '),
      severity: row.querySelector('.codicon-error') ? 'error' : row.querySelector('.codicon-warning') ? 'warning' : row.querySelector('.codicon-info') ? 'info' : 'other',
    })),
  );
  const start = rows.findIndex((row) => row.level === '1' && row.text.includes(label));
  if (start < 0) {
    return [];
  }
  const end = rows.findIndex((row, index) => index > start && row.level === '1');
  return rows.slice(start + 1, end < 0 ? undefined : end);
}

/** The status bar's problem counts, as VS Code's own item says them. */
async function statusCounts(page) {
  const label = (await page.locator('[id="status.problems"]').getAttribute('aria-label')) ?? '';
  return { errors: Number(/Errors: (\d+)/.exec(label)?.[1] ?? 0), warnings: Number(/Warnings: (\d+)/.exec(label)?.[1] ?? 0) };
}

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

  it("keeps Albedo's errors as errors beside VS Code's warnings, in the Problems panel and the status bar", () => showing(page, 'never-milder', async () => {
    await runCommand(page, 'Focus on Problems View');
    const albedoName = /name `bar` differs from its folder `both`/;
    const vscodeName = /The skill name 'bar' should match the folder name 'both'\./;
    const albedoDescription = /add a `description`/;
    const rowsOfBoth = () => problemsWithSeverity(page, '.agents/skills/both');
    const severityOf = (rows, pattern) => rows.filter((row) => pattern.test(row.text)).map((row) => row.severity);
    // Closed: Albedo's own (VS Code validates only a skill an editor shows).
    const closed = await waitFor(page, rowsOfBoth, (rows) => severityOf(rows, albedoName).length === 1 && severityOf(rows, albedoDescription).length === 1, 'Albedo did not report the skill');
    assert.deepEqual([severityOf(closed, albedoName), severityOf(closed, albedoDescription)], [['error'], ['error']]);
    const before = await statusCounts(page);

    await openFile(page, '.agents/skills/both/SKILL.md');
    // Opening the file moves its Albedo findings from the workspace's pull to the document's, and the
    // language client can show the file for a moment with VS Code's findings alone: wait until both sides
    // are shown (Albedo's at whatever severity), then hold Albedo's severity to what it must be.
    const bothShown = (rows) => severityOf(rows, vscodeName).length === 1 && severityOf(rows, albedoName).length === 1
      && severityOf(rows, albedoDescription).length === 1;
    const shown = await waitFor(page, rowsOfBoth, bothShown, "VS Code's validator and Albedo did not both show their findings");
    // VS Code calls them warnings; for Albedo the skill is not loaded: its errors stay, as errors.
    assert.deepEqual(severityOf(shown, vscodeName), ['warning']);
    assert.deepEqual(severityOf(shown, albedoName), ['error'], JSON.stringify(shown, null, 1));
    assert.deepEqual(severityOf(shown, albedoDescription), ['error'], JSON.stringify(shown, null, 1));
    const open = await statusCounts(page);
    assert.equal(open.errors, before.errors, `the status bar's errors went from ${before.errors} to ${open.errors}`);
    assert.ok(open.warnings > before.warnings, "VS Code's own warnings are added, Albedo's errors stay");

    await page.keyboard.press(`${MOD}+W`);
    await waitFor(page, rowsOfBoth, (rows) => severityOf(rows, vscodeName).length === 0 && severityOf(rows, albedoName).length === 1, "VS Code's finding did not go with the editor");
    assert.deepEqual(await statusCounts(page), before);
  }));

  it('lists once, as an error, a problem VS Code says as gravely as Albedo', () => showing(page, 'problems-once', async () => {
    const rowsOfBad = () => problemsWithSeverity(page, '.agents/skills/Bad_Name');
    const names = (rows) => rows.filter((row) => /lowercase/.test(row.text));
    const closed = await waitFor(page, rowsOfBad, (rows) => names(rows).length === 1, 'Albedo did not report the name');
    assert.equal(names(closed)[0].severity, 'error');
    await openFile(page, '.agents/skills/Bad_Name/SKILL.md');
    const vscodeSays = /^Skill name may only contain lowercase letters, numbers, and hyphens\./;
    const shown = await waitFor(page, rowsOfBad, (rows) => names(rows).length === 1 && vscodeSays.test(names(rows)[0].text), 'the name problem was not listed once, in VS Code\'s words');
    assert.equal(names(shown)[0].severity, 'error');
    await page.keyboard.press(`${MOD}+W`);
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
