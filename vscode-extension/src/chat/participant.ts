/**
 * The `@albedo` chat participant: `@albedo /demo merge these files` sends the skill's activation (the
 * server's `commands.invoke` in user mode) to the model picked in the chat, with the earlier turns, and
 * streams the answer; the chat keeps showing what the person typed. `/help` and `/reload` are answered here.
 * What goes to the model is decided in turns.ts, the server calls in serverCalls.ts, the answers in answers.ts.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { Timers } from '../restarts';
import type { ClientSource } from '../clientSource';
import { builtinAnswer, helpAnswer, invalidAnswer, refusedAnswer, reloadAnswer, unavailableNotice, unknownAnswer } from './answers';
import {
  catalogOf,
  errorMessage,
  executeCommand,
  inCatalog,
  type InvokeOutcome,
  invokeForUser,
  RELOAD_TIMEOUT_MS,
} from './serverCalls';
import { type HistoryTurn, historyMessages, METADATA_KEY, type ModelMessage, type SlashTurn, slashTurn, type TurnRecord, typedText } from './turns';

/** package.json's `contributes.chatParticipants[0].id`. */
export const PARTICIPANT_ID = 'albedoSkills.albedo';
const RELOAD_BUTTON: vscode.Command = { command: 'albedoSkills.reload', title: 'Reload Skills' };
const OUTPUT_BUTTON: vscode.Command = { command: 'albedoSkills.showOutput', title: 'Show Output' };

/**
 * The workspace folder a chat request belongs to: the folder of the first file it refers to (`#file`), else
 * of the active editor, else the first folder. The server answers from that folder's catalog.
 */
