/**
 * Skills as a language in a real VS Code (code-server), by keystrokes: the code lens and the inlay hint on a
 * SKILL.md; the skill renamed three times, from each starting point a person has: F2 on its `name:`, F2 on
 * `/name` in a chat file, and F2 on its folder in the Explorer; each time every `/name` standing alone in a
 * sentence (another skill, AGENTS.md, the chat) follows, and the traps (`and/or/demo`, paths, a URL, a
 * command inside a code span, fenced code) stay byte for byte (the server's `willRenameFiles` offers the
 * rest). The skill is mirrored into `.claude/skills` by a link, which only `albedo-skills rename OLD NEW` can
 * re-point, so VS Code asks to confirm each time (the Refactor Preview lists the whole rename under one
 * checkbox). After the command the person runs, the files on disk are the renamed workspace and nothing
 * else, and `albedo-skills check` finds no error and no `reference-missing`. Between them, Find All
 * References (Shift+Alt+F12) on the new name; then a mistyped command typed in AGENTS.md, underlined as typed and
 * fixed by its quick fix; last, Go to Symbol in Workspace (Ctrl+T).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { goTo, HANG_GUARD_MS, launchChromium, MOD, openFile, openWorkbench, showing, startWorkbench, triggerQuickFix, VSCODE, waitFor, waitForText, writeWorkspace } from './harness.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const FILES = {
  '.agents/skills/demo/SKILL.md': '---\nname: demo\ndescription: Shows a demo of the data.\n---\n# Demo\n\nRun the steps.\n',
  '.agents/skills/demo-extra/SKILL.md': '---\nname: demo-extra\ndescription: More demos.\n---\nMore.\n',
  '.agents/skills/other/SKILL.md':
    '---\nname: other\ndescription: Uses the demo skill.\n---\n# Other\n\n/demo prepare the data\nSee [the demo skill](../demo/SKILL.md) or `/demo-extra`.\n' +
    'Before anything else, run /demo first; if the merge fails, run (/demo) again.\n' +
    'Not these: and/or/demo, /demo/x, /demo.md, https://example.com/demo, `ls /demo -la`.\n```\n/demo in a fence\n```\n',
  'AGENTS.md': 'Use `/demo` to show a demo; `/demo-extra` for more.\nUse the skills: /demo merges files.\n',
  'notes.chat.md': '/demo go\n/demo-extra go\nif the merge fails, run /demo again.\n',
};

function bodyText(page) {
  return page.evaluate(() => document.body.innerText.replace(/\u00a0/g, ' '));
}

/** Python with this repository importable, in the workspace, with the workspace as the home folder (no user roots of the machine). */
function albedoSkills(folder, args) {
  return spawnSync(process.env.ALBEDO_PYTHON ?? 'python3', ['-m', 'albedo_skills_ls.cli', ...args], {
    cwd: folder,
    env: { PATH: process.env.PATH, PYTHONPATH: REPO, HOME: folder },
    encoding: 'utf8',
  });
}

/** The files a rename of `demo` (under any earlier name) to `name` edits, with the text each should then hold. */
function editedFiles(name) {
  return {
    [`.agents/skills/${name}/SKILL.md`]: FILES['.agents/skills/demo/SKILL.md'].replace('name: demo', `name: ${name}`),
    '.agents/skills/other/SKILL.md': FILES['.agents/skills/other/SKILL.md'].replace('/demo prepare', `/${name} prepare`).replace('(../demo/', `(../${name}/`)
      .replace('run /demo first', `run /${name} first`).replace('run (/demo) again', `run (/${name}) again`),
    'AGENTS.md': FILES['AGENTS.md'].replace('`/demo`', `\`/${name}\``).replace('skills: /demo merges', `skills: /${name} merges`),
    'notes.chat.md': `/${name} go\n/demo-extra go\nif the merge fails, run /${name} again.\n`,
  };
}

const DIRTY_TAB_CLICK_MS = 1000; // how long one look for a dirty tab waits before the files on disk are read again

