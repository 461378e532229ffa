/**
 * Fault injection for the fault tests, registered only when the server starts
 * with HERDR_DEBUG_FAULTS=1 (otherwise these methods do not exist; not part of
 * the protocol, docs/testing.md):
 * - `debug.shard_fault {pane_id, fault}` makes the shard holding a pane fail
 *   (src/workers/debug-faults.ts);
 * - `debug.main_fault {fault: "throw" | "reject"}` raises an uncaught exception
 *   or an unhandled rejection on the main thread, which must be logged only;
 * - `debug.inspect {}` runs a full GC on every shard (giving the freed pages
 *   back) and on the main thread, and answers the heaps then in use and the
 *   main thread's active handles and timers by kind, so a leak test compares
 *   what is really retained.
 */
import { z } from 'zod';
import { fullGc } from '../../os/full-gc.js';
import { SHARD_FAULTS } from '../../protocol/thread.js';
import type { Router } from '../router.js';
import type { PaneShards } from '../pane-shards.js';
import type { Registry } from '../registry.js';

export const DEBUG_FAULTS_ENV = 'HERDR_DEBUG_FAULTS';

const shardFaultParams = z.object({ pane_id: z.string(), fault: z.enum(SHARD_FAULTS) });
const mainFaultParams = z.object({ fault: z.enum(['throw', 'reject']) });

export function registerDebugHandlers(router: Router, { registry, shards }: { registry: Registry; shards: PaneShards }): void {
  router.registerExtra('debug.shard_fault', shardFaultParams, async (params) => {
    const pane = registry.resolvePane(params.pane_id);
    const shard = shards.of(pane);
    await shard.request('fault', { paneUid: pane.uid, fault: params.fault });
    return { type: 'ok', shard_id: shard.id };
  });

  router.registerExtra('debug.inspect', z.object({}), async () => {
    const collected = await Promise.all(shards.all().map(async (shard) => ({ shard_id: shard.id, heap_used_bytes: (await shard.request('collect', {})).heapUsedBytes })));
    fullGc()?.();
    const resources: Record<string, number> = {};
    for (const kind of process.getActiveResourcesInfo()) resources[kind] = (resources[kind] ?? 0) + 1;
    return { type: 'ok', heap_used_bytes: process.memoryUsage().heapUsed, active_resources: resources, shards: collected };
  });

  router.registerExtra('debug.main_fault', mainFaultParams, (params) => {
    setTimeout(() => {
      if (params.fault === 'throw') throw new Error('injected fault: an uncaught exception on the main thread');
      void Promise.reject(new Error('injected fault: an unhandled rejection on the main thread'));
    }, 20);
    return { type: 'ok' };
  });
}