export function chatFolder(references: readonly vscode.ChatPromptReference[]): vscode.WorkspaceFolder | undefined {
  for (const reference of references) {
    const value = reference.value;
    const uri = value instanceof vscode.Uri ? value : value instanceof vscode.Location ? value.uri : undefined;
    const folder = uri !== undefined ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
    if (folder !== undefined) {
      return folder;
    }
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  return (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
}

/** The chat's history, reduced to what turns.ts reads (duck-typed: newer VS Code adds turn classes). */
function historyTurns(history: vscode.ChatContext['history']): HistoryTurn[] {
  return history.map((turn): HistoryTurn => {
    if ('prompt' in turn) {
      return { kind: 'request', participant: turn.participant, prompt: turn.prompt, command: turn.command };
    }
    const text = turn.response
      .map((part) => (part instanceof vscode.ChatResponseMarkdownPart ? part.value.value : ''))
      .join('');
    return { kind: 'response', participant: turn.participant, text, metadata: turn.result.metadata };
  });
}

function toModel(message: ModelMessage): vscode.LanguageModelChatMessage {
  return message.role === 'user' ? vscode.LanguageModelChatMessage.User(message.text) : vscode.LanguageModelChatMessage.Assistant(message.text);
}

const result = (record: TurnRecord, extra: Partial<vscode.ChatResult> = {}): vscode.ChatResult => ({ ...extra, metadata: { [METADATA_KEY]: record } });

class Participant {
  /** Whether the "went as typed" notice was shown since the server last answered. */
  private unavailableNoticeShown = false;

  constructor(
    private readonly server: ClientSource,
    private readonly channel: vscode.LogOutputChannel,
    private readonly timers: Timers,
  ) {}

  serverChanged(client: LanguageClient | undefined): void {
    if (client !== undefined) {
      this.unavailableNoticeShown = false;
    }
  }

  async handle(request: vscode.ChatRequest, context: vscode.ChatContext, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const folder = chatFolder(request.references)?.uri.toString();
    const client = this.server.running();
    if (request.command === 'help') {
      return this.help(client, folder, stream, token);
    }
    if (request.command === 'reload') {
      return this.reload(client, stream, token);
    }
    let sent = typedText(request.prompt, request.command);
    const slash = slashTurn(request.prompt, request.command);
    if (slash !== undefined) {
      const outcome = await invokeForUser(client, slash, folder, this.timers, token);
      if (outcome.kind === 'activation') {
        sent = outcome.input;
      } else if (outcome.kind === 'unavailable') {
        this.wentAsTyped(slash.command, outcome.reason);
      } else {
        return this.answerInstead(slash.command, outcome, client, folder, stream, token);
      }
    }
    const reinvoke = async (turn: SlashTurn) => {
      const earlier = await invokeForUser(this.server.running(), turn, folder, this.timers, token);
      return earlier.kind === 'activation' ? earlier.input : undefined;
    };
    const messages = [...(await historyMessages(historyTurns(context.history), PARTICIPANT_ID, reinvoke)), { role: 'user' as const, text: sent }];
    try {
      const response = await request.model.sendRequest(messages.map(toModel), {}, token);
      for await (const fragment of response.text) {
        stream.markdown(fragment);
      }
    } catch (error) {
      this.channel.warn(`The chat model failed: ${errorMessage(error)}`);
      return result({ sent }, { errorDetails: { message: errorMessage(error) } });
    }
    return result({ sent });
  }

  /** A command the server did not turn into an activation: say why in the chat, and send nothing. */
  private async answerInstead(
    command: string,
    outcome: Exclude<InvokeOutcome, { kind: 'activation' | 'unavailable' }>,
    client: LanguageClient | undefined,
    folder: string | undefined,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    switch (outcome.kind) {
      case 'builtin':
        if (outcome.command === '/help') {
          return this.help(client, folder, stream, token);
        }
        if (outcome.command === '/reload') {
          return this.reload(client, stream, token);
        }
        stream.markdown(builtinAnswer(outcome.command));
        return result({ answered: 'builtin' });
      case 'invalid':
        stream.markdown(invalidAnswer(command, outcome.message));
        return result({ answered: 'refused' });
      case 'refused': {
        const entries = await catalogOf(client, folder, this.timers, token);
        const unknown = entries !== undefined && !inCatalog(entries, command);
        stream.markdown(unknown ? unknownAnswer(command, entries) : refusedAnswer(command, outcome.message));
        stream.button(RELOAD_BUTTON);
        return result({ answered: 'refused' });
      }
    }
  }

  private async help(client: LanguageClient | undefined, folder: string | undefined, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    const entries = await catalogOf(client, folder, this.timers, token);
    if (entries === undefined) {
      stream.markdown('The Albedo language server is not answering, so the skills cannot be listed. The output channel says why.');
      stream.button(OUTPUT_BUTTON);
    } else {
      stream.markdown(helpAnswer(entries));
    }
    return result({ answered: 'help' });
  }

  private async reload(client: LanguageClient | undefined, stream: vscode.ChatResponseStream, token: vscode.CancellationToken): Promise<vscode.ChatResult> {
    if (client === undefined) {
      stream.markdown('The Albedo language server is not running, so the skills cannot be reloaded. The output channel says why.');
      stream.button(OUTPUT_BUTTON);
      return result({ answered: 'reload' });
    }
    try {
      stream.markdown(reloadAnswer(await executeCommand(client, 'skills.reload', [], RELOAD_TIMEOUT_MS, this.timers, token)));
    } catch (error) {
      this.channel.error(`skills.reload from the chat failed: ${errorMessage(error)}`);
      stream.markdown(`Reloading the skills failed: ${errorMessage(error)}`);
      stream.button(OUTPUT_BUTTON);
    }
    return result({ answered: 'reload' });
  }

  /** The turn goes as typed; one notice until the server answers again (docs/design.md#9-other-chats-and-other-agents). */
  private wentAsTyped(command: string, reason: string): void {
    this.channel.warn(`${command} went to the model as typed: ${reason}.`);
    if (!this.unavailableNoticeShown) {
      this.unavailableNoticeShown = true;
      void vscode.window.showWarningMessage(unavailableNotice(reason), OUTPUT_BUTTON.title).then((choice) => choice && this.channel.show());
    }
  }
}

export function registerParticipant(server: ClientSource, channel: vscode.LogOutputChannel, timers: Timers): vscode.Disposable[] {
  const participant = new Participant(server, channel, timers);
  const chatParticipant = vscode.chat.createChatParticipant(PARTICIPANT_ID, (request, context, stream, token) => participant.handle(request, context, stream, token));
  return [chatParticipant, server.onDidChange((client) => participant.serverChanged(client))];
}
