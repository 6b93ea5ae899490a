/**
 * The skills in the `/` menu of VS Code's own chat input. From VS Code 1.139 that input is a text document
 * of scheme `chatSessionInput` (language `plaintext`) that extensions see, and completion items registered
 * for its scheme show in its `/` menu. Older versions keep the input from extensions, so nothing shows there.
 * What is offered is decided in slashMenu.ts; the catalog comes from the folder's server (`commands.catalog`).
 */
import * as vscode from 'vscode';
import type { Timers } from '../restarts';
import type { ClientSource } from '../clientSource';
import { chatFolder } from './participant';
import { catalogOf } from './serverCalls';
import { menuItems, menuPlace } from './slashMenu';

/** The scheme of the chat input's document (VS Code 1.139). */
export const CHAT_INPUT_SCHEME = 'chatSessionInput';

class ChatInputSkills implements vscode.CompletionItemProvider {
  constructor(
    private readonly server: ClientSource,
    private readonly timers: Timers,
  ) {}

  async provideCompletionItems(document: vscode.TextDocument, position: vscode.Position, token: vscode.CancellationToken): Promise<vscode.CompletionItem[]> {
    const beforeCursor = document.getText(new vscode.Range(new vscode.Position(0, 0), position));
    const place = menuPlace(beforeCursor);
    if (place === undefined) {
      return [];
    }
    const entries = await catalogOf(this.server.running(), chatFolder([])?.uri.toString(), this.timers, token);
    if (entries === undefined) {
      return [];
    }
    const range = new vscode.Range(document.positionAt(place.start), position);
    return menuItems(entries, place).map((item) => {
      const completion = new vscode.CompletionItem({ label: item.command, description: item.tag }, vscode.CompletionItemKind.Function);
      completion.insertText = item.insertText;
      completion.filterText = item.command;
      completion.range = range;
      completion.detail = item.description;
      completion.documentation = new vscode.MarkdownString(
        `Sends the activation of the skill \`${item.command.slice(1)}\` through \`@albedo\`${item.path !== undefined ? ` (from \`${item.path}\`)` : ''}.`,
      );
      return completion;
    });
  }
}

export function registerInputCompletion(server: ClientSource, timers: Timers): vscode.Disposable {
  return vscode.languages.registerCompletionItemProvider({ scheme: CHAT_INPUT_SCHEME }, new ChatInputSkills(server, timers), '/');
}
