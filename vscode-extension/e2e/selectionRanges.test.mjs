/**
 * Expand Selection (Shift+Alt+Right) in a real VS Code (code-server 4.139.1), by keystrokes: in a SKILL.md with
 * CRLF line ends and an emoji before the cursor, and in a chat buffer, each press selects the next range, from
 * the word to the whole file. VS Code merges the server's ranges with its own (word, line, Markdown's blocks
 * and sections) and keeps each one that holds the one before; with `albedoSkills.selectionRanges` off, its own
 * alone are left: the frontmatter's value (inside its quotes and with them) and its lines between the `---`,
 * the body's paragraph and the chat's paragraph are never selected. The selected text is read from the clipboard after Ctrl+C.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { goTo, HANG_GUARD_MS, launchChromium, MOD, openFile, openWorkbench, showing, startWorkbench, VSCODE, waitFor, writeWorkspace } from './harness.mjs';

const SKILL = [
  '---',
  'name: demo',
  'description: "Résumé 😀 of the data."',
  'metadata:',
  '  author: me',
  '---',
  '# Use',
  '',
  'Run 😀 the demo,',
  'then stop.',
  '',
].join('\r\n');
const CHAT = ['/demo go now', 'please', '', 'later', ''].join('\n');

const NOTHING = '(nothing selected)';
/** Key presses before giving up on reaching the whole file (a hang guard: each file here needs at most 7). */
const MAX_PRESSES = 12;

/** The selected text, copied with Ctrl+C; '' when nothing is selected (`editor.emptySelectionClipboard` is off). */
async function selected(page) {
  await page.evaluate((nothing) => navigator.clipboard.writeText(nothing), NOTHING);
  await page.keyboard.press(`${MOD}+C`);
  return page.evaluate(() => navigator.clipboard.readText());
}

/** Press Shift+Alt+Right until the whole file is selected; the text selected after each press. */
async function expandToWhole(page, whole) {
  const seen = [];
  while (seen.at(-1) !== whole) {
    assert.ok(seen.length < MAX_PRESSES, `the whole file is not selected after ${MAX_PRESSES} presses: ${JSON.stringify(seen)}`);
    await page.keyboard.press('Shift+Alt+ArrowRight');
    const before = seen.at(-1) ?? NOTHING;
    // the server answers after the key press: until then the selection is the one before (or none, '')
    const changed = (text) => text !== before && text !== '' && text !== NOTHING;
    seen.push(await waitFor(page, () => selected(page), changed, `expansion ${seen.length + 1} after ${JSON.stringify(seen)}`));
  }
  return seen;
}

const FIELD = 'description: "Résumé 😀 of the data."';
const FRONTMATTER = SKILL.slice('---\r\n'.length, SKILL.indexOf('\r\n---\r\n'));
const BLOCK = SKILL.slice(0, SKILL.indexOf('\r\n---\r\n') + '\r\n---'.length);
const PARAGRAPH = 'Run 😀 the demo,\r\nthen stop.';
const BODY = SKILL.slice(SKILL.indexOf('# Use'));
const CHAT_PARAGRAPH = '/demo go now\nplease';
// What only the server selects (VS Code's own ranges never do)
const SERVER_ONLY = ['Résumé 😀 of the data.', '"Résumé 😀 of the data."', FRONTMATTER, PARAGRAPH, CHAT_PARAGRAPH];

/**
 * `expected` (the server's ranges, smallest first) are selected in this order, with no other selection between
 * two of them but VS Code's own ranges: its Markdown support adds some once it has started (the frontmatter
 * block, a block with the blank lines around it, a section to the file's end), which are not asserted here.
 */
function assertSelectedInOrder(seen, expected) {
  let at = -1;
  for (const text of expected) {
    const found = seen.indexOf(text, at + 1);
    assert.ok(found > at, `${JSON.stringify(text)} is not selected after ${JSON.stringify(seen.slice(0, at + 1))}: ${JSON.stringify(seen)}`);
    at = found;
  }
}

for (const enabled of [true, false]) {
  describe(`Expand Selection in VS Code ${VSCODE.text} (code-server), albedoSkills.selectionRanges ${enabled}`, { timeout: 10 * HANG_GUARD_MS }, () => {
    let browser;
    let workbench;
    let page;

    before(async () => {
      browser = await launchChromium();
      const folder = writeWorkspace({ '.agents/skills/demo/SKILL.md': SKILL, 'notes.chat.md': CHAT });
      const userSettings = { 'albedoSkills.selectionRanges': enabled, 'editor.emptySelectionClipboard': false };
      workbench = await startWorkbench({ folder, userSettings });
      page = await openWorkbench(browser, workbench.url);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(workbench.url).origin });
      await page.locator('.statusbar-item', { hasText: /\d+ skills?/ }).first().waitFor();
    });

    after(async () => {
      await browser?.close();
      workbench?.stop();
    });

    it(enabled ? 'in the frontmatter: word, value inside its quotes, with them, field, frontmatter, block, file' : 'in the frontmatter: never the value or the lines between the ---', async () => {
      await showing(page, `selection-frontmatter-${enabled}`, async () => {
        await openFile(page, '.agents/skills/demo/SKILL.md');
        await goTo(page, 3, 30); // description: "Résumé 😀 of th|e (VS Code counts columns in UTF-16 units, from 1)
        const seen = await expandToWhole(page, SKILL);
        assert.equal(seen[0], 'the');
        if (enabled) {
          assert.deepEqual(seen.slice(0, 6), ['the', 'Résumé 😀 of the data.', '"Résumé 😀 of the data."', FIELD, FRONTMATTER, BLOCK]);
        } else {
          assert.deepEqual(seen.filter((text) => SERVER_ONLY.includes(text)), []);
        }
      });
    });

    it(enabled ? 'in the body: word, line, paragraph, then the body and the file' : 'in the body: never the paragraph', async () => {
      await showing(page, `selection-body-${enabled}`, async () => {
        await goTo(page, 9, 14); // Run 😀 the de|mo,
        const seen = await expandToWhole(page, SKILL);
        assert.equal(seen[0], 'demo');
        if (enabled) {
          // the server's section (`# Use` to `then stop.`) is not asserted: when Markdown's block with the blank
          // lines around the paragraph is selected first, VS Code drops the section, which does not hold it
          assertSelectedInOrder(seen, ['demo', 'Run 😀 the demo,', PARAGRAPH, BODY, SKILL]);
        } else {
          assert.deepEqual(seen.filter((text) => SERVER_ONLY.includes(text)), []);
        }
      });
    });

    it(enabled ? 'in a chat buffer: word, line, paragraph, file' : 'in a chat buffer: never the paragraph', async () => {
      await showing(page, `selection-chat-${enabled}`, async () => {
        await openFile(page, 'notes.chat.md');
        await goTo(page, 1, 4); // /de|mo go now
        const seen = await expandToWhole(page, CHAT);
        if (enabled) {
          assert.deepEqual(seen, ['demo', '/demo go now', CHAT_PARAGRAPH, CHAT]);
        } else {
          assert.deepEqual(seen.filter((text) => SERVER_ONLY.includes(text)), []);
        }
      });
    });
  });
}
