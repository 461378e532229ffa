/**
 * Faults a test can inject into a shard (docs/testing.md, shard faults). Only
 * reachable when the server runs with HERDR_DEBUG_FAULTS=1; each runs a moment
 * after the request was answered, so the client sees `ok` first.
 */
import type { ShardFault } from '../protocol/thread.js';

const FAULT_DELAY_MS = 20;
/** What an `oom` fault holds on to, as a runaway pane's state would. */
const hoard: number[][] = [];

export function injectFault(fault: ShardFault): void {
  setTimeout(() => {
    switch (fault) {
      case 'exit':
        process.exit(70);
        break;
      case 'throw':
        throw new Error('injected fault: an uncaught exception in the shard');
      case 'hang':
        for (;;) {
          // a stuck event loop: nothing else in this thread runs again
        }
      case 'oom':
        for (;;) hoard.push(new Array<number>(1 << 20).fill(Math.random()));
      default: {
        const unknown: never = fault;
        throw new Error(`unknown fault ${String(unknown)}`);
      }
    }
  }, FAULT_DELAY_MS);
}
