/**
 * The skills in the `/` menu of VS Code's chat input, decided without VS Code (this module must not import
 * `vscode`). Accepting one leaves text that reaches `@albedo`: `@albedo /demo ` when no participant is named
 * yet, `/demo ` after `@albedo`. After another participant (`@workspace /de`) nothing is offered: that turn
 * is not ours.
 */
import type { CatalogEntry } from '../catalogTree';
import { PARTICIPANT_NAME } from './answers';

/** Where the typed command starts, and what goes before the skill's command when it is accepted. */
export interface MenuPlace {
  /** Offset in the input of the `/` being typed; the item replaces from there to the cursor. */
  start: number;
  /** `@albedo ` when the input names no participant yet, else empty. */
  prefix: string;
}

/** The input so far, up to the cursor: a `/word` being typed as the first thing, or right after `@albedo`. */
export function menuPlace(beforeCursor: string): MenuPlace | undefined {
  const match = /^(\s*)(@(\S+)\s+)?(\/[^\s/]*)$/u.exec(beforeCursor);
  if (match === null) {
    return undefined;
  }
  const participant = match[3];
  if (participant !== undefined && participant !== PARTICIPANT_NAME) {
    return undefined;
  }
  return { start: beforeCursor.length - match[4].length, prefix: participant === undefined ? `@${PARTICIPANT_NAME} ` : '' };
}

/** One skill of the menu: what is shown, matched and inserted. */
export interface MenuItem {
  /** `/demo`, matched against what was typed. */
  command: string;
  /** Shown beside the label, so the entry is told apart from VS Code's own `/demo` of the same skill. */
  tag: string;
  description: string;
  insertText: string;
  /** Where the skill's SKILL.md is, for the item's details. */
  path: string | undefined;
}

/** Says what accepting does: ours go through `@albedo` and send Albedo's activation. */
export const MENU_TAG = `@${PARTICIPANT_NAME} · Albedo activation`;

export function menuItems(entries: readonly CatalogEntry[], place: MenuPlace): MenuItem[] {
  return entries
    .filter((entry) => entry.kind === 'skill')
    .map((entry) => ({
      command: entry.command,
      tag: MENU_TAG,
      description: entry.description,
      insertText: `${place.prefix}${entry.command} `,
      path: entry.path,
    }));
}
