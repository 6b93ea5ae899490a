/**
 * A real VS Code for the e2e tests: code-server (VS Code in a browser) of the version run.sh built, a fresh
 * home, profile and extensions folder per workbench with the .vsix installed, and Debian's Chromium driven
 * by playwright-core. The helpers read what the page shows; waits are on the page, never fixed sleeps.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CODE_SERVER = process.env.CODE_SERVER;
export const VSIX = process.env.ALBEDO_VSIX;
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** Generous: a cold workbench on a busy 2-core machine. It bounds a hang; it asserts nothing about speed. */
export const HANG_GUARD_MS = Number(process.env.ALBEDO_E2E_HANG_GUARD_MS ?? 120_000);
/** A PATH with Debian's bare python3 and no albedo-skills-ls (the launcher puts its own Node first). */
export const BARE_PATH = '/usr/bin:/bin';
export const MOD = process.platform === 'darwin' ? 'Meta' : 'Control';
/**
 * Each page starts an extension host; a closed page's host otherwise lingers (code-server 4.139's default
 * grace time is hours). Seconds.
 */
const RECONNECTION_GRACE_S = 5;

/** The VS Code inside this code-server: `4.139.1 <commit> with Code 1.139.1`. */
function vscodeVersion() {
  assert.ok(CODE_SERVER, 'run through e2e/run.sh, which builds code-server and the .vsix');
  const home = mkdtempSync(path.join(os.tmpdir(), 'albedo-e2e-version-'));
  try {
    const out = execFileSync(CODE_SERVER, ['--config', path.join(home, 'cs.yaml'), '--version'], { env: { HOME: home, PATH: BARE_PATH }, encoding: 'utf8' });
    const match = /with Code (\d+)\.(\d+)\.(\d+)/.exec(out) ?? assert.fail(`no VS Code version in: ${out}`);
    return { text: `${match[1]}.${match[2]}.${match[3]}`, major: Number(match[1]), minor: Number(match[2]) };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

export const VSCODE = vscodeVersion();
export const vscodeAtLeast = (major, minor) => VSCODE.major > major || (VSCODE.major === major && VSCODE.minor >= minor);
/** VS Code's own `skill` language for SKILL.md, with its validator, hover and completion (seen in 1.139). */
export const NATIVE_SKILL_LANGUAGE = vscodeAtLeast(1, 139);
/** Options that code-server 4.96 does not know. */
const NEWER_OPTIONS = vscodeAtLeast(1, 139) ? ['--reconnection-grace-time', String(RECONNECTION_GRACE_S)] : [];

export const WORKBENCH_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'editor.wordWrap': 'off',
  'editor.minimap.enabled': false,
  'editor.quickSuggestions': { other: false, comments: false, strings: false },
  'editor.acceptSuggestionOnEnter': 'on',
  'editor.suggest.preview': false,
  'security.workspace.trust.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'files.autoSave': 'off',
  'window.restoreWindows': 'none',
};

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A fresh home, profile and extensions folder with the .vsix (and `extraVsix`) installed, and code-server
 * serving `folder`. `env` adds to the bare environment (the extension host inherits it).
 */
export async function startWorkbench({ folder, machineSettings = {}, userSettings = {}, extraVsix = [], env: extraEnv = {} }) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'albedo-e2e-'));
  const home = path.join(root, 'home');
  const data = path.join(root, 'data');
  const extensions = path.join(root, 'extensions');
  for (const dir of [home, path.join(data, 'User'), path.join(data, 'Machine'), extensions]) {
    mkdirSync(dir, { recursive: true });
  }
  writeFileSync(path.join(data, 'User', 'settings.json'), JSON.stringify({ ...WORKBENCH_SETTINGS, ...userSettings }, null, 2));
  // code-server is a remote window: the extension's machine settings go in the Remote (Machine) settings.
  writeFileSync(path.join(data, 'Machine', 'settings.json'), JSON.stringify(machineSettings, null, 2));
  const env = { HOME: home, PATH: BARE_PATH, LANG: 'C.UTF-8', ...extraEnv };
  const common = ['--config', path.join(home, 'cs.yaml'), '--user-data-dir', data, '--extensions-dir', extensions];
  for (const vsix of [VSIX, ...extraVsix]) {
    execFileSync(CODE_SERVER, [...common, '--install-extension', vsix], { env, stdio: 'pipe' });
  }

  const port = await freePort();
  const server = spawn(
    CODE_SERVER,
    [...common, '--bind-addr', `127.0.0.1:${port}`, '--auth', 'none', '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', ...NEWER_OPTIONS, folder],
    { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  await new Promise((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`code-server did not start:\n${log}`)), HANG_GUARD_MS);
    const read = (chunk) => {
      log += chunk;
      if (log.includes('HTTP server listening on')) {
        clearTimeout(guard);
        resolve();
      }
    };
    server.stdout.on('data', read);
    server.stderr.on('data', read);
    server.once('exit', (code) => reject(new Error(`code-server exited (${code}):\n${log}`)));
  });
  return {
    // a `.code-workspace` file opens as a (multi-root) workspace, a folder as a folder
    url: `http://127.0.0.1:${port}/?${folder.endsWith('.code-workspace') ? 'workspace' : 'folder'}=${encodeURIComponent(folder)}`,
    /** This workbench's own extensions folder: the processes started from it are this workbench's. */
    extensions,
    /** The user settings file (VS Code watches it; the extension writes its user-level settings there). */
    userSettings: path.join(data, 'User', 'settings.json'),
    stop() {
      try {
        process.kill(-server.pid, 'SIGTERM'); // the extension host and the language server are in its group
      } catch {
        // already gone
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, as the guide runs it (no sandbox as root, nothing fetched from the network). */
export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** A fresh folder holding `files` ({relative path: text}). */
export function writeWorkspace(files) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'albedo-ws-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
    writeFileSync(path.join(folder, name), text);
  }
  return folder;
}

export async function openWorkbench(browser, url) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(HANG_GUARD_MS);
  await page.goto(url);
  await page.waitForSelector('.monaco-workbench .part.statusbar');
  return page;
}

