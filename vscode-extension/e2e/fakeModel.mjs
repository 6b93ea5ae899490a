/**
 * The fake language model the chat tests talk to (fake-model/: a provider extension for VS Code 1.104+),
 * packed into a .vsix by the test itself, and the requests it recorded (one JSON line per request).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vsce from '@vscode/vsce';

const SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fake-model');

/** Pack fake-model/ into a fresh folder; returns the .vsix path. */
export async function buildFakeModel() {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'albedo-fake-model-'));
  cpSync(SOURCE, folder, { recursive: true });
  const vsix = path.join(folder, 'albedo-fake-model.vsix');
  await vsce.createVSIX({ cwd: folder, packagePath: vsix, dependencies: false, allowMissingRepository: true, skipLicense: true });
  return vsix;
}

/** Every request the fake model received so far, oldest first: {messages: [{role, text}]}. */
export function recordedRequests(log) {
  if (!existsSync(log)) {
    return [];
  }
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}
