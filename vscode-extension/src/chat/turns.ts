/**
 * What the `@albedo` chat participant sends to the model, decided without VS Code (node --test runs this
 * module directly): which turn names a command, and the messages rebuilt from the chat's history so that
 * later turns still carry the activation of earlier `/skill` turns (docs/design.md#9-other-chats-and-other-agents).
 *
 * This module must not import `vscode`.
 */

/**
 * A slash command at the start of a turn, as the server's chat buffers see one (`slash.py`): a `/` and the
 * characters up to the first white space or `/`, followed by white space or the end.
 */
const SLASH_COMMAND = /^\/[^\s/]+(?=\s|$)/u;

/** A turn that starts with a slash command, split as `commands.invoke` takes it. */
export interface SlashTurn {
  /** `/demo`, `/skill:demo`, `/help`. */
  command: string;
  /**
   * The text after the command exactly as typed to the end of the turn, without the white space that
   * separates it from the command (spaces, tabs or a line break: the person may start the text on a new line).
   */
  arguments: string;
}

/**
 * The command of a turn. A command declared in package.json (`/help`, `/reload`) arrives as
 * `request.command`, with the rest in the prompt; any other `/name` (every skill: VS Code's parser binds only
 * declared commands) stays at the start of `request.prompt`.
 */
export function slashTurn(prompt: string, declaredCommand: string | undefined): SlashTurn | undefined {
  if (declaredCommand !== undefined && declaredCommand !== '') {
    return { command: `/${declaredCommand}`, arguments: prompt.replace(/^\s+/u, '') };
  }
  const text = prompt.replace(/^\s+/u, '');
  const match = SLASH_COMMAND.exec(text);
  if (match === null) {
    return undefined;
  }
  return { command: match[0], arguments: text.slice(match[0].length).replace(/^\s+/u, '') };
}

/** The turn as the person typed it (what the chat shows, and what goes to the model when nothing is rewritten). */
export function typedText(prompt: string, declaredCommand: string | undefined): string {
  return declaredCommand ? `/${declaredCommand} ${prompt}`.trimEnd() : prompt;
}

// ---------------------------------------------------------------------------------------------------------
// What each answered turn records (ChatResult.metadata), and the history rebuilt from it

/**
 * Kept in each result's metadata under `albedo`. `sent`: what the model received for that turn (the activation,
 * or the text as typed), so a later turn re-sends exactly that. `answered`: the participant answered the turn
 * itself (help, reload, a refusal) and the model never saw it, so the history leaves it out.
 */
export interface TurnRecord {
  sent?: string;
  answered?: 'help' | 'reload' | 'refused' | 'builtin';
}

export const METADATA_KEY = 'albedo';

export function recordOf(metadata: unknown): TurnRecord | undefined {
  const record = metadata !== null && typeof metadata === 'object' ? (metadata as Record<string, unknown>)[METADATA_KEY] : undefined;
  return record !== null && typeof record === 'object' ? (record as TurnRecord) : undefined;
}

/** A history turn reduced to what the rebuild needs (ChatRequestTurn / ChatResponseTurn). */
export type HistoryTurn =
  | { kind: 'request'; participant: string; prompt: string; command: string | undefined }
  | { kind: 'response'; participant: string; text: string; metadata: unknown };

export interface ModelMessage {
  role: 'user' | 'assistant';
  text: string;
}

/**
 * Asks the server for the activation of an earlier turn whose record is missing (a response that failed
 * before it was recorded); undefined when the server does not give one (refused, stale, not running), and
 * then the turn goes as typed: never a guessed activation.
 */
export type Reinvoke = (turn: SlashTurn) => Promise<string | undefined>;

/**
 * The messages of the earlier turns with this participant, oldest first. A turn whose record says what was
 * sent is re-sent as it was; a turn the participant answered itself is left out with its answer; a turn with
 * no record is asked about again (`reinvoke`).
 */
export async function historyMessages(history: readonly HistoryTurn[], participant: string, reinvoke: Reinvoke): Promise<ModelMessage[]> {
  const messages: ModelMessage[] = [];
  for (let index = 0; index < history.length; index++) {
    const request = history[index];
    if (request.kind !== 'request') {
      continue;
    }
    const next = history[index + 1];
    const response = next?.kind === 'response' ? next : undefined;
    if (response !== undefined) {
      index++;
    }
    if (request.participant !== participant) {
      continue;
    }
    const record = recordOf(response?.metadata);
    if (record?.answered !== undefined) {
      continue;
    }
    let sent = record?.sent;
    if (sent === undefined) {
      const slash = slashTurn(request.prompt, request.command);
      sent = (slash !== undefined ? await reinvoke(slash) : undefined) ?? typedText(request.prompt, request.command);
    }
    messages.push({ role: 'user', text: sent });
    if (response !== undefined && response.text !== '') {
      messages.push({ role: 'assistant', text: response.text });
    }
  }
  return messages;
}
