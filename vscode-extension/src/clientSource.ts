/**
 * What the Skills view, the chat and the native-skill support need from the owner of the language client:
 * the client while it runs, and a signal when it starts or stops. Its own module, so those modules depend
 * on it and not on each other.
 */
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';

export interface ClientSource {
  running(): LanguageClient | undefined;
  onDidChange(listener: (client: LanguageClient | undefined) => void): vscode.Disposable;
}
