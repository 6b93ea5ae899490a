/**
 * The extension in a real VS Code, as a user gets it: code-server (VS Code in a browser) of the version
 * run.sh built, the .vsix installed into a fresh profile, on a machine where
 * albedo-skills-ls is installed nowhere (PATH is /usr/bin:/bin, whose python3 has no albedo_skills_ls), so
 * only the bundled server can answer. run.sh runs it on 4.96.4 and 4.139.1; where 1.139's own skill support
 * changes what a person sees (the hover, which keys Albedo completes), the check says so, and
 * nativeSkills.test.mjs checks what Albedo leaves out there.
 *
 * Every check reads the rendered workbench: the Problems panel, the hover widget, the suggest widget and
 * the buffer text after accepting, the code action applied, the Skills view, the notification centre.
 * Waits are on what the page shows, never fixed sleeps; HANG_GUARD_MS only stops a stuck run.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  BARE_PATH,
  editorText,
  goTo,
  HANG_GUARD_MS,
  launchChromium,
  MOD,
  NATIVE_SKILL_LANGUAGE,
  openFile,
  openWorkbench,
  problemsOf,
  runCommand,
  showing,
  startWorkbench,
  triggerQuickFix,
  triggerSuggest,
  VSCODE,
  waitFor,
  waitForText,
  writeWorkspace,
} from './harness.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/**
 * The README's screenshots (media/) are tracked: a run rewrites them only when asked with
 * ALBEDO_UPDATE_SCREENSHOTS=1, so a run on a clean clone leaves it clean. Otherwise they go to a fresh
 * folder under the system's temporary folder, named at the end of the run.
 */
const MEDIA = path.join(HERE, '..', 'media');
const UPDATE_SCREENSHOTS = process.env.ALBEDO_UPDATE_SCREENSHOTS === '1';
const SCREENSHOTS = UPDATE_SCREENSHOTS ? MEDIA : mkdtempSync(path.join(os.tmpdir(), 'albedo-e2e-screenshots-'));
const README_SCREENSHOTS = ['problems-panel.png', 'skills-view.png'];

const SKILLS = {
  '.agents/skills/demo/SKILL.md': '---\nname: demo\ndescription: Says hello to the user by name.\n---\nGreet the user by name, warmly.\n',
  '.agents/skills/pdf-tools/SKILL.md': '---\nname: wrong\ndescription: Reads PDF files and extracts their text.\n---\nUse pdftotext on the file.\n',
  '.agents/skills/broken/SKILL.md': '---\nname: broken\n---\nThis skill forgot its description.\n',
  // A folded description: the Skills view shows it as one line of text.
  '.albedo/skills/review/SKILL.md': '---\nname: review\ndescription: >\n  Reviews a pull request\n  (workspace copy).\n---\nRead the diff.\n',
  '.agents/skills/review/SKILL.md': '---\nname: review\ndescription: Reviews a pull request (second copy).\n---\nRead the diff.\n',
  '.agents/skills/fill-in/SKILL.md': '---\nname: fill-in\ndescription: A skill to complete.\n\n---\nSteps.\n',
  'notes.chat.md': 'Notes for the session.\n',
};

