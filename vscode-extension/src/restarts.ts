/**
 * When to restart: the back-off after a crash, and the debounce that collapses a burst of restart triggers.
 *
 * This module must not import `vscode`: `node --test` runs it directly.
 */

// ---------------------------------------------------------------------------------------------------------
// Restarting after a crash

/** The first restart after a crash waits this long; each further crash in a row doubles it… */
export const CRASH_RESTART_FIRST_MS = 1_000;
/** …up to this. */
export const CRASH_RESTART_MAX_MS = 60_000;
/** A server that ran this long before crashing starts the back-off over. */
export const CRASH_STABLE_RUN_MS = 180_000;

/** The wait before restart number `attempt` (0 for the first crash in a row). */
export function crashRestartDelay(attempt: number): number {
  return Math.min(CRASH_RESTART_FIRST_MS * 2 ** Math.max(0, attempt), CRASH_RESTART_MAX_MS);
}

// ---------------------------------------------------------------------------------------------------------
// Debounce

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface Debounced<A extends unknown[]> {
  (...args: A): void;
  /** Drop a pending call. */
  cancel(): void;
  /** Whether a call is waiting. */
  readonly pending: boolean;
}

/**
 * Calls within `ms` of each other collapse into one call, `ms` after the last, with the last arguments.
 * `timers` is injectable so tests can drive time by hand.
 */
export function debounce<A extends unknown[]>(
  fn: (...args: A) => void,
  ms: number,
  timers: Timers = realTimers,
): Debounced<A> {
  let handle: unknown;
  let waiting = false;
  const debounced = (...args: A) => {
    if (waiting) {
      timers.clearTimeout(handle);
    }
    waiting = true;
    handle = timers.setTimeout(() => {
      waiting = false;
      handle = undefined;
      fn(...args);
    }, ms);
  };
  return Object.defineProperties(debounced, {
    cancel: {
      value: () => {
        if (waiting) {
          timers.clearTimeout(handle);
          waiting = false;
          handle = undefined;
        }
      },
    },
    pending: { get: () => waiting },
  }) as Debounced<A>;
}