/** Run a command by its title through the command palette. */
export async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible' });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first().waitFor();
  await page.keyboard.press('Enter');
}

/** Open a workspace file by its relative path with Quick Open, and wait for its editor. */
export async function openFile(page, relative) {
  await page.keyboard.press(`${MOD}+P`);
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible' });
  await input.fill(relative);
  // Rows read "SKILL.md .agents/skills/demo": wait until the first (focused) one is the file asked for.
  const label = path.basename(relative) === 'SKILL.md' ? path.dirname(relative) : path.basename(relative);
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: label }).waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
  await page.locator('.editor-group-container.active .monaco-editor .view-lines').waitFor();
  await focusEditor(page, '.editor-group-container.active .monaco-editor');
}

/**
 * Give an editor the keyboard: its EditContext element (VS Code 1.139) or its text area (1.96). At first start
 * 1.139's Chat view may hold the focus.
 */
export async function focusEditor(page, editor) {
  await page.locator(editor).locator('.native-edit-context, textarea.inputarea').first().focus();
}

/** The active editor's text as the user sees it (Monaco renders spaces as U+00A0; lines sorted by position). */
export async function editorText(page) {
  return page.evaluate(() => {
    const lines = [...document.querySelectorAll('.editor-group-container.active .monaco-editor .view-lines .view-line')];
    return lines
      .map((line) => ({ top: parseFloat(line.style.top), text: line.textContent.replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top)
      .map((line) => line.text)
      .join('\n');
  });
}

/** Poll `read` (the DOM) until `predicate` holds; fail with what it last read. */
export async function waitFor(page, read, predicate, what) {
  const end = Date.now() + HANG_GUARD_MS;
  let value;
  while (Date.now() < end) {
    value = await read();
    if (predicate(value)) {
      return value;
    }
    await page.waitForTimeout(100); // polling the DOM, not waiting for time to pass
  }
  assert.fail(`${what}; the page shows:\n${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}`);
}

export function waitForText(page, predicate, what) {
  return waitFor(page, () => editorText(page), predicate, what);
}

let failureScreenshots; // made at the first failure: a fixed name in a shared /tmp may be another user's file

/** On failure, a screenshot of the workbench beside the error, to see what the page showed. */
export async function showing(page, name, check) {
  try {
    return await check();
  } catch (error) {
    failureScreenshots ??= mkdtempSync(path.join(os.tmpdir(), 'albedo-e2e-failures-'));
    const file = path.join(failureScreenshots, `${name}.png`);
    const taken = await page.screenshot({ path: file }).then(() => true, () => false);
    error.message += taken ? `\n(screenshot: ${file})` : '\n(no screenshot: the page could not be captured)';
    throw error;
  }
}

export async function goTo(page, line, column) {
  await page.keyboard.press(`${MOD}+G`);
  await page.locator('.quick-input-widget input.input').fill(`:${line}:${column}`);
  await page.keyboard.press('Enter');
}

/** The rows of the Problems panel, as shown (non-breaking spaces as spaces). */
export async function problemRows(page) {
  return (await page.locator('.markers-panel .monaco-list-row').allTextContents()).map((row) => row.replace(/\u00a0/g, ' '));
}

/**
 * The Problems panel's rows for one file (its tree lists each file, then that file's problems a level
 * deeper): `label` is a piece of the file row's text, such as `.agents/skills/both`.
 */
export async function problemsOf(page, label) {
  const rows = await page.locator('.markers-panel .monaco-list-row').evaluateAll((elements) =>
    elements.map((row) => ({ level: row.getAttribute('aria-level'), text: row.textContent.replace(/\u00a0/g, ' ') })),
  );
  const start = rows.findIndex((row) => row.level === '1' && row.text.includes(label));
  if (start < 0) {
    return [];
  }
  const end = rows.findIndex((row, index) => index > start && row.level === '1');
  return rows.slice(start + 1, end < 0 ? undefined : end).map((row) => row.text);
}

/** Tries of a key that opens a widget before giving up, and how long each waits (a hang guard, not a speed claim). */
const KEY_TRIES = 3;
const KEY_TRY_MS = 10_000;

/**
 * Press `key` until `shown` (a locator of the widget's rows) appears, and return it. Right after an editor
 * takes the focus, 1.139 sometimes drops the first key press (Ctrl+Space, Ctrl+.): it is pressed again.
 */
async function pressUntilShown(page, key, shown) {
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press(key);
    try {
      await shown.first().waitFor({ timeout: attempt < KEY_TRIES ? KEY_TRY_MS : HANG_GUARD_MS });
      return shown;
    } catch (error) {
      if (attempt >= KEY_TRIES) {
        throw error;
      }
    }
  }
}

/** Open the suggest menu with Ctrl+Space and return its shown rows (the widget keeps rows it does not show). */
export function triggerSuggest(page) {
  return pressUntilShown(page, `${MOD}+Space`, page.locator('.suggest-widget.visible .monaco-list-row').filter({ visible: true }));
}

/** Open the Quick Fix menu with Ctrl+. and return its rows. */
export function triggerQuickFix(page) {
  return pressUntilShown(page, `${MOD}+.`, page.locator('.action-widget .monaco-list-row').filter({ visible: true }));
}
