/**
 * A multi-root workspace as monorepos use one (docs/editors.md, "Multi-root workspaces and monorepos"): a
 * `.code-workspace` of two folders, each with its own `.agents/skills` and both holding a skill named
 * `deploy`. The Skills view and the status bar show every folder whichever file is active; no collision is
 * claimed between the two `deploy`; completion and hover in a folder's chat file come from that folder's
 * catalog; a folder added to the workspace file at run time appears in the view.
 * Waits are on what the page shows; HANG_GUARD_MS only stops a stuck run.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { HANG_GUARD_MS, launchChromium, MOD, openFile, openWorkbench, runCommand, showing, startWorkbench, triggerSuggest, VSCODE, writeWorkspace } from './harness.mjs';

const skill = (name, description) => `---\nname: ${name}\ndescription: ${description}\n---\nDo it.\n`;
const FILES = {
  'alpha/.agents/skills/deploy/SKILL.md': skill('deploy', 'Deploys alpha.'),
  'alpha/.agents/skills/lint-a/SKILL.md': skill('lint-a', 'Lints alpha.'),
  'alpha/.agents/skills/broken/SKILL.md': '---\nname: broken\n---\nNo description.\n',
  'alpha/alpha-notes.chat.md': 'alpha notes\n',  // names of their own: Quick Open picks the file asked for
  'beta/.agents/skills/deploy/SKILL.md': skill('deploy', 'Deploys beta.'),
  'beta/.agents/skills/review-b/SKILL.md': skill('review-b', 'Reviews beta.'),
  'beta/beta-notes.chat.md': 'beta notes\n',
  'gamma/.agents/skills/gamma-only/SKILL.md': skill('gamma-only', 'Only in gamma.'),
};

describe(`a multi-root workspace in VS Code ${VSCODE.text} (code-server)`, { timeout: 10 * HANG_GUARD_MS }, () => {
  let browser;
  let workbench;
  let page;
  let base;
  let workspaceFile;

  const writeFolders = (names) =>
    writeFileSync(workspaceFile, JSON.stringify({ folders: names.map((name) => ({ path: name })), settings: {} }, null, 2));

  before(async () => {
    browser = await launchChromium();
    base = writeWorkspace(FILES);
    mkdirSync(path.join(base, 'gamma'), { recursive: true });
    workspaceFile = path.join(base, 'mono.code-workspace');
    writeFolders(['alpha', 'beta']);
    workbench = await startWorkbench({ folder: workspaceFile });
    page = await openWorkbench(browser, workbench.url);
  });

  after(async () => {
    await browser?.close();
    workbench?.stop();
    if (base) {
      rmSync(base, { recursive: true, force: true });
    }
  });

  const viewRows = async () => {
    const view = page.locator('.part.sidebar', { hasText: 'Albedo Skills' });
    return (await view.locator('.monaco-list-row').allTextContents()).map((row) => row.replace(/\u00a0/g, ' '));
  };
  const statusText = async () => (await page.locator('.statusbar-item', { hasText: /\d+ skills/ }).first().textContent()).replace(/\u00a0/g, ' ');

  for (const active of ['alpha', 'beta']) {
    it(`shows both folders' skills in the view and counts them all in the status bar, with ${active}'s file active`, () => showing(page, `multi-root-${active}`, async () => {
      await openFile(page, `${active}/${active}-notes.chat.md`);
      await page.locator('.statusbar-item', { hasText: '4 skills' }).first().click();
      const view = page.locator('.part.sidebar', { hasText: 'Albedo Skills' });
      await view.locator('.monaco-list-row', { hasText: 'review-b' }).waitFor();
      await view.locator('.monaco-list-row', { hasText: 'lint-a' }).waitFor();
      const rows = await viewRows();
      const index = (text) => rows.findIndex((row) => row.includes(text));
      assert.ok(index('alpha/.agents/skills') >= 0 && index('beta/.agents/skills') > index('alpha/.agents/skills'), rows.join('\n'));
      assert.deepEqual(rows.filter((row) => /\/deploy\b/.test(row)).map((row) => (row.includes('Deploys alpha') ? 'alpha' : 'beta')), ['alpha', 'beta'], rows.join('\n'));
      assert.ok(!rows.some((row) => row.includes('hidden by')), `a collision claimed across folders:\n${rows.join('\n')}`);
      assert.match(rows[index('broken')], /broken.*1 error/);
      assert.match(await statusText(), /4 skills.*1/);
    }));
  }

  for (const [active, own, other] of [['alpha', 'lint-a', 'review-b'], ['beta', 'review-b', 'lint-a']]) {
    it(`completes and hovers /commands in ${active}'s chat file from ${active}'s catalog`, () => showing(page, `multi-root-chat-${active}`, async () => {
      await openFile(page, `${active}/${active}-notes.chat.md`);
      await page.keyboard.press(`${MOD}+End`);
      await page.keyboard.press('Enter');
      await page.keyboard.type('/');
      const rows = (await (await triggerSuggest(page)).allTextContents()).join('\n');
      assert.match(rows, new RegExp(`/${own}`), rows);
      assert.doesNotMatch(rows, new RegExp(`/${other}`), rows);
      await page.keyboard.press('Escape');
      await page.keyboard.type('deploy now');
      await page.keyboard.press('Home');
      await runCommand(page, 'Show or Focus Hover');
      const hover = page.locator('.monaco-hover', { hasText: 'Deploys' });
      await hover.waitFor();
      assert.match(await hover.textContent(), new RegExp(`Deploys ${active}\\.`));
      await page.keyboard.press('Escape');
    }));
  }

  it('shows a folder added to the workspace file while it runs', () => showing(page, 'multi-root-added', async () => {
    writeFolders(['alpha', 'beta', 'gamma']);
    const view = page.locator('.part.sidebar', { hasText: 'Albedo Skills' });
    await view.locator('.monaco-list-row', { hasText: 'gamma-only' }).waitFor();
    assert.ok((await viewRows()).some((row) => row.includes('gamma/.agents/skills')));
    await page.locator('.statusbar-item', { hasText: '5 skills' }).first().waitFor();
  }));
});
