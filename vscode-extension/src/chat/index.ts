/**
 * Albedo in VS Code's own chat: the `@albedo` participant (participant.ts) and the skills in the chat
 * input's `/` menu (inputCompletion.ts). extension.ts calls `registerChat` once, at activation.
 */
import * as vscode from 'vscode';
import type { Timers } from '../restarts';
import type { ClientSource } from '../clientSource';
import { registerInputCompletion } from './inputCompletion';
import { registerParticipant } from './participant';

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Nothing where this VS Code has no chat (no chat, no chat input). */
export function registerChat(server: ClientSource, channel: vscode.LogOutputChannel, timers: Timers = realTimers): vscode.Disposable[] {
  if (typeof vscode.chat?.createChatParticipant !== 'function') {
    return [];
  }
  return [registerParticipant(server, channel, timers), registerInputCompletion(server, timers)].flat();
}