/**
 * Save as a person does who sees dirty tabs, until every file the rename edited is written: click each tab
 * that shows the dot, Ctrl+S. VS Code applies a folder move's edits to files no editor had open after the
 * move itself (1.96.4: the other skill and AGENTS.md turned dirty after one File: Save All, seen in CI), and
 * the command palette, opened right after the Explorer's rename, stayed hidden there; 1.139 may save a
 * refactoring's files itself, and then there is nothing to click. Fails naming the files still different.
 */
async function saveUntilRenamed(page, folder, name) {
  const expected = editedFiles(name);
  const read = (relative) => (existsSync(path.join(folder, relative)) ? readFileSync(path.join(folder, relative), 'utf8') : null);
  const left = () => Object.keys(expected).filter((relative) => read(relative) !== expected[relative]);
  const dirty = page.locator('.tabs-container .tab.dirty');
  const saveDirtyTab = async () => {
    // a tab seen dirty can be clean a moment later (VS Code saving the refactoring's files itself, seen under
    // load on 1.139.1): a click that finds no dirty tab within DIRTY_TAB_CLICK_MS is no failure, the files on
    // disk are the judge, and Ctrl+S follows only a click that landed
    const clicked = await dirty.first().click({ timeout: DIRTY_TAB_CLICK_MS }).then(() => true, () => false);
    if (clicked) {
      await page.keyboard.press(`${MOD}+S`);
    }
    return left();
  };
  await waitFor(page, saveDirtyTab, (different) => different.length === 0, `files still different on disk, with every dirty tab saved (as ${name})`);
}

/**
 * The workspace on disk is FILES with skill `demo` renamed to `name` (its folder, `name:`, the `/demo`
 * mentions, the link into its folder and the mirror link in `.claude/skills`) and nothing else changed, and
 * `albedo-skills check` finds no error and no `reference-missing` in it.
 */
function assertRenamedOnDisk(folder, name) {
  const read = (relative) => readFileSync(path.join(folder, relative), 'utf8');
  for (const [relative, text] of Object.entries(editedFiles(name))) {
    assert.equal(read(relative), text, relative);
  }
  assert.deepEqual(readdirSync(path.join(folder, '.agents/skills')).sort(), ['demo-extra', name, 'other'].sort());
  assert.equal(read('.agents/skills/demo-extra/SKILL.md'), FILES['.agents/skills/demo-extra/SKILL.md']);
  assert.deepEqual(readdirSync(path.join(folder, '.claude/skills')), [name]);
  assert.equal(readlinkSync(path.join(folder, `.claude/skills/${name}`)), `../../.agents/skills/${name}`);
  const check = albedoSkills(folder, ['check', '--no-user-roots', '--format', 'json']);
  assert.equal(check.status, 0, `albedo-skills check: ${check.stdout}${check.stderr}`);
  const report = JSON.parse(check.stdout);
  assert.equal(report.diagnostic_counts.error, 0, check.stdout);
  assert.deepEqual(report.diagnostics.filter((diagnostic) => diagnostic.code === 'reference-missing'), []);
  assert.equal(report.skills_in_catalog, 3, check.stdout);
}

/** What the person runs after an editor's rename (its confirmation names it): re-point the mirror link. */
function finishRename(folder, old, name) {
  const finish = albedoSkills(folder, ['rename', old, name]);
  assert.equal(finish.status, 0, `albedo-skills rename ${old} ${name}: ${finish.stdout}${finish.stderr}`);
  assert.match(finish.stdout, /re-link/);
}

/**
 * The Refactor Preview of a rename that asks for confirmation (the skill is mirrored by a link): every change
 * starts unchecked under one label; check each file and Apply. `firstRow`: a row the preview shows once it
 * is filled (the folder's move, when the edit holds it).
 */