describe(`the extension in VS Code ${VSCODE.text} (code-server)`, { timeout: 10 * HANG_GUARD_MS }, () => {
  let browser;
  let workbench;
  let page;
  let folder;
  let readmeScreenshots;

  before(async () => {
        assert.throws(() => execFileSync('albedo-skills-ls', ['--version'], { env: { PATH: BARE_PATH }, stdio: 'pipe' }), 'no albedo-skills-ls on PATH');
    assert.throws(() => execFileSync('python3', ['-c', 'import albedo_skills_ls'], { env: { PATH: BARE_PATH }, stdio: 'pipe' }), 'python3 cannot import it');
    browser = await launchChromium();
    folder = writeWorkspace(SKILLS);
    readmeScreenshots = new Map(README_SCREENSHOTS.map((name) => [name, readFileSync(path.join(MEDIA, name))]));
    // One server setting the server refuses: it alone reports it (docs/design.md#12-settings-one-declaration), the extension adds no copy.
    workbench = await startWorkbench({ folder, machineSettings: { 'albedoSkills.logLevel': 'loud' } });
    page = await openWorkbench(browser, workbench.url);
  });

  after(async () => {
    await browser?.close();
    workbench?.stop();
    if (folder) {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("reports a bad server setting in exactly one notification, the server's", async () => {
    await page.locator('.notification-toast', { hasText: 'albedoSkills.logLevel' }).waitFor();
    await runCommand(page, 'Notifications: Show Notifications');
    const items = page.locator('.notifications-center .notification-list-item');
    await items.first().waitFor();
    const texts = (await items.allTextContents()).map((text) => text.replace(/\u00a0/g, ' '));
    const about = texts.filter((text) => text.includes('albedoSkills.logLevel'));
    assert.equal(about.length, 1, texts.join('\n---\n'));
    assert.match(about[0], /albedoSkills\.logLevel`? is invalid .*'loud'.*using the default 'info'/);
    // Cleared, so no toast covers what the next checks and screenshots look at.
    await runCommand(page, 'Notifications: Clear All Notifications');
    await page.locator('.notifications-center .notification-list-item').first().waitFor({ state: 'detached' });
  });

  it('shows every skill diagnostic in the Problems panel, with its place, from the bundled server', async () => {
    const problems = page.locator('[id="status.problems"]');
    await page.waitForFunction(() => document.querySelector('[id="status.problems"]')?.getAttribute('aria-label') === 'Errors: 2, Warnings: 1');
    await problems.click();
    const panel = page.locator('.markers-panel');
    await panel.locator('.monaco-list-row', { hasText: 'collision' }).waitFor();
    const rows = (await panel.locator('.monaco-list-row').allTextContents()).map((row) => row.replace(/\u00a0/g, ' '));
    const find = (text) => rows.find((row) => row.includes(text)) ?? assert.fail(`no row with ${text} in:\n${rows.join('\n')}`);
    assert.match(find('differs from its folder'), /name `wrong` differs from its folder `pdf-tools`.*name-mismatch.*\[Ln 2, Col 7\]/);
    assert.match(find('add a `description`'), /description-missing.*\[Ln 1, Col 1\]/);
    assert.match(find('is hidden by'), /skill `review` is hidden by .*\.albedo\/skills\/review\/SKILL\.md.*\[Ln 2, Col 7\]/);
    await page.locator('.part.panel').screenshot({ path: path.join(SCREENSHOTS, 'problems-panel.png') });
  });

  it('runs the bundled server with the bare python3, and says so in the output channel', async () => {
    await runCommand(page, 'Albedo Skills: Show Output');
    const output = page.locator('.part.panel .monaco-editor .view-lines');
    await output.filter({ hasText: 'bundled server' }).waitFor();
    const text = (await output.textContent()).replace(/\u00a0/g, ' ');
    assert.match(text, /Server command: python3 -I -X utf8 \S+\/bundled\/tool\/launch\.py \(from default-python, bundled server\)/);
    assert.match(text, /Python 3\.\d+\.\d+ \(\/usr\/bin\/python3\)/);
    assert.doesNotMatch(text, /Cancel notification|\[error\]/);
    // The refused logLevel is the server's to report (the notification above): no copy from the extension here.
    assert.doesNotMatch(text, /albedoSkills\.logLevel/);
  });

  // Beside VS Code 1.139's own skill support, Albedo's hover of a key VS Code describes keeps only Albedo's
  // rules, and Albedo completes only the keys VS Code does not (nativeSkills.test.mjs checks what is left out).
  it('shows a hover on a frontmatter key', async () => {
    await openFile(page, '.agents/skills/demo/SKILL.md');
    await goTo(page, 3, 3);
    await page.keyboard.press(`${MOD}+K`);
    await page.keyboard.press(`${MOD}+I`);
    const hover = page.locator('.monaco-hover', { hasText: 'Required by Albedo' });
    await hover.waitFor();
    const text = (await hover.textContent()).replace(/\u00a0/g, ' ');
    assert.match(text, NATIVE_SKILL_LANGUAGE ? /Albedo \(description\): Required by Albedo/ : /description.*What the skill does and when to use it.*Required by Albedo/s);
    await page.keyboard.press('Escape');
  });

  const ALBEDO_KEY = NATIVE_SKILL_LANGUAGE
    ? { typed: 'allo', label: 'allowed-tools', line: 'allowed-tools: Read Grep' }
    : { typed: 'lice', label: 'license', line: 'license: MIT' };
  it(`completes a frontmatter field in SKILL.md (${ALBEDO_KEY.label}), and the buffer holds it`, async () => {
    await openFile(page, '.agents/skills/fill-in/SKILL.md');
    await goTo(page, 4, 1);
    await triggerSuggest(page);
    await page.keyboard.type(ALBEDO_KEY.typed);
    await page.locator('.suggest-widget.visible .monaco-list-row.focused', { hasText: ALBEDO_KEY.label }).waitFor();
    await page.keyboard.press('Enter');
    const text = await waitForText(page, (current) => current.includes(`${ALBEDO_KEY.label}: `), `${ALBEDO_KEY.label}: was not inserted`);
    // The field with its usual value as a snippet placeholder, on the line the cursor was on.
    assert.equal(text.split('\n')[3], ALBEDO_KEY.line);
    assert.equal(text.split('\n')[4], '---');
  });

  it('completes a slash command in a chat buffer, and the buffer holds it', async () => {
    await openFile(page, 'notes.chat.md');
    await page.keyboard.press(`${MOD}+End`);
    await page.keyboard.press('Enter');
    await page.keyboard.type('/');
    await page.locator('.suggest-widget.visible .monaco-list-row', { hasText: '/demo' }).filter({ visible: true }).waitFor();
    await page.keyboard.type('dem');
    await page.locator('.suggest-widget.visible .monaco-list-row.focused', { hasText: '/demo' }).waitFor();
    await page.keyboard.press('Enter');
    const text = await waitForText(page, (current) => /^\/demo/m.test(current), '/demo was not inserted');
    assert.deepEqual(text.split('\n').map((line) => line.trimEnd()).slice(0, 3), ['Notes for the session.', '', '/demo']);
  });

  it('applies the quick fix for a name that differs from its folder', () => showing(page, 'quick-fix', async () => {
    await openFile(page, '.agents/skills/pdf-tools/SKILL.md');
    await goTo(page, 2, 7);
    await triggerQuickFix(page);
    const fix = page.locator('.action-widget .monaco-list-row', { hasText: 'pdf-tools' }).first();
    await fix.waitFor();
    const rows = page.locator('.action-widget .monaco-list-row.action');
    for (let index = 0; index < (await rows.count()); index++) {
      if ((await page.locator('.action-widget .monaco-list-row.focused').textContent()).includes('pdf-tools')) {
        break;
      }
      await page.keyboard.press('ArrowDown');
    }
    await page.keyboard.press('Enter');
    const text = await waitForText(page, (current) => current.includes('name: pdf-tools'), 'the fix was not applied');
    assert.equal(text.split('\n')[1], 'name: pdf-tools');
    await page.waitForFunction(() => document.querySelector('[id="status.problems"]')?.getAttribute('aria-label') === 'Errors: 1, Warnings: 1');
    await page.keyboard.press(`${MOD}+Z`); // back to the fixture, for the view below
    await waitForText(page, (current) => current.includes('name: wrong'), 'undo');
  }));

  it('lists the skills by scope and root in the Skills view, with room, badges, and opens SKILL.md on click', () => showing(page, 'skills-view', async () => {
    // pdf-tools/SKILL.md is still shown (the quick fix above): on 1.139 VS Code's validator shows its own copy of
    // the name mismatch, as a warning, and Albedo's error stays beside it (never milder than Albedo's verdict).
    if (NATIVE_SKILL_LANGUAGE) {
      await runCommand(page, 'Focus on Problems View');
      await waitFor(
        page,
        () => problemsOf(page, '.agents/skills/pdf-tools'),
        (rows) => rows.length === 2 && rows.some((row) => /The skill name 'wrong' should match the folder name 'pdf-tools'\./.test(row)) && rows.some((row) => /name `wrong` differs from its folder `pdf-tools`/.test(row)),
        "VS Code's validator did not show its copy of the name mismatch beside Albedo's",
      );
      await runCommand(page, 'View: Hide Panel');
    }
    await page.locator('.statusbar-item', { hasText: 'skills' }).first().click();
    // Its own container in the activity bar: the whole side bar's height, whatever the Explorer holds.
    const view = page.locator('.part.sidebar', { hasText: 'Albedo Skills' });
    await view.locator('.monaco-list-row', { hasText: 'hidden by' }).waitFor();
    // The undo above is in the buffer before the server has read it; the catalog lists pdf-tools again, with its
    // error, once it has (under load the view was read in between, without pdf-tools).
    await view.locator('.monaco-list-row', { hasText: /pdf-tools.*1 error/ }).waitFor();
    const tree = await view.locator('.monaco-list').first().boundingBox();
    const window = page.viewportSize();
    assert.ok(tree.height >= window.height / 2, `the Skills tree is ${tree.height} px high in a ${window.height} px window`);
    const rows = (await view.locator('.monaco-list-row').allTextContents()).map((row) => row.replace(/\u00a0/g, ' '));
    const index = (text) => rows.findIndex((row) => row.includes(text));
    assert.ok(index('Workspace') === 0, rows.join('\n'));
    assert.ok(index('.agents/skills') < index('broken') && index('.albedo/skills') > index('demo'), rows.join('\n'));
    assert.match(rows[index('broken')], /broken.*1 error/);
    assert.match(rows[index('demo')], /demo.*\/demo.*Says hello to the user by name\./);
    assert.match(rows.find((row) => row.includes('hidden by')), /review.*hidden by \.albedo\/skills\/review/);
    assert.match(rows.find((row) => row.includes('(workspace copy)')), /review\/review — Reviews a pull request \(workspace copy\)\.$/);
    assert.doesNotMatch(rows.join('\n'), /⏎/);
    assert.match(rows[index('pdf-tools')], /pdf-tools.*1 error/);
    assert.match(await page.locator('.statusbar-item', { hasText: 'skills' }).first().textContent(), /3 skills.*2/);
    await view.screenshot({ path: path.join(SCREENSHOTS, 'skills-view.png') });

    await view.locator('.monaco-list-row', { hasText: 'demo' }).click();
    await waitForText(page, (text) => text.startsWith('---\nname: demo'), 'demo/SKILL.md did not open');
  }));

  it('Run Skill… inserts the activation into the chat buffer', () => showing(page, 'run-skill', async () => {
    await openFile(page, 'notes.chat.md');
    await page.keyboard.press(`${MOD}+End`);
    await page.keyboard.press('Enter');
    await runCommand(page, 'Albedo Skills: Run Skill...');
    const input = page.locator('.quick-input-widget input.input');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: '/demo' }).waitFor();
    await input.fill('/demo');
    await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: '/demo' }).waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget', { hasText: 'Free text handed to the skill' }).waitFor();
    await input.fill('for Ada');
    await page.keyboard.press('Enter');
    const text = await waitForText(page, (current) => current.includes('</albedo-skill-activation>'), 'no activation was inserted');
    assert.match(text, /The user activated the skill `demo` with \/demo\. Follow its instructions with the given arguments\.\n<albedo-skill-activation>\n.*"arguments": ?"for Ada"/s);
  }));

  it('Show What the Model Sees opens the catalog prompt block, read-only', () => showing(page, 'prompt', async () => {
    await runCommand(page, 'Albedo Skills: Show What the Model Sees');
    await page.locator('.tab.active', { hasText: 'available_skills.xml' }).waitFor();
    const text = await waitForText(page, (current) => current.includes('</available_skills>'), 'no prompt block');
    assert.match(text, /^<available_skills>\n<skill>\n<name>demo<\/name>\n<description>Says hello to the user by name\.<\/description>\n<location>\S+\/\.agents\/skills\/demo\/SKILL\.md<\/location>\n<command>\/demo<\/command>\n<\/skill>/);
    assert.doesNotMatch(text, /<name>broken<\/name>|Greet the user/, 'no invalid skill, no body');
    await page.keyboard.type('typed');
    assert.equal(await editorText(page), text, 'the document is read-only');
  }));

  it('New Skill… checks the name, then creates a valid skeleton through a workspace edit', () => showing(page, 'new-skill', async () => {
    await runCommand(page, 'Albedo Skills: New Skill...');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible' });
    await input.fill('New Helper');
    await page.locator('.quick-input-widget .quick-input-message', { hasText: 'lowercase letters, digits and single hyphens' }).waitFor();
    await input.fill('new-helper');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: '.agents/skills' }).first().waitFor();
    await input.fill(`${folder}/.agents/skills`);
    await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: `${folder}/.agents/skills` }).waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tab.active', { hasText: 'SKILL.md' }).waitFor();
    const text = await waitForText(page, (current) => current.startsWith('---\nname: new-helper'), 'the skeleton did not open');
    assert.match(text, /^---\nname: new-helper\ndescription: .+\n---\n/);
    assert.equal(readFileSync(path.join(folder, '.agents/skills/new-helper/SKILL.md'), 'utf8').split('\n')[1], 'name: new-helper');
    // A valid skill: the catalog grows, the problems stay as they were.
    await page.locator('.statusbar-item', { hasText: '4 skills' }).waitFor();
    assert.equal(await page.locator('[id="status.problems"]').getAttribute('aria-label'), 'Errors: 2, Warnings: 1');
  }));

  it('takes the screenshots, rewriting the README ones in media/ only with ALBEDO_UPDATE_SCREENSHOTS=1', () => {
    for (const name of README_SCREENSHOTS) {
      const taken = readFileSync(path.join(SCREENSHOTS, name));
      assert.ok(taken.subarray(1, 4).toString() === 'PNG' && taken.length > 1000, `${name} is not a screenshot`);
      if (!UPDATE_SCREENSHOTS) {
        assert.ok(readFileSync(path.join(MEDIA, name)).equals(readmeScreenshots.get(name)), `media/${name} was rewritten`);
      }
    }
    console.log(`# screenshots: ${SCREENSHOTS}${UPDATE_SCREENSHOTS ? '' : ' (ALBEDO_UPDATE_SCREENSHOTS=1 writes them to media/)'}`);
  });
});

/**
 * A bad interpreter, explained in exactly one notification: the cause, the setting and its scope, and only
 * the advice that would help in that situation.
 */
const BAD_INTERPRETERS = [
  {
    // The most likely mistake: an interpreter without the package, with the environment's package asked for.
    what: 'an interpreter without the package, with importStrategy fromEnvironment',
    settings: { 'albedoSkills.server.pythonPath': '/usr/bin/python3', 'albedoSkills.server.importStrategy': 'fromEnvironment' },
    cause: /the language server cannot start: `\/usr\/bin\/python3` \(Python 3\.\d+\.\d+\) cannot import albedo_skills_ls: ModuleNotFoundError: No module named 'albedo_skills_ls'/,
    advice: /install albedo-skills-ls in it \(`\/usr\/bin\/python3 -m pip install albedo-skills-ls`\), or set albedoSkills\.server\.importStrategy to useBundled to run the server bundled with the extension, or clear it\./,
  },
  {
    // useBundled already (the default): a program that is not Python. Nothing about the strategy or pip.
    what: 'a program that is not Python, with the bundled server',
    settings: { 'albedoSkills.server.pythonPath': '/bin/true' },
    cause: /the language server cannot start: `\/bin\/true` is not a working Python interpreter/,
    advice: /albedoSkills\.server\.pythonPath \(your Remote \[[^\]]+\] settings\): point it at Python 3\.11 or newer, or clear it\./,
    never: /useBundled|importStrategy|pip install/,
  },
];

for (const bad of BAD_INTERPRETERS) {
describe(`${bad.what} in VS Code ${VSCODE.text} (code-server)`, { timeout: 5 * HANG_GUARD_MS }, () => {
  let browser;
  let workbench;
  let folder;

  before(async () => {
    browser = await launchChromium();
    folder = writeWorkspace(SKILLS);
    workbench = await startWorkbench({ folder, machineSettings: bad.settings });
  });

  after(async () => {
    await browser?.close();
    workbench?.stop();
    if (folder) {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('is explained in exactly one notification naming the cause, the setting and its scope, and what would help', async () => {
    const page = await openWorkbench(browser, workbench.url);
    await page.locator('.notification-toast', { hasText: 'cannot start' }).waitFor();
    // The output channel logs the failure before the notification is shown: everything has been said.
    await runCommand(page, 'Notifications: Show Notifications');
    const items = page.locator('.notifications-center .notification-list-item');
    await items.first().waitFor();
    const texts = (await items.allTextContents()).map((text) => text.replace(/\u00a0/g, ' '));
    console.log(`# the notification: ${texts[0]}`);
    assert.equal(texts.length, 1, texts.join('\n---\n'));
    assert.match(texts[0], bad.cause);
    // code-server is a remote window: the value was read from the Remote settings, and the message says so.
    assert.match(texts[0], /albedoSkills\.server\.pythonPath \(your Remote \[[^\]]+\] settings\)/);
    assert.match(texts[0], bad.advice);
    if (bad.never) {
      // The message itself, without the toast's own "Source" and buttons.
      assert.doesNotMatch(texts[0].slice(texts[0].indexOf('Albedo Skills: the language server cannot start')), bad.never);
    }
    assert.match(texts[0], /Open Settings.*Show Output/s);
  });
});
}
