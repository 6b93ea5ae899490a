/**
 * The chat's requests to the language server (`workspace/executeCommand`), each bounded by a named timeout
 * and cancelled when the chat request is, and their answers sorted into what the chat does next.
 *
 * This module must not import `vscode` (node --test runs it with a fake client): it needs only a client's
 * `sendRequest`, by method name.
 */
import type { CatalogEntry } from '../catalogTree';
import type { Timers } from '../restarts';
import type { RefusedSkill } from './slashMenu';
import type { SlashTurn } from './turns';

/** `commands.invoke` re-reads one SKILL.md: a chat turn waits at most this long before it goes as typed. */
export const INVOKE_TIMEOUT_MS = 5_000;
/**
 * `commands.catalog` for the `/` menu and `/help`, and `skills.refused` for the menu's "does not load" rows:
 * a menu that waits longer is worse than no entries.
 */
export const CATALOG_TIMEOUT_MS = 2_000;
/** `skills.reload` re-runs discovery over every root, so it may take a while on a large catalog. */
export const RELOAD_TIMEOUT_MS = 30_000;

/** LSP error codes the server's routes answer with (albedo_skills_ls/lsp/commands.py). */
export const INVALID_PARAMS = -32602;
export const REQUEST_FAILED = -32803;

/** A cancellation token as vscode-jsonrpc reads one (`vscode.CancellationToken` has the same shape). */
export interface CancelToken {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

/** The part of a LanguageClient used here. */
export interface RequestSender {
  sendRequest(method: string, params: unknown, token?: CancelToken): Promise<unknown>;
}

export class TimedOut extends Error {
  constructor(readonly what: string, readonly ms: number) {
    super(`${what} did not answer within ${ms / 1000} s`);
  }
}

/** A token that fires when `outer` does, or when `cancel` is called. */
function linkedToken(outer: CancelToken | undefined): { token: CancelToken; cancel(): void; dispose(): void } {
  const listeners = new Set<() => void>();
  let cancelled = false;
  const cancel = () => {
    if (!cancelled) {
      cancelled = true;
      for (const listener of [...listeners]) {
        listener();
      }
    }
  };
  const outerListener = outer?.onCancellationRequested(cancel);
  if (outer?.isCancellationRequested) {
    cancel();
  }
  return {
    token: {
      get isCancellationRequested() {
        return cancelled;
      },
      onCancellationRequested(listener) {
        listeners.add(listener);
        return { dispose: () => listeners.delete(listener) };
      },
    },
    cancel,
    dispose: () => outerListener?.dispose(),
  };
}

/**
 * Run one server command; rejects with TimedOut after `timeoutMs` (and cancels the request, so the server
 * stops working on it), or with the server's error.
 */
export async function executeCommand(
  client: RequestSender,
  command: string,
  args: unknown[],
  timeoutMs: number,
  timers: Timers,
  outer?: CancelToken,
): Promise<unknown> {
  const link = linkedToken(outer);
  let handle: unknown;
  const timeout = new Promise<never>((_resolve, reject) => {
    handle = timers.setTimeout(() => {
      link.cancel();
      reject(new TimedOut(command, timeoutMs));
    }, timeoutMs);
  });
  try {
    return await Promise.race([client.sendRequest('workspace/executeCommand', { command, arguments: args }, link.token), timeout]);
  } finally {
    timers.clearTimeout(handle);
    link.dispose();
  }
}

/** What a `commands.invoke` in user mode came to, for the chat. */
export type InvokeOutcome =
  /** A skill: `input` goes to the model, `intent` is what the person typed. */
  | { kind: 'activation'; intent: string; input: string }
  /** An Albedo built-in (`/help`, `/model`, `/reload`), with the server's answer. */
  | { kind: 'builtin'; command: string; result: unknown; message?: string }
  /** Refused by the server: an unknown command, or a skill that is invalid or changed since the catalog. */
  | { kind: 'refused'; message: string }
  /** Arguments the server would not take (for example text that is not valid Unicode). */
  | { kind: 'invalid'; message: string }
  /** No answer: the server is not running, timed out, or the connection failed. The turn goes as typed. */
  | { kind: 'unavailable'; reason: string };

function errorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function classifyInvokeResult(result: unknown): InvokeOutcome {
  const value = (result ?? {}) as Record<string, unknown>;
  if (typeof value.input === 'string' && typeof value.intent === 'string') {
    return { kind: 'activation', intent: value.intent, input: value.input };
  }
  if (value.kind === 'builtin' && typeof value.command === 'string') {
    return { kind: 'builtin', command: value.command, result: value.result, message: typeof value.message === 'string' ? value.message : undefined };
  }
  return { kind: 'unavailable', reason: `the server answered commands.invoke with an unexpected value: ${JSON.stringify(result)}` };
}

export function classifyInvokeError(error: unknown): InvokeOutcome {
  switch (errorCode(error)) {
    case REQUEST_FAILED:
      return { kind: 'refused', message: errorMessage(error) };
    case INVALID_PARAMS:
      return { kind: 'invalid', message: errorMessage(error) };
    default:
      return { kind: 'unavailable', reason: errorMessage(error) };
  }
}

/** `commands.invoke [command, arguments, "user", folder]` on the running server, sorted. */
export async function invokeForUser(
  client: RequestSender | undefined,
  turn: SlashTurn,
  folder: string | undefined,
  timers: Timers,
  outer?: CancelToken,
): Promise<InvokeOutcome> {
  if (client === undefined) {
    return { kind: 'unavailable', reason: 'the language server is not running' };
  }
  try {
    const args = [turn.command, turn.arguments, 'user', ...(folder !== undefined ? [folder] : [])];
    return classifyInvokeResult(await executeCommand(client, 'commands.invoke', args, INVOKE_TIMEOUT_MS, timers, outer));
  } catch (error) {
    return classifyInvokeError(error);
  }
}

/** `commands.catalog [folder]`, or undefined when the server does not answer in time. */
export async function catalogOf(client: RequestSender | undefined, folder: string | undefined, timers: Timers, outer?: CancelToken): Promise<CatalogEntry[] | undefined> {
  if (client === undefined) {
    return undefined;
  }
  try {
    const entries = await executeCommand(client, 'commands.catalog', folder !== undefined ? [folder] : [], CATALOG_TIMEOUT_MS, timers, outer);
    return Array.isArray(entries) ? (entries as CatalogEntry[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `skills.refused [folder]`: the skill folders the server's snapshot keeps out of the catalog for an error,
 * read from the same snapshot as `commands.catalog` (not from the diagnostics VS Code has been sent so far,
 * which may not have arrived when the menu opens). Entries that are not `{name, path, reason}` strings are
 * dropped. No answer (no server, a timeout, a server without the command): none.
 */
export async function refusedOf(client: RequestSender | undefined, folder: string | undefined, timers: Timers, outer?: CancelToken): Promise<RefusedSkill[]> {
  if (client === undefined) {
    return [];
  }
  try {
    const answer = await executeCommand(client, 'skills.refused', folder !== undefined ? [folder] : [], CATALOG_TIMEOUT_MS, timers, outer);
    return (Array.isArray(answer) ? answer : []).flatMap((entry: unknown) => {
      const { name, path, reason } = (entry ?? {}) as Record<string, unknown>;
      return typeof name === 'string' && typeof path === 'string' && typeof reason === 'string' ? [{ name, path, reason }] : [];
    });
  } catch {
    return [];
  }
}

/** Whether `command` names an entry of the catalog, as the server resolves it (`/name`, `/skill:name`). */
export function inCatalog(entries: readonly CatalogEntry[], command: string): boolean {
  const skillName = command.startsWith('/skill:') ? command.slice('/skill:'.length) : undefined;
  return entries.some((entry) => entry.command === command || (entry.kind === 'skill' && entry.name === skillName));
}
