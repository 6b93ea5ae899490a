/**
 * The skills in the `/` menu of VS Code's chat input, decided without VS Code (this module must not import
 * `vscode`). Accepting one leaves text that reaches `@albedo`: `@albedo /demo ` when no participant is named
 * yet, `/demo ` after `@albedo`. After another participant (`@workspace /de`) nothing is offered: that turn
 * is not ours. Which skills are offered beside VS Code's own: `menuItems`.
 */
import { type CatalogEntry, oneLine } from '../catalogTree';
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

/** One row of the menu: what is shown, matched and inserted. */
export interface MenuItem {
  /** `/demo`, matched against what was typed. */
  command: string;
  /** Shown beside the label: the skill's description on one line, or why Albedo does not load it. */
  description: string;
  /** In the row's details: what accepting does. */
  detail: string;
  insertText: string;
  /** Where the skill's SKILL.md is, for the item's details. */
  path: string | undefined;
  /** A skill Albedo refuses: the row says so and is not offered as a working skill. */
  refused: boolean;
}

/** A skill folder whose SKILL.md has an error, so Albedo's catalog leaves it out (the server's `skills.refused`). */
export interface RefusedSkill {
  /** The folder name: what VS Code's own menu lists it as. */
  name: string;
  reason: string;
  path: string;
}

export interface MenuContext {
  /** Whether VS Code's own agent skills list this skill in the same menu (its `chat.agentSkillsLocations`). */
  listedByVsCode(path: string): boolean;
  refused: readonly RefusedSkill[];
}

/** What accepting one of ours does. */
export const MENU_DETAIL = `@${PARTICIPANT_NAME}: sends Albedo's activation of the skill`;
export const REFUSED_PREFIX = 'Albedo does not load this skill: ';

/**
 * The rows Albedo adds. Before a participant is named, VS Code's own menu already lists the skills of its
 * skill locations (`.agents/skills` by default), with their descriptions: Albedo adds only the skills VS Code
 * does not list (`.albedo/skills`, `~/.prime/agent/skills`), so each skill shows once. After `@albedo` VS
 * Code lists none of its own, so every skill of the catalog is offered. A skill Albedo refuses (an error
 * keeps it out of the catalog) gets a row saying why instead of an offer; VS Code's own row for it, which an
 * extension cannot remove, is then the only one that offers it.
 */
export function menuItems(entries: readonly CatalogEntry[], place: MenuPlace, context: MenuContext): MenuItem[] {
  const participantNamed = place.prefix === '';
  const skills = entries.filter((entry) => entry.kind === 'skill' && (participantNamed || entry.path === undefined || !context.listedByVsCode(entry.path)));
  const offered: MenuItem[] = skills.map((entry) => ({
    command: entry.command,
    description: oneLine(entry.description),
    detail: MENU_DETAIL,
    insertText: `${place.prefix}${entry.command} `,
    path: entry.path,
    refused: false,
  }));
  const inCatalog = new Set(entries.map((entry) => entry.command));
  const refused: MenuItem[] = context.refused
    .filter((skill) => !inCatalog.has(`/${skill.name}`) && (participantNamed || context.listedByVsCode(skill.path)))
    .map((skill) => ({
      command: `/${skill.name}`,
      description: `${REFUSED_PREFIX}${oneLine(skill.reason)}`,
      detail: `@${PARTICIPANT_NAME} answers with the reason; nothing is sent to the model`,
      insertText: `${place.prefix}/${skill.name} `,
      path: skill.path,
      refused: true,
    }));
  return [...offered, ...refused];
}