async function applyRefactorPreview(page, firstRow) {
  const panel = page.locator('.bulk-edit-panel');
  await panel.locator('.monaco-list-row', { hasText: firstRow }).first().waitFor();
  // the panel maximized while the preview is checked: a list draws only the rows it shows, and a row never
  // drawn would neither be found below nor ticked (the commands in sentences make the list longer than the
  // panel). A panel stays maximized from one preview to the next, and 1.96.4 names its buttons otherwise, so
  // this is a help, not a step: the files on disk, compared after Apply, judge whether every row was ticked.
  const icons = { Maximize: 'screen-full', Restore: 'screen-normal' };
  const sized = (label) => page.locator(
    `.part.panel .action-label.codicon-${icons[label]}:visible, .part.panel .action-label[aria-label*="${label} Panel"]:visible`,
  );
  if ((await sized('Restore').count()) === 0 && (await sized('Maximize').count()) > 0) {
    await sized('Maximize').first().click({ timeout: 5000 }).catch(() => undefined);
  }
  // the preview fills in as it resolves the edit: a row drawn after the ticking below would stay unchecked
  // and its file unchanged. Every rename here edits AGENTS.md, the chat file and two SKILL.md files.
  const files = panel.locator('.monaco-list-row[aria-level="1"]');
  for (const label of ['AGENTS.md', 'notes.chat.md']) {
    await files.filter({ hasText: label }).first().waitFor();
  }
  await waitFor(page, () => files.filter({ hasText: 'SKILL.md' }).count(), (count) => count >= 2, 'both SKILL.md files in the Refactor Preview');
  // 1.139 draws a toggle (`.checked` when on), 1.96 a native checkbox (`:checked`)
  const unchecked = panel.locator('.monaco-list-row[aria-level="1"] .edit-checkbox:not(.checked):not(:checked)');
  for (let left = await unchecked.count(); left > 0; left = await unchecked.count()) {
    await unchecked.first().click();
  }
  await page.locator('.monaco-button', { hasText: /^Apply$/ }).first().click();
  if ((await sized('Restore').count()) > 0) {
    await sized('Restore').first().click({ timeout: 5000 }).catch(() => undefined);
  }
}

