/**
 * Skills as a language in a real VS Code (code-server), by keystrokes: the code lens and the inlay hint on a
 * SKILL.md, F2 on a skill's `name:` renaming it everywhere (VS Code asks to confirm: the skill is mirrored into
 * `.claude/skills` by a link, which only `albedo-skills rename OLD NEW` can re-point; the Refactor Preview
 * lists the whole rename under one checkbox), and after the command the person runs, the files on disk are
 * the renamed workspace and nothing else; then Find All References (Shift+Alt+F12) on the new name.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { goTo, HANG_GUARD_MS, launchChromium, MOD, openFile, openWorkbench, runCommand, showing, startWorkbench, VSCODE, waitFor, waitForText, writeWorkspace } from './harness.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FILES = {
  '.agents/skills/demo/SKILL.md': '---\nname: demo\ndescription: Shows a demo of the data.\n---\n# Demo\n\nRun the steps.\n',
  '.agents/skills/demo-extra/SKILL.md': '---\nname: demo-extra\ndescription: More demos.\n---\nMore.\n',
  '.agents/skills/other/SKILL.md':
    '---\nname: other\ndescription: Uses the demo skill.\n---\n# Other\n\n/demo prepare the data\nSee [the demo skill](../demo/SKILL.md) or `/demo-extra`.\n',
  'AGENTS.md': 'Use `/demo` to show a demo; `/demo-extra` for more.\n',
  'notes.chat.md': '/demo go\n/demo-extra go\n',
};

function bodyText(page) {
  return page.evaluate(() => document.body.innerText.replace(/\u00a0/g, ' '));
}

describe(`rename and references in VS Code ${VSCODE.text} (code-server)`, { timeout: 10 * HANG_GUARD_MS }, () => {
  let browser;
  let workbench;
  let page;
  let folder;

  before(async () => {
    browser = await launchChromium();
    folder = writeWorkspace(FILES);
    mkdirSync(path.join(folder, '.claude/skills'), { recursive: true });
    symlinkSync('../../.agents/skills/demo', path.join(folder, '.claude/skills/demo'));
    workbench = await startWorkbench({ folder });
    page = await openWorkbench(browser, workbench.url);
  });

  after(async () => {
    await browser?.close();
    workbench?.stop();
  });

  it('F2 on name: renames the skill everywhere once confirmed; the command finishes the link', async () => {
    await showing(page, 'rename', async () => {
      await openFile(page, '.agents/skills/demo/SKILL.md');
      // the lens (the name, /demo and the link in `other`, `/demo` in AGENTS.md and the chat, the mirror) and the hint
      await waitFor(page, () => bodyText(page), (text) => text.includes('used in 5 places') && text.includes('25 / 1,024'), 'the lens and the hint');
      await goTo(page, 2, 8);
      await page.keyboard.press('F2');
      const input = page.locator('.rename-box input').first();
      await input.waitFor({ state: 'visible' });
      await input.fill('showcase');
      await input.press('Enter');
      // the Refactor Preview lists every change unchecked (the rename asks for confirmation): check each file
      const panel = page.locator('.bulk-edit-panel');
      await panel.locator('.monaco-list-row', { hasText: '.agents/skills/demo → .agents/skills/showcase' }).first().waitFor();
      const unchecked = panel.locator('.monaco-list-row[aria-level="1"] .edit-checkbox:not(.checked)');
      for (let left = await unchecked.count(); left > 0; left = await unchecked.count()) {
        await unchecked.first().click();
      }
      await page.locator('.monaco-button', { hasText: /^Apply$/ }).first().click();
      const renamed = path.join(folder, '.agents/skills/showcase/SKILL.md');
      await waitFor(page, () => existsSync(renamed), Boolean, 'the folder renamed');
      await runCommand(page, 'File: Save All'); // the open SKILL.md was edited in its editor
      await waitFor(page, () => readFileSync(renamed, 'utf8') + readFileSync(path.join(folder, 'AGENTS.md'), 'utf8'), (text) => text.includes('name: showcase') && text.includes('`/showcase`'), 'the files written');
    });
    execFileSync(process.env.ALBEDO_PYTHON ?? 'python3', ['-m', 'albedo_skills_ls.cli', 'rename', 'demo', 'showcase'], {
      cwd: folder,
      env: { PATH: process.env.PATH, PYTHONPATH: REPO, HOME: folder },
    });
    assert.equal(readFileSync(path.join(folder, '.agents/skills/showcase/SKILL.md'), 'utf8'), FILES['.agents/skills/demo/SKILL.md'].replace('name: demo', 'name: showcase'));
    assert.equal(existsSync(path.join(folder, '.agents/skills/demo')), false);
    assert.equal(readFileSync(path.join(folder, '.agents/skills/other/SKILL.md'), 'utf8'), FILES['.agents/skills/other/SKILL.md'].replace('/demo prepare', '/showcase prepare').replace('(../demo/', '(../showcase/'));
    assert.equal(readFileSync(path.join(folder, 'AGENTS.md'), 'utf8'), FILES['AGENTS.md'].replace('`/demo`', '`/showcase`'));
    assert.equal(readFileSync(path.join(folder, 'notes.chat.md'), 'utf8'), '/showcase go\n/demo-extra go\n');
    assert.equal(readFileSync(path.join(folder, '.agents/skills/demo-extra/SKILL.md'), 'utf8'), FILES['.agents/skills/demo-extra/SKILL.md']);
    assert.equal(readlinkSync(path.join(folder, '.claude/skills/showcase')), '../../.agents/skills/showcase');
    assert.equal(existsSync(path.join(folder, '.claude/skills/demo')), false);
  });

  it('Find All References lists every mention of the new name, not demo-extra', async () => {
    await showing(page, 'references', async () => {
      await openFile(page, 'notes.chat.md');
      await goTo(page, 1, 3);
      await page.keyboard.press('Shift+Alt+F12');
      await waitFor(page, () => bodyText(page), (text) => /\b6 results in \d+ files\b/.test(text), 'the References view');
    });
  });

  // Last: opening demo-extra puts it first in Quick Open's history, where `.agents/skills/demo/SKILL.md` would
  // then find it (a fuzzy match) instead of demo's own file.
  it('Go to Symbol in Workspace (Ctrl+T) lists the skill by its name; accepting it opens its SKILL.md', async () => {
    await showing(page, 'workspace-symbols', async () => {
      await openFile(page, 'AGENTS.md');
      // the server's catalog is loaded (the status bar counts its skills): VS Code has our provider to ask
      await waitFor(page, () => bodyText(page), (text) => /\b3 skills\b/.test(text), 'the skills counted in the status bar');
      await page.keyboard.press(`${MOD}+T`);
      const input = page.locator('.quick-input-widget input.input');
      await input.waitFor({ state: 'visible' });
      await input.pressSequentially('demo-ex');
      const rows = page.locator('.quick-input-widget .monaco-list-row');
      // VS Code lists what the server answered that its own fuzzy match on the symbol's name keeps
      await waitFor(page, () => rows.allInnerTexts(), (texts) => texts.some((text) => text.includes('demo-extra') && text.includes('workspace skill')), 'demo-extra among the workspace symbols');
      await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: 'demo-extra' }).waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
      // the editor shows demo-extra's SKILL.md (its breadcrumbs name the folder), not the demo one
      await waitFor(page, () => page.locator('.editor-group-container.active .breadcrumbs-control').innerText(), (text) => /demo-extra[\s\S]*SKILL\.md/.test(text), 'the breadcrumbs of demo-extra/SKILL.md');
      await waitForText(page, (text) => text.includes('name: demo-extra') && text.includes('More.'), 'its text in the editor');
    });
  });
});
