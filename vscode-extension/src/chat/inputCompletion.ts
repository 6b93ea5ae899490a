/**
 * The skills in the `/` menu of VS Code's own chat input. From VS Code 1.139 that input is a text document
 * of scheme `chatSessionInput` (language `plaintext`) that extensions see, and completion items registered
 * for its scheme show in its `/` menu. Older versions keep the input from extensions, so nothing shows there.
 * What is offered is decided in slashMenu.ts; the catalog and the skills it refuses come from the folder's server
 * (`commands.catalog`, `skills.refused`), both read from the server's one snapshot when the menu opens.
 */
import * as vscode from 'vscode';
import type { Timers } from '../restarts';
import type { ClientSource } from '../clientSource';
import { listedByVsCode, type Locations, VSCODE_LOCATIONS_KEY, VSCODE_LOCATIONS_SECTION, VSCODE_USE_SKILLS_KEY } from '../nativeSkillLocations';
import { treeContext } from '../skillsView';
import { chatFolder } from './participant';
import { catalogOf, refusedOf } from './serverCalls';
import { type MenuContext, menuItems, menuPlace, type RefusedSkill } from './slashMenu';

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
    const client = this.server.running();
    const folder = chatFolder([])?.uri.toString();
    const [entries, refused] = await Promise.all([catalogOf(client, folder, this.timers, token), refusedOf(client, folder, this.timers, token)]);
    if (entries === undefined) {
      return [];
    }
    const range = new vscode.Range(document.positionAt(place.start), position);
    return menuItems(entries, place, menuContext(refused)).map((item) => {
      const completion = new vscode.CompletionItem({ label: item.command, description: item.description }, item.refused ? vscode.CompletionItemKind.Issue : vscode.CompletionItemKind.Function);
      completion.insertText = item.insertText;
      completion.filterText = item.command;
      completion.range = range;
      completion.detail = item.detail;
      completion.documentation = new vscode.MarkdownString(`${item.detail}${item.path !== undefined ? ` (\`${item.path}\`)` : ''}.`);
      return completion;
    });
  }
}

/** What VS Code's own menu lists (its skill locations, read now), and the skills the server refuses. */
function menuContext(refused: readonly RefusedSkill[]): MenuContext {
  const chat = vscode.workspace.getConfiguration(VSCODE_LOCATIONS_SECTION);
  const locations = chat.get<Locations>(VSCODE_LOCATIONS_KEY);
  const useSkills = chat.get<boolean>(VSCODE_USE_SKILLS_KEY) !== false;
  const place = treeContext();
  return {
    listedByVsCode: (file) => listedByVsCode(file, locations, useSkills, place),
    refused,
  };
}

export function registerInputCompletion(server: ClientSource, timers: Timers): vscode.Disposable {
  return vscode.languages.registerCompletionItemProvider({ scheme: CHAT_INPUT_SCHEME }, new ChatInputSkills(server, timers), '/');
}