/** F2 at the cursor, the new name typed in the rename box, Enter. */
async function renameAtCursor(page, name) {
  await page.keyboard.press('F2');
  const input = page.locator('.rename-box input').first();
  await input.waitFor({ state: 'visible' });
  await input.fill(name);
  await input.press('Enter');
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
      // the lens (/demo, the link and two commands in sentences in `other`, `/demo` and a sentence in AGENTS.md,
      // two in the chat, the mirror) and the hint
      await waitFor(page, () => bodyText(page), (text) => text.includes('used in 9 places') && text.includes('25 / 1,024'), 'the lens and the hint');
      await goTo(page, 2, 8);
      await renameAtCursor(page, 'showcase');
      await applyRefactorPreview(page, '.agents/skills/demo → .agents/skills/showcase');
      const renamed = path.join(folder, '.agents/skills/showcase/SKILL.md');
      await waitFor(page, () => existsSync(renamed), Boolean, 'the folder renamed');
      await saveUntilRenamed(page, folder, 'showcase');
    });
    finishRename(folder, 'demo', 'showcase');
    assertRenamedOnDisk(folder, 'showcase');
  });

  it('Find All References lists every mention of the new name, not demo-extra', async () => {
    await showing(page, 'references', async () => {
      await openFile(page, 'notes.chat.md');
      await goTo(page, 1, 3);
      await page.keyboard.press('Shift+Alt+F12');
      // with the declaration: the lens's 9 and the name
      await waitFor(page, () => bodyText(page), (text) => /\b10 results in \d+ files\b/.test(text), 'the References view');
    });
  });

  it('F2 on /showcase in a chat file renames the skill everywhere once confirmed', async () => {
    await showing(page, 'rename-chat', async () => {
      // the chat file is open in a tab: a click on it, a click on the mention, F2. (Quick Open, opened right
      // after the References view took the keyboard, stayed inert in 1.139.1 and took no text.)
      await page.locator('.tabs-container .tab', { hasText: 'notes.chat.md' }).click();
      await page.locator('.editor-group-container.active .view-line', { hasText: '/showcase go' }).getByText('showcase', { exact: false }).first().click();
      await renameAtCursor(page, 'exhibit');
      await applyRefactorPreview(page, '.agents/skills/showcase → .agents/skills/exhibit');
      await waitFor(page, () => existsSync(path.join(folder, '.agents/skills/exhibit/SKILL.md')), Boolean, 'the folder renamed');
      await saveUntilRenamed(page, folder, 'exhibit');
    });
    finishRename(folder, 'showcase', 'exhibit');
    assertRenamedOnDisk(folder, 'exhibit');
  });

  it('renaming the folder in the Explorer (F2) renames name:, the mentions and the link; the command finishes the mirror', async () => {
    await showing(page, 'rename-explorer', async () => {
      await page.keyboard.press(`${MOD}+Shift+E`);
      const explorer = page.locator('.explorer-folders-view');
      const rows = explorer.locator('.monaco-list-row');
      // `.agents/skills` is one compact row; open it, then pick the skill's folder as a person would
      const skillsRow = rows.filter({ hasText: /^\.agents\s*\/?\s*skills$/ }).first();
      await skillsRow.waitFor();
      if ((await skillsRow.getAttribute('aria-expanded')) !== 'true') {
        await skillsRow.click();
      }
      const exhibitRow = rows.filter({ hasText: /^exhibit$/ }).first();
      await exhibitRow.click();
      await page.keyboard.press('F2');
      const input = explorer.locator('.monaco-inputbox input');
      await input.waitFor({ state: 'visible' });
      await input.fill('gallery');
      await input.press('Enter');
      // VS Code asks before it applies a participant's edit that needs confirmation; the preview lists it
      const dialog = page.locator('.monaco-dialog-box', { hasText: "Extension 'Albedo Skills' wants to make refactoring changes with this file move" });
      await dialog.locator('.monaco-button', { hasText: /^Show Preview$/ }).click();
      await applyRefactorPreview(page, 'notes.chat.md');
      await waitFor(page, () => existsSync(path.join(folder, '.agents/skills/gallery/SKILL.md')), Boolean, 'the folder renamed');
      // the Explorer keeps its input box (and the keyboard) until the move is done
      await input.waitFor({ state: 'hidden' });
      // the server took the move quietly (VS Code sends a change of the moved SKILL.md the server never had open)
      const toasts = await page.locator('.notification-toast-container .notification-list-item').allInnerTexts();
      assert.deepEqual(toasts.filter((text) => /Error in server/.test(text)), [], toasts.join('\n'));
      await saveUntilRenamed(page, folder, 'gallery');
    });
    finishRename(folder, 'exhibit', 'gallery');
    assertRenamedOnDisk(folder, 'gallery');
  });

  it('a mistyped command typed in AGENTS.md is underlined, and its quick fix writes the command', async () => {
    await showing(page, 'agents-quick-fix', async () => {
      await openFile(page, 'AGENTS.md');
      await page.keyboard.press(`${MOD}+End`); // the empty third line, after the file's last newline
      await page.keyboard.type('Then /galery again.');
      // the server checks the buffer as typed (the extension sends AGENTS.md): a warning under `/galery`
      const warning = page.locator('.editor-group-container.active .squiggly-warning');
      await waitFor(page, () => warning.count(), (count) => count > 0, 'the warning under /galery');
      await goTo(page, 3, 9);
      await triggerQuickFix(page);
      await page.locator('.action-widget .monaco-list-row', { hasText: '/gallery' }).first().waitFor();
      await page.keyboard.press('Enter');
      const text = await waitForText(page, (current) => current.includes('Then /gallery again.'), 'the fix was not applied');
      assert.equal(text.split('\n').map((line) => line.trimEnd())[2], 'Then /gallery again.');
      await waitFor(page, () => warning.count(), (count) => count === 0, 'no warning once fixed');
      await page.keyboard.press(`${MOD}+S`);
      await waitFor(page, () => readFileSync(path.join(folder, 'AGENTS.md'), 'utf8'), (saved) => saved.endsWith('Then /gallery again.'), 'AGENTS.md saved with the fix');
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
