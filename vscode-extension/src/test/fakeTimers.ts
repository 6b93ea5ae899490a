/** Hand-driven timers for the tests: nothing runs until `advance` says time has passed. */
import type { Timers } from '../restarts';

export interface FakeTimers extends Timers {
  /** Let `ms` pass: run the callbacks that fall due, in order. */
  advance(ms: number): void;
  /** How many callbacks are waiting. */
  readonly scheduled: number;
}

export function fakeTimers(): FakeTimers {
  let now = 0;
  let nextId = 1;
  const queue = new Map<number, { at: number; callback: () => void }>();
  return {
    setTimeout(callback, ms) {
      const id = nextId++;
      queue.set(id, { at: now + ms, callback });
      return id;
    },
    clearTimeout(handle) {
      queue.delete(handle as number);
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...queue.entries()].filter(([, timer]) => timer.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (due === undefined) {
          break;
        }
        queue.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = end;
    },
    get scheduled() {
      return queue.size;
    },
  };
}
