/**
 * The answers the `@albedo` participant writes into the chat itself (the model never sees them): the skill
 * list, the reload summary, and what to do when a command cannot be activated. Markdown, decided without VS
 * Code (this module must not import `vscode`).
 */
import type { CatalogEntry } from '../catalogTree';

/** The participant's name as typed in the chat (`@albedo`); package.json's `chatParticipants[0].name`. */
export const PARTICIPANT_NAME = 'albedo';

/** Inline code that holds any text: a fence longer than the longest run of backticks inside. */
export function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Plain text (a skill's description) shown as Markdown without being read as Markdown. */
export function plain(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (character) => `\\${character}`).replace(/\s*\n\s*/g, ' ');
}

const skillsOf = (entries: readonly CatalogEntry[]) => entries.filter((entry) => entry.kind === 'skill');

/** `/help`: every skill with its description, then the participant's own commands. */
export function helpAnswer(entries: readonly CatalogEntry[]): string {
  const skills = skillsOf(entries);
  const lines =
    skills.length === 0
      ? ['No skills found in this workspace or your user skill roots (`.albedo/skills`, `.agents/skills`).']
      : [`Skills (type ${code(`@${PARTICIPANT_NAME} /name what to do`)}; the model receives the skill's activation):`, '', ...skills.map((entry) => `- ${code(entry.command)}: ${plain(entry.description)}`)];
  lines.push('', `Also: ${code('/help')} lists the skills, ${code('/reload')} reads them again from disk.`);
  return lines.join('\n');
}

interface ReloadSummary {
  skills?: number;
  diagnostics?: number;
  added?: string[];
  removed?: string[];
  changed?: string[];
}

/** `/reload`: the server's `skills.reload` answer, in one line per kind of change. */
export function reloadAnswer(result: unknown): string {
  const summary = (result !== null && typeof result === 'object' ? result : {}) as ReloadSummary;
  const lines = [`Skills reloaded: ${summary.skills ?? 0} skills, ${summary.diagnostics ?? 0} problems.`];
  for (const [label, names] of [
    ['Added', summary.added],
    ['Removed', summary.removed],
    ['Changed', summary.changed],
  ] as const) {
    if (Array.isArray(names) && names.length > 0) {
      lines.push(`${label}: ${names.map((name) => code(`/${name}`)).join(', ')}`);
    }
  }
  return lines.join('\n\n');
}

/** How many skills an unknown command's answer names before pointing at `/help`. */
export const UNKNOWN_ANSWER_SKILLS_SHOWN = 12;

/** A command that names no skill: what there is, and what to do when the skill is new. */
export function unknownAnswer(command: string, entries: readonly CatalogEntry[] | undefined): string {
  const skills = skillsOf(entries ?? []);
  const shown = skills.slice(0, UNKNOWN_ANSWER_SKILLS_SHOWN).map((entry) => code(entry.command));
  const more = skills.length > shown.length ? `, and ${skills.length - shown.length} more` : '';
  const known = shown.length > 0 ? ` The skills are ${shown.join(', ')}${more}.` : '';
  return [
    `${code(command)} is not a skill here, so nothing was sent to the model.${known}`,
    `${code(`@${PARTICIPANT_NAME} /help`)} describes them. If you added the skill just now, reload the skills, then send the turn again.`,
  ].join('\n\n');
}

/** A skill the server refused (invalid, or changed on disk since the catalog was built): its reason. */
export function refusedAnswer(command: string, reason: string): string {
  return [
    `${code(command)} was not sent to the model: the server refused it (${plain(reason)}).`,
    'Reload the skills, then send the turn again.',
  ].join('\n\n');
}

/** Arguments the server would not take. */
export function invalidAnswer(command: string, reason: string): string {
  return `${code(command)} was not sent to the model: ${plain(reason)}. Change the text and send it again.`;
}

/** An Albedo built-in that the participant does not run (`/model`). */
export function builtinAnswer(command: string): string {
  if (command === '/model') {
    return `${code('/model')} belongs to the Albedo client. In VS Code, pick the model in the chat's model picker.`;
  }
  return `${code(command)} is a built-in command of the Albedo client; there is nothing to run for it here.`;
}

/** The one notice when the server cannot answer: the turn went as typed. */
export function unavailableNotice(reason: string): string {
  return `Albedo Skills: a /skill turn went to the model as typed, without its activation (${reason}). Later turns do the same until the language server answers again.`;
}
