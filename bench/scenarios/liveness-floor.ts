/**
 * The machine's floor for a request under load. On a saturated machine a
 * request waits twice for a CPU (the server's thread, then the client's),
 * whatever the server does. The canned server (canned-server.ts) answers at
 * once and does nothing else; pinged alternately with herdr under the same
 * load, it shows how much of herdr's liveness latency is herdr and how much is
 * the wait for a CPU.
 */
import { sleep } from '../../harness/poll.js';
import { withCannedServer } from '../contenders/canned-launcher.js';
import { keptAlive } from '../contenders/herdr.js';
import type { PaneHost } from '../contenders/host.js';
import type { BenchEnvironment } from '../environment.js';
import { boundTarget, measured, type Metric, ratioTarget, type Target } from '../report/results.js';
import type { BenchContext } from './context.js';

export interface LivenessSamples {
  host: number[];
  /** The canned server's, under the same load; empty when not asked for. */
  floor: number[];
}

async function timed(action: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await action();
  return performance.now() - start;
}

/** `samples` liveness requests to `host`, `gapMs` apart; with `withFloor`, each followed by one to the canned server. */
export async function livenessSamples(environment: BenchEnvironment, host: PaneHost, samples: number, gapMs: number, withFloor: boolean): Promise<LivenessSamples> {
  const run = async (floorPing?: () => Promise<unknown>): Promise<LivenessSamples> => {
    const result: LivenessSamples = { host: [], floor: [] };
    for (let i = 0; i < samples; i++) {
      result.host.push(await timed(() => host.query('liveness', '')));
      await sleep(gapMs);
      if (!floorPing) continue;
      result.floor.push(await timed(floorPing));
      await sleep(gapMs);
    }
    return result;
  };
  if (!withFloor) return run();
  return withCannedServer(environment, async (socketPath) => {
    const floor = await keptAlive(socketPath);
    try {
      return await run(() => floor.call('ping', {}));
    } finally {
      floor.close();
    }
  });
}

/** The floor is sampled beside our default server only, and only where the bench runs its own processes. */
export function withFloor(context: BenchContext, host: PaneHost): boolean {
  return context.ceiling && host.name === 'herdr';
}

/**
 * Liveness p99 at most 10 ms (the bound), and herdr within 1.5× of the
 * floor measured beside it: where the machine itself cannot answer in 10 ms,
 * the second says whether herdr adds to the wait.
 */
export function livenessTargets(metrics: readonly Metric[]): Target[] {
  const p99 = metrics.find((metric) => metric.name === 'liveness p99');
  return measured([p99 && boundTarget(p99, 'herdr', 10), p99 && ratioTarget(p99, 'herdr', 'ceiling', 0.67, 'floor')]);
}
